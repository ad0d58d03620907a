import { setImmediate as idle } from 'node:timers/promises';
import type { Clock } from '@vend/protocol';

/**
 * A clock for simulations that only move through timers and in-process I/O (serialport's mock
 * binding): `run(promise)` lets everything that is ready run, and whenever nothing is, jumps
 * straight to the next timer. Hours of protocol time pass in milliseconds, in the same order they
 * would on a wall clock.
 */
export class VirtualClock implements Clock {
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  private current: number;

  constructor(start = 1_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.current + Math.max(0, ms), fn, id });
    return id;
  }

  clearTimeout(handle: unknown): void {
    const i = this.timers.findIndex((t) => t.id === handle);
    if (i >= 0) this.timers.splice(i, 1);
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** Runs until `p` settles; fails if nothing is scheduled while it is still pending, or after `limitMs` of virtual time. */
  async run<T>(p: Promise<T>, limitMs = 3_600_000): Promise<T> {
    let settled = false;
    p.then(
      () => (settled = true),
      () => (settled = true),
    );
    const until = this.current + limitMs;
    for (;;) {
      await idle();
      await idle();
      if (settled) return p;
      let next = this.timers[0];
      for (const t of this.timers) if (t.at < next!.at || (t.at === next!.at && t.id < next!.id)) next = t;
      if (!next) throw new Error('deadlock: the operation is pending and no timer is scheduled');
      if (next.at > until) throw new Error(`still pending after ${limitMs} ms of virtual time`);
      this.timers.splice(this.timers.indexOf(next), 1);
      this.current = Math.max(this.current, next.at);
      next.fn();
    }
  }

  /** Lets `ms` of virtual time pass, running everything due on the way. */
  async pass(ms: number): Promise<void> {
    await this.run(new Promise<void>((resolve) => this.setTimeout(resolve, ms)));
  }
}
