import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { centsToDecimal, decimalAmount, decimalToCents } from './money.ts';

describe('money at the edge', () => {
  it('converts cents to decimals', () => {
    expect(centsToDecimal(175)).toBe(1.75);
    expect(centsToDecimal(5)).toBe(0.05);
    expect(centsToDecimal(0)).toBe(0);
    expect(centsToDecimal(-129)).toBe(-1.29);
  });

  it('converts decimals with at most two places to cents, exactly', () => {
    expect(decimalToCents(1.75)).toBe(175);
    expect(decimalToCents(1.15)).toBe(115); // 1.15 * 100 is 114.99999999999999 in binary
    expect(decimalToCents(0.29)).toBe(29);
    expect(decimalToCents(3)).toBe(300);
    expect(Object.is(decimalToCents(-0), 0)).toBe(true);
  });

  it('refuses more than two decimals and non-finite numbers', () => {
    expect(decimalToCents(1.755)).toBeNull();
    expect(decimalToCents(1.005)).toBeNull();
    expect(decimalToCents(0.001)).toBeNull();
    expect(decimalToCents(Number.NaN)).toBeNull();
    expect(decimalToCents(Number.POSITIVE_INFINITY)).toBeNull();
    expect(decimalToCents(1e300)).toBeNull();
  });

  it('round-trips every whole number of cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        expect(decimalToCents(centsToDecimal(cents))).toBe(cents === 0 ? 0 : cents);
      }),
    );
  });

  it('the request field parses to cents and refuses negatives, over-precise and over-large amounts', () => {
    const field = decimalAmount(1000);
    expect(field.parse(1.75)).toBe(175);
    expect(field.parse(0)).toBe(0);
    expect(field.safeParse(-0.01).success).toBe(false);
    expect(field.safeParse(1.755).success).toBe(false);
    expect(field.safeParse(1000.01).success).toBe(false);
    expect(field.safeParse('1.75').success).toBe(false);
  });
});
