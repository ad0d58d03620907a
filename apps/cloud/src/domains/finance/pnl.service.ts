import type { Clock } from '@vend/protocol';
import { badRequest } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { centsToDecimal } from '../../http/money.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { assembleBalance, assemblePnl, ENTRY_KINDS, salesTotals, type PnlFigures, type SalesGroup } from './finance.rules.ts';
import { booksOf, dayEnd, dayOf, dayStart, machineInBooks, venueInBooks, type Books } from './finance.scope.ts';
import type { BalanceQuery, BalanceSheet, Pnl, PnlQuery } from './finance.schemas.ts';
import { hostLineView, toGroup, type HostLine, type PayoutsService } from './payouts.service.ts';
import { periodBounds, periodOf } from '../calendar/period.ts';

export interface PnlDeps {
  store: AppStore;
  clock: Clock;
  /** Host lines (the statements' arithmetic): the P&L's host share is theirs. */
  payouts: PayoutsService;
}

/** What a P&L covers: the books, at most one machine or one venue, and `[from, until)`. */
interface PnlScope {
  books: Books;
  machine: { id: string; machineNo: string } | null;
  venueId: string | null;
  from: number;
  until: number;
  /** The entries' inclusive days; `fromDay` null: since the beginning. */
  fromDay: string | null;
  toDay: string;
}

/**
 * Profit and loss and the balance sheet (spec 1 §2.9, §4.8). Sales and their tax come from the orders
 * repo's rollup (tax per order through `splitTax` at the order's effective rate), FIFO cost from
 * `lot_consumptions`, the host share from the host lines, referrals/payroll/expenses from the ledger.
 */
export class PnlService {
  constructor(private readonly deps: PnlDeps) {}

  async pnl(p: Principal, q: PnlQuery): Promise<Pnl> {
    const repos = this.deps.store.repos;
    const books = await booksOf(repos, p, q.operatorEmail);
    const machine = q.machineNo === undefined ? null : await machineInBooks(repos, p, books, q.machineNo);
    if (q.venueId !== undefined) await venueInBooks(repos, p, books, q.venueId);
    if (machine && q.venueId !== undefined) throw badRequest(undefined, [{ path: 'query.venueId', message: 'filter by machineNo or by venueId, not both' }]);
    const now = this.deps.clock.now();
    const toDay = q.to ?? dayOf(now);
    const fromDay = q.from ?? dayOf(periodBounds(periodOf(dayStart(toDay))).start);
    if (fromDay > toDay) throw badRequest(undefined, [{ path: 'query.from', message: 'must not be after to' }]);
    const scope: PnlScope = { books, machine, venueId: q.venueId ?? null, from: dayStart(fromDay), until: dayEnd(toDay), fromDay, toDay };
    const { figures, sales, hostLines } = await this.figures(repos, scope);
    return {
      from: fromDay,
      to: toDay,
      timeZone: 'UTC',
      machineNo: machine?.machineNo ?? null,
      venueId: scope.venueId,
      operatorEmail: books.operatorEmail,
      vends: sales.vends,
      refundedCount: sales.refundedCount,
      refundedCents: sales.refundedCents,
      ...figures,
      ...decimals(figures),
      feeBps: 200,
      hostLines: hostLines.map(hostLineView),
    };
  }

  /** The balance sheet at the end of `asOf` (UTC day; default today): everything recorded before then. */
  async balanceSheet(p: Principal, q: BalanceQuery): Promise<BalanceSheet> {
    const repos = this.deps.store.repos;
    const books = await booksOf(repos, p, q.operatorEmail);
    const asOf = q.asOf ?? dayOf(this.deps.clock.now());
    const until = dayEnd(asOf);
    const scope: PnlScope = { books, machine: null, venueId: null, from: 0, until, fromDay: null, toDay: asOf };
    const { figures, groups } = await this.figures(repos, scope);
    const open = (status: string) => groups.filter((g) => g.payStatus === status).reduce((n, g) => n + g.chargedCents * g.n, 0);
    const b = assembleBalance({
      pnl: figures,
      awaitingVendCents: open('paid'),
      refundsOwedCents: open('refund_owed'),
      purchasesCents: await repos.ledger.receivedCost(books.ownerId, until),
      payoutsPaidCents: await repos.payouts.paidCents(books.ownerId, until),
      taxRemittedCents: await repos.ledger.taxRemittedCents(books.ownerId, until),
    });
    return {
      asOf,
      timeZone: 'UTC',
      operatorEmail: books.operatorEmail,
      ...b,
      balanced: b.assets.totalCents === b.liabilities.totalCents + b.equity.totalCents,
    };
  }

  private async figures(
    repos: Repos,
    s: PnlScope,
  ): Promise<{ figures: PnlFigures; sales: ReturnType<typeof salesTotals>; groups: SalesGroup[]; hostLines: HostLine[] }> {
    const ownerId = s.books.ownerId;
    const hostLines = await this.deps.payouts.hostLines(repos, {
      books: s.books,
      venueId: s.venueId,
      machineNo: s.machine?.machineNo ?? null,
      from: s.from,
      until: s.until,
    });
    // The sales a report covers: the whole books, one machine, or a venue's machines while they stood there.
    let windows: { machineId: string | null; from: number; until: number }[] = [{ machineId: s.machine?.id ?? null, from: s.from, until: s.until }];
    if (s.venueId !== null) {
      const { stints } = await this.deps.payouts.stays(repos, { books: s.books, venueId: s.venueId, machineNo: null });
      const ids = await repos.ledger.machineIds([...new Set(stints.map((x) => x.machineNo))]);
      windows = stints.flatMap((x) => {
        const machineId = ids.get(x.machineNo);
        const from = Math.max(s.from, Math.min(x.attachedAt, x.commissionFrom));
        const until = Math.min(s.until, x.until ?? s.until);
        return machineId !== undefined && from < until ? [{ machineId, from, until }] : [];
      });
    }
    const groups: SalesGroup[] = [];
    let fifoCogsCents = 0;
    for (const w of windows) {
      groups.push(...(await repos.orders.rollup({ ownerId, machineId: w.machineId, from: w.from, until: w.until, cashlessOnly: false })).map(toGroup));
      fifoCogsCents += await repos.ledger.fifoCogs(ownerId, w.machineId, w.from, w.until);
    }
    const byKind = await repos.ledger.totalsByKind({
      ownerId,
      kind: null,
      fromDay: s.fromDay,
      toDay: s.toDay,
      machineId: s.machine?.id ?? null,
      venueId: s.venueId,
    });
    const entries = Object.fromEntries(ENTRY_KINDS.map((k) => [k, byKind.get(k) ?? 0])) as Record<(typeof ENTRY_KINDS)[number], number>;
    const sales = salesTotals(groups);
    const figures = assemblePnl({ sales, fifoCogsCents, hostShareCents: hostLines.reduce((n, l) => n + l.shareCents, 0), entries });
    return { figures, sales, groups, hostLines };
  }
}

/** The decimal twins of the `…Cents` figures (the edge's amounts). */
function decimals(f: PnlFigures) {
  return {
    gross: centsToDecimal(f.grossCents),
    tax: centsToDecimal(f.taxCents),
    net: centsToDecimal(f.netCents),
    fifoCogs: centsToDecimal(f.fifoCogsCents),
    hostShare: centsToDecimal(f.hostShareCents),
    referrals: centsToDecimal(f.referralsCents),
    payroll: centsToDecimal(f.payrollCents),
    fee: centsToDecimal(f.feeCents),
    expenses: centsToDecimal(f.expensesCents),
    operatorNet: centsToDecimal(f.operatorNetCents),
  };
}
