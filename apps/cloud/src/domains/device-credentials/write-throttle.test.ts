import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { WriteThrottle } from './write-throttle.ts';

describe('per-machine write throttle', () => {
  it('is due at first, then once per interval, and at once when the content changes', () => {
    const clock = new ManualClock(0);
    const t = new WriteThrottle(clock, { intervalMs: 30_000, max: 10 });
    expect(t.due('m', 'v1')).toBe(true);
    t.mark('m', 'v1');
    clock.advance(29_999);
    expect(t.due('m', 'v1')).toBe(false);
    expect(t.due('m', 'v2')).toBe(true);
    clock.advance(1);
    expect(t.due('m', 'v1')).toBe(true);
  });

  it('is bounded: a forgotten machine is simply due again', () => {
    const t = new WriteThrottle(new ManualClock(0), { intervalMs: 30_000, max: 2 });
    for (const m of ['a', 'b', 'c']) t.mark(m);
    expect(t.due('a')).toBe(true);
    expect(t.due('c')).toBe(false);
    t.forget('c');
    expect(t.due('c')).toBe(true);
  });
});
