/** The one source of "now" (epoch milliseconds) and of timers, injected everywhere so tests can drive time. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** A clock that only moves when told to; timers fire in due order as it advances. */
export class ManualClock implements Clock {
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  constructor(private current = 0) {}
  now(): number {
    return this.current;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.push({ at: this.current + Math.max(0, ms), fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  /** Moves time forward, firing every timer that falls due on the way, in order. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.current = next.at;
      next.fn();
    }
    this.current = target;
  }
  set(ms: number): void {
    this.current = ms;
  }
}
