import { describe, expect, it } from 'vitest';
import { parsePlayedAt } from './played-at.ts';

describe('playedAt', () => {
  it('reads ISO 8601 and epoch milliseconds, defaults to now, refuses the rest', () => {
    expect(parsePlayedAt(undefined, 42)).toBe(42);
    expect(parsePlayedAt(1_700_000_000_000, 0)).toBe(1_700_000_000_000);
    expect(parsePlayedAt('1700000000000', 0)).toBe(1_700_000_000_000);
    expect(parsePlayedAt('2026-11-20T12:00:00.000+0000', 0)).toBe(Date.parse('2026-11-20T12:00:00Z'));
    expect(parsePlayedAt('yesterday', 0)).toBeNull();
  });
});
