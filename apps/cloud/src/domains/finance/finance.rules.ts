import { applyBps } from '../../http/money.ts';
import { effectiveRate, splitTax } from '../tax/tax-split.ts';

/**
 * The P&L and balance-sheet arithmetic (spec 1 §2.9, §4.8; docs/decisions/finance.md "P&L"). Pure: the
 * service hands in what the repos read. Every amount is integer cents; the only roundings are per sale
 * (tax through the orders domain's `splitTax`, the 2% fee through `applyBps`) and per host line (the
 * venue's bps through `applyBps`), so every total is a sum of integers and the identity is exact.
 */

/** The 2% fee, in basis points: charged on every sale's receipt amount, rounded per sale. */
export const FEE_BPS = 200;

export const ENTRY_KINDS = ['referral', 'payroll', 'expense'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** Orders of one receipt amount and one effective rate (the orders repo's rollup, one pay status). */
export interface SalesGroup {
  payStatus: string;
  chargedCents: number;
  /** The rate stamped on the order at sale time, and the machine's current rate (unstamped orders follow it). */
  stampedRate: number | null;
  machineRate: number | null;
  n: number;
}

/** A sale is an order that vended and was not given back: `shipped`. */
export const isSale = (payStatus: string) => payStatus === 'shipped';

export interface SalesTotals {
  vends: number;
  grossCents: number;
  taxCents: number;
  netCents: number;
  feeCents: number;
  refundedCount: number;
  refundedCents: number;
}

/** Sums the sales of the groups: tax per order at its effective rate, the fee per order. Refunds are counted apart. */
export function salesTotals(groups: readonly SalesGroup[]): SalesTotals {
  const t: SalesTotals = { vends: 0, grossCents: 0, taxCents: 0, netCents: 0, feeCents: 0, refundedCount: 0, refundedCents: 0 };
  for (const g of groups) {
    if (g.payStatus === 'refunded') {
      t.refundedCount += g.n;
      t.refundedCents += g.chargedCents * g.n;
    }
    if (!isSale(g.payStatus)) continue;
    const { taxCents, netCents } = splitTax(g.chargedCents, effectiveRate(g.stampedRate, g.machineRate));
    t.vends += g.n;
    t.grossCents += g.chargedCents * g.n;
    t.taxCents += taxCents * g.n;
    t.netCents += netCents * g.n;
    t.feeCents += applyBps(g.chargedCents, FEE_BPS) * g.n;
  }
  return t;
}

/** One host line's share: the bps over the net sales of its accruing window, rounded once for the line. */
export function hostShare(netSalesCents: number, bps: number): number {
  return applyBps(netSalesCents, bps);
}

export interface PnlInput {
  sales: SalesTotals;
  fifoCogsCents: number;
  hostShareCents: number;
  entries: Readonly<Record<EntryKind, number>>;
}

export interface PnlFigures {
  grossCents: number;
  taxCents: number;
  netCents: number;
  fifoCogsCents: number;
  hostShareCents: number;
  referralsCents: number;
  payrollCents: number;
  feeCents: number;
  expensesCents: number;
  operatorNetCents: number;
  identity: string;
}

/** The P&L: operator net = net − FIFO − host share − referrals − payroll − fee − expenses, and its identity string. */
export function assemblePnl(i: PnlInput): PnlFigures {
  const f = {
    grossCents: i.sales.grossCents,
    taxCents: i.sales.taxCents,
    netCents: i.sales.netCents,
    fifoCogsCents: i.fifoCogsCents,
    hostShareCents: i.hostShareCents,
    referralsCents: i.entries.referral,
    payrollCents: i.entries.payroll,
    feeCents: i.sales.feeCents,
    expensesCents: i.entries.expense,
  };
  const operatorNetCents = f.netCents - f.fifoCogsCents - f.hostShareCents - f.referralsCents - f.payrollCents - f.feeCents - f.expensesCents;
  const d = formatCents;
  const identity =
    `${d(f.grossCents)} − ${d(f.taxCents)} = ${d(f.netCents)} − ${d(f.fifoCogsCents)} − ${d(f.hostShareCents)} − ${d(f.referralsCents)}` +
    ` − ${d(f.payrollCents)} − ${d(f.feeCents)} − ${d(f.expensesCents)} = ${d(operatorNetCents)}`;
  return { ...f, operatorNetCents, identity };
}

/** Integer cents as a decimal string with two places: 123456 → "1234.56", -5 → "-0.05". Exact (no floating point). */
export function formatCents(cents: number): string {
  const abs = Math.abs(cents);
  const text = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
  return cents < 0 ? `-${text}` : text;
}

/**
 * Parses an identity string back to its ten amounts and checks that both equations hold to the cent:
 * gross − tax = net, and net − the six costs = operator net. What a reader of the report can verify.
 */
export function identityBalances(identity: string): boolean {
  const m = /^(\S+) − (\S+) = (\S+)((?: − \S+){6}) = (\S+)$/.exec(identity);
  if (!m) return false;
  const cents = (s: string) => Math.round(Number(s) * 100);
  const [gross, tax, net, opNet] = [m[1]!, m[2]!, m[3]!, m[5]!].map(cents) as [number, number, number, number];
  const costs = m[4]!.split(' − ').slice(1).map(cents);
  return gross - tax === net && costs.reduce((n, c) => n - c, net) === opNet;
}

export interface BalanceInput {
  /** The all-time P&L up to the date. */
  pnl: PnlFigures;
  /** Receipt amounts of orders not given back: sales, plus those awaiting their vend and those owed back. */
  awaitingVendCents: number;
  refundsOwedCents: number;
  /** Cost of every layer received (purchase orders paid for). */
  purchasesCents: number;
  payoutsPaidCents: number;
  taxRemittedCents: number;
}

export interface BalanceFigures {
  assets: { cashCents: number; inventoryCents: number; totalCents: number };
  cash: {
    collectedCents: number;
    feesCents: number;
    purchasesCents: number;
    payoutsCents: number;
    referralsCents: number;
    payrollCents: number;
    expensesCents: number;
    taxRemittedCents: number;
  };
  liabilities: { salesTaxPayableCents: number; hostCommissionPayableCents: number; refundsOwedCents: number; awaitingVendCents: number; totalCents: number };
  equity: { retainedEarningsCents: number; totalCents: number };
  identity: string;
}

/**
 * The balance sheet from the all-time P&L and what was paid: cash is what came in minus what went out,
 * inventory the FIFO cost still in layers, liabilities what is owed, retained earnings the cumulative
 * operator net. Assets = liabilities + equity by construction, to the cent.
 */
export function assembleBalance(i: BalanceInput): BalanceFigures {
  const p = i.pnl;
  const cash = {
    collectedCents: p.grossCents + i.awaitingVendCents + i.refundsOwedCents,
    feesCents: p.feeCents,
    purchasesCents: i.purchasesCents,
    payoutsCents: i.payoutsPaidCents,
    referralsCents: p.referralsCents,
    payrollCents: p.payrollCents,
    expensesCents: p.expensesCents,
    taxRemittedCents: i.taxRemittedCents,
  };
  const cashCents =
    cash.collectedCents -
    cash.feesCents -
    cash.purchasesCents -
    cash.payoutsCents -
    cash.referralsCents -
    cash.payrollCents -
    cash.expensesCents -
    cash.taxRemittedCents;
  const inventoryCents = i.purchasesCents - p.fifoCogsCents;
  const liabilities = {
    salesTaxPayableCents: p.taxCents - i.taxRemittedCents,
    hostCommissionPayableCents: p.hostShareCents - i.payoutsPaidCents,
    refundsOwedCents: i.refundsOwedCents,
    awaitingVendCents: i.awaitingVendCents,
  };
  const liabilitiesTotal =
    liabilities.salesTaxPayableCents + liabilities.hostCommissionPayableCents + liabilities.refundsOwedCents + liabilities.awaitingVendCents;
  const assetsTotal = cashCents + inventoryCents;
  const equityTotal = p.operatorNetCents;
  return {
    assets: { cashCents, inventoryCents, totalCents: assetsTotal },
    cash,
    liabilities: { ...liabilities, totalCents: liabilitiesTotal },
    equity: { retainedEarningsCents: equityTotal, totalCents: equityTotal },
    identity: `${formatCents(assetsTotal)} = ${formatCents(liabilitiesTotal)} + ${formatCents(equityTotal)}`,
  };
}
