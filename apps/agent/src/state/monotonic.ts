import { systemClock } from '@vend/protocol';
import type { Clock } from '@vend/protocol';

/**
 * Wall time against elapsed time (docs/decisions/outages.md, "The cabinet"). A cabinet's wall clock
 * steps by hours when NTP first reaches it after a power cut (or a technician sets it): fine for
 * what a record says happened *when*, wrong for "how long since" — a step back would make a wait
 * last hours, a step forward would end one at once. Those decisions read `elapsedNow`: the clock's
 * `monotonic()` when it has one (the daemon's own clock: CLOCK_MONOTONIC through performance.now,
 * which no step moves; a test's stepped clock), else its `now()` (every other test clock only moves
 * forward, so there the two agree). Node's timers are monotonic already.
 */
export interface ElapsedClock extends Clock {
  /** Milliseconds on a clock no wall-clock step moves; only differences mean anything. */
  monotonic(): number;
}

export function elapsedNow(clock: Clock): number {
  const m = (clock as Partial<ElapsedClock>).monotonic;
  return typeof m === 'function' ? m.call(clock) : clock.now();
}

/** The daemon's clock: the system's wall time and timers, and its monotonic clock for elapsed time. */
export const agentClock: ElapsedClock = { ...systemClock, monotonic: () => performance.now() };
