import type { Clock } from '@vend/protocol';
import { backoffDelay } from './backoff.ts';
import type { RandomSource } from './backoff.ts';
import type { CloudError } from './client.ts';
import { Waker } from './waker.ts';

export interface DeliveryLoopOptions {
  clock: Clock;
  random: RandomSource;
  backoff: { baseMs: number; capMs: number };
}

/**
 * What the spools' delivery loops (the dispense reports, the ad plays) share: one loop at a time
 * (`start` is idempotent), a wait that `wake` ends early with the backoff starting over, and a
 * `nudge` that ends only a wait for a cloud that could not be reached (not one that answered with an
 * error). The loop itself, what it sends and how it settles, is the subclass's.
 */
export abstract class DeliveryLoop {
  protected readonly waker = new Waker();
  /** Failed tries in a row: the backoff's exponent. */
  protected failures = 0;
  /** The current wait is for a cloud that could not be reached. */
  protected waitingForCloud = false;
  private running: Promise<void> | null = null;

  constructor(private readonly timing: DeliveryLoopOptions) {}

  /** Starts the delivery loop (idempotent). */
  start(signal: AbortSignal): Promise<void> {
    this.running ??= this.loop(signal).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Something was added, or the cloud may be back: try now, whatever the backoff said. */
  wake(): void {
    this.failures = 0;
    this.waker.wake();
  }

  /** Another call just reached the cloud: if the loop waits because the cloud could not be reached, the wait is over. */
  nudge(): void {
    if (this.waitingForCloud) this.wake();
  }

  protected abstract loop(signal: AbortSignal): Promise<void>;

  /** Waits `ms` (null: until woken), on the injected clock. */
  protected idle(signal: AbortSignal, ms: number | null): Promise<void> {
    return this.waker.idle(this.timing.clock, signal, ms);
  }

  /** The cloud answered 2xx: the backoff starts over. */
  protected answered(): void {
    this.failures = 0;
    this.waitingForCloud = false;
  }

  /** A try the cloud did not take (away, 5xx, 429, 401, not enrolled): the wait before the next (a Retry-After counts). */
  protected retryDelay(e: CloudError): number {
    this.waitingForCloud = e.kind === 'unreachable' || e.kind === 'timeout' || e.kind === 'no-credential';
    return this.backoffDelay(e.retryAfterMs);
  }

  /** The next wait of the capped backoff. */
  protected backoffDelay(retryAfterMs?: number | null): number {
    return backoffDelay(this.failures++, { ...this.timing.backoff, random: this.timing.random }, retryAfterMs);
  }
}
