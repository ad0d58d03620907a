import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { effectiveRate, splitTax } from './tax-split.ts';

describe('tax-inclusive split', () => {
  it('takes tax out of the receipt amount', () => {
    // 175 × 8.875 / 108.875 = 14.265… → 14
    expect(splitTax(175, 8.875)).toEqual({ taxCents: 14, netCents: 161 });
    // 1000 × 10 / 110 = 90.909… → 91
    expect(splitTax(1000, 10)).toEqual({ taxCents: 91, netCents: 909 });
    // 210 × 5 / 105 = 10 exactly
    expect(splitTax(210, 5)).toEqual({ taxCents: 10, netCents: 200 });
  });

  it('rounds exact halves up', () => {
    // 3 × 20 / 120 = 0.5 → 1
    expect(splitTax(3, 20)).toEqual({ taxCents: 1, netCents: 2 });
    // 9 × 20 / 120 = 1.5 → 2
    expect(splitTax(9, 20)).toEqual({ taxCents: 2, netCents: 7 });
  });

  it('reads the rate exactly as written, however many decimals or however small', () => {
    // 9999525 × 0.001955131091549689 / 100.001955131091549689 = 195.5000000001… → 196 (a rate rounded to
    // millionths of a percent would give 195)
    expect(splitTax(9_999_525, 0.001955131091549689).taxCents).toBe(196);
    expect(splitTax(10_000_000, 1e-7).taxCents).toBe(0);
    expect(splitTax(1000, 1e21).taxCents).toBe(1000);
  });

  it('without a positive rate there is no tax and net equals the charge', () => {
    expect(splitTax(175, null)).toEqual({ taxCents: 0, netCents: 175 });
    expect(splitTax(175, 0)).toEqual({ taxCents: 0, netCents: 175 });
    expect(splitTax(175, -5)).toEqual({ taxCents: 0, netCents: 175 });
  });

  it('tax + net always equals the charge, and tax never exceeds it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.double({ min: 0.001, max: 50, noNaN: true }), (charged, rate) => {
        const { taxCents, netCents } = splitTax(charged, rate);
        expect(taxCents + netCents).toBe(charged);
        expect(taxCents).toBeGreaterThanOrEqual(0);
        expect(taxCents).toBeLessThanOrEqual(charged);
        expect(Math.abs(taxCents - (charged * rate) / (100 + rate))).toBeLessThanOrEqual(0.5 + 1e-9);
      }),
    );
  });

  it('a stamped rate wins over the machine rate; unstamped sales follow the machine', () => {
    expect(effectiveRate(5, 8.875)).toBe(5);
    expect(effectiveRate(null, 8.875)).toBe(8.875);
    expect(effectiveRate(null, null)).toBeNull();
    expect(effectiveRate(0, 8.875)).toBe(0);
  });
});
