import { z } from 'zod';
import { PagingQuery } from '../../http/paging.ts';
import { WALL_CLOCK_PATTERN } from '../calendar/local-time.ts';

const wallClock = z.string().regex(WALL_CLOCK_PATTERN, 'must be in the form YYYY-MM-DD HH:MM:SS');

/** The filters every order and payment read honours. */
export const OrderFilterQuery = z.object({
  machineNo: z.string().min(1).optional(),
  startTime: wallClock.optional().describe("inclusive; read in the machine's time zone when machineNo names one, else UTC"),
  endTime: wallClock.optional().describe('inclusive to the second; same time zone as startTime'),
});
export type OrderFilterInput = z.output<typeof OrderFilterQuery>;

/** The most days one summary's `byDay` series covers (a year, leap day included). */
export const MAX_SERIES_DAYS = 366;

export const OrdersQuery = PagingQuery.extend(OrderFilterQuery.shape).extend({
  payStatus: z.string().min(1).max(32).optional().describe('only orders in this pay status (paid, shipped, refunded, refund_owed)'),
  channel: z.string().min(1).max(32).optional().describe('only orders of this sales channel (walkup, api_drop, …)'),
});
export type OrdersInput = z.output<typeof OrdersQuery>;
export const SummaryQuery = OrderFilterQuery;
export const OrderParams = z.object({ orderNumber: z.string().min(1).max(128) });

export const Payment = z.object({
  terminalId: z.string(),
  cardBrand: z.string().nullable(),
  last4: z.string().nullable(),
  settlementAccount: z.string().nullable().describe("always the machine owner's merchant account"),
});

export const OrderRefund = z
  .object({
    status: z
      .enum(['owed', 'issued', 'failed'])
      .describe('owed: not given back yet; issued: the processor took the refund; failed: the processor refused it (reason)'),
    amountCents: z.number().int(),
    reason: z.string().nullable().describe('why the processor refused it (failed only)'),
    refundId: z.string().nullable().describe("the processor's refund id"),
    at: z.string().nullable().describe('when it was issued, or last refused'),
  })
  .describe(
    'the money given back through the payment processor that took it (pay-by-phone orders whose drop failed or whose payment came after the checkout ended); retried automatically after a refusal, 3 attempts in all',
  );

export const Order = z.object({
  orderNumber: z.string(),
  machineNo: z.string(),
  aisleNo: z.number().int(),
  quantity: z.number().int(),
  payStatus: z.string().describe('shipped = paid and dispensed; refunded = customer refunded'),
  paidPrice: z.number().describe('decimal currency amount'),
  chargedCents: z.number().int().describe('the receipt amount; never restated'),
  netCents: z.number().int().describe('chargedCents − taxCents'),
  tax: z.number().describe('decimal currency amount of tax inside chargedCents'),
  taxCents: z.number().int(),
  taxRate: z.number().nullable().describe('percent applied: the rate stamped at sale time, else the machine’s current salesTaxRate; null when no tax applies'),
  channel: z.string(),
  payMethod: z.string(),
  createdAt: z.string(),
  payment: Payment.optional().describe('cashless orders only'),
  refund: OrderRefund.nullable().optional().describe('pay-by-phone orders only (paid through a payment processor); null: nothing is owed back'),
});
export type Order = z.infer<typeof Order>;

export const OrdersPage = z.object({
  page: z.number(),
  size: z.number(),
  total: z.number(),
  timeZone: z.string().describe('the zone startTime/endTime were read in'),
  records: z.array(Order),
});

const Money = {
  count: z.number().int(),
  grossCents: z.number().int().describe('sum of chargedCents, every status'),
  refundedCents: z.number().int().describe('chargedCents of refunded orders'),
  salesCents: z.number().int().describe('gross − refunded'),
  taxCents: z.number().int().describe('tax inside sales (refunded orders carry none)'),
  netCents: z.number().int().describe('sales − tax'),
};
export const Rollup = z.object(Money);
export type Rollup = z.infer<typeof Rollup>;

export const OrdersSummary = z.object({
  machineNo: z.string().nullable(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  timeZone: z.string(),
  ...Money,
  byChannel: z.array(z.object({ channel: z.string(), ...Money })),
  byPayStatus: z.array(z.object({ payStatus: z.string(), count: z.number().int(), chargedCents: z.number().int() })),
  byMachine: z.array(z.object({ machineNo: z.string(), ...Money })),
  byDay: z
    .array(z.object({ date: z.string().describe('YYYY-MM-DD, a calendar day in timeZone'), ...Money }))
    .nullable()
    .describe(
      `one entry per calendar day in timeZone from startTime's day to endTime's day, oldest first, days without orders as zeros; its sums are the totals. Null unless both startTime and endTime are given; a window over more than ${MAX_SERIES_DAYS} days is refused (400)`,
    ),
  currency: z
    .string()
    .nullable()
    .describe("the currency of the amounts: the operator's (the machine owner's when an admin names a machine); null for an admin's whole-fleet summary"),
});
export type OrdersSummary = z.infer<typeof OrdersSummary>;
