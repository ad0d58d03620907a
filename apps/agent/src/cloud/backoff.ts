import type { Clock } from '@vend/protocol';

/** A source of uniform numbers in [0, 1): Math.random in production, seeded in tests. */
export type RandomSource = () => number;

export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  random: RandomSource;
}

/**
 * Capped exponential backoff with jitter: attempt n waits a uniform time in
 * [d/2, d] where d = min(cap, base × 2^n) ("equal jitter": never zero, so a fleet that lost the
 * cloud at once comes back spread out, yet each cabinet keeps a floor). A Retry-After from the
 * cloud replaces the computed delay (bounded by one hour).
 */
export function backoffDelay(attempt: number, options: BackoffOptions, retryAfterMs?: number | null): number {
  if (retryAfterMs !== undefined && retryAfterMs !== null && retryAfterMs >= 0) return Math.min(retryAfterMs, 3_600_000);
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * options.random());
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date (relative to `now`); null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/** Waits `ms` on the injected clock; resolves early (false) when the signal aborts. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      resolve(false);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
