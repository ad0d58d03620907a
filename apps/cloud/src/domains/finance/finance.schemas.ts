import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { decimalAmount } from '../../http/money.ts';
import { PagingQuery } from '../../http/paging.ts';
import { MachineNo, OperatorEmail } from '../machines/machines.schemas.ts';
import { COMMISSION_RULES } from '../venues/venues.schemas.ts';
import { ENTRY_KINDS } from './finance.rules.ts';
import { PeriodString } from '../calendar/period.ts';

const TIMESTAMP = 'YYYY-MM-DDTHH:MM:SS.mmm+0000';

/** A UTC day `YYYY-MM-DD` from 1970-01-01 on (a real date). */
export const Day = z.iso
  .date('must be a date YYYY-MM-DD')
  .refine((d) => d >= '1970-01-01', 'must be 1970-01-01 or later')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'must be a real date')
  // the document: a real date (`format: date` and zod's pattern) and, by this pattern, from 1970 on
  .meta({ allOf: [{ pattern: '^(?:19[7-9]\\d|[2-9]\\d{3})-' }] });

const cents = (what: string) => z.number().int().describe(`${what}, integer cents`);
const amount = (what: string) => z.number().describe(`${what}, decimal currency amount`);
const venueId = z.string().min(1).max(64);
const memo = safeString({ trim: true }).min(1, 'must not be empty').max(500, 'must be at most 500 characters');

// --- referrals, payroll, expenses ---------------------------------------------------------------

export const CreateEntryBody = z.strictObject({
  kind: z.enum(ENTRY_KINDS),
  /** Decimal amount, more than 0, at most two decimals; stored as cents. */
  amount: decimalAmount(10_000_000, { moreThanZero: true }),
  occurredOn: Day.describe('the UTC day the cost belongs to: the P&L period it lands in'),
  machineNo: MachineNo.optional().describe('one of your machines: the entry shows in that machine’s P&L'),
  venueId: venueId.optional().describe('one of your venues: the entry shows in that venue’s P&L'),
  memo: memo.optional(),
});
export type CreateEntryBody = z.output<typeof CreateEntryBody>;

export const ReverseEntryBody = z.strictObject({ memo: memo.optional() });
export type ReverseEntryBody = z.output<typeof ReverseEntryBody>;

export const EntryParams = z.object({ id: z.string().min(1).max(64) });

export const EntryListQuery = PagingQuery.extend({
  kind: z.enum(ENTRY_KINDS).optional(),
  from: Day.optional().describe('first day, inclusive (UTC)'),
  to: Day.optional().describe('last day, inclusive (UTC)'),
  machineNo: z.string().min(1).max(64).optional(),
  venueId: venueId.optional(),
  operatorEmail: OperatorEmail.optional().describe('admin credentials only'),
});
export type EntryListQuery = z.output<typeof EntryListQuery>;

export const Entry = z.object({
  id: z.string(),
  kind: z.enum(ENTRY_KINDS),
  amount: amount('negative on a reversing entry'),
  amountCents: cents('negative on a reversing entry'),
  occurredOn: z.string(),
  machineNo: z.string().nullable(),
  venueId: z.string().nullable(),
  venueName: z.string().nullable(),
  memo: z.string().nullable(),
  reversesId: z.string().nullable().describe('set on a reversing entry: the entry it cancels'),
  reversedById: z.string().nullable().describe('the reversing entry that cancels this one, if any'),
  createdAt: z.string().describe(TIMESTAMP),
  operatorEmail: z.string().nullable().optional(),
});
export type Entry = z.infer<typeof Entry>;
export const EntryPage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(Entry) });

// --- P&L ------------------------------------------------------------------------------------------

export const PnlQuery = z.object({
  from: Day.optional().describe('first day, inclusive (UTC); default the first day of the month of `to`'),
  to: Day.optional().describe('last day, inclusive (UTC); default today'),
  machineNo: z.string().min(1).max(64).optional(),
  venueId: venueId.optional().describe("the venue's machines while they stood there, its host lines and the entries against it"),
  operatorEmail: OperatorEmail.optional().describe('admin credentials only; without it an admin sees every operator together'),
});
export type PnlQuery = z.output<typeof PnlQuery>;

export const HostLineView = z.object({
  venueId: z.string(),
  venueName: z.string(),
  machineNo: z.string(),
  period: z.string().describe('YYYY-MM: a line never spans two months'),
  commissionRule: z.enum(COMMISSION_RULES).or(z.string()),
  commissionFrom: z.string().describe(TIMESTAMP),
  windowFrom: z.string().describe(`${TIMESTAMP}: the accruing window inside the report and the period`),
  windowTo: z.string().describe(`${TIMESTAMP}, exclusive`),
  vends: z.number().int().describe('sales inside the window; 0 against a machine that sold before signals the move rule'),
  netSalesCents: cents('net (after tax) sales inside the window'),
  netSales: amount('net sales'),
  bps: z.number().int(),
  shareCents: cents('bps over netSalesCents, rounded half up once per line'),
  share: amount('host share'),
  paid: z.boolean().describe('on a statement recorded as paid (its bps are frozen)'),
});

const PnlMoney = {
  grossCents: cents('receipt amounts of sales (shipped orders; refunded ones are not sales)'),
  taxCents: cents('tax inside gross, per order at its effective rate'),
  netCents: cents('gross − tax'),
  fifoCogsCents: cents('FIFO cost drawn by sales in the range'),
  hostShareCents: cents('sum of hostLines[].shareCents'),
  referralsCents: cents('referral entries'),
  payrollCents: cents('payroll entries'),
  feeCents: cents('the 2% fee: 200 bps of each sale’s receipt amount, rounded per sale'),
  expensesCents: cents('expense entries'),
  operatorNetCents: cents('net − FIFO − host share − referrals − payroll − fee − expenses'),
  gross: amount('gross'),
  tax: amount('tax'),
  net: amount('net'),
  fifoCogs: amount('FIFO cost'),
  hostShare: amount('host share'),
  referrals: amount('referrals'),
  payroll: amount('payroll'),
  fee: amount('2% fee'),
  expenses: amount('expenses'),
  operatorNet: amount('operator net'),
};

export const Pnl = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.literal('UTC'),
  machineNo: z.string().nullable(),
  venueId: z.string().nullable(),
  operatorEmail: z.string().nullable(),
  vends: z.number().int().describe('sales counted in gross'),
  refundedCount: z.number().int(),
  refundedCents: cents('receipt amounts of refunded orders in the range (not in gross)'),
  ...PnlMoney,
  feeBps: z.number().int(),
  identity: z.string().describe('gross − tax = net − FIFO − host share − referrals − payroll − 2% fee − expenses = operator net, in decimal amounts'),
  hostLines: z.array(HostLineView),
});
export type Pnl = z.infer<typeof Pnl>;

// --- payouts --------------------------------------------------------------------------------------

export const PayoutsQuery = z.object({
  period: PeriodString.optional().describe('YYYY-MM (UTC); default the last month that ended'),
  venueId: venueId.optional(),
  operatorEmail: OperatorEmail.optional().describe('admin credentials only'),
});
export type PayoutsQuery = z.output<typeof PayoutsQuery>;

export const PayBody = z.strictObject({
  venueId,
  period: PeriodString,
  reference: safeString({ trim: true }).min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
});
export type PayBody = z.output<typeof PayBody>;

export const StatementView = z.object({
  venueId: z.string(),
  venueName: z.string(),
  period: z.string(),
  status: z.enum(['paid', 'unpaid']),
  payable: z.boolean().describe('unpaid and the period has ended: POST /api/v1/payouts may record it'),
  bps: z.number().int().describe("the venue's revShareBps (frozen on a paid statement)"),
  vends: z.number().int(),
  netSalesCents: cents('net sales of every line'),
  totalCents: cents('sum of the lines’ shares: what the host is paid'),
  total: amount('what the host is paid'),
  reference: z.string().nullable(),
  paidAt: z.string().nullable().describe(TIMESTAMP),
  lines: z.array(HostLineView.omit({ venueId: true, venueName: true })),
});
export type StatementView = z.infer<typeof StatementView>;

export const PayoutsView = z.object({
  period: z.string(),
  operatorEmail: z.string().nullable(),
  statements: z.array(StatementView),
});

// --- balance sheet -------------------------------------------------------------------------------

export const BalanceQuery = z.object({
  asOf: Day.optional().describe('the balance at the end of this UTC day; default today'),
  operatorEmail: OperatorEmail.optional().describe('admin credentials only'),
});
export type BalanceQuery = z.output<typeof BalanceQuery>;

export const BalanceSheet = z.object({
  asOf: z.string(),
  timeZone: z.literal('UTC'),
  operatorEmail: z.string().nullable(),
  assets: z.object({ cashCents: cents('cash'), inventoryCents: cents('FIFO cost still in layers'), totalCents: cents('assets') }),
  cash: z.object({
    collectedCents: cents('receipt amounts of every order not refunded'),
    feesCents: cents('the 2% fee'),
    purchasesCents: cents('cost of every layer received'),
    payoutsCents: cents('host statements paid'),
    referralsCents: cents('referrals'),
    payrollCents: cents('payroll'),
    expensesCents: cents('expenses'),
    taxRemittedCents: cents('sales tax remitted'),
  }),
  liabilities: z.object({
    salesTaxPayableCents: cents('tax inside sales not yet remitted'),
    hostCommissionPayableCents: cents('host share accrued not yet paid out (negative: hosts were paid more than now accrues)'),
    refundsOwedCents: cents('orders flagged refund_owed'),
    awaitingVendCents: cents('orders paid and still awaiting their vend'),
    totalCents: cents('liabilities'),
  }),
  equity: z.object({ retainedEarningsCents: cents('cumulative operator net'), totalCents: cents('equity') }),
  identity: z.string().describe('assets = liabilities + equity, in decimal amounts'),
  balanced: z.boolean(),
});
export type BalanceSheet = z.infer<typeof BalanceSheet>;
