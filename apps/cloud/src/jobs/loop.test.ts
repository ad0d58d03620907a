import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { ManualClock } from '@vend/protocol';
import { InProcessLease, type LeaderLease } from './lease.ts';
import { Loop, SLOW_TICK_MS, type LoopWork } from './loop.ts';

/** A lease whose answer the test decides. */
class ScriptedLease implements LeaderLease {
  readonly kind = 'postgres';
  readonly holder = 'test';
  answer: boolean | Error = true;
  released = 0;
  async acquire(): Promise<boolean> {
    if (this.answer instanceof Error) throw this.answer;
    return this.answer;
  }
  async release(): Promise<void> {
    this.released++;
  }
}

const logger = pino({ level: 'silent' });

function loop(opts: { lease?: LeaderLease; work?: LoopWork | null; enabled?: boolean; clock?: ManualClock } = {}) {
  const clock = opts.clock ?? new ManualClock(1_000_000);
  const l = new Loop({
    name: 'test-loop',
    description: 'a test loop',
    intervalMs: 1000,
    enabled: opts.enabled ?? true,
    clock,
    lease: opts.lease ?? new InProcessLease('me'),
    logger,
    work: opts.work === undefined ? async () => 2 : opts.work,
    extra: { timeoutSeconds: 9 },
  });
  return { l, clock };
}

describe('Loop', () => {
  it('times each tick: the longest since the last read, and a warn line for one of SLOW_TICK_MS or more', async () => {
    const lines: { level: number; loop?: string; ms?: number; msg?: string }[] = [];
    const log = pino({ level: 'warn' }, { write: (l: string) => void lines.push(JSON.parse(l) as (typeof lines)[number]) });
    let t = 0;
    let cost = 0;
    const l = new Loop({
      name: 'timed',
      description: 'a timed loop',
      intervalMs: 1000,
      enabled: true,
      clock: new ManualClock(0),
      lease: new InProcessLease('me'),
      logger: log,
      work: async () => {
        t += cost;
        return 0;
      },
      monotonicMs: () => t,
    });
    cost = 30;
    await l.tick();
    cost = SLOW_TICK_MS - 1;
    await l.tick();
    expect(lines).toEqual([]);
    expect(l.takeLongestTickMs()).toBe(SLOW_TICK_MS - 1);
    expect(l.takeLongestTickMs()).toBe(0);
    cost = 2500;
    await l.tick();
    expect(lines).toMatchObject([{ level: 40, loop: 'timed', ms: 2500, msg: 'background tick slow' }]);
    expect(l.takeLongestTickMs()).toBe(2500);
  });

  it('the leader sweeps and counts what it resolved; status carries pod, extras and the tick time', async () => {
    const { l, clock } = loop();
    expect(await l.tick()).toEqual({ leader: true, resolved: 2 });
    clock.advance(500);
    await l.tick();
    expect(l.status('pod-x')).toMatchObject({
      pod: 'pod-x',
      lease: 'in-process',
      leader: true,
      ticks: 2,
      sweeps: 2,
      resolved: 4,
      followerSkips: 0,
      timeoutSeconds: 9,
      lastTickAt: '1970-01-01T00:16:40.500+0000',
    });
  });

  it('a follower skips the work and counts the skip', async () => {
    const lease = new ScriptedLease();
    lease.answer = false;
    let ran = 0;
    const { l } = loop({ lease, work: async () => ++ran });
    expect(await l.tick()).toEqual({ leader: false, resolved: 0 });
    expect(ran).toBe(0);
    expect(l.status('p')).toMatchObject({ leader: false, ticks: 1, sweeps: 0, followerSkips: 1 });
    lease.answer = true;
    await l.tick();
    expect(l.status('p')).toMatchObject({ leader: true, ticks: 2, sweeps: 1, followerSkips: 1, resolved: 1 });
  });

  it('a lease that cannot be reached makes this replica a follower for the tick, counted as an error', async () => {
    const lease = new ScriptedLease();
    lease.answer = new Error('redis down');
    const { l } = loop({ lease });
    expect(await l.tick()).toEqual({ leader: false, resolved: 0 });
    expect(l.status('p')).toMatchObject({ leader: false, followerSkips: 1, errors: 1, lastError: 'redis down' });
  });

  it('failing work is counted, never thrown, and the next tick runs again', async () => {
    let fail = true;
    const { l } = loop({
      work: async () => {
        if (fail) throw new Error('store busy');
        return 1;
      },
    });
    expect(await l.tick()).toEqual({ leader: true, resolved: 0 });
    fail = false;
    expect(await l.tick()).toEqual({ leader: true, resolved: 1 });
    expect(l.status('p')).toMatchObject({ ticks: 2, sweeps: 1, errors: 1, resolved: 1, lastError: 'store busy' });
  });

  it('no work installed: ticks and leads, counts no sweep', async () => {
    const { l } = loop({ work: null });
    await l.tick();
    expect(l.status('p')).toMatchObject({ ticks: 1, sweeps: 0, workInstalled: false, leader: true });
  });

  it('ticks never overlap: a direct tick waits for the one in flight', async () => {
    let active = 0;
    let maxActive = 0;
    const { l } = loop({
      work: async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setImmediate(r));
        active--;
        return 0;
      },
    });
    await Promise.all([l.tick(), l.tick(), l.tick()]);
    expect(maxActive).toBe(1);
    expect(l.status('p').ticks).toBe(3);
  });

  it('start schedules a tick per interval on the clock; stop ends it; a disabled loop never starts', async () => {
    const { l, clock } = loop();
    l.start();
    l.start(); // idempotent
    clock.advance(999);
    await l.whenIdle();
    expect(l.status('p').ticks).toBe(0);
    clock.advance(1);
    await l.whenIdle();
    expect(l.status('p').ticks).toBe(1);
    clock.advance(1000);
    await l.whenIdle();
    expect(l.status('p').ticks).toBe(2);
    await l.stop();
    clock.advance(10_000);
    await l.whenIdle();
    expect(l.status('p')).toMatchObject({ ticks: 2, running: false });

    const off = loop({ enabled: false });
    off.l.start();
    off.clock.advance(10_000);
    await off.l.whenIdle();
    expect(off.l.status('p')).toMatchObject({ enabled: false, running: false, ticks: 0 });
  });
});
