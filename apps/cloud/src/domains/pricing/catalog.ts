import type { SponsorType } from '../campaigns/campaigns.schemas.ts';

/**
 * The price lists (spec 1 §2.10, §4.7, §8) as versioned data: a new price is a new entry, never an
 * edit of a published one (a purchase records the version it was quoted from, and that version must
 * keep meaning what it meant). The catalog in force at an instant is the latest whose
 * `effectiveDate` (a UTC day) has begun.
 */

/** A volume tier: from `minMachines` resolved machines, the multiplier in basis points (10000 = 1.0). */
export interface VolumeTier {
  minMachines: number;
  multiplierBps: number;
}

export interface AdCatalog {
  /** Cents per machine per month per slot, by sponsor type. */
  rates: Record<SponsorType, number>;
  /** Ascending by `minMachines`; the first starts at 1. */
  volumeTiers: readonly VolumeTier[];
  /** Slots per loop rotation of each tier (spec 1 §8: standard 1, double 2). */
  slotTiers: { standard: 1; double: 2 };
  /** Flight length in 30-day months. */
  months: { min: number; max: number };
  /** Studio generations a buyer may use per purchase (banner and video combined). */
  generationsPerPurchase: number;
}

export interface SubscriptionCatalog {
  /** Cents per device (a machine in service) per period. */
  perDeviceMonthlyCents: number;
  trialDays: number;
  periodDays: number;
}

export interface PricingCatalog {
  version: string;
  /** `YYYY-MM-DD`: in force from 00:00 UTC of that day until the next version's. */
  effectiveDate: string;
  currency: 'USD';
  ad: AdCatalog;
  subscription: SubscriptionCatalog;
}

/** Every published catalog, oldest first. Append; never edit or remove a published entry. */
export const CATALOGS: readonly PricingCatalog[] = Object.freeze([
  {
    version: '2026-01',
    effectiveDate: '2026-01-01',
    currency: 'USD',
    ad: {
      rates: { 'local-business': 9_900, 'brand-coop': 17_500 },
      volumeTiers: [
        { minMachines: 1, multiplierBps: 10_000 },
        { minMachines: 2, multiplierBps: 9_000 },
        { minMachines: 6, multiplierBps: 8_000 },
        { minMachines: 21, multiplierBps: 7_000 },
      ],
      slotTiers: { standard: 1, double: 2 },
      months: { min: 1, max: 6 },
      generationsPerPurchase: 3,
    },
    subscription: { perDeviceMonthlyCents: 1_900, trialDays: 14, periodDays: 30 },
  },
]);

/** 00:00 UTC of a catalog's effective day, in epoch ms. */
export function effectiveAt(c: Pick<PricingCatalog, 'effectiveDate'>): number {
  return Date.parse(`${c.effectiveDate}T00:00:00Z`);
}

/** The catalog in force at `now`: the latest whose effective day has begun. Throws when none has (a deployment error, not a request's). */
export function catalogAt(now: number, catalogs: readonly PricingCatalog[] = CATALOGS): PricingCatalog {
  let current: PricingCatalog | undefined;
  for (const c of catalogs) if (effectiveAt(c) <= now && (!current || effectiveAt(c) >= effectiveAt(current))) current = c;
  if (!current) throw new Error(`no pricing catalog is in force at ${new Date(now).toISOString()}`);
  return current;
}

/** A catalog by its version (what a stored quote names); undefined when unknown. */
export function catalogVersion(version: string, catalogs: readonly PricingCatalog[] = CATALOGS): PricingCatalog | undefined {
  return catalogs.find((c) => c.version === version);
}
