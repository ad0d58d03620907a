import type { Clock } from '@vend/protocol';

/**
 * Decides whether a per-machine store write is due: when the last one is older than `intervalMs`,
 * or when what would be written (its fingerprint) changed. Bounded LRU; a forgotten machine is
 * simply due again. This is how `last_seen` stays off the hot legs' store path: a cabinet polling
 * every 3 s costs one write per interval, not one per poll.
 */
export class WriteThrottle {
  private readonly last = new Map<string, { at: number; fingerprint: string }>();

  constructor(
    private readonly clock: Clock,
    private readonly opts: { intervalMs: number; max: number },
  ) {}

  due(key: string, fingerprint = ''): boolean {
    const l = this.last.get(key);
    return !l || l.fingerprint !== fingerprint || this.clock.now() - l.at >= this.opts.intervalMs;
  }

  /** Records a write that happened (call after it committed). */
  mark(key: string, fingerprint = ''): void {
    this.last.delete(key);
    this.last.set(key, { at: this.clock.now(), fingerprint });
    while (this.last.size > this.opts.max) {
      const oldest = this.last.keys().next().value;
      if (oldest === undefined) break;
      this.last.delete(oldest);
    }
  }

  forget(key: string): void {
    this.last.delete(key);
  }
}
