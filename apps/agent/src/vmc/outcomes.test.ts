import { describe, expect, it } from 'vitest';
import { DISPENSE_OUTCOMES, VmcResultCode, isDispenseOutcome } from '@vend/protocol';
import type { VmcResultName } from '@vend/protocol';
import { motorRanOf, outcomeOfFailure, outcomeOfResult } from './outcomes.ts';
import type { LinkFailure } from './outcomes.ts';

const failures: LinkFailure[] = [
  { kind: 'unavailable', path: '/dev/ttyUSB0', attempts: 10, error: 'ENOENT' },
  { kind: 'no_ack', sends: 5, ackTimeoutMs: 500 },
  { kind: 'lost_before_ack', path: '/dev/ttyUSB0', error: 'EIO' },
  { kind: 'restarted_before_ack' },
  { kind: 'no_result', waitedMs: 30_000 },
  { kind: 'restarted_after_ack' },
  { kind: 'lost_after_ack', path: '/dev/ttyUSB0', error: 'EIO' },
  { kind: 'refused', reason: 'badArgument' },
  { kind: 'wrong_aisle', reported: 4 },
];

describe('dispense outcomes', () => {
  it('maps every board result code to its own outcome', () => {
    const seen = new Map<string, string>();
    for (const code of Object.keys(VmcResultCode) as VmcResultName[]) {
      const o = outcomeOfResult(12, { kind: 'result', aisle: 12, code, motorMs: 900, dropDetected: code === 'success', liftRow: 0 });
      expect(isDispenseOutcome(o.outcome)).toBe(true);
      expect(o.detail).toContain('aisle 12');
      seen.set(code, o.outcome);
    }
    expect(Object.fromEntries(seen)).toEqual({
      success: 'success',
      laneEmpty: 'lane_empty',
      motorJam: 'motor_jam',
      dropNotDetected: 'drop_not_detected',
      liftFault: 'lift_fault',
      unknownAisle: 'unknown_aisle',
      busy: 'board_busy',
      noMotor: 'no_motor',
    });
  });

  it('maps every link failure, and says when the motor may have run', () => {
    const outcomes = new Set<string>();
    for (const f of failures) {
      const o = outcomeOfFailure(12, f);
      outcomes.add(o.outcome);
      const ran = motorRanOf(o.outcome);
      if (ran === 'unknown') expect(o.detail).toMatch(/may have run/);
      else expect(o.detail).not.toMatch(/may have run/);
    }
    expect([...outcomes].sort()).toEqual(['board_refused', 'board_unavailable', 'no_ack', 'no_result']);
    // together with the results, every published outcome is reachable
    const fromResults = Object.keys(VmcResultCode).map(
      (code) => outcomeOfResult(1, { kind: 'result', aisle: 1, code: code as VmcResultName, motorMs: 0, dropDetected: false, liftRow: 0 }).outcome,
    );
    expect(new Set([...outcomes, ...fromResults])).toEqual(new Set(DISPENSE_OUTCOMES));
  });

  it('is certain about the motor only when the board said so', () => {
    expect(motorRanOf('success')).toBe('yes');
    expect(motorRanOf('motor_jam')).toBe('yes');
    expect(motorRanOf('lane_empty')).toBe('no');
    expect(motorRanOf('board_unavailable')).toBe('no');
    expect(motorRanOf('no_ack')).toBe('unknown');
    expect(motorRanOf('no_result')).toBe('unknown');
  });
});
