import { describe, expect, it } from 'vitest';
import { CATALOGS, catalogAt, catalogVersion, type PricingCatalog } from './catalog.ts';

const base = CATALOGS[0]!;
const v = (version: string, effectiveDate: string, local: number): PricingCatalog => ({
  ...base,
  version,
  effectiveDate,
  ad: { ...base.ad, rates: { ...base.ad.rates, 'local-business': local } },
});
const LIST = [v('a', '2026-01-01', 9_900), v('b', '2026-07-01', 10_900), v('c', '2027-01-01', 11_900)];
const at = (iso: string) => Date.parse(iso);

describe('pricing catalogs by date', () => {
  it('picks the latest version whose effective day (00:00 UTC) has begun', () => {
    expect(catalogAt(at('2026-03-15T12:00:00Z'), LIST).version).toBe('a');
    expect(catalogAt(at('2026-06-30T23:59:59.999Z'), LIST).version).toBe('a');
    expect(catalogAt(at('2026-07-01T00:00:00Z'), LIST).version).toBe('b');
    expect(catalogAt(at('2030-01-01T00:00:00Z'), LIST).version).toBe('c');
  });

  it('does not depend on the order the versions are listed in', () => {
    expect(catalogAt(at('2026-08-01T00:00:00Z'), [...LIST].reverse()).version).toBe('b');
  });

  it('refuses an instant before the first version (a deployment error, not a price)', () => {
    expect(() => catalogAt(at('2025-12-31T23:59:59Z'), LIST)).toThrow(/no pricing catalog/);
  });

  it('finds a stored quote’s version by name', () => {
    expect(catalogVersion('b', LIST)?.ad.rates['local-business']).toBe(10_900);
    expect(catalogVersion('zzz', LIST)).toBeUndefined();
  });

  it('publishes the spec’s prices: 99.00 local business, 175.00 co-op, tiers 1 / 2–5 / 6–20 / 21+, 1–6 months, 3 generations', () => {
    const c = catalogAt(at('2026-11-20T12:00:00Z'));
    expect(c.currency).toBe('USD');
    expect(c.ad.rates).toEqual({ 'local-business': 9_900, 'brand-coop': 17_500 });
    expect(c.ad.volumeTiers).toEqual([
      { minMachines: 1, multiplierBps: 10_000 },
      { minMachines: 2, multiplierBps: 9_000 },
      { minMachines: 6, multiplierBps: 8_000 },
      { minMachines: 21, multiplierBps: 7_000 },
    ]);
    expect(c.ad.slotTiers).toEqual({ standard: 1, double: 2 });
    expect(c.ad.months).toEqual({ min: 1, max: 6 });
    expect(c.ad.generationsPerPurchase).toBe(3);
    expect(c.subscription).toEqual({ perDeviceMonthlyCents: 1_900, trialDays: 14, periodDays: 30 });
  });

  it('keeps versions unique and effective dates valid', () => {
    expect(new Set(CATALOGS.map((c) => c.version)).size).toBe(CATALOGS.length);
    for (const c of CATALOGS) expect(c.effectiveDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
