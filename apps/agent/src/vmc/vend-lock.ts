/**
 * The vend lock: one operation on the board at a time, in arrival order. A caller may give up
 * waiting through its AbortSignal; once it holds the lock, its operation runs to the end (a dispense
 * whose request is on the wire is never abandoned half-way).
 */
export class VendLock {
  private held = false;
  private waiters: { grant: () => void }[] = [];

  get isFree(): boolean {
    return !this.held;
  }

  /** Operations waiting for the lock (not counting the one holding it). */
  get waiting(): number {
    return this.waiters.length;
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(signal?.reason instanceof Error ? signal.reason : new DOMException('aborted while waiting for the vend lock', 'AbortError'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private release(): void {
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.held = false;
  }
}
