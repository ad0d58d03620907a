import type { Clock } from '@vend/protocol';

/** A wait on the injected clock that ends early when woken (or when the signal aborts). */
export class Waker {
  private wakeUp: (() => void) | null = null;

  /** Ends the current wait, if any. */
  wake(): void {
    this.wakeUp?.();
  }

  /** Waits `ms` (null: until woken or aborted). */
  idle(clock: Clock, signal: AbortSignal, ms: number | null): Promise<void> {
    return new Promise<void>((resolve) => {
      let timer: unknown = null;
      const done = (): void => {
        if (timer !== null) clock.clearTimeout(timer);
        signal.removeEventListener('abort', done);
        if (this.wakeUp === done) this.wakeUp = null;
        resolve();
      };
      if (signal.aborted) return resolve();
      if (ms !== null) timer = clock.setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wakeUp = done;
    });
  }
}
