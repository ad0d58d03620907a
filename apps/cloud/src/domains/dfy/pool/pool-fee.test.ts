import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POOL_FEE_PCT, poolFee } from './pool-fee.ts';

/** The formula read literally in exact rationals (BigInt cents × 100), each term rounded half-up to the cent. */
function literal(revenueCents: number, costsCents: number): number {
  const half = (x100: bigint) => (x100 + 50n) / 100n; // x100 ≥ 0: a cent amount × 100, half-up to the cent
  const revenue = BigInt(Math.max(0, revenueCents));
  const component = half(revenue * 2n);
  const rest = revenue - BigInt(costsCents) - component;
  return Number(component + half((rest > 0n ? rest : 0n) * 2n));
}

describe('pool fee (2% × revenue + 2% × max(0, revenue − costs − the revenue component), spec 3 key rule 7)', () => {
  it('is 2%', () => expect(POOL_FEE_PCT).toBe(2));

  it('charges 2% of revenue and 2% of what is left after costs and that first part, to the cent', () => {
    // 1,000.00 revenue, 300.00 costs: 20.00 + 2% × (1,000.00 − 300.00 − 20.00 = 680.00) = 20.00 + 13.60 = 33.60
    expect(poolFee(100_000, 30_000)).toEqual({ revenueComponentCents: 2_000, profitComponentCents: 1_360, feeCents: 3_360 });
    // 12.34 revenue, no costs: 0.2468 → 0.25; 2% × (12.34 − 0.25 = 12.09) = 0.2418 → 0.24; fee 0.49
    expect(poolFee(1_234, 0)).toEqual({ revenueComponentCents: 25, profitComponentCents: 24, feeCents: 49 });
    // 7,777.77 revenue, 1,234.56 costs: 155.5554 → 155.56; 2% × (7,777.77 − 1,234.56 − 155.56 = 6,387.65) = 127.753 → 127.75
    expect(poolFee(777_777, 123_456)).toEqual({ revenueComponentCents: 15_556, profitComponentCents: 12_775, feeCents: 28_331 });
  });

  it('rounds each term half-up on its own', () => {
    // 0.25: 0.005 → 0.01; 2% × (0.25 − 0.01) = 0.0048 → 0.00
    expect(poolFee(25, 0).feeCents).toBe(1);
    // 0.75: 0.015 → 0.02; 2% × 0.73 = 0.0146 → 0.01
    expect(poolFee(75, 0)).toEqual({ revenueComponentCents: 2, profitComponentCents: 1, feeCents: 3 });
    // 0.24: 0.0048 → 0.00
    expect(poolFee(24, 0).feeCents).toBe(0);
  });

  it('charges only the revenue part when costs eat the profit, and nothing without revenue', () => {
    expect(poolFee(10_000, 20_000)).toEqual({ revenueComponentCents: 200, profitComponentCents: 0, feeCents: 200 });
    // exactly at the edge: 100.00 − 98.00 − 2.00 = 0
    expect(poolFee(10_000, 9_800).feeCents).toBe(200);
    expect(poolFee(10_000, 9_799).feeCents).toBe(200); // 2% × 0.01 = 0.0002 → 0
    expect(poolFee(10_000, 9_775).feeCents).toBe(201); // 2% × 0.25 = 0.005 → 0.01
    expect(poolFee(0, 5_000).feeCents).toBe(0);
    expect(poolFee(-1_000, 0).feeCents).toBe(0); // a month of refunds charges nothing
  });

  it('equals the formula computed in exact rationals, and stays between 2% and 4% of revenue (± a cent per term)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000_000 }), fc.integer({ min: 0, max: 1_000_000_000 }), (revenue, costs) => {
        const f = poolFee(revenue, costs);
        expect(f.feeCents).toBe(literal(revenue, costs));
        const r = Math.max(0, revenue);
        expect(f.feeCents).toBeGreaterThanOrEqual(Math.floor((r * 2) / 100));
        expect(f.feeCents).toBeLessThanOrEqual(Math.ceil((r * 4) / 100) + 1);
        // more costs never raise the fee
        expect(poolFee(revenue, costs + 1).feeCents).toBeLessThanOrEqual(f.feeCents);
      }),
    );
  });
});
