import { z } from 'zod';
import { MAX_AISLE_NO } from '../inventory/inventory.schemas.ts';
import { OrderFilterQuery } from '../orders/orders.schemas.ts';
import { PagingQuery } from '../../http/paging.ts';

export const PaymentsQuery = PagingQuery.extend(OrderFilterQuery.shape);
export const PaymentsSummaryQuery = OrderFilterQuery;

const ref = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only');

/** The largest amount one capture may carry: 100,000.00 in cents. */
export const MAX_CAPTURE_CENTS = 10_000_000;

const Captured = z.strictObject({
  id: ref,
  type: z.literal('payment.captured'),
  data: z.strictObject({
    paymentId: ref,
    terminalId: ref,
    amountCents: z.number().int().min(0).max(MAX_CAPTURE_CENTS),
    cardBrand: z
      .string()
      .min(1)
      .max(32)
      .regex(/^[a-z0-9_]+$/, 'lower-case letters, digits and _ only'),
    last4: z.string().regex(/^\d{4}$/, 'four digits'),
    method: z.enum(['card', 'wallet']).default('card'),
    /** The cabinet's order this payment paid for; when it exists the payment is attached to it. */
    orderNumber: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only')
      .optional(),
    /** Needed when the payment records a new order. */
    aisleNo: z.number().int().min(1).max(MAX_AISLE_NO).optional(),
    quantity: z.number().int().min(1).max(100).default(1),
  }),
});

const Refunded = z.strictObject({
  id: ref,
  type: z.literal('payment.refunded'),
  data: z.strictObject({ paymentId: ref, reason: z.string().max(255).optional() }),
});

/** The provider's event body (docs/payments-webhook.md). */
export const WebhookEvent = z.discriminatedUnion('type', [Captured, Refunded]);
export type WebhookEvent = z.output<typeof WebhookEvent>;
export type CapturedEvent = z.output<typeof Captured>;
export type RefundedEvent = z.output<typeof Refunded>;

export const WebhookResult = z.object({
  eventId: z.string(),
  type: z.string(),
  duplicate: z.boolean().describe('true when this event (or this payment’s capture) was already processed: nothing changed'),
  orderNumber: z.string().nullable(),
  payStatus: z.string().nullable(),
});
export type WebhookResult = z.infer<typeof WebhookResult>;

export const PaymentRecord = z.object({
  orderNumber: z.string(),
  machineNo: z.string(),
  terminalId: z.string(),
  cardBrand: z.string().nullable(),
  last4: z.string().nullable(),
  settlementAccount: z.string().nullable(),
  payMethod: z.string(),
  amount: z.number().describe('decimal currency amount: the receipt amount'),
  amountCents: z.number().int(),
  status: z.enum(['captured', 'refunded']),
  payStatus: z.string(),
  createdAt: z.string(),
});
export type PaymentRecord = z.infer<typeof PaymentRecord>;

export const PaymentsPage = z.object({ page: z.number(), size: z.number(), total: z.number(), timeZone: z.string(), records: z.array(PaymentRecord) });

const Totals = {
  count: z.number().int(),
  capturedCents: z.number().int().describe('every cashless receipt amount, refunded or not'),
  refundedCents: z.number().int(),
  settledCents: z.number().int().describe('captured − refunded'),
};
export const AccountTotals = z.object({ settlementAccount: z.string(), ...Totals });
export type AccountTotals = z.infer<typeof AccountTotals>;
export const PaymentsSummary = z.object({
  machineNo: z.string().nullable(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  timeZone: z.string(),
  ...Totals,
  accounts: z.array(AccountTotals),
});
export type PaymentsSummary = z.infer<typeof PaymentsSummary>;

export const Terminal = z.object({
  terminalId: z.string(),
  machineNo: z.string(),
  provider: z.string(),
  settlementAccount: z.string().describe('the merchant account the reader feeds'),
  boundAt: z.string(),
});
export type Terminal = z.infer<typeof Terminal>;
