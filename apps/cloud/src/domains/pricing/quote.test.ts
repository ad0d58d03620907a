import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CATALOGS, type AdCatalog } from './catalog.ts';
import { monthlyRatePerMachineCents, multiplierBpsFor, priceQuote, splitLargestRemainder, totalCents } from './quote.ts';

const AD = CATALOGS[0]!.ad;

describe('volume multiplier by resolved machines (spec 1 §8)', () => {
  it.each([
    [1, 10_000],
    [2, 9_000],
    [5, 9_000],
    [6, 8_000],
    [20, 8_000],
    [21, 7_000],
    [500, 7_000],
  ])('%i machines → %i bps', (machines, bps) => {
    expect(multiplierBpsFor(AD, machines)).toBe(bps);
  });
  it('has no tier for 0 machines', () => {
    expect(() => multiplierBpsFor(AD, 0)).toThrow(RangeError);
  });
});

// rate × multiplier × slots × machines × months, worked by hand
const TABLE: [sponsor: 'local-business' | 'brand-coop', machines: number, slots: 1 | 2, months: number, total: number][] = [];
for (const [sponsor, rate] of [
  ['local-business', 9_900],
  ['brand-coop', 17_500],
] as const) {
  for (const [machines, mult] of [
    [1, 1.0],
    [2, 0.9],
    [5, 0.9],
    [6, 0.8],
    [20, 0.8],
    [21, 0.7],
  ] as const) {
    for (const slots of [1, 2] as const)
      for (const months of [1, 6]) TABLE.push([sponsor, machines, slots, months, Math.round(rate * mult * slots * machines * months)]);
  }
}

describe('the quote rule, every tier boundary × slots × months × sponsor type', () => {
  it.each(TABLE)('%s, %i machines, %i slot(s), %i month(s) → %i cents', (sponsorType, machines, slots, months, total) => {
    const q = priceQuote(AD, { sponsorType, slots, months, operators: [{ operatorId: 'op', machines }] });
    expect(q.totalCents).toBe(total);
    expect(q.machines).toBe(machines);
    expect(q.monthlyRatePerMachineCents * machines * months).toBe(total);
  });

  it('spot checks in currency: 99.00 × 0.9 × 2 slots × 3 kiosks × 6 months = 3,207.60; 175.00 × 0.7 × 21 = 2,572.50', () => {
    expect(priceQuote(AD, { sponsorType: 'local-business', slots: 2, months: 6, operators: [{ operatorId: 'a', machines: 3 }] }).totalCents).toBe(320_760);
    expect(priceQuote(AD, { sponsorType: 'brand-coop', slots: 1, months: 1, operators: [{ operatorId: 'a', machines: 21 }] }).totalCents).toBe(257_250);
  });
});

describe('rounding: exact integer product, divided by 10000, half up once at the end', () => {
  const odd: AdCatalog = { ...AD, rates: { 'local-business': 1_005, 'brand-coop': 1 }, volumeTiers: [{ minMachines: 1, multiplierBps: 9_950 }] };

  it('rounds a half cent up (1005 × 0.995 = 999.975 → 1000; 1 × 0.995 × 2 = 1.99 → 2)', () => {
    expect(totalCents({ rateCents: 1_005, multiplierBps: 9_950, slots: 1, machines: 1, months: 1 })).toBe(1_000);
    expect(totalCents({ rateCents: 1, multiplierBps: 5_000, slots: 1, machines: 1, months: 1 })).toBe(1); // 0.5 → 1
    expect(totalCents({ rateCents: 1, multiplierBps: 4_999, slots: 1, machines: 1, months: 1 })).toBe(0);
    expect(totalCents({ rateCents: 1, multiplierBps: 9_950, slots: 2, machines: 1, months: 1 })).toBe(2);
  });

  it('rounds once at the end, never per factor: 1 × 0.5 × 3 months = 1.5 → 2 (rounding the monthly 0.5 first would give 3)', () => {
    expect(totalCents({ rateCents: 1, multiplierBps: 5_000, slots: 1, machines: 1, months: 3 })).toBe(2);
    expect(monthlyRatePerMachineCents({ rateCents: 1, multiplierBps: 5_000, slots: 1 })).toBe(1);
  });

  it('is exact where floating point is not (amounts past 2^53 / 10000 are still integers)', () => {
    expect(totalCents({ rateCents: 17_500, multiplierBps: 7_000, slots: 2, machines: 100_000, months: 6 })).toBe(14_700_000_000);
  });

  it('prices a catalog with odd rates the same way', () => {
    expect(priceQuote(odd, { sponsorType: 'local-business', slots: 1, months: 1, operators: [{ operatorId: 'a', machines: 1 }] }).totalCents).toBe(1_000);
  });
});

describe('the split between operators: pro rata by machines, largest remainder', () => {
  it('gives each operator its machines’ share and sums to the total exactly', () => {
    // 3 kiosks at 0.9: 9900 × 0.9 × 3 = 26730; 2 : 1 → 17820 / 8910
    const q = priceQuote(AD, {
      sponsorType: 'local-business',
      slots: 1,
      months: 1,
      operators: [
        { operatorId: 'a', machines: 2 },
        { operatorId: 'b', machines: 1 },
      ],
    });
    expect(q.totalCents).toBe(26_730);
    expect(q.parts).toEqual([
      { operatorId: 'a', machines: 2, amountCents: 17_820 },
      { operatorId: 'b', machines: 1, amountCents: 8_910 },
    ]);
  });

  it('hands the cents left over to the largest remainders (100 over 3 equal parts: 34, 33, 33)', () => {
    expect(splitLargestRemainder(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(splitLargestRemainder(101, [1, 1, 1])).toEqual([34, 34, 33]);
    expect(splitLargestRemainder(10, [1, 2, 3])).toEqual([2, 3, 5]); // 1.67, 3.33, 5 → 1+1, 3, 5
    expect(splitLargestRemainder(7, [5])).toEqual([7]);
  });

  it('always sums to the total, and no part is off its exact share by a cent or more', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_000 }),
        fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 30 }),
        (total, weights) => {
          const parts = splitLargestRemainder(total, weights);
          const sum = weights.reduce((a, b) => a + b, 0);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
          parts.forEach((p, i) => expect(Math.abs(p - (total * weights[i]!) / sum)).toBeLessThan(1));
        },
      ),
    );
  });
});
