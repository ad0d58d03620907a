import fc from 'fast-check';
import { VMC_LANES_PER_PAGE, VMC_MODULES, VMC_U14_MAX, VmcBoardState, VmcNakReason, VmcResultCode } from './constants.ts';
import type { VmcBoardStateName, VmcNakReasonName, VmcResultName } from './constants.ts';
import type { VmcBoardMessage, VmcHostMessage, VmcLastResult } from './messages.ts';

export const seqArb = fc.integer({ min: 0, max: 127 });
const u7 = fc.integer({ min: 0, max: 127 });
const u14 = fc.integer({ min: 0, max: VMC_U14_MAX });
const resultName = fc.constantFrom(...(Object.keys(VmcResultCode) as VmcResultName[]));

export const hostMessageArb: fc.Arbitrary<VmcHostMessage> = fc.oneof(
  fc.constant({ kind: 'info' as const }),
  fc.constant({ kind: 'status' as const }),
  fc.tuple(u14, u14).map(([aisle, bootId]) => ({ kind: 'dispense' as const, aisle, bootId })),
  u7.map((page) => ({ kind: 'laneScan' as const, page })),
  fc.constant({ kind: 'dropSensor' as const }),
);

const lanes = fc
  .integer({ min: 0, max: VMC_LANES_PER_PAGE })
  .chain((n) => fc.tuple(fc.array(fc.boolean(), { minLength: n, maxLength: n }), fc.array(fc.boolean(), { minLength: n, maxLength: n })));

export const boardMessageArb: fc.Arbitrary<VmcBoardMessage> = fc.oneof(
  fc.record({
    kind: fc.constant('info' as const),
    vmcVersion: fc.tuple(u7, u7, u7).map((p) => p.join('.')),
    module: fc.constantFrom(...VMC_MODULES),
    rows: fc.integer({ min: 1, max: 32 }),
    columnsPerRow: fc.integer({ min: 1, max: 32 }),
    bootId: u14,
    protocolVersion: u7,
  }),
  fc.record({
    kind: fc.constant('status' as const),
    state: fc.constantFrom(...(Object.keys(VmcBoardState) as VmcBoardStateName[])),
    bootId: u14,
    lastSeq: u7,
    keptSeq: u7,
    lastResult: fc.oneof(resultName, fc.constantFrom<VmcLastResult>('pending', 'none')),
    liftRow: u7,
    faults: fc.record({ lift: fc.boolean(), dropSensor: fc.boolean(), jammedLanes: fc.boolean() }),
  }),
  fc.record({
    kind: fc.constant('dispenseAck' as const),
    disposition: fc.constantFrom('accepted' as const, 'duplicate' as const),
    aisle: u14,
    estimateMs: fc.integer({ min: 0, max: VMC_U14_MAX }).map((n) => n * 10),
  }),
  fc.tuple(u7, u7, lanes).map(([page, pages, [motors, jams]]) => ({
    kind: 'laneScan' as const,
    page,
    pages,
    firstAisle: page * VMC_LANES_PER_PAGE + 1,
    motors,
    jams,
  })),
  fc.record({
    kind: fc.constant('dropSensor' as const),
    blocked: fc.boolean(),
    healthy: fc.boolean(),
    level: fc.integer({ min: 0, max: 1023 }),
    drops: u14,
  }),
  fc.record({
    kind: fc.constant('result' as const),
    aisle: u14,
    code: resultName,
    motorMs: u14,
    dropDetected: fc.boolean(),
    liftRow: u7,
  }),
  fc.record({
    kind: fc.constant('nak' as const),
    reason: fc.constantFrom(...(Object.keys(VmcNakReason) as VmcNakReasonName[])),
    command: u7,
  }),
);
