import { describe, expect, it } from 'vitest';
import { conciergeFeeCents } from './concierge-fee.ts';

const at = (iso: string) => Date.parse(iso);

describe('concierge fee (99 USD/month prorated by enrolled days, spec 3 §8)', () => {
  it('prorates each month by its own length, to the cent, across a month boundary', () => {
    // Jan 30–31 of 31 days + Feb 1–2 of 28 days (2027): 9900×2/31 = 638.71 → 639; 9900×2/28 = 707.14 → 707
    expect(conciergeFeeCents([{ from: at('2027-01-30T10:00:00Z'), to: at('2027-02-02T08:00:00Z') }], at('2027-03-01T00:00:00Z'))).toBe(639 + 707);
    // a leap February: 2 of 29 days = 682.76 → 683
    expect(conciergeFeeCents([{ from: at('2028-01-30T10:00:00Z'), to: at('2028-02-02T08:00:00Z') }], at('2028-03-01T00:00:00Z'))).toBe(639 + 683);
  });

  it('charges a whole month as 99.00 and a year boundary month by month', () => {
    expect(conciergeFeeCents([{ from: at('2026-11-01T00:00:00Z'), to: at('2026-11-30T23:59:59Z') }], at('2027-01-01T00:00:00Z'))).toBe(9900);
    // Dec 31 (1 of 31) + Jan 1 (1 of 31): 319.35 → 319 each
    expect(conciergeFeeCents([{ from: at('2026-12-31T22:00:00Z'), to: at('2027-01-01T01:00:00Z') }], at('2027-02-01T00:00:00Z'))).toBe(319 * 2);
  });

  it('an active enrolment accrues up to now; a takeback stops it and what accrued stays owed', () => {
    const from = at('2026-11-20T12:00:00Z');
    const active = conciergeFeeCents([{ from, to: null }], at('2026-11-26T09:00:00Z'));
    expect(active).toBe(Math.round((9900 * 7) / 30)); // 20..26 = 7 days
    const later = conciergeFeeCents([{ from, to: at('2026-11-26T09:00:00Z') }], at('2026-12-15T00:00:00Z'));
    expect(later).toBe(active);
  });

  it('counts a day once when enrolled twice on it, and windows month-to-date by `since`', () => {
    const periods = [
      { from: at('2026-11-10T08:00:00Z'), to: at('2026-11-10T09:00:00Z') },
      { from: at('2026-11-10T18:00:00Z'), to: at('2026-11-11T09:00:00Z') },
    ];
    expect(conciergeFeeCents(periods, at('2026-11-30T00:00:00Z'))).toBe(Math.round((9900 * 2) / 30));
    const mtd = conciergeFeeCents([{ from: at('2026-10-25T00:00:00Z'), to: null }], at('2026-11-03T05:00:00Z'), at('2026-11-01T00:00:00Z'));
    expect(mtd).toBe(Math.round((9900 * 3) / 30));
  });
});
