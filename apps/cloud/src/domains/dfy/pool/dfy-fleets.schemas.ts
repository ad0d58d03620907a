import { z } from 'zod';
import { TIERS } from '../deals/catalog.ts';
import { TIMESTAMP, confirm } from '../deals/dfy.schemas.ts';

/** Spec 3 §8: an investment is 50 to 250,000 USD. */
export const INVEST_MIN_USD = 50;
export const INVEST_MAX_USD = 250_000;

export const InvestBody = z.strictObject({
  investUsd: z
    .number()
    .min(INVEST_MIN_USD, `must be at least ${INVEST_MIN_USD} USD`)
    .max(INVEST_MAX_USD, `must be at most ${INVEST_MAX_USD} USD`)
    .multipleOf(0.01, 'must be whole cents')
    .describe('USD, 50 to 250,000, in whole cents; charged through the payment processor'),
  confirm,
  targetModel: z.enum(TIERS).optional().describe("the catalog tier the pool funds from now on (default pro; left out: the pool's current target)"),
});
export type InvestBody = z.infer<typeof InvestBody>;

export const INVESTMENT_STATUSES = ['awaiting_payment', 'paid'] as const;

export const Investment = z.object({
  id: z.string(),
  status: z.enum(INVESTMENT_STATUSES).describe('awaiting_payment until the processor reports the payment; then paid and in the pool'),
  investUsd: z.number(),
  currency: z.literal('USD'),
  processor: z.string(),
  paymentIntentId: z.string(),
  checkoutUrl: z.string().describe("where the payment is made (the processor's hosted page)"),
  targetModel: z.enum(TIERS).describe('the tier the pool funds'),
  createdAt: z.string().describe(TIMESTAMP),
  paidAt: z.string().nullable().describe(TIMESTAMP),
});

const HistoryInvestment = z.object({
  kind: z.literal('investment'),
  id: z.string(),
  at: z.string().describe(`${TIMESTAMP}; when it was made`),
  amountUsd: z.number(),
  status: z.enum(INVESTMENT_STATUSES),
  paidAt: z.string().nullable().describe(TIMESTAMP),
  paymentIntentId: z.string(),
});
const HistoryAllocation = z.object({
  kind: z.literal('allocation'),
  id: z.string(),
  at: z.string().describe(TIMESTAMP),
  amountUsd: z.number().describe('the catalog price of the tier, taken from the balance'),
  dealId: z.string().describe('the fully managed deal it funded'),
  tier: z.enum(TIERS),
  investmentId: z.string().describe('the investment whose payment funded it'),
  balanceAfterUsd: z.number(),
  returnedAt: z.string().nullable().describe(`${TIMESTAMP}; the deal was cancelled before shipping and its price went back to the pool`),
});

export const FleetPool = z.object({
  balanceUsd: z.number().describe('capital awaiting allocation'),
  totalInvestedUsd: z.number().describe('every paid investment'),
  machinesFunded: z.number().int().describe('deals the pool funded (a deal cancelled before shipping and returned is not counted)'),
  feePercentage: z.literal(2).describe('the pool fee on pool-funded machines: 2% × revenue + 2% × max(0, revenue − costs − 2% × revenue), month to date'),
  targetModel: z.enum(TIERS),
  targetPriceUsd: z.number().describe('the catalog price of the target tier: each time the balance covers it, a deal is funded'),
  history: z
    .array(z.discriminatedUnion('kind', [HistoryInvestment, HistoryAllocation]))
    .describe('investments and allocations, newest first (the latest 200 of each)'),
});

export const FleetWebhookResult = z.object({
  eventId: z.string(),
  type: z.string(),
  duplicate: z.boolean().describe('This event id (or this investment) was already applied: nothing changed'),
  investmentId: z.string().nullable(),
  status: z.enum(INVESTMENT_STATUSES).nullable(),
  dealsFunded: z.array(z.string()).describe('the deals this payment funded'),
});
export type FleetWebhookResult = z.infer<typeof FleetWebhookResult>;
