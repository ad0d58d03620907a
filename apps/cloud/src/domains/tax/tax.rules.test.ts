import { describe, expect, it } from 'vitest';
import { periodBounds } from '../calendar/period.ts';
import { BEGINNING, END_OF_TIME, bpsToPercent, mergeClosed, openRanges, pinRate, remitRefusal, restatementRanges, saleTaxRate } from './tax.rules.ts';

const at = (iso: string) => Date.parse(iso);
const schedule = [
  { effectiveAt: at('2026-07-01T00:00:00Z'), bps: 600 },
  { effectiveAt: at('2026-01-01T00:00:00Z'), bps: 888 },
];

describe('the sale-time rate', () => {
  it('is the machine’s own rate when recorded, else the schedule row in effect, else none', () => {
    expect(saleTaxRate(8.875, { effectiveAt: 0, bps: 600 })).toBe(8.875);
    expect(saleTaxRate(0, { effectiveAt: 0, bps: 600 })).toBe(0);
    expect(saleTaxRate(null, { effectiveAt: 0, bps: 888 })).toBe(8.88);
    expect(saleTaxRate(null, null)).toBeNull();
  });
  it('reads basis points as hundredths of a percent, exactly', () => {
    expect(bpsToPercent(888)).toBe(8.88);
    expect(bpsToPercent(1)).toBe(0.01);
    expect(bpsToPercent(0)).toBe(0);
  });
});

describe('closed periods', () => {
  it('merge remitted and paid out, one entry per period, remitted first as the reason', () => {
    expect(mergeClosed(['2026-09', '2026-07'], ['2026-08', '2026-09'])).toEqual([
      { period: '2026-07', reason: 'remitted' },
      { period: '2026-08', reason: 'paid_out' },
      { period: '2026-09', reason: 'remitted' },
    ]);
    expect(mergeClosed([], [])).toEqual([]);
  });
  it('leave open everything outside them, adjacent ones merged', () => {
    expect(openRanges([])).toEqual([{ from: BEGINNING, until: END_OF_TIME }]);
    const closed = mergeClosed(['2026-07', '2026-08'], ['2026-10']);
    expect(openRanges(closed)).toEqual([
      { from: BEGINNING, until: periodBounds('2026-07').start },
      { from: periodBounds('2026-08').end, until: periodBounds('2026-10').start },
      { from: periodBounds('2026-10').end, until: END_OF_TIME },
    ]);
  });
});

describe('what a machine-rate change restates', () => {
  const closed = mergeClosed(['2026-03'], []);
  it('a recorded rate: every open instant at that rate', () => {
    expect(restatementRanges(closed, 7.25, schedule)).toEqual([
      { from: BEGINNING, until: periodBounds('2026-03').start, rate: 7.25 },
      { from: periodBounds('2026-03').end, until: END_OF_TIME, rate: 7.25 },
    ]);
  });
  it('a cleared rate: the schedule row in effect at each instant, 0 before the first, never inside a closed period', () => {
    expect(restatementRanges(closed, null, schedule)).toEqual([
      { from: BEGINNING, until: at('2026-01-01T00:00:00Z'), rate: 0 },
      { from: at('2026-01-01T00:00:00Z'), until: periodBounds('2026-03').start, rate: 8.88 },
      { from: periodBounds('2026-03').end, until: at('2026-07-01T00:00:00Z'), rate: 8.88 },
      { from: at('2026-07-01T00:00:00Z'), until: END_OF_TIME, rate: 6 },
    ]);
    expect(restatementRanges([], null, [])).toEqual([{ from: BEGINNING, until: END_OF_TIME, rate: 0 }]);
  });
  it('pins unstamped orders of closed periods at the rate they were reported at (0: none)', () => {
    expect(pinRate(8.875)).toBe(8.875);
    expect(pinRate(null)).toBe(0);
  });
});

describe('remitting a period', () => {
  const now = at('2026-11-20T12:00:00Z');
  it('only once it has ended', () => {
    expect(remitRefusal('2026-10', now)).toBeNull();
    expect(remitRefusal('2019-01', now)).toBeNull();
    expect(remitRefusal('2026-11', now)).toMatch(/current period/);
    expect(remitRefusal('2026-12', now)).toMatch(/not started/);
    expect(remitRefusal('2026-10', at('2026-10-31T23:59:59.999Z'))).toMatch(/current period/);
    expect(remitRefusal('2026-10', at('2026-11-01T00:00:00Z'))).toBeNull();
  });
});
