import type { DispenseOutcome } from '@vend/protocol';

/**
 * Whether a DISPENSE with this outcome became the board's kept dispense (docs/vmc-protocol.md §6.3: the
 * last one it started, the motor or the lift moved): yes, no (refused before anything moved, or never
 * taken), or maybe (undecided).
 */
export const STARTED_BY_OUTCOME: Readonly<Record<DispenseOutcome, 'yes' | 'no' | 'maybe'>> = Object.freeze({
  success: 'yes',
  motor_jam: 'yes',
  drop_not_detected: 'yes',
  lift_fault: 'yes',
  lane_empty: 'no',
  unknown_aisle: 'no',
  no_motor: 'no',
  board_busy: 'no',
  board_refused: 'no',
  board_unavailable: 'no',
  no_ack: 'maybe',
  no_result: 'maybe',
});

/**
 * The seqs the board's kept dispense may have on its current boot, as this host knows them: what the
 * last STATUS reported (possibly another session's DISPENSE), then every DISPENSE of this host since
 * that may have replaced it. A new DISPENSE never takes one of them: with the same aisle it would be
 * that frame byte for byte, answered with another request's result and no motor run.
 */
export class KeptDispense {
  private boot: number | null = null;
  private seqs: number[] = [];

  /** A STATUS reply names it outright (0: none since power-up, or a board that predates the field). */
  reported(boot: number, keptSeq: number): void {
    this.boot = boot;
    this.seqs = keptSeq === 0 ? [] : [keptSeq];
  }

  /** A DISPENSE this host sent to `boot` has ended with `outcome`. */
  sent(boot: number, seq: number, outcome: DispenseOutcome): void {
    if (boot !== this.boot) {
      this.boot = boot;
      this.seqs = [];
    }
    const started = STARTED_BY_OUTCOME[outcome];
    if (started === 'yes') this.seqs = [seq];
    else if (started === 'maybe' && !this.seqs.includes(seq)) this.seqs.push(seq);
  }

  bars(boot: number, seq: number): boolean {
    return boot === this.boot && this.seqs.includes(seq);
  }
}
