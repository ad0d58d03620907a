import { describe, expect, it } from 'vitest';
import { budgetUse, funnelOf, judgeEvent, localDayBounds, parseEventTime, ratio, type EventJudgement } from './prizes.rules.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const base: EventJudgement = {
  kind: 'win',
  mechanic: 'spinToWin',
  at: NOW,
  now: NOW,
  mechanics: { spinToWin: { enabled: true, maxWinsPerDay: 3, maxPrizeCents: 500 }, scratchCard: { enabled: false, maxWinsPerDay: null, maxPrizeCents: null } },
  prizeCents: 200,
  winsThatDay: 0,
  spentThatPeriod: 0,
  budgetCents: 1000,
};

describe('judgeEvent', () => {
  it('accepts a win inside every cap and the budget', () => {
    expect(judgeEvent(base)).toBeNull();
    expect(judgeEvent({ ...base, prizeCents: 500, spentThatPeriod: 500, winsThatDay: 2 })).toBeNull();
  });

  it('refuses a disabled or never-set mechanic, for every kind', () => {
    for (const kind of ['entry', 'play', 'win'] as const) {
      expect(judgeEvent({ ...base, kind, mechanic: 'scratchCard' })).toBe('mechanic_disabled');
      expect(judgeEvent({ ...base, kind, mechanic: 'loyaltyStamp' })).toBe('mechanic_disabled');
    }
  });

  it('a scan naming no mechanic is accepted while any mechanic is on', () => {
    expect(judgeEvent({ ...base, kind: 'scan', mechanic: null })).toBeNull();
    expect(
      judgeEvent({ ...base, kind: 'scan', mechanic: null, mechanics: { scratchCard: { enabled: false, maxWinsPerDay: null, maxPrizeCents: null } } }),
    ).toBe('mechanic_disabled');
    expect(judgeEvent({ ...base, kind: 'scan', mechanic: null, mechanics: {} })).toBe('mechanic_disabled');
  });

  it('caps apply to wins only, in order: prize value, daily wins, budget', () => {
    expect(judgeEvent({ ...base, prizeCents: 501 })).toBe('over_max_prize_value');
    expect(judgeEvent({ ...base, winsThatDay: 3 })).toBe('over_daily_cap');
    expect(judgeEvent({ ...base, spentThatPeriod: 801 })).toBe('over_budget');
    expect(judgeEvent({ ...base, prizeCents: 600, winsThatDay: 3, spentThatPeriod: 1000 })).toBe('over_max_prize_value');
    expect(judgeEvent({ ...base, winsThatDay: 3, spentThatPeriod: 1000 })).toBe('over_daily_cap');
    expect(judgeEvent({ ...base, kind: 'play', winsThatDay: 9, spentThatPeriod: 5000, prizeCents: 9999 })).toBeNull();
  });

  it('null caps and budget never refuse; a free prize fits an exhausted budget', () => {
    const open = { ...base, mechanics: { spinToWin: { enabled: true, maxWinsPerDay: null, maxPrizeCents: null } }, budgetCents: null };
    expect(judgeEvent({ ...open, prizeCents: 1_000_000, winsThatDay: 10_000, spentThatPeriod: 1e9 })).toBeNull();
    expect(judgeEvent({ ...base, prizeCents: 0, spentThatPeriod: 1000 })).toBeNull();
    expect(judgeEvent({ ...base, budgetCents: 0, prizeCents: 1 })).toBe('over_budget');
    expect(judgeEvent({ ...base, mechanics: { spinToWin: { enabled: true, maxWinsPerDay: 0, maxPrizeCents: null } } })).toBe('over_daily_cap');
  });

  it('refuses an event more than five minutes ahead of the clock', () => {
    expect(judgeEvent({ ...base, at: NOW + 5 * 60_000 })).toBeNull();
    expect(judgeEvent({ ...base, at: NOW + 5 * 60_000 + 1 })).toBe('clock_skew');
    expect(judgeEvent({ ...base, kind: 'scan', at: NOW + 3_600_000 })).toBe('clock_skew');
  });
});

describe('parseEventTime', () => {
  it('reads epoch ms and ISO 8601 with an offset, nothing else', () => {
    expect(parseEventTime(NOW)).toBe(NOW);
    expect(parseEventTime('2026-11-20T12:00:00Z')).toBe(NOW);
    expect(parseEventTime('2026-11-20T12:00:00.000+0000')).toBe(NOW);
    expect(parseEventTime('2026-11-20T07:00:00-05:00')).toBe(NOW);
    for (const bad of ['2026-11-20T12:00:00', '2026-11-20', 'yesterday', '2026-13-01T00:00:00Z', '']) expect(parseEventTime(bad), bad).toBeNull();
  });
});

describe('localDayBounds', () => {
  it('is the UTC day without a zone, and the local day in one', () => {
    expect(localDayBounds(NOW, null)).toEqual({ start: Date.parse('2026-11-20T00:00:00Z'), end: Date.parse('2026-11-21T00:00:00Z') });
    expect(localDayBounds(NOW, 'Not/AZone')).toEqual(localDayBounds(NOW, null));
    expect(localDayBounds(Date.parse('2026-11-20T03:00:00Z'), 'America/New_York')).toEqual({
      start: Date.parse('2026-11-19T05:00:00Z'),
      end: Date.parse('2026-11-20T05:00:00Z'),
    });
  });

  it('a daylight-saving day is 23 or 25 hours', () => {
    const spring = localDayBounds(Date.parse('2026-03-08T15:00:00Z'), 'America/New_York');
    expect(spring.end - spring.start).toBe(23 * 3_600_000);
    const fall = localDayBounds(Date.parse('2026-11-01T15:00:00Z'), 'America/New_York');
    expect(fall.end - fall.start).toBe(25 * 3_600_000);
  });
});

describe('funnel arithmetic', () => {
  it('ratios to four decimals, half up, null over zero', () => {
    expect(ratio(1, 3)).toBe(0.3333);
    expect(ratio(2, 3)).toBe(0.6667);
    expect(ratio(1, 8)).toBe(0.125);
    expect(ratio(1, 20000)).toBe(0.0001); // 0.00005 rounds up
    expect(ratio(5, 0)).toBeNull();
    expect(ratio(3, 2)).toBe(1.5);
  });

  it('each step against the one before, and wins over scans', () => {
    expect(funnelOf({ scans: 40, entries: 30, plays: 24, wins: 6 })).toEqual({
      scans: 40,
      entries: 30,
      plays: 24,
      wins: 6,
      scanToEntry: 0.75,
      entryToPlay: 0.8,
      playToWin: 0.25,
      scanToWin: 0.15,
    });
    expect(funnelOf({ scans: 0, entries: 0, plays: 0, wins: 0 }).playToWin).toBeNull();
  });

  it('budget use never goes below zero left', () => {
    expect(budgetUse(1000, 250)).toEqual({ leftCents: 750, used: 0.25 });
    expect(budgetUse(1000, 1200)).toEqual({ leftCents: 0, used: 1.2 });
    expect(budgetUse(null, 300)).toEqual({ leftCents: null, used: null });
    expect(budgetUse(0, 0)).toEqual({ leftCents: 0, used: null });
  });
});
