import type { Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { HostPayoutLineRow, HostPayoutRow, VenueRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { accruingWindow, stintsOf, type Stint } from '../venues/venues.rules.ts';
import { booksOf, venueInBooks, type Books } from './finance.scope.ts';
import { hostShare, salesTotals, type SalesGroup } from './finance.rules.ts';
import { periodBounds, periodOf, periodsBetween, type Period } from '../calendar/period.ts';
import { centsToDecimal } from '../../http/money.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { PayBody, PayoutsQuery, StatementView } from './finance.schemas.ts';

export interface PayoutsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
}

/** One host line: a machine's stay at a venue, inside one period, over its accruing window. */
export interface HostLine {
  venueId: string;
  venueName: string;
  machineId: string;
  machineNo: string;
  period: Period;
  commissionRule: string;
  commissionFrom: number;
  windowFrom: number;
  windowTo: number;
  vends: number;
  netSalesCents: number;
  bps: number;
  shareCents: number;
  /** On a statement recorded as paid: its bps are the ones frozen then. */
  paid: boolean;
}

/** Which stays a host-line read covers. `from`/`until` bound the windows (until exclusive). */
export interface HostScope {
  books: Books;
  venueId: string | null;
  machineNo: string | null;
  from: number;
  until: number;
}

export interface Statement {
  venue: VenueRow;
  period: Period;
  status: 'paid' | 'unpaid';
  /** The period has ended: the statement may be recorded as paid (unpaid ones only). */
  payable: boolean;
  bps: number;
  lines: HostLine[];
  totalCents: number;
  reference: string | null;
  paidAt: number | null;
}

/**
 * Host commission (spec 1 §4.8): the host lines the P&L shows and the statements hosts are paid from.
 * A line is a machine's stay at a venue inside one period: the venue's `revShareBps` over the net sales
 * of the stay's accruing window (`accruingWindow`), rounded once per line (`applyBps`). Recording a
 * statement as paid freezes it (`host_payouts`, `host_payout_lines`): its lines, and the bps the P&L
 * uses for that venue and period from then on.
 */
export class PayoutsService {
  constructor(private readonly deps: PayoutsDeps) {}

  /** The venues and stays in scope: every stay at the books' venues (or the one venue), of every machine or the one. */
  async stays(repos: Repos, scope: Pick<HostScope, 'books' | 'venueId' | 'machineNo'>): Promise<{ venues: Map<string, VenueRow>; stints: Stint[] }> {
    const all = await repos.venues.ofOperator(scope.books.ownerId);
    const venues = new Map(all.filter((v) => scope.venueId === null || v.id === scope.venueId).map((v) => [v.id, v]));
    const stints = stintsOf(await repos.venues.history([...venues.keys()])).filter(
      (s) => venues.has(s.venueId) && (scope.machineNo === null || s.machineNo === scope.machineNo),
    );
    return { venues, stints };
  }

  /** The host lines of the scope, oldest period first, then venue and machine. */
  async hostLines(repos: Repos, scope: HostScope): Promise<HostLine[]> {
    const { venues, stints } = await this.stays(repos, scope);
    const ids = await repos.ledger.machineIds([...new Set(stints.map((s) => s.machineNo))]);
    const wanted: { stint: Stint; period: Period; from: number; to: number }[] = [];
    for (const s of stints) {
      const lo = Math.max(scope.from, s.commissionFrom);
      const hi = Math.min(scope.until, s.until ?? scope.until);
      for (const period of periodsBetween(lo, hi)) {
        const b = periodBounds(period);
        const w = accruingWindow(s, Math.max(b.start, scope.from), Math.min(b.end, scope.until));
        if (w) wanted.push({ stint: s, period, ...w });
      }
    }
    const periods = [...new Set(wanted.map((w) => w.period))];
    const paid = await repos.payouts.payouts([...venues.keys()], periods);
    const paidKeys = new Set(paid.map((x) => `${x.venue_id}|${x.period}`));
    const frozenBps = new Map((await repos.payouts.lines(paid.map((x) => x.id))).map((l) => [`${l.venue_id}|${l.machine_no}|${l.period}`, l.bps]));
    const lines: HostLine[] = [];
    for (const w of wanted) {
      const venue = venues.get(w.stint.venueId)!;
      const machineId = ids.get(w.stint.machineNo);
      if (machineId === undefined) continue;
      const rows = await repos.orders.rollup({ ownerId: scope.books.ownerId, machineId, from: w.from, until: w.to, cashlessOnly: false });
      const sales = salesTotals(rows.map(toGroup));
      const isPaid = paidKeys.has(`${venue.id}|${w.period}`);
      const bps = (isPaid ? frozenBps.get(`${venue.id}|${w.stint.machineNo}|${w.period}`) : undefined) ?? venue.rev_share_bps;
      lines.push({
        venueId: venue.id,
        venueName: venue.name,
        machineId,
        machineNo: w.stint.machineNo,
        period: w.period,
        commissionRule: w.stint.commissionRule,
        commissionFrom: w.stint.commissionFrom,
        windowFrom: w.from,
        windowTo: w.to,
        vends: sales.vends,
        netSalesCents: sales.netCents,
        bps,
        shareCents: hostShare(sales.netCents, bps),
        paid: isPaid,
      });
    }
    return lines.sort(
      (a, b) =>
        cmp(a.period, b.period) || cmp(a.venueName, b.venueName) || cmp(a.venueId, b.venueId) || cmp(a.machineNo, b.machineNo) || a.windowFrom - b.windowFrom,
    );
  }

  /** Host statements of one period (default: the last one that ended), one per venue in the books (or the one venue). */
  async statements(p: Principal, q: PayoutsQuery): Promise<{ period: Period; operatorEmail: string | null; statements: StatementView[] }> {
    const repos = this.deps.store.repos;
    const books = await booksOf(repos, p, q.operatorEmail);
    if (q.venueId !== undefined) await venueInBooks(repos, p, books, q.venueId);
    const now = this.deps.clock.now();
    const period = q.period ?? periodOf(periodBounds(periodOf(now)).start - 1);
    const { start, end } = periodBounds(period);
    const lines = await this.hostLines(repos, { books, venueId: q.venueId ?? null, machineNo: null, from: start, until: end });
    const { venues } = await this.stays(repos, { books, venueId: q.venueId ?? null, machineNo: null });
    const paid = new Map((await repos.payouts.payouts([...venues.keys()], [period])).map((x) => [x.venue_id, x]));
    const frozen = await repos.payouts.lines([...paid.values()].map((x) => x.id));
    const statements = [...venues.values()].map((venue): Statement => {
      const payout = paid.get(venue.id);
      if (payout)
        return frozenStatement(
          venue,
          payout,
          frozen.filter((l) => l.payout_id === payout.id),
        );
      const own = lines.filter((l) => l.venueId === venue.id);
      return {
        venue,
        period,
        status: 'unpaid',
        payable: end <= now,
        bps: venue.rev_share_bps,
        lines: own,
        totalCents: own.reduce((n, l) => n + l.shareCents, 0),
        reference: null,
        paidAt: null,
      };
    });
    return { period, operatorEmail: books.operatorEmail, statements: statements.map(statementView) };
  }

  /**
   * Records a venue's statement for a period as paid: the lines as they stand now are frozen with the
   * venue's current bps. Only a period that has ended; once per venue and period (409 after).
   */
  async pay(p: Principal, body: PayBody): Promise<StatementView> {
    const now = this.deps.clock.now();
    const repos = this.deps.store.repos;
    const books = await booksOf(repos, p, undefined);
    await venueInBooks(repos, p, books, body.venueId);
    if (periodBounds(body.period).end > now)
      throw badRequest(undefined, [{ path: 'body.period', message: `period ${body.period} has not ended: only a past period can be paid out` }]);
    try {
      await this.deps.store.transaction(async (tx) => {
        await this.freezeStatement(tx, body.venueId, body.period, body.reference ?? null, now);
        await this.deps.audit.record(tx, p, 'payouts.pay', `venue:${body.venueId} period:${body.period}`);
      });
    } catch (e) {
      // the same venue and period paid by a racing request
      if (isUniqueViolation(e)) throw alreadyPaid(body.venueId, body.period);
      throw e;
    }
    const venue = (await repos.venues.byId(body.venueId))!;
    const payout = (await repos.payouts.payouts([venue.id], [body.period]))[0]!;
    return statementView(frozenStatement(venue, payout, await repos.payouts.lines([payout.id])));
  }

  /**
   * Records a venue's statement for a period as paid, inside the caller's transaction (the API's pay
   * and the sandbox seed): the lines as they stand now, frozen with the venue's current bps. Once per
   * venue and period (409).
   */
  async freezeStatement(tx: Repos, venueId: string, period: Period, reference: string | null, now: number): Promise<void> {
    const { start, end } = periodBounds(period);
    const venue = await tx.venues.lock(venueId);
    if (!venue) throw conflict(`Venue ${venueId} is gone`);
    if ((await tx.payouts.payouts([venue.id], [period])).length > 0) throw alreadyPaid(venueId, period);
    const venueBooks: Books = { ownerId: venue.operator_id, operatorEmail: null };
    const lines = (await this.hostLines(tx, { books: venueBooks, venueId: venue.id, machineNo: null, from: start, until: end })).map((l) => ({
      ...l,
      bps: venue.rev_share_bps,
      shareCents: hostShare(l.netSalesCents, venue.rev_share_bps),
    }));
    const id = newId('hpo', now);
    await tx.payouts.insert(
      {
        id,
        operator_id: venue.operator_id,
        venue_id: venue.id,
        period,
        bps: venue.rev_share_bps,
        total_cents: lines.reduce((n, l) => n + l.shareCents, 0),
        reference,
        paid_at: now,
      },
      lines.map((l, i) => ({
        id: newId('hpl', now),
        payout_id: id,
        line_no: i + 1,
        venue_id: venue.id,
        machine_id: l.machineId,
        machine_no: l.machineNo,
        period,
        commission_rule: l.commissionRule,
        commission_from: l.commissionFrom,
        window_from: l.windowFrom,
        window_to: l.windowTo,
        vends: l.vends,
        net_cents: l.netSalesCents,
        bps: l.bps,
        share_cents: l.shareCents,
      })),
    );
  }
}

const alreadyPaid = (venueId: string, period: Period) => conflict(`The statement of venue ${venueId} for ${period} is already paid`);

function frozenStatement(venue: VenueRow, payout: HostPayoutRow, lines: readonly HostPayoutLineRow[]): Statement {
  return {
    venue,
    period: payout.period,
    status: 'paid',
    payable: false,
    bps: payout.bps,
    lines: lines.map((l) => ({
      venueId: l.venue_id,
      venueName: venue.name,
      machineId: l.machine_id,
      machineNo: l.machine_no,
      period: l.period,
      commissionRule: l.commission_rule,
      commissionFrom: l.commission_from,
      windowFrom: l.window_from,
      windowTo: l.window_to,
      vends: l.vends,
      netSalesCents: l.net_cents,
      bps: l.bps,
      shareCents: l.share_cents,
      paid: true,
    })),
    totalCents: payout.total_cents,
    reference: payout.reference,
    paidAt: payout.paid_at,
  };
}

/** A host line as the API shows it (the P&L's `hostLines[]`, a statement's `lines[]`). */
export function hostLineView(l: HostLine) {
  return {
    venueId: l.venueId,
    venueName: l.venueName,
    machineNo: l.machineNo,
    period: l.period,
    commissionRule: l.commissionRule,
    commissionFrom: formatTimestamp(l.commissionFrom)!,
    windowFrom: formatTimestamp(l.windowFrom)!,
    windowTo: formatTimestamp(l.windowTo)!,
    vends: l.vends,
    netSalesCents: l.netSalesCents,
    netSales: centsToDecimal(l.netSalesCents),
    bps: l.bps,
    shareCents: l.shareCents,
    share: centsToDecimal(l.shareCents),
    paid: l.paid,
  };
}

function statementView(s: Statement): StatementView {
  return {
    venueId: s.venue.id,
    venueName: s.venue.name,
    period: s.period,
    status: s.status,
    payable: s.payable,
    bps: s.bps,
    vends: s.lines.reduce((n, l) => n + l.vends, 0),
    netSalesCents: s.lines.reduce((n, l) => n + l.netSalesCents, 0),
    totalCents: s.totalCents,
    total: centsToDecimal(s.totalCents),
    reference: s.reference,
    paidAt: formatTimestamp(s.paidAt),
    lines: s.lines.map((l) => {
      const { venueId: _v, venueName: _n, ...rest } = hostLineView(l);
      return rest;
    }),
  };
}

/** The orders repo's rollup row as the P&L arithmetic reads it. */
export function toGroup(r: { pay_status: string; charged_cents: number; tax_rate: number | null; machine_tax_rate: number | null; n: number }): SalesGroup {
  return { payStatus: r.pay_status, chargedCents: Number(r.charged_cents), stampedRate: r.tax_rate, machineRate: r.machine_tax_rate, n: r.n };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
