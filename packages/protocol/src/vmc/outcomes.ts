import type { VmcResultName } from './constants.ts';

/**
 * The `outcome` strings an agent reports for a dispense (the cloud receives them in the dispense
 * report). The agent's driver maps every board result and every link failure to exactly one.
 */
export const DISPENSE_OUTCOMES = [
  'success',
  'lane_empty',
  'motor_jam',
  'drop_not_detected',
  'lift_fault',
  'unknown_aisle',
  'no_motor',
  'board_busy',
  'board_refused',
  'no_ack',
  'no_result',
  'board_unavailable',
] as const;
export type DispenseOutcome = (typeof DISPENSE_OUTCOMES)[number];

/**
 * Whether the lane motor ran for the request: `yes` and `no` are certain; `unknown` means the
 * request may have reached the board and the product may have been delivered (never retry those
 * with a new request without a person checking the machine).
 */
export type MotorRan = 'yes' | 'no' | 'unknown';

export const OUTCOME_OF_RESULT: Readonly<Record<VmcResultName, DispenseOutcome>> = Object.freeze({
  success: 'success',
  laneEmpty: 'lane_empty',
  motorJam: 'motor_jam',
  dropNotDetected: 'drop_not_detected',
  liftFault: 'lift_fault',
  unknownAisle: 'unknown_aisle',
  busy: 'board_busy',
  noMotor: 'no_motor',
});

/** Whether the motor ran, per outcome. */
export const MOTOR_RAN_BY_OUTCOME: Readonly<Record<DispenseOutcome, MotorRan>> = Object.freeze({
  success: 'yes',
  lane_empty: 'no',
  motor_jam: 'yes',
  drop_not_detected: 'yes',
  lift_fault: 'no',
  unknown_aisle: 'no',
  no_motor: 'no',
  board_busy: 'no',
  board_refused: 'no',
  no_ack: 'unknown',
  no_result: 'unknown',
  board_unavailable: 'no',
});

export function isDispenseOutcome(s: string): s is DispenseOutcome {
  return (DISPENSE_OUTCOMES as readonly string[]).includes(s);
}
