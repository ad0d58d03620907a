import { isClaimableSerial } from '@vend/protocol';
import { ownerFilter } from '../../http/authenticate.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import { offsetOf, type Page, type Paging } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore } from '../../repos.ts';
import { fenceFilter, requireMachineAccess } from '../machines/ownership.ts';
import { isKnownZone, parseWallClock, zonedToEpoch } from '../calendar/local-time.ts';
import type { OrderFilter, OrdersRepo, OrderView } from './orders.repo.ts';
import type { Order, OrderFilterInput, OrdersSummary, Rollup } from './orders.schemas.ts';
import { effectiveRate, splitTax } from '../tax/tax-split.ts';

/** An order as the API shows it: money restated for tax at the effective rate, the receipt amount never. */
export function toOrder(row: OrderView): Order {
  const rate = effectiveRate(row.tax_rate, row.machine_tax_rate);
  const { taxCents, netCents } = splitTax(row.charged_cents, rate);
  return {
    orderNumber: row.order_number,
    machineNo: row.machine_no,
    aisleNo: row.aisle_no,
    quantity: row.quantity,
    payStatus: row.pay_status,
    paidPrice: centsToDecimal(row.paid_cents),
    chargedCents: row.charged_cents,
    netCents,
    tax: centsToDecimal(taxCents),
    taxCents,
    // no tax applied reads the same whether no rate was ever set or a rate of 0 was stamped (a
    // restatement pins "no tax" as 0), so pinning a closed period changes nothing a caller sees
    taxRate: rate !== null && rate > 0 ? rate : null,
    channel: row.channel,
    payMethod: row.pay_method,
    createdAt: formatTimestamp(row.created_at) ?? '',
    ...(row.terminal_id !== null
      ? {
          payment: {
            terminalId: row.terminal_id,
            cardBrand: row.card_brand,
            last4: row.card_last4,
            settlementAccount: row.settlement_account ?? row.owner_account,
          },
        }
      : {}),
  };
}

export interface ResolvedFilter {
  filter: OrderFilter;
  machineNo: string | null;
  timeZone: string;
}

const emptyRollup = (): Rollup => ({ count: 0, grossCents: 0, refundedCents: 0, salesCents: 0, taxCents: 0, netCents: 0 });

export interface OrdersDeps {
  store: AppStore;
}

/** Sales history and revenue rollups (spec 1 §4.5). */
export class OrdersService {
  constructor(private readonly deps: OrdersDeps) {}

  private get repo(): OrdersRepo {
    return this.deps.store.repos.orders;
  }

  /**
   * Turns the query filters into a store filter. `startTime`/`endTime` are wall-clock times in the
   * time zone of the machine named by `machineNo` (when it has one), else UTC; both ends inclusive to
   * the second. Another operator's machine is 404; an impossible date, or start after end, is 400.
   */
  async resolveFilter(p: Principal, q: OrderFilterInput, cashlessOnly = false): Promise<ResolvedFilter> {
    const owner = ownerFilter(p);
    let machine = null;
    if (q.machineNo !== undefined) {
      // A string that breaks the serial rule names no machine (and may hold bytes the store refuses, like NUL).
      machine = requireMachineAccess(p, isClaimableSerial(q.machineNo) ? await this.deps.store.repos.machines.machineByNo(q.machineNo) : undefined);
    }
    const timeZone = machine?.time_zone && isKnownZone(machine.time_zone) ? machine.time_zone : 'UTC';
    const instant = (field: 'startTime' | 'endTime'): number | null => {
      const text = q[field];
      if (text === undefined) return null;
      const wall = parseWallClock(text);
      if (!wall) throw badRequest(undefined, [{ path: `query.${field}`, message: `${text} is not a real date and time` }]);
      return zonedToEpoch(wall, timeZone);
    };
    const from = instant('startTime');
    const end = instant('endTime');
    if (q.startTime !== undefined && q.endTime !== undefined && q.startTime > q.endTime)
      throw badRequest(undefined, [{ path: 'query.startTime', message: 'must not be after endTime' }]);
    return {
      filter: { ownerId: owner, machineId: machine?.id ?? null, machineNos: fenceFilter(p), from, until: end === null ? null : end + 1000, cashlessOnly },
      machineNo: machine?.machine_no ?? null,
      timeZone,
    };
  }

  async list(p: Principal, q: OrderFilterInput & Paging): Promise<Page<Order> & { timeZone: string }> {
    const { filter, timeZone } = await this.resolveFilter(p, q);
    const { total, rows } = await this.repo.page(filter, q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, timeZone, records: rows.map(toOrder) };
  }

  async get(p: Principal, orderNumber: string): Promise<Order> {
    const row = orderNumber.includes('\u0000') ? undefined : await this.repo.one(orderNumber, ownerFilter(p), fenceFilter(p));
    if (!row) throw notFound('Order');
    return toOrder(row);
  }

  /** Count and money of the filtered orders, in total and by channel, pay status and machine. */
  async summary(p: Principal, q: OrderFilterInput): Promise<OrdersSummary> {
    const { filter, machineNo, timeZone } = await this.resolveFilter(p, q);
    const total = emptyRollup();
    const byChannel = new Map<string, Rollup>();
    const byMachine = new Map<string, Rollup>();
    const byPayStatus = new Map<string, { count: number; chargedCents: number }>();
    for (const g of await this.repo.rollup(filter)) {
      const refunded = g.pay_status === 'refunded';
      const { taxCents } = splitTax(g.charged_cents, effectiveRate(g.tax_rate, g.machine_tax_rate));
      const gross = g.charged_cents * g.n;
      const add = (r: Rollup) => {
        r.count += g.n;
        r.grossCents += gross;
        if (refunded) r.refundedCents += gross;
        else {
          r.salesCents += gross;
          r.taxCents += taxCents * g.n;
          r.netCents += (g.charged_cents - taxCents) * g.n;
        }
      };
      add(total);
      add(mapGet(byChannel, g.channel, emptyRollup));
      add(mapGet(byMachine, g.machine_no, emptyRollup));
      const s = mapGet(byPayStatus, g.pay_status, () => ({ count: 0, chargedCents: 0 }));
      s.count += g.n;
      s.chargedCents += gross;
    }
    const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return {
      machineNo,
      startTime: q.startTime ?? null,
      endTime: q.endTime ?? null,
      timeZone,
      ...total,
      byChannel: sorted(byChannel).map(([channel, r]) => ({ channel, ...r })),
      byPayStatus: sorted(byPayStatus).map(([payStatus, r]) => ({ payStatus, ...r })),
      byMachine: sorted(byMachine).map(([machineNo, r]) => ({ machineNo, ...r })),
    };
  }
}

function mapGet<T>(m: Map<string, T>, key: string, make: () => T): T {
  let v = m.get(key);
  if (v === undefined) {
    v = make();
    m.set(key, v);
  }
  return v;
}
