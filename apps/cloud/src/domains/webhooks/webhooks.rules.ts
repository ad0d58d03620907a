/** How long an event is retried after it was emitted before its delivery is given up. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The first retry waits this long; each later one twice the one before, up to `MAX_BACKOFF_MS`. */
export const FIRST_BACKOFF_MS = 30_000;
export const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** An endpoint whose attempts failed this many times in a row, across all its deliveries, is disabled. */
export const DISABLE_AFTER_FAILURES = 20;
/** One attempt's limit for the response headers and body. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Most endpoints one operator may have. */
export const MAX_ENDPOINTS = 10;

/** The wait before the next try after `attempts` failed ones (1-based): 30 s, 1 min, 2 min, … capped at 1 h. */
export function backoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, Math.min(attempts - 1, 20)));
}

/** When to try again after a failed attempt at `now`, or null once that falls past the event's retry window. */
export function nextAttemptAt(eventCreatedAt: number, attempts: number, now: number): number | null {
  const next = now + backoffMs(attempts);
  return next > eventCreatedAt + RETRY_WINDOW_MS ? null : next;
}

/** A response counts as delivered only with a 2xx status; redirects are not followed. */
export function isDelivered(status: number): boolean {
  return status >= 200 && status < 300;
}
