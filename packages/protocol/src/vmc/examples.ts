import { VMC_OFFSET } from './constants.ts';
import { decodeVmcFrame, vmcHex } from './frame.ts';
import { encodeBoardMessage, encodeHostMessage } from './messages.ts';
import type { VmcBoardMessage, VmcHostMessage } from './messages.ts';

/** One worked example of docs/vmc-protocol.md: a conversation of frames, each encoded by the codec. */
interface Line {
  dir: 'host' | 'board';
  seq: number;
  msg: VmcHostMessage | VmcBoardMessage;
  note: string;
}

const BOOT = 4660; // 0x1234

const EXAMPLES: { title: string; lines: Line[] }[] = [
  {
    title: 'Greeting: unsequenced STATUS (seq 0), then board info',
    lines: [
      { dir: 'host', seq: 0, msg: { kind: 'status' }, note: 'STATUS, seq 0: never stored, never a retransmission' },
      {
        dir: 'board',
        seq: 0,
        msg: {
          kind: 'status',
          state: 'idle',
          bootId: BOOT,
          lastSeq: 41,
          keptSeq: 39,
          lastResult: 'success',
          liftRow: 0,
          faults: { lift: false, dropSensor: false, jammedLanes: false },
        },
        note: 'idle, boot id 0x1234 (24 34), last seq 41 (0x29), last result success, kept dispense seq 39 (0x27)',
      },
      { dir: 'host', seq: 42, msg: { kind: 'info' }, note: "INFO, seq 42: the host continues after the board's last seq" },
      {
        dir: 'board',
        seq: 42,
        msg: { kind: 'info', vmcVersion: '2.4.1', module: 'SH_YAxis', rows: 6, columnsPerRow: 10, bootId: BOOT, protocolVersion: 1 },
        note: 'firmware 2.4.1, SH_YAxis, 6 rows × 10 columns, boot 0x1234, protocol 1',
      },
    ],
  },
  {
    title: 'Dispense aisle 12 (row 2, column 2) on SH_YAxis, the first ACK lost',
    lines: [
      { dir: 'host', seq: 43, msg: { kind: 'dispense', aisle: 12, bootId: BOOT }, note: 'DISPENSE aisle 12 (00 0C), boot 0x1234 (24 34)' },
      {
        dir: 'board',
        seq: 43,
        msg: { kind: 'dispenseAck', disposition: 'accepted', aisle: 12, estimateMs: 3100 },
        note: 'ACK accepted, result in about 3.1 s (310 × 10 ms = 02 36): lost on the line',
      },
      { dir: 'host', seq: 43, msg: { kind: 'dispense', aisle: 12, bootId: BOOT }, note: '0.5 s later: the same 16 bytes again' },
      {
        dir: 'board',
        seq: 43,
        msg: { kind: 'dispenseAck', disposition: 'duplicate', aisle: 12, estimateMs: 2600 },
        note: 'ACK duplicate: recognised, the motor is not run again',
      },
      {
        dir: 'board',
        seq: 43,
        msg: { kind: 'result', aisle: 12, code: 'success', motorMs: 1200, dropDetected: true, liftRow: 2 },
        note: 'RESULT success, motor 1200 ms (09 30), drop seen, lift went to row 2',
      },
    ],
  },
  {
    title: 'Asking again for a result that was lost',
    lines: [
      { dir: 'host', seq: 43, msg: { kind: 'dispense', aisle: 12, bootId: BOOT }, note: 'the same DISPENSE, after the estimate and the grace period passed' },
      {
        dir: 'board',
        seq: 43,
        msg: { kind: 'dispenseAck', disposition: 'duplicate', aisle: 12, estimateMs: 0 },
        note: 'ACK duplicate, nothing left to wait for',
      },
      {
        dir: 'board',
        seq: 43,
        msg: { kind: 'result', aisle: 12, code: 'success', motorMs: 1200, dropDetected: true, liftRow: 2 },
        note: 'the stored RESULT, byte for byte as before',
      },
    ],
  },
  {
    title: 'Faults',
    lines: [
      { dir: 'host', seq: 44, msg: { kind: 'dispense', aisle: 7, bootId: BOOT }, note: 'DISPENSE aisle 7' },
      {
        dir: 'board',
        seq: 44,
        msg: { kind: 'dispenseAck', disposition: 'accepted', aisle: 7, estimateMs: 2300 },
        note: "ACK accepted, about 2.3 s: a vend's estimate (§7), the board cannot know the lane will stall",
      },
      {
        dir: 'board',
        seq: 44,
        msg: { kind: 'result', aisle: 7, code: 'motorJam', motorMs: 1200, dropDetected: false, liftRow: 1 },
        note: 'RESULT motor jam (02) 1.6 s after the ACK: lift up 0.4 s, motor stalled at 1.2 s; the dispense is over, the lift goes home by itself (0.4 s); lane 7 now flagged jammed',
      },
      { dir: 'host', seq: 45, msg: { kind: 'dispense', aisle: 7, bootId: 999 }, note: 'DISPENSE naming boot 999: meant for an earlier power-up' },
      { dir: 'board', seq: 45, msg: { kind: 'nak', reason: 'bootMismatch', command: 0x03 }, note: 'NAK boot mismatch (05) for command 03: nothing runs' },
    ],
  },
  {
    title: 'Lane scan and drop sensor',
    lines: [
      { dir: 'host', seq: 46, msg: { kind: 'laneScan', page: 0 }, note: 'LANE_SCAN page 0 (aisles 1–21)' },
      {
        dir: 'board',
        seq: 46,
        msg: {
          kind: 'laneScan',
          page: 0,
          pages: 3,
          firstAisle: 1,
          motors: Array.from({ length: 21 }, (_, i) => i !== 8),
          jams: Array.from({ length: 21 }, (_, i) => i === 6),
        },
        note: 'page 0 of 3, 21 lanes; motors: all but aisle 9; jammed: aisle 7',
      },
      { dir: 'host', seq: 47, msg: { kind: 'dropSensor' }, note: 'DROP_SENSOR' },
      {
        dir: 'board',
        seq: 47,
        msg: { kind: 'dropSensor', blocked: false, healthy: true, level: 950, drops: 17 },
        note: 'beam clear, healthy, level 950 (07 36), 17 drops since power-up',
      },
    ],
  },
  {
    title: 'A second DISPENSE while one runs (refused at once), then a late retransmission of the running one',
    lines: [
      { dir: 'host', seq: 48, msg: { kind: 'dispense', aisle: 12, bootId: BOOT }, note: 'DISPENSE aisle 12: starts (lift to row 2)' },
      { dir: 'board', seq: 48, msg: { kind: 'dispenseAck', disposition: 'accepted', aisle: 12, estimateMs: 3100 }, note: 'ACK accepted, about 3.1 s' },
      { dir: 'host', seq: 49, msg: { kind: 'dispense', aisle: 13, bootId: BOOT }, note: 'DISPENSE aisle 13 (another host, or one that lost track)' },
      {
        dir: 'board',
        seq: 49,
        msg: { kind: 'dispenseAck', disposition: 'accepted', aisle: 13, estimateMs: 0 },
        note: 'refused at once: ACK accepted with no time to wait…',
      },
      {
        dir: 'board',
        seq: 49,
        msg: { kind: 'result', aisle: 13, code: 'busy', motorMs: 0, dropDetected: false, liftRow: 2 },
        note: '…and its RESULT busy (06) right after; seq 49 is now the last frame',
      },
      { dir: 'host', seq: 48, msg: { kind: 'dispense', aisle: 12, bootId: BOOT }, note: 'aisle 12 asked again after seq 49, 0.6 s after its ACK' },
      {
        dir: 'board',
        seq: 48,
        msg: { kind: 'dispenseAck', disposition: 'duplicate', aisle: 12, estimateMs: 2500 },
        note: 'still the kept dispense: ACK duplicate, 2.5 s to go; the motor is not started again',
      },
      { dir: 'host', seq: 50, msg: { kind: 'status' }, note: 'STATUS, seq 50' },
      {
        dir: 'board',
        seq: 50,
        msg: {
          kind: 'status',
          state: 'dispensing',
          bootId: BOOT,
          lastSeq: 49,
          keptSeq: 48,
          lastResult: 'pending',
          liftRow: 2,
          faults: { lift: false, dropSensor: false, jammedLanes: true },
        },
        note: 'dispensing; last seq 49 (31): the frame before this STATUS, not the retransmitted 48; kept 48 (30); still running (7F); lift at row 2',
      },
      {
        dir: 'board',
        seq: 48,
        msg: { kind: 'result', aisle: 12, code: 'success', motorMs: 1200, dropDetected: true, liftRow: 2 },
        note: 'RESULT success for aisle 12, when it finishes',
      },
    ],
  },
  {
    title: 'A lift fault (SH_YAxis)',
    lines: [
      { dir: 'host', seq: 51, msg: { kind: 'dispense', aisle: 12, bootId: BOOT }, note: 'DISPENSE aisle 12 (row 2), the lift cannot travel' },
      {
        dir: 'board',
        seq: 51,
        msg: { kind: 'dispenseAck', disposition: 'accepted', aisle: 12, estimateMs: 3100 },
        note: "ACK accepted, about 3.1 s: a vend's estimate, as for a jam",
      },
      {
        dir: 'board',
        seq: 51,
        msg: { kind: 'result', aisle: 12, code: 'liftFault', motorMs: 0, dropDetected: false, liftRow: 0 },
        note: 'RESULT lift fault (04) 1.6 s after the ACK (twice the 0.8 s travel to row 2); motor 0, no row reached',
      },
      { dir: 'host', seq: 0, msg: { kind: 'status' }, note: 'STATUS, seq 0' },
      {
        dir: 'board',
        seq: 0,
        msg: {
          kind: 'status',
          state: 'fault',
          bootId: BOOT,
          lastSeq: 51,
          keptSeq: 51,
          lastResult: 'liftFault',
          liftRow: 0,
          faults: { lift: true, dropSensor: false, jammedLanes: true },
        },
        note: 'fault (03), lift flag (bit 0) and the lane 7 jam (bit 2); the lift is home (0); seq 51 is both the last frame and the kept dispense',
      },
    ],
  },
  {
    title: "A board holding an earlier session's dispense: the host bars its seq",
    lines: [
      { dir: 'host', seq: 0, msg: { kind: 'status' }, note: 'a new session (restarted daemon, motor test, another host) just before its DISPENSE' },
      {
        dir: 'board',
        seq: 0,
        msg: {
          kind: 'status',
          state: 'idle',
          bootId: BOOT,
          lastSeq: 62,
          keptSeq: 63,
          lastResult: 'success',
          liftRow: 0,
          faults: { lift: false, dropSensor: false, jammedLanes: false },
        },
        note: "last seq 62 (3E); kept dispense seq 63 (3F): an earlier session's DISPENSE of aisle 3, which vended",
      },
      {
        dir: 'host',
        seq: 64,
        msg: { kind: 'dispense', aisle: 3, bootId: BOOT },
        note: 'DISPENSE aisle 3 takes seq 64: with seq 63 it would be the kept dispense byte for byte',
      },
      {
        dir: 'board',
        seq: 64,
        msg: { kind: 'dispenseAck', disposition: 'accepted', aisle: 3, estimateMs: 2300 },
        note: 'ACK accepted: a new request, the motor runs',
      },
    ],
  },
  {
    title: 'ACK duplicate to a first send: not this request',
    lines: [
      {
        dir: 'host',
        seq: 63,
        msg: { kind: 'dispense', aisle: 3, bootId: BOOT },
        note: 'first send of a new request, seq 63 (a host that did not bar the kept dispense, or raced another host)',
      },
      {
        dir: 'board',
        seq: 63,
        msg: { kind: 'dispenseAck', disposition: 'duplicate', aisle: 3, estimateMs: 0 },
        note: 'ACK duplicate: the board took it for the kept dispense, nothing started',
      },
      {
        dir: 'board',
        seq: 63,
        msg: { kind: 'result', aisle: 3, code: 'success', motorMs: 1200, dropDetected: true, liftRow: 1 },
        note: "the earlier request's stored RESULT: never this request's; the host reports no_result, not vended",
      },
    ],
  },
];

function encode(l: Line): Uint8Array {
  return l.dir === 'host' ? encodeHostMessage(l.seq, l.msg as VmcHostMessage) : encodeBoardMessage(l.seq, l.msg as VmcBoardMessage);
}

/** The worked examples as markdown (the block between the markers in docs/vmc-protocol.md). */
export function renderVmcExamples(): string {
  const out: string[] = [];
  for (const ex of EXAMPLES) {
    out.push(`**${ex.title}**`, '', '```');
    for (const l of ex.lines) out.push(`${l.dir === 'host' ? 'host  →' : 'board ←'} ${vmcHex(encode(l))}   ${l.note}`);
    out.push('```', '');
  }
  // a damaged frame: one byte changed in the first DISPENSE above
  const good = encodeHostMessage(43, { kind: 'dispense', aisle: 12, bootId: BOOT });
  const bad = good.slice();
  bad[VMC_OFFSET.data + 1] = 0x0d;
  const check = decodeVmcFrame(bad);
  out.push(
    '**A damaged frame**',
    '',
    '```',
    `sent      ${vmcHex(good)}`,
    `received  ${vmcHex(bad)}   aisle byte 0C became 0D: CRC check ${check.ok ? 'PASSED (!)' : `fails (${check.error})`}, frame ignored, no NAK`,
    '```',
  );
  return out.join('\n');
}
