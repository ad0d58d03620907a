import { describe, expect, it } from 'vitest';
import { AdEntry } from '@vend/protocol';
import { LOOP_SLOTS, houseLoop, parsePlayedAt } from './ad-loop.ts';

describe('house attract loop', () => {
  it('fills every slot with house content of the entry shape, valid for the day', () => {
    const now = Date.parse('2026-11-20T12:34:56Z');
    const loop = houseLoop('VM-0001-AB', now, (ms) => new Date(ms).toISOString());
    expect(loop).toHaveLength(LOOP_SLOTS);
    for (const e of loop) {
      expect(AdEntry.parse(e)).toEqual(e);
      expect(e.source).toBe('house');
      expect(e.url).toBe('/advertise/poster/VM-0001-AB.png');
      expect(e.startTime).toBe('2026-11-20T00:00:00.000Z');
      expect(e.endTime).toBe('2026-11-20T23:59:59.999Z');
    }
    expect(new Set(loop.map((e) => e.id)).size).toBe(LOOP_SLOTS);
  });
});

describe('playedAt', () => {
  it('reads ISO 8601 and epoch milliseconds, defaults to now, refuses the rest', () => {
    expect(parsePlayedAt(undefined, 42)).toBe(42);
    expect(parsePlayedAt(1_700_000_000_000, 0)).toBe(1_700_000_000_000);
    expect(parsePlayedAt('1700000000000', 0)).toBe(1_700_000_000_000);
    expect(parsePlayedAt('2026-11-20T12:00:00.000+0000', 0)).toBe(Date.parse('2026-11-20T12:00:00Z'));
    expect(parsePlayedAt('yesterday', 0)).toBeNull();
  });
});
