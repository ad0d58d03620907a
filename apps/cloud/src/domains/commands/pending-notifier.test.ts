import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { PendingNotifier } from './pending-notifier.ts';

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('PendingNotifier', () => {
  it('a notify ends every hold of that machine and no other', async () => {
    const n = new PendingNotifier(new ManualClock(0));
    const a1 = n.hold('a', 10_000)!;
    const a2 = n.hold('a', 10_000)!;
    const b = n.hold('b', 10_000)!;
    n.notify('a');
    expect(await a1.ended).toBe('notified');
    expect(await a2.ended).toBe('notified');
    expect(n.holding('a')).toBe(0);
    expect(n.holding('b')).toBe(1);
    b.release();
    expect(await b.ended).toBe('aborted');
    expect(n.holding()).toBe(0);
  });

  it('without a probe (SQLite) nothing is read while holds wait; the timeout ends them', async () => {
    const clock = new ManualClock(0);
    const n = new PendingNotifier(clock);
    const h = n.hold('a', 25_000)!;
    clock.advance(24_999);
    await settle();
    expect(n.holding('a')).toBe(1);
    clock.advance(1);
    expect(await h.ended).toBe('timeout');
  });

  it('probes every held machine in one batched call per interval, wakes those with commands, and stops when nothing is held', async () => {
    const clock = new ManualClock(0);
    const calls: string[][] = [];
    let pendingIn = new Set<string>();
    const n = new PendingNotifier(clock, {
      recheckMs: 2_000,
      probe: async (ids) => {
        calls.push(ids);
        return ids.filter((id) => pendingIn.has(id));
      },
    });
    const holds = Array.from({ length: 1_200 }, (_, i) => n.hold(`m${i}`, 25_000)!);
    clock.advance(2_000);
    await settle();
    // 1,200 held machines: three queries of at most 500, not 1,200
    expect(calls.map((c) => c.length)).toEqual([500, 500, 200]);
    expect(n.holding()).toBe(1_200);
    pendingIn = new Set(['m7', 'm900']);
    calls.length = 0;
    clock.advance(2_000);
    await settle();
    expect(await holds[7]!.ended).toBe('notified');
    expect(await holds[900]!.ended).toBe('notified');
    expect(n.holding()).toBe(1_198);
    for (const h of holds) h.release();
    calls.length = 0;
    clock.advance(10_000);
    await settle();
    expect(calls).toEqual([]); // nothing held: no probe
  });

  it('a failing probe is reported and the holds go on to their timeout', async () => {
    const clock = new ManualClock(0);
    const errors: unknown[] = [];
    const n = new PendingNotifier(clock, {
      recheckMs: 2_000,
      probe: async () => {
        throw new Error('store down');
      },
      onProbeError: (e) => errors.push(e),
    });
    const h = n.hold('a', 5_000)!;
    clock.advance(2_000);
    await settle();
    clock.advance(2_000);
    await settle();
    expect(errors.length).toBe(2);
    expect(n.holding('a')).toBe(1);
    clock.advance(1_000);
    expect(await h.ended).toBe('timeout');
  });

  it('close ends every hold with shutdown and refuses new ones', async () => {
    const n = new PendingNotifier(new ManualClock(0), { probe: async () => [] });
    const h = n.hold('a', 25_000)!;
    n.close();
    expect(await h.ended).toBe('shutdown');
    expect(n.hold('a', 1_000)).toBeNull();
  });

  it('connected to a broadcast, notify wakes here and publishes; wake (a message from elsewhere) does not publish again', async () => {
    const n = new PendingNotifier(new ManualClock(0));
    const published: string[] = [];
    n.connect({ publish: async (id) => void published.push(id) });
    const h = n.hold('a', 10_000)!;
    n.notify('a');
    expect(await h.ended).toBe('notified');
    const h2 = n.hold('b', 10_000)!;
    n.wake('b');
    expect(await h2.ended).toBe('notified');
    expect(published).toEqual(['a']);
  });

  it('a failed publish is reported, and the local wake still happened', async () => {
    const errors: unknown[] = [];
    const n = new PendingNotifier(new ManualClock(0), { onPublishError: (e) => errors.push(e) });
    n.connect({ publish: () => Promise.reject(new Error('redis down')) });
    const h = n.hold('a', 10_000)!;
    n.notify('a');
    expect(await h.ended).toBe('notified');
    await settle();
    expect(errors).toHaveLength(1);
  });
});
