import { describe, expect, it } from 'vitest';
import { applyBps } from '../../http/money.ts';
import { PeriodString, periodBounds, periodOf, periodsBetween } from './period.ts';

describe('finance periods', () => {
  it('a period is the UTC calendar month', () => {
    expect(periodOf(Date.parse('2026-10-31T23:59:59.999Z'))).toBe('2026-10');
    expect(periodOf(Date.parse('2026-11-01T00:00:00.000Z'))).toBe('2026-11');
    expect(periodBounds('2026-12')).toEqual({ start: Date.parse('2026-12-01T00:00:00Z'), end: Date.parse('2027-01-01T00:00:00Z') });
    expect(periodBounds('2028-02').end - periodBounds('2028-02').start).toBe(29 * 86_400_000);
  });
  it('lists the periods a range touches', () => {
    expect(periodsBetween(Date.parse('2026-10-15T00:00:00Z'), Date.parse('2026-12-01T00:00:00Z'))).toEqual(['2026-10', '2026-11']);
    expect(periodsBetween(Date.parse('2026-10-15T00:00:00Z'), Date.parse('2026-12-01T00:00:00.001Z'))).toEqual(['2026-10', '2026-11', '2026-12']);
    expect(periodsBetween(5, 5)).toEqual([]);
  });
  it('accepts only real months', () => {
    expect(PeriodString.safeParse('2026-10').success).toBe(true);
    for (const bad of ['2026-13', '2026-1', '1969-12', '2026-10-01', '']) expect(PeriodString.safeParse(bad).success).toBe(false);
  });
});

describe('basis points', () => {
  it('rounds half up, once', () => {
    expect(applyBps(333, 1500)).toBe(50); // 49.95
    expect(applyBps(10_000, 200)).toBe(200);
    expect(applyBps(25, 200)).toBe(1); // 0.5 → 1
    expect(applyBps(24, 200)).toBe(0); // 0.48
    expect(applyBps(-25, 200)).toBe(-1);
    expect(applyBps(0, 1500)).toBe(0);
    expect(Object.is(applyBps(-1, 1), 0)).toBe(true);
  });
  it('is exact where floating point is not', () => {
    // 1005 × 1500 / 10000 = 150.75 exactly → 151; 2^53-range products stay exact
    expect(applyBps(1005, 1500)).toBe(151);
    expect(applyBps(9_007_199_254_740, 10_000)).toBe(9_007_199_254_740);
  });
  it('refuses non-integers', () => {
    expect(() => applyBps(1.5, 100)).toThrow(RangeError);
  });
});
