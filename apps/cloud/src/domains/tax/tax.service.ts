import type { Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { TaxRestatementBlockRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import { offsetOf, type Page } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { periodBounds, type Period } from '../calendar/period.ts';
import { visibleMachine } from '../machines/ownership.ts';
import { effectiveRate, splitTax } from './tax-split.ts';
import type { BlockView, RemittanceView, ScheduleView } from './tax.repo.ts';
import { mergeClosed, pinRate, remitRefusal, restatementRanges, saleTaxRate, type ClosedPeriod } from './tax.rules.ts';
import type { BlockedQuery, BlockedRestatement, RemitBody, Remittance, RemittanceListQuery, Schedule, ScheduleBody, ScheduleListQuery } from './tax.schemas.ts';

export interface TaxDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
}

/** The machine a rate is stamped for or restated on. */
export interface TaxedMachine {
  id: string;
  operator_id: string | null;
  sales_tax_rate: number | null;
}

/** What recording a machine rate did to its history (the PATCH answer's `taxRestatement`). */
export interface RestatementOutcome {
  restatedOrders: number;
  pinnedOrders: number;
  blockedPeriods: { period: string; reason: ClosedPeriod['reason']; orders: number }[];
}

/**
 * Sales tax (spec 1 §2.9, §3, §4.8): the operator's schedule, the one rate a sale is stamped with,
 * remittances that close a period, and the restatement a machine-rate change makes of its
 * un-remitted history (through the orders repo, the one writer of `orders`).
 */
export class TaxService {
  constructor(private readonly deps: TaxDeps) {}

  /**
   * THE sale-time rate, inside the sale's transaction: the machine's own rate, else the operator's
   * schedule row in effect at `at`, else none (`saleTaxRate`). Every sale path stamps through here.
   */
  async saleRate(tx: Repos, machine: TaxedMachine, at: number): Promise<number | null> {
    if (machine.sales_tax_rate !== null || machine.operator_id === null) return saleTaxRate(machine.sales_tax_rate, null);
    const row = await tx.tax.scheduleAt(machine.operator_id, at);
    return saleTaxRate(null, row ? { effectiveAt: row.effective_at, bps: row.bps } : null);
  }

  /**
   * Recording `newRate` on a machine, inside the PATCH's transaction (the caller holds the machine's
   * row lock and writes the rate itself): its orders in open periods are restated at the rate the
   * sale-time rule picks under the new rate; in closed periods nothing changes — their unstamped
   * orders are first stamped at the rate they were reported at, so the new machine rate cannot
   * reach them — and each closed period holding orders is recorded as a refused restatement.
   */
  async restateMachine(
    tx: Repos,
    p: Principal,
    machine: TaxedMachine & { machine_no: string },
    newRate: number | null,
    now: number,
  ): Promise<RestatementOutcome> {
    const oldRate = machine.sales_tax_rate;
    const outcome: RestatementOutcome = { restatedOrders: 0, pinnedOrders: 0, blockedPeriods: [] };
    if (newRate === oldRate) return outcome;
    if (machine.operator_id !== null) await tx.tax.lockOperator(machine.operator_id);
    // THE closed-period check (docs/decisions/finance.md "Tax"): periods the operator remitted, and periods a paid host statement covered for this machine
    const closed = mergeClosed(
      machine.operator_id === null ? [] : await tx.tax.remittedPeriods(machine.operator_id),
      await tx.payouts.paidOutPeriodsOf(machine.id),
    );
    const blocks: TaxRestatementBlockRow[] = [];
    for (const c of closed) {
      const { start, end } = periodBounds(c.period);
      const orders = await tx.orders.countOfMachine(machine.id, start, end);
      if (orders === 0) continue;
      outcome.pinnedOrders += await tx.orders.pinUnstampedTaxRate(machine.id, start, end, pinRate(oldRate));
      outcome.blockedPeriods.push({ period: c.period, reason: c.reason, orders });
      blocks.push({
        id: newId('trb', now),
        operator_id: machine.operator_id,
        machine_id: machine.id,
        period: c.period,
        reason: c.reason,
        requested_rate: newRate,
        kept_rate: oldRate,
        orders,
        created_at: now,
      });
    }
    const schedule =
      newRate === null && machine.operator_id !== null
        ? (await tx.tax.scheduleOf(machine.operator_id)).map((r) => ({ effectiveAt: r.effective_at, bps: r.bps }))
        : [];
    for (const r of restatementRanges(closed, newRate, schedule)) outcome.restatedOrders += await tx.orders.restateTaxRate(machine.id, r.from, r.until, r.rate);
    await tx.tax.insertBlocks(blocks);
    await this.deps.audit.record(tx, p, 'tax.restate', `machine:${machine.machine_no}`);
    return outcome;
  }

  // --- schedules ---------------------------------------------------------------------------------

  async addSchedule(p: Principal, body: ScheduleBody): Promise<Schedule> {
    const now = this.deps.clock.now();
    const row = {
      id: newId('tsc', now),
      operator_id: p.operatorId,
      bps: body.bps,
      effective_on: body.effectiveAt,
      effective_at: Date.parse(`${body.effectiveAt}T00:00:00Z`),
      created_at: now,
    };
    try {
      await this.deps.store.transaction(async (tx) => {
        await tx.tax.insertSchedule(row);
        await this.deps.audit.record(tx, p, 'tax.schedule.create', `tax-schedule:${row.id}`);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(`A schedule row effective ${body.effectiveAt} already exists`);
      throw e;
    }
    const inEffect = await this.deps.store.repos.tax.scheduleAt(p.operatorId, now);
    return toSchedule({ ...row, operator_email: p.operatorEmail }, inEffect?.id === row.id, false);
  }

  async schedules(p: Principal, q: ScheduleListQuery): Promise<Page<Schedule>> {
    const repo = this.deps.store.repos.tax;
    const now = this.deps.clock.now();
    const { total, rows } = await repo.schedulePage(ownerFilter(p), q.size, offsetOf(q));
    const current = new Set<string>();
    for (const op of new Set(rows.map((r) => r.operator_id))) {
      const row = await repo.scheduleAt(op, now);
      if (row) current.add(row.id);
    }
    return { page: q.page, size: q.size, total, records: rows.map((r) => toSchedule(r, current.has(r.id), p.admin)) };
  }

  // --- remittances -------------------------------------------------------------------------------

  /**
   * Marks the caller's period remitted, with the tax computed from its orders now (every status but
   * refunded, as the orders summary counts sales). The period closes: no later restatement touches it.
   */
  async remit(p: Principal, body: RemitBody): Promise<Remittance> {
    const now = this.deps.clock.now();
    const refusal = remitRefusal(body.period, now);
    if (refusal) throw badRequest(undefined, [{ path: 'body.period', message: refusal }]);
    try {
      await this.deps.store.transaction(async (tx) => {
        await this.recordRemittance(tx, p.operatorId, body.period, body.reference ?? null, now);
        await this.deps.audit.record(tx, p, 'tax.remit', `tax-period:${body.period}`);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(`${body.period} is already remitted`);
      throw e;
    }
    const row = await this.deps.store.repos.tax.remittance(p.operatorId, body.period);
    return toRemittance({ ...row!, operator_email: p.operatorEmail }, false);
  }

  /**
   * Marks the operator's period remitted inside the caller's transaction, with the sales, tax and net
   * the server computes from the orders now (the API's remit and the sandbox seed). Once per period (409).
   */
  async recordRemittance(tx: Repos, operatorId: string, period: Period, reference: string | null, now: number): Promise<void> {
    const { start, end } = periodBounds(period);
    await tx.tax.lockOperator(operatorId);
    if (await tx.tax.remittance(operatorId, period)) throw conflict(`${period} is already remitted`);
    let orders = 0;
    let sales = 0;
    let tax = 0;
    for (const g of await tx.orders.rollup({ ownerId: operatorId, machineId: null, from: start, until: end, cashlessOnly: false })) {
      if (g.pay_status === 'refunded') continue;
      orders += g.n;
      sales += g.charged_cents * g.n;
      tax += splitTax(g.charged_cents, effectiveRate(g.tax_rate, g.machine_tax_rate)).taxCents * g.n;
    }
    await tx.tax.insertRemittance({
      id: newId('trm', now),
      operator_id: operatorId,
      period,
      reference,
      orders,
      sales_cents: sales,
      tax_cents: tax,
      net_cents: sales - tax,
      remitted_at: now,
    });
  }

  async remittances(p: Principal, q: RemittanceListQuery): Promise<Page<Remittance>> {
    const { total, rows } = await this.deps.store.repos.tax.remittancePage(ownerFilter(p), q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, records: rows.map((r) => toRemittance(r, p.admin)) };
  }

  // --- refused restatements ----------------------------------------------------------------------

  async blocked(p: Principal, q: BlockedQuery): Promise<Page<BlockedRestatement>> {
    let machineId: string | null = null;
    if (q.machineNo !== undefined) {
      machineId = (await visibleMachine(this.deps.store.repos.machines, p, q.machineNo)).id;
    }
    const { total, rows } = await this.deps.store.repos.tax.blockPage({ operatorId: ownerFilter(p), machineId }, q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, records: rows.map((r) => toBlocked(r, p.admin)) };
  }
}

function toSchedule(r: ScheduleView, inEffect: boolean, admin: boolean): Schedule {
  return {
    id: r.id,
    bps: r.bps,
    ratePercent: r.bps / 100,
    effectiveAt: r.effective_on,
    effectiveFrom: formatTimestamp(r.effective_at)!,
    inEffect,
    createdAt: formatTimestamp(r.created_at)!,
    ...(admin ? { operatorEmail: r.operator_email } : {}),
  };
}

function toRemittance(r: RemittanceView, admin: boolean): Remittance {
  return {
    id: r.id,
    period: r.period,
    reference: r.reference,
    orders: r.orders,
    salesCents: r.sales_cents,
    sales: centsToDecimal(r.sales_cents),
    taxCents: r.tax_cents,
    tax: centsToDecimal(r.tax_cents),
    netCents: r.net_cents,
    net: centsToDecimal(r.net_cents),
    remittedAt: formatTimestamp(r.remitted_at)!,
    ...(admin ? { operatorEmail: r.operator_email } : {}),
  };
}

function toBlocked(r: BlockView, admin: boolean): BlockedRestatement {
  return {
    id: r.id,
    machineNo: r.machine_no,
    period: r.period,
    reason: r.reason === 'paid_out' ? 'paid_out' : 'remitted',
    requestedRate: r.requested_rate,
    keptRate: r.kept_rate,
    orders: r.orders,
    at: formatTimestamp(r.created_at)!,
    ...(admin ? { operatorEmail: r.operator_email } : {}),
  };
}
