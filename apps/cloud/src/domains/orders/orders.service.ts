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
import type { DayBounds, OrderFilter, OrdersRepo, OrderView, RollupRow } from './orders.repo.ts';
import { MAX_SERIES_DAYS, type Order, type OrderFilterInput, type OrdersInput, type OrdersSummary, type Rollup } from './orders.schemas.ts';
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
    ...(row.checkout_id !== null ? { refund: refundOf(row) } : {}),
  };
}

/** A pay-by-phone order's refund through its processor (null: nothing owed). */
function refundOf(row: OrderView): Order['refund'] {
  if (row.refund_status === null) return null;
  return {
    status: row.refund_status as NonNullable<Order['refund']>['status'],
    amountCents: Number(row.refund_cents),
    reason: row.refund_status === 'failed' ? row.refund_failure : null,
    refundId: row.refund_id,
    at: formatTimestamp(row.refund_at),
  };
}

export interface ResolvedFilter {
  filter: OrderFilter;
  machineNo: string | null;
  timeZone: string;
  /** The operator of the machine `machineNo` named (null when none was named, or the machine has none). */
  machineOwner: string | null;
}

const DAY = 86_400_000;

/** `YYYY-MM-DD` of a UTC midnight. */
const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The calendar days of `[startTime, endTime]` in `zone`: their dates and the instants each covers (the first from
 * `from`, the last until `until`, the others local midnight to local midnight). More than MAX_SERIES_DAYS is 400.
 */
export function seriesDays(startTime: string, endTime: string, zone: string, from: number, until: number): { dates: string[]; bounds: DayBounds[] } {
  const first = Date.parse(`${startTime.slice(0, 10)}T00:00:00Z`);
  const last = Date.parse(`${endTime.slice(0, 10)}T00:00:00Z`);
  const n = Math.round((last - first) / DAY) + 1;
  if (n > MAX_SERIES_DAYS)
    throw badRequest(undefined, [
      { path: 'query.endTime', message: `the window spans ${n} days; a summary covers at most ${MAX_SERIES_DAYS} (one byDay entry each)` },
    ]);
  const dates = Array.from({ length: n }, (_, i) => isoDate(first + i * DAY));
  const midnight = (date: string): number => {
    const [year, month, day] = date.split('-').map(Number) as [number, number, number];
    return zonedToEpoch({ year, month, day, hour: 0, minute: 0, second: 0 }, zone);
  };
  const starts = dates.map((d, i) => (i === 0 ? from : midnight(d)));
  const bounds = dates.map((_, i) => ({ start: starts[i]!, end: i === n - 1 ? until : starts[i + 1]! }));
  return { dates, bounds };
}

/** Adds a rollup group (orders of one price, rate and status) to a rollup: the one place the summary's money is added up. */
function addGroup(r: Rollup, g: RollupRow): void {
  const { taxCents } = splitTax(g.charged_cents, effectiveRate(g.tax_rate, g.machine_tax_rate));
  const gross = g.charged_cents * g.n;
  r.count += g.n;
  r.grossCents += gross;
  if (g.pay_status === 'refunded') r.refundedCents += gross;
  else {
    r.salesCents += gross;
    r.taxCents += taxCents * g.n;
    r.netCents += (g.charged_cents - taxCents) * g.n;
  }
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
      machineOwner: machine?.operator_id ?? null,
    };
  }

  async list(p: Principal, q: OrdersInput & Paging): Promise<Page<Order> & { timeZone: string }> {
    const { filter, timeZone } = await this.resolveFilter(p, q);
    const { total, rows } = await this.repo.page({ ...filter, payStatus: q.payStatus ?? null, channel: q.channel ?? null }, q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, timeZone, records: rows.map(toOrder) };
  }

  async get(p: Principal, orderNumber: string): Promise<Order> {
    const row = orderNumber.includes('\u0000') ? undefined : await this.repo.one(orderNumber, ownerFilter(p), fenceFilter(p));
    if (!row) throw notFound('Order');
    return toOrder(row);
  }

  /**
   * Count and money of the filtered orders, in total and by channel, pay status and machine; per calendar day of the
   * summary's time zone when both ends of the window are given (at most MAX_SERIES_DAYS days).
   */
  async summary(p: Principal, q: OrderFilterInput): Promise<OrdersSummary> {
    const { filter, machineNo, timeZone, machineOwner } = await this.resolveFilter(p, q);
    const series =
      q.startTime !== undefined && q.endTime !== undefined && filter.from !== null && filter.until !== null
        ? seriesDays(q.startTime, q.endTime, timeZone, filter.from, filter.until)
        : null;
    const total = emptyRollup();
    const byChannel = new Map<string, Rollup>();
    const byMachine = new Map<string, Rollup>();
    const byPayStatus = new Map<string, { count: number; chargedCents: number }>();
    for (const g of await this.repo.rollup(filter)) {
      addGroup(total, g);
      addGroup(mapGet(byChannel, g.channel, emptyRollup), g);
      addGroup(mapGet(byMachine, g.machine_no, emptyRollup), g);
      const s = mapGet(byPayStatus, g.pay_status, () => ({ count: 0, chargedCents: 0 }));
      s.count += g.n;
      s.chargedCents += g.charged_cents * g.n;
    }
    let byDay: OrdersSummary['byDay'] = null;
    if (series) {
      const days = series.dates.map(emptyRollup);
      for (const g of await this.repo.rollupByDay(filter, series.bounds)) {
        const day = days[g.day];
        if (day) addGroup(day, g);
      }
      byDay = series.dates.map((date, i) => ({ date, ...days[i]! }));
    }
    const owner = ownerFilter(p) ?? machineOwner;
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
      byDay,
      currency: owner === null ? null : await this.repo.currencyOf(owner),
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
