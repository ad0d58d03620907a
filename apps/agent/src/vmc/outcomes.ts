import { MOTOR_RAN_BY_OUTCOME, OUTCOME_OF_RESULT } from '@vend/protocol';
import type { DispenseOutcome, MotorRan, VmcDispenseResult, VmcNakReasonName } from '@vend/protocol';

/** What the agent reports for one dispense request (the cloud gets outcome and detail). */
export interface DispenseReport {
  outcome: DispenseOutcome;
  /** One human sentence: what happened and, when the motor may have run, what to do. */
  detail: string;
  /** Whether the lane motor ran: certain (yes/no) or unknown. */
  motorRan: MotorRan;
  aisle: number;
  /** Sequence number the request went out with (0 when it never went out). */
  seq: number;
  /** Times the request frame was written to the port (1 = no retransmission). */
  sends: number;
  durationMs: number;
}

export type LinkFailure =
  | { kind: 'unavailable'; path: string; attempts: number; error: string }
  | { kind: 'no_ack'; sends: number; ackTimeoutMs: number }
  | { kind: 'restarted_before_ack' }
  | { kind: 'lost_before_ack'; path: string; error: string }
  | { kind: 'no_result'; waitedMs: number }
  | { kind: 'restarted_after_ack' }
  | { kind: 'lost_after_ack'; path: string; error: string }
  | { kind: 'refused'; reason: VmcNakReasonName }
  | { kind: 'wrong_aisle'; reported: number }
  /** ACK duplicate to the only frame of a new request sent so far (docs/vmc-protocol.md §6.3). */
  | { kind: 'duplicate_first_send' };

const MAY_HAVE_RUN = 'the motor may have run: check the machine before selling this aisle again';

/** The outcome and detail for a RESULT frame from the board. */
export function outcomeOfResult(aisle: number, result: VmcDispenseResult): { outcome: DispenseOutcome; detail: string } {
  const outcome = OUTCOME_OF_RESULT[result.code];
  const lift = result.liftRow > 0 ? ` (lift at row ${result.liftRow})` : '';
  switch (result.code) {
    case 'success':
      return { outcome, detail: `aisle ${aisle} vended: motor ran ${result.motorMs} ms and the drop sensor saw the product` };
    case 'laneEmpty':
      return { outcome, detail: `aisle ${aisle} is empty; the motor did not run` };
    case 'motorJam':
      return { outcome, detail: `aisle ${aisle} motor jammed after ${result.motorMs} ms${lift}; nothing dropped` };
    case 'dropNotDetected':
      return { outcome, detail: `aisle ${aisle} motor ran ${result.motorMs} ms but the drop sensor saw nothing; the product may be caught on the spring` };
    case 'liftFault':
      return { outcome, detail: `the lift could not reach aisle ${aisle}'s row; the motor did not run` };
    case 'unknownAisle':
      return { outcome, detail: `aisle ${aisle} does not exist on this board; the motor did not run` };
    case 'noMotor':
      return { outcome, detail: `aisle ${aisle} has no motor fitted; the motor did not run` };
    case 'busy':
      return { outcome, detail: `the board was busy and refused aisle ${aisle}; the motor did not run` };
  }
}

/** The outcome and detail when the link, not the board's result, decided. */
export function outcomeOfFailure(aisle: number, failure: LinkFailure): { outcome: DispenseOutcome; detail: string } {
  switch (failure.kind) {
    case 'unavailable':
      return {
        outcome: 'board_unavailable',
        detail: `could not open ${failure.path} after ${failure.attempts} attempts (${failure.error}); the request for aisle ${aisle} was not sent`,
      };
    case 'no_ack':
      return {
        outcome: 'no_ack',
        detail: `no ACK for aisle ${aisle} after ${failure.sends} sends ${failure.ackTimeoutMs} ms apart; ${MAY_HAVE_RUN}`,
      };
    case 'lost_before_ack':
      return { outcome: 'no_ack', detail: `lost ${failure.path} before the board acknowledged aisle ${aisle} (${failure.error}); ${MAY_HAVE_RUN}` };
    case 'restarted_before_ack':
      return { outcome: 'no_ack', detail: `the board restarted before acknowledging aisle ${aisle}; ${MAY_HAVE_RUN}` };
    case 'no_result':
      return {
        outcome: 'no_result',
        detail: `the board acknowledged aisle ${aisle} but sent no result within ${Math.round(failure.waitedMs / 1000)} s; ${MAY_HAVE_RUN}`,
      };
    case 'restarted_after_ack':
      return { outcome: 'no_result', detail: `the board restarted while vending aisle ${aisle}; ${MAY_HAVE_RUN}` };
    case 'lost_after_ack':
      return { outcome: 'no_result', detail: `lost ${failure.path} after the board acknowledged aisle ${aisle} (${failure.error}); ${MAY_HAVE_RUN}` };
    case 'refused':
      return { outcome: 'board_refused', detail: `the board refused the request for aisle ${aisle} (NAK ${failure.reason}); the motor did not run` };
    case 'wrong_aisle':
      return { outcome: 'no_result', detail: `the board reported a result for aisle ${failure.reported} to the request for aisle ${aisle}; ${MAY_HAVE_RUN}` };
    case 'duplicate_first_send':
      // never a sale: the board's stored result belongs to another request (an earlier session's, or another host's)
      return {
        outcome: 'no_result',
        detail: `the board took the first send of the request for aisle ${aisle} for a retransmission of an identical earlier frame (ACK duplicate) and started nothing for it; its result is that earlier request's, not this one's: not vended, and another host may be driving the board: check the machine before selling this aisle again`,
      };
  }
}

export function motorRanOf(outcome: DispenseOutcome): MotorRan {
  return MOTOR_RAN_BY_OUTCOME[outcome];
}
