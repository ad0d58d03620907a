/**
 * The done-for-you machine catalog (spec 3 §2): model tiers and their prices, data in integer cents.
 * Every checkout amount is read here; an amount a client sends is never read (docs/decisions/dfy.md).
 */
export const TIERS = ['entry', 'pro', 'pro-max'] as const;
export type Tier = (typeof TIERS)[number];

export const CATALOG_VERSION = '2026-11-01';

export const CATALOG: readonly { tier: Tier; name: string; priceCents: number }[] = [
  { tier: 'entry', name: 'Entry smart kiosk', priceCents: 300_000 },
  { tier: 'pro', name: 'Pro smart kiosk', priceCents: 500_000 },
  { tier: 'pro-max', name: 'Pro-max smart kiosk', priceCents: 700_000 },
];

export function priceOf(tier: Tier): number {
  const e = CATALOG.find((c) => c.tier === tier);
  if (!e) throw new Error(`no catalog tier ${tier}`);
  return e.priceCents;
}
