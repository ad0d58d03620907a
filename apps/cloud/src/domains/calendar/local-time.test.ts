import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isKnownZone, parseWallClock, zonedToEpoch } from './local-time.ts';

const w = (s: string) => {
  const v = parseWallClock(s);
  if (!v) throw new Error(`not a wall clock: ${s}`);
  return v;
};
const iso = (ms: number) => new Date(ms).toISOString();

describe('wall-clock parsing', () => {
  it('accepts the spec form and refuses other shapes', () => {
    expect(parseWallClock('2026-11-20 09:30:05')).toEqual({ year: 2026, month: 11, day: 20, hour: 9, minute: 30, second: 5 });
    for (const bad of ['2026-11-20T09:30:05', '2026-11-20', '2026-11-20 9:30:05', ' 2026-11-20 09:30:05', '2026-11-20 09:30:05Z', '２０２６-11-20 09:30:05'])
      expect(parseWallClock(bad)).toBeNull();
  });

  it('refuses impossible dates and times', () => {
    for (const bad of [
      '2026-02-29 00:00:00',
      '2026-02-30 00:00:00',
      '2026-13-01 00:00:00',
      '2026-00-10 00:00:00',
      '2026-04-31 00:00:00',
      '2026-01-01 24:00:00',
      '2026-01-01 12:60:00',
      '2026-01-01 12:00:60',
      '1969-12-31 23:59:59',
    ])
      expect(parseWallClock(bad)).toBeNull();
    expect(parseWallClock('2028-02-29 00:00:00')).not.toBeNull();
  });
});

describe('zoned wall clock to instant', () => {
  it('reads UTC as is', () => {
    expect(iso(zonedToEpoch(w('2026-11-20 12:00:00'), 'UTC'))).toBe('2026-11-20T12:00:00.000Z');
  });

  it('reads Los Angeles standard and daylight time', () => {
    expect(iso(zonedToEpoch(w('2026-11-20 00:00:00'), 'America/Los_Angeles'))).toBe('2026-11-20T08:00:00.000Z');
    expect(iso(zonedToEpoch(w('2026-07-01 00:00:00'), 'America/Los_Angeles'))).toBe('2026-07-01T07:00:00.000Z');
    expect(iso(zonedToEpoch(w('2026-07-01 00:00:00'), 'Asia/Kolkata'))).toBe('2026-06-30T18:30:00.000Z');
  });

  it('a time that occurs twice (clocks back) is the earlier instant', () => {
    // 2026-11-01 01:30 happens at 08:30Z (PDT) and again at 09:30Z (PST)
    expect(iso(zonedToEpoch(w('2026-11-01 01:30:00'), 'America/Los_Angeles'))).toBe('2026-11-01T08:30:00.000Z');
  });

  it('a time that never occurs (clocks forward) is pushed forward by the gap', () => {
    // 2026-03-08 02:30 does not exist in Los Angeles; it reads as 03:30 PDT = 10:30Z
    expect(iso(zonedToEpoch(w('2026-03-08 02:30:00'), 'America/Los_Angeles'))).toBe('2026-03-08T10:30:00.000Z');
  });

  it('round-trips through Intl for every instant outside transitions', () => {
    const fmt = new Intl.DateTimeFormat('sv-SE', { timeZone: 'America/Los_Angeles', dateStyle: 'short', timeStyle: 'medium' });
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1) / 1000, max: Date.UTC(2060, 0, 1) / 1000 }), (sec) => {
        const ms = sec * 1000;
        const wall = fmt.format(new Date(ms)); // "YYYY-MM-DD HH:MM:SS"
        const back = zonedToEpoch(w(wall), 'America/Los_Angeles');
        // the only instants that do not round-trip are the second occurrence of a repeated hour
        expect(back === ms || back === ms - 3_600_000).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('knows real zones and not invented ones', () => {
    expect(isKnownZone('America/Los_Angeles')).toBe(true);
    expect(isKnownZone('Mars/Olympus_Mons')).toBe(false);
  });
});
