import { z } from 'zod';

const cents = z.number().int().min(0);

/** `GET /api/v1/pricing`: the self-serve screen-ad price list in force. Amounts in integer cents. */
export const AdPricing = z.object({
  version: z.string().describe('The catalog version; a quote records the version it used'),
  effectiveDate: z.string().describe('YYYY-MM-DD: in force from 00:00 UTC of that day'),
  currency: z.literal('USD'),
  rates: z
    .object({ 'local-business': cents, 'brand-coop': cents })
    .describe('Cents per machine per month (30 days) per slot, by sponsor type (brand-coop: a brand stocked in the kiosk)'),
  volumeTiers: z
    .array(z.object({ minMachines: z.number().int(), maxMachines: z.number().int().nullable(), multiplierBps: z.number().int() }))
    .describe('Multiplier by the number of machines the reach resolves to, in basis points (9000 = 0.9)'),
  slotTiers: z.object({ standard: z.literal(1), double: z.literal(2) }).describe('Slots per loop rotation'),
  months: z.object({ min: z.number().int(), max: z.number().int() }),
  monthDays: z.literal(30),
  generationsPerPurchase: z.number().int().describe('Studio generations a buyer may use per purchase'),
  rule: z.string().describe('How a quote is computed, rounding included'),
});
export type AdPricing = z.infer<typeof AdPricing>;

/** `GET /api/v1/subscriptions/pricing`: the operator subscription in force. */
export const SubscriptionPricing = z.object({
  version: z.string(),
  effectiveDate: z.string(),
  currency: z.literal('USD'),
  perDeviceMonthlyCents: cents.describe('Cents per device (a machine in service) per period'),
  trialDays: z.number().int(),
  periodDays: z.number().int(),
});
export type SubscriptionPricing = z.infer<typeof SubscriptionPricing>;
