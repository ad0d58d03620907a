import { VirtualClock } from './virtual-clock.ts';

/**
 * A virtual clock whose wall reading can be stepped (NTP after a power cut, a technician setting the
 * time) while its timers and its monotonic reading go on undisturbed — as on a real cabinet, where
 * Node's timers and CLOCK_MONOTONIC do not move when the wall clock does.
 */
export class SteppedClock extends VirtualClock {
  private offset = 0;

  override now(): number {
    return super.now() + this.offset;
  }

  /** What no step moves (the agent's `elapsedNow`, state/monotonic.ts). */
  monotonic(): number {
    return super.now();
  }

  /** Steps the wall clock by `ms` (negative: back); timers keep their due times. */
  step(ms: number): void {
    this.offset += ms;
  }
}
