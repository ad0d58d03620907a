import {
  VMC_DATA_LENGTH,
  VMC_LANES_PER_PAGE,
  VMC_MAX_COLUMNS,
  VMC_MAX_ROWS,
  VMC_U14_MAX,
  VmcBoardState,
  VmcCommand,
  VmcModuleCode,
  VmcNakReason,
  VmcReply,
  VmcResultCode,
  nameOfCode,
} from './constants.ts';
import type { VmcBoardStateName, VmcModule, VmcNakReasonName, VmcResultName } from './constants.ts';
import { decodeVmcFrame, encodeVmcFrame } from './frame.ts';
import type { VmcFrame } from './frame.ts';

/** What the host asks. */
export type VmcHostMessage =
  | { kind: 'info' }
  | { kind: 'status' }
  | {
      kind: 'dispense';
      aisle: number;
      /** The board's boot id as the host last learned it; a board with another boot id refuses (NAK bootMismatch). */
      bootId: number;
    }
  | { kind: 'laneScan'; page: number }
  | { kind: 'dropSensor' };

export interface VmcBoardInfo {
  kind: 'info';
  /** Dotted-numeric controller firmware version, each part 0..127 ("2.4.1"). */
  vmcVersion: string;
  module: VmcModule;
  rows: number;
  columnsPerRow: number;
  /** Random per power-up; a change means the board restarted and forgot its last frame. */
  bootId: number;
  protocolVersion: number;
}

/** The result of the last sequenced dispense: a result name, still running, or none since power-up. */
export type VmcLastResult = VmcResultName | 'pending' | 'none';

export interface VmcBoardStatus {
  kind: 'status';
  state: VmcBoardStateName;
  bootId: number;
  /** Sequence number of the last sequenced frame the board accepted (0 = none since power-up). */
  lastSeq: number;
  /**
   * Sequence number of the kept dispense, the last DISPENSE the board started (0 = none since
   * power-up): a host from another session must not give a new DISPENSE this seq (docs/vmc-protocol.md §6.3).
   */
  keptSeq: number;
  lastResult: VmcLastResult;
  /** Row the lift is at (0 = home, the delivery port); always 0 on module SH. */
  liftRow: number;
  faults: { lift: boolean; dropSensor: boolean; jammedLanes: boolean };
}

export interface VmcDispenseAck {
  kind: 'dispenseAck';
  /** accepted: a new request, now running; duplicate: a retransmission, the motor is not run again. */
  disposition: 'accepted' | 'duplicate';
  aisle: number;
  /** Board's estimate of the time until its RESULT frame, in milliseconds (10 ms resolution). */
  estimateMs: number;
}

export interface VmcLaneScanPage {
  kind: 'laneScan';
  page: number;
  pages: number;
  /** First aisle of this page: page × 21 + 1. */
  firstAisle: number;
  /** One entry per lane of this page (at most 21). */
  motors: boolean[];
  jams: boolean[];
}

export interface VmcDropSensorReading {
  kind: 'dropSensor';
  /** Beam interrupted right now. */
  blocked: boolean;
  /** Emitter/receiver self-test passed. */
  healthy: boolean;
  /** Raw receiver level, 0..1023 (a clear, healthy beam reads high). */
  level: number;
  /** Drops counted since power-up, modulo 16384. */
  drops: number;
}

export interface VmcDispenseResult {
  kind: 'result';
  aisle: number;
  code: VmcResultName;
  /** How long the lane motor ran, milliseconds (0 when it did not run). */
  motorMs: number;
  dropDetected: boolean;
  liftRow: number;
}

export interface VmcNak {
  kind: 'nak';
  reason: VmcNakReasonName;
  /** The command byte the board refused. */
  command: number;
}

/** What the board sends. */
export type VmcBoardMessage = VmcBoardInfo | VmcBoardStatus | VmcDispenseAck | VmcLaneScanPage | VmcDropSensorReading | VmcDispenseResult | VmcNak;

export type VmcMessageError = 'unknown-command' | 'bad-argument';
export type VmcDecoded<M> = { ok: true; seq: number; message: M } | { ok: false; seq: number; command: number; error: VmcMessageError };

const LAST_RESULT_NONE = 0x7e;
const LAST_RESULT_PENDING = 0x7f;
const ESTIMATE_UNIT_MS = 10;

// --- field helpers -------------------------------------------------------------------------------

function u14(v: number, what: string): [number, number] {
  if (!Number.isInteger(v) || v < 0 || v > VMC_U14_MAX) throw new RangeError(`${what} must be 0..${VMC_U14_MAX}, got ${v}`);
  return [v >> 7, v & 0x7f];
}
function u7(v: number, what: string): number {
  if (!Number.isInteger(v) || v < 0 || v > 0x7f) throw new RangeError(`${what} must be 0..127, got ${v}`);
  return v;
}
function bool(v: boolean): number {
  return v ? 1 : 0;
}
function bitmap(bits: boolean[], bytes: number): number[] {
  const out = new Array<number>(bytes).fill(0);
  bits.forEach((on, i) => {
    if (on) out[Math.floor(i / 7)] = (out[Math.floor(i / 7)] ?? 0) | (1 << (i % 7));
  });
  return out;
}

function dataOf(...bytes: number[]): Uint8Array {
  if (bytes.length > VMC_DATA_LENGTH) throw new RangeError('too many data bytes');
  const d = new Uint8Array(VMC_DATA_LENGTH);
  d.set(bytes);
  return d;
}

/** Reads fields off a frame's data and remembers whether any was out of range. */
class Reader {
  bad = false;
  constructor(private readonly d: Uint8Array) {}
  at(i: number): number {
    return this.d[i] ?? 0;
  }
  u14(i: number): number {
    return (this.at(i) << 7) | this.at(i + 1);
  }
  bool(i: number): boolean {
    const v = this.at(i);
    if (v > 1) this.bad = true;
    return v === 1;
  }
  max(i: number, max: number): number {
    const v = this.at(i);
    if (v > max) this.bad = true;
    return v;
  }
  /** Bytes from `from` on must be zero (reserved / padding). */
  reserved(from: number): void {
    for (let i = from; i < VMC_DATA_LENGTH; i++) if (this.at(i) !== 0) this.bad = true;
  }
  bits(from: number, count: number): boolean[] {
    const out: boolean[] = [];
    for (let i = 0; i < count; i++) out.push(((this.at(from + Math.floor(i / 7)) >> (i % 7)) & 1) === 1);
    return out;
  }
  named<T extends Record<string, number>>(i: number, table: T): keyof T {
    const name = nameOfCode(table, this.at(i));
    if (name === undefined) {
      this.bad = true;
      return Object.keys(table)[0] as keyof T;
    }
    return name;
  }
}

// --- host messages ------------------------------------------------------------------------------

export function hostMessageToFrame(seq: number, m: VmcHostMessage): VmcFrame {
  switch (m.kind) {
    case 'info':
      return { direction: 'host', seq, command: VmcCommand.info, data: dataOf() };
    case 'status':
      return { direction: 'host', seq, command: VmcCommand.status, data: dataOf() };
    case 'dispense':
      return { direction: 'host', seq, command: VmcCommand.dispense, data: dataOf(...u14(m.aisle, 'aisle'), ...u14(m.bootId, 'bootId')) };
    case 'laneScan':
      return { direction: 'host', seq, command: VmcCommand.laneScan, data: dataOf(u7(m.page, 'page')) };
    case 'dropSensor':
      return { direction: 'host', seq, command: VmcCommand.dropSensor, data: dataOf() };
  }
}

export function encodeHostMessage(seq: number, m: VmcHostMessage): Uint8Array {
  return encodeVmcFrame(hostMessageToFrame(seq, m));
}

/** Interprets a checked host frame. Unknown commands and malformed arguments are errors the board NAKs. */
export function parseHostFrame(f: VmcFrame): VmcDecoded<VmcHostMessage> {
  const r = new Reader(f.data);
  let message: VmcHostMessage;
  switch (f.command) {
    case VmcCommand.info:
      message = { kind: 'info' };
      r.reserved(0);
      break;
    case VmcCommand.status:
      message = { kind: 'status' };
      r.reserved(0);
      break;
    case VmcCommand.dispense:
      message = { kind: 'dispense', aisle: r.u14(0), bootId: r.u14(2) };
      r.reserved(4);
      break;
    case VmcCommand.laneScan:
      message = { kind: 'laneScan', page: r.at(0) };
      r.reserved(1);
      break;
    case VmcCommand.dropSensor:
      message = { kind: 'dropSensor' };
      r.reserved(0);
      break;
    default:
      return { ok: false, seq: f.seq, command: f.command, error: 'unknown-command' };
  }
  if (r.bad) return { ok: false, seq: f.seq, command: f.command, error: 'bad-argument' };
  return { ok: true, seq: f.seq, message };
}

/** Decodes 16 bytes into a host message; undefined when the frame itself is damaged. */
export function decodeHostMessage(bytes: Uint8Array): VmcDecoded<VmcHostMessage> | undefined {
  const f = decodeVmcFrame(bytes, 'host');
  return f.ok ? parseHostFrame(f.frame) : undefined;
}

// --- board messages -----------------------------------------------------------------------------

function parseVersion(v: string): [number, number, number] {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(v);
  if (!m) throw new RangeError(`vmcVersion must be major.minor.patch, got ${v}`);
  return [u7(Number(m[1]), 'vmcVersion major'), u7(Number(m[2]), 'vmcVersion minor'), u7(Number(m[3]), 'vmcVersion patch')];
}

function geometry(rows: number, columns: number): [number, number] {
  if (!Number.isInteger(rows) || rows < 1 || rows > VMC_MAX_ROWS) throw new RangeError(`rows must be 1..${VMC_MAX_ROWS}, got ${rows}`);
  if (!Number.isInteger(columns) || columns < 1 || columns > VMC_MAX_COLUMNS)
    throw new RangeError(`columnsPerRow must be 1..${VMC_MAX_COLUMNS}, got ${columns}`);
  return [rows, columns];
}

export function boardMessageToFrame(seq: number, m: VmcBoardMessage): VmcFrame {
  const frame = (command: number, data: Uint8Array): VmcFrame => ({ direction: 'board', seq, command, data });
  switch (m.kind) {
    case 'info':
      return frame(
        VmcReply.info,
        dataOf(
          ...parseVersion(m.vmcVersion),
          VmcModuleCode[m.module],
          ...geometry(m.rows, m.columnsPerRow),
          ...u14(m.bootId, 'bootId'),
          u7(m.protocolVersion, 'protocolVersion'),
        ),
      );
    case 'status': {
      const last = m.lastResult === 'none' ? LAST_RESULT_NONE : m.lastResult === 'pending' ? LAST_RESULT_PENDING : VmcResultCode[m.lastResult];
      const faults = bool(m.faults.lift) | (bool(m.faults.dropSensor) << 1) | (bool(m.faults.jammedLanes) << 2);
      return frame(
        VmcReply.status,
        dataOf(VmcBoardState[m.state], ...u14(m.bootId, 'bootId'), u7(m.lastSeq, 'lastSeq'), last, u7(m.liftRow, 'liftRow'), faults, u7(m.keptSeq, 'keptSeq')),
      );
    }
    case 'dispenseAck': {
      const estimate = Math.min(VMC_U14_MAX, Math.ceil(m.estimateMs / ESTIMATE_UNIT_MS));
      return frame(VmcReply.dispenseAck, dataOf(m.disposition === 'accepted' ? 0 : 1, ...u14(m.aisle, 'aisle'), ...u14(estimate, 'estimate')));
    }
    case 'laneScan': {
      if (m.motors.length !== m.jams.length || m.motors.length > VMC_LANES_PER_PAGE)
        throw new RangeError(`a lane-scan page carries 0..${VMC_LANES_PER_PAGE} lanes`);
      if (m.firstAisle !== m.page * VMC_LANES_PER_PAGE + 1) throw new RangeError('firstAisle must be page × 21 + 1');
      return frame(VmcReply.laneScan, dataOf(u7(m.page, 'page'), u7(m.pages, 'pages'), m.motors.length, ...bitmap(m.motors, 3), ...bitmap(m.jams, 3)));
    }
    case 'dropSensor':
      if (m.level > 1023) throw new RangeError('level must be 0..1023');
      return frame(VmcReply.dropSensor, dataOf(bool(m.blocked), bool(m.healthy), ...u14(m.level, 'level'), ...u14(m.drops, 'drops')));
    case 'result':
      return frame(
        VmcReply.result,
        dataOf(
          ...u14(m.aisle, 'aisle'),
          VmcResultCode[m.code],
          ...u14(Math.min(VMC_U14_MAX, m.motorMs), 'motorMs'),
          bool(m.dropDetected),
          u7(m.liftRow, 'liftRow'),
        ),
      );
    case 'nak':
      return frame(VmcReply.nak, dataOf(VmcNakReason[m.reason], u7(m.command, 'command')));
  }
}

export function encodeBoardMessage(seq: number, m: VmcBoardMessage): Uint8Array {
  return encodeVmcFrame(boardMessageToFrame(seq, m));
}

/** Interprets a checked board frame. */
export function parseBoardFrame(f: VmcFrame): VmcDecoded<VmcBoardMessage> {
  const r = new Reader(f.data);
  let message: VmcBoardMessage;
  switch (f.command) {
    case VmcReply.info: {
      const rows = r.at(4);
      const columnsPerRow = r.at(5);
      if (rows < 1 || rows > VMC_MAX_ROWS || columnsPerRow < 1 || columnsPerRow > VMC_MAX_COLUMNS) r.bad = true;
      message = {
        kind: 'info',
        vmcVersion: `${r.at(0)}.${r.at(1)}.${r.at(2)}`,
        module: r.named(3, VmcModuleCode),
        rows,
        columnsPerRow,
        bootId: r.u14(6),
        protocolVersion: r.at(8),
      };
      r.reserved(9);
      break;
    }
    case VmcReply.status: {
      const lastByte = r.at(4);
      const lastResult: VmcLastResult = lastByte === LAST_RESULT_NONE ? 'none' : lastByte === LAST_RESULT_PENDING ? 'pending' : r.named(4, VmcResultCode);
      const faults = r.max(6, 0x07);
      message = {
        kind: 'status',
        state: r.named(0, VmcBoardState),
        bootId: r.u14(1),
        lastSeq: r.at(3),
        keptSeq: r.at(7),
        lastResult,
        liftRow: r.at(5),
        faults: { lift: (faults & 1) !== 0, dropSensor: (faults & 2) !== 0, jammedLanes: (faults & 4) !== 0 },
      };
      r.reserved(8);
      break;
    }
    case VmcReply.dispenseAck:
      message = { kind: 'dispenseAck', disposition: r.max(0, 1) === 0 ? 'accepted' : 'duplicate', aisle: r.u14(1), estimateMs: r.u14(3) * ESTIMATE_UNIT_MS };
      r.reserved(5);
      break;
    case VmcReply.laneScan: {
      const page = r.at(0);
      const count = r.max(2, VMC_LANES_PER_PAGE);
      const motors = r.bits(3, count);
      const jams = r.bits(6, count);
      // bits beyond `count` must be clear
      const allMotors = r.bits(3, VMC_LANES_PER_PAGE);
      const allJams = r.bits(6, VMC_LANES_PER_PAGE);
      if (allMotors.slice(count).some(Boolean) || allJams.slice(count).some(Boolean)) r.bad = true;
      message = { kind: 'laneScan', page, pages: r.at(1), firstAisle: page * VMC_LANES_PER_PAGE + 1, motors, jams };
      r.reserved(9);
      break;
    }
    case VmcReply.dropSensor: {
      const level = r.u14(2);
      if (level > 1023) r.bad = true;
      message = { kind: 'dropSensor', blocked: r.bool(0), healthy: r.bool(1), level, drops: r.u14(4) };
      r.reserved(6);
      break;
    }
    case VmcReply.result:
      message = { kind: 'result', aisle: r.u14(0), code: r.named(2, VmcResultCode), motorMs: r.u14(3), dropDetected: r.bool(5), liftRow: r.at(6) };
      r.reserved(7);
      break;
    case VmcReply.nak:
      message = { kind: 'nak', reason: r.named(0, VmcNakReason), command: r.at(1) };
      r.reserved(2);
      break;
    default:
      return { ok: false, seq: f.seq, command: f.command, error: 'unknown-command' };
  }
  if (r.bad) return { ok: false, seq: f.seq, command: f.command, error: 'bad-argument' };
  return { ok: true, seq: f.seq, message };
}

/** Decodes 16 bytes into a board message; undefined when the frame itself is damaged. */
export function decodeBoardMessage(bytes: Uint8Array): VmcDecoded<VmcBoardMessage> | undefined {
  const f = decodeVmcFrame(bytes, 'board');
  return f.ok ? parseBoardFrame(f.frame) : undefined;
}
