import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock, VMC_LANES_PER_PAGE, decodeVmcFrame, encodeHostMessage, encodeVmcFrame, parseBoardFrame, parseDex, renderDex } from '@vend/protocol';
import type { VmcBoardMessage, VmcHostMessage } from '@vend/protocol';
import { VmcBoard } from './board.ts';
import type { BoardConfig } from './board.ts';
import { seededRandom } from './rng.ts';

interface Seen {
  seq: number;
  kind: string;
  message: VmcBoardMessage;
}

function rig(config: Partial<BoardConfig> = {}) {
  const clock = new ManualClock(0);
  const board = new VmcBoard({ module: 'SH', motorMs: 1000, dropMs: 200, liftMsPerRow: 400, ...config }, clock, seededRandom(1));
  const out: Seen[] = [];
  board.output = (o) => {
    // every frame the board emits must itself be a valid frame that parses to what it claims
    const f = decodeVmcFrame(o.bytes, 'board');
    if (!f.ok) throw new Error(`board emitted a bad frame: ${f.error}`);
    const p = parseBoardFrame(f.frame);
    if (!p.ok) throw new Error('board emitted an unparsable frame');
    expect(p.message).toEqual(o.message);
    out.push({ seq: o.seq, kind: o.message.kind, message: o.message });
  };
  const send = (seq: number, m: VmcHostMessage): Seen[] => {
    const start = out.length;
    const f = decodeVmcFrame(encodeHostMessage(seq, m), 'host');
    if (!f.ok) throw new Error('test built a bad frame');
    board.receive(f.frame);
    return out.slice(start);
  };
  const dispense = (seq: number, aisle: number, bootId = board.bootId): Seen[] => send(seq, { kind: 'dispense', aisle, bootId });
  const drain = (ms: number): Seen[] => {
    const start = out.length;
    clock.advance(ms);
    return out.slice(start);
  };
  return { clock, board, out, send, dispense, drain };
}

function resultOf(frames: Seen[]): VmcBoardMessage & { kind: 'result' } {
  const r = frames.find((f) => f.kind === 'result');
  if (!r || r.message.kind !== 'result') throw new Error(`no result in ${JSON.stringify(frames.map((f) => f.kind))}`);
  return r.message;
}

describe('board: acknowledgement', () => {
  it('answers every valid query with a reply carrying the same sequence number', () => {
    const r = rig();
    expect(r.send(1, { kind: 'info' })).toMatchObject([{ seq: 1, kind: 'info', message: { vmcVersion: '2.4.1', module: 'SH', rows: 6, columnsPerRow: 10 } }]);
    expect(r.send(2, { kind: 'status' })).toMatchObject([{ seq: 2, kind: 'status', message: { state: 'idle', lastSeq: 1, lastResult: 'none' } }]);
    expect(r.send(3, { kind: 'laneScan', page: 0 })).toMatchObject([{ seq: 3, kind: 'laneScan' }]);
    expect(r.send(4, { kind: 'dropSensor' })).toMatchObject([{ seq: 4, kind: 'dropSensor', message: { healthy: true } }]);
  });

  it('NAKs unknown commands and malformed arguments, and runs nothing', () => {
    const r = rig();
    const unknown = decodeVmcFrame(encodeVmcFrame({ direction: 'host', seq: 5, command: 0x3e, data: new Uint8Array(10) }), 'host');
    if (!unknown.ok) throw new Error();
    r.board.receive(unknown.frame);
    expect(r.out.at(-1)).toMatchObject({ seq: 5, kind: 'nak', message: { reason: 'unknownCommand', command: 0x3e } });
    expect(r.send(6, { kind: 'laneScan', page: 3 })).toMatchObject([{ seq: 6, kind: 'nak', message: { reason: 'badArgument' } }]);
    expect(r.board.motorLog).toHaveLength(0);
  });

  it('scans every lane across pages of 21, reporting motors and jams', () => {
    const r = rig();
    r.board.lane(5).jammed = true;
    r.board.lane(22).motor = false;
    r.board.lane(60).jammed = true;
    const pages = [0, 1, 2].map((page) => r.send(10 + page, { kind: 'laneScan', page })[0]?.message);
    const lanes = pages.flatMap((p) => (p?.kind === 'laneScan' ? p.motors.map((m, i) => ({ aisle: p.firstAisle + i, motor: m, jam: p.jams[i] })) : []));
    expect(pages.map((p) => (p?.kind === 'laneScan' ? [p.pages, p.motors.length] : null))).toEqual([
      [3, VMC_LANES_PER_PAGE],
      [3, VMC_LANES_PER_PAGE],
      [3, 60 - 2 * VMC_LANES_PER_PAGE],
    ]);
    expect(lanes.map((l) => l.aisle)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(lanes.filter((l) => l.jam).map((l) => l.aisle)).toEqual([5, 60]);
    expect(lanes.filter((l) => !l.motor).map((l) => l.aisle)).toEqual([22]);
  });
});

describe('board: dispense', () => {
  it('SH: ACKs at once, runs the motor, reports success when the drop sensor sees the product', () => {
    const r = rig({ module: 'SH' });
    const first = r.dispense(1, 12);
    expect(first).toMatchObject([{ seq: 1, kind: 'dispenseAck', message: { disposition: 'accepted', aisle: 12, estimateMs: 1200 } }]);
    expect(r.send(2, { kind: 'status' })[0]?.message).toMatchObject({ state: 'dispensing', lastResult: 'pending' });
    expect(r.drain(1199)).toEqual([]);
    const res = resultOf(r.drain(1));
    expect(res).toEqual({ kind: 'result', aisle: 12, code: 'success', motorMs: 1000, dropDetected: true, liftRow: 0 });
    expect(r.board.lane(12).stock).toBe(4);
    expect(r.board.motorLog).toMatchObject([{ seq: 1, aisle: 12, row: 2, column: 2, at: 0 }]);
    expect(r.send(3, { kind: 'status' })[0]?.message).toMatchObject({ state: 'idle', lastResult: 'success' });
    expect(r.send(4, { kind: 'dropSensor' })[0]?.message).toMatchObject({ drops: 1 });
  });

  it('SH_YAxis: the lift travels to the row first, then back; the estimate covers both', () => {
    const r = rig({ module: 'SH_YAxis' });
    // aisle 45 = row 5, column 5: 5 rows × 400 ms up, 1000 ms motor, 2000 ms down, 200 ms drop
    expect(r.dispense(1, 45)[0]?.message).toMatchObject({ estimateMs: 5200 });
    r.drain(1);
    expect(r.send(2, { kind: 'status' })[0]?.message).toMatchObject({ state: 'dispensing', liftRow: 5 });
    r.drain(1998);
    expect(r.board.motorLog).toHaveLength(0);
    r.drain(1);
    expect(r.board.motorLog).toMatchObject([{ aisle: 45, row: 5, column: 5, at: 2000 }]);
    expect(resultOf(r.drain(3200))).toMatchObject({ code: 'success', liftRow: 5 });
    expect(r.send(3, { kind: 'status' })[0]?.message).toMatchObject({ liftRow: 0 });
  });

  it.each([
    ['laneEmpty', (b: VmcBoard): void => void (b.lane(7).stock = 0), 7, false],
    ['noMotor', (b: VmcBoard): void => void (b.lane(7).motor = false), 7, false],
    ['unknownAisle', () => {}, 61, false],
    ['unknownAisle', () => {}, 0, false],
    ['motorJam', (b: VmcBoard): void => void (b.lane(7).jammed = true), 7, true],
    ['dropNotDetected', (b: VmcBoard) => b.missDrops(1), 7, true],
    ['dropNotDetected', (b: VmcBoard) => b.setDropSensorHealthy(false), 7, true],
    ['busy', (b: VmcBoard) => b.busyFor(10_000), 7, false],
  ] as const)('reports %s and runs the motor only when it should (case %#)', (code, setup, aisle, runs) => {
    const r = rig({ module: 'SH' });
    setup(r.board);
    const frames = [...r.dispense(1, aisle), ...r.drain(10_000)];
    expect(frames[0]).toMatchObject({ kind: 'dispenseAck' });
    expect(resultOf(frames).code).toBe(code);
    expect(r.board.motorLog).toHaveLength(runs ? 1 : 0);
    if (code === 'motorJam') expect(r.board.lane(7).stock).toBe(5);
  });

  it('reports a lift fault on SH_YAxis without running the motor', () => {
    const r = rig({ module: 'SH_YAxis' });
    r.board.setLiftFault(true);
    const frames = [...r.dispense(1, 33), ...r.drain(10_000)];
    expect(resultOf(frames).code).toBe('liftFault');
    expect(r.board.motorLog).toHaveLength(0);
  });

  it('refuses a second dispense while one runs (busy), without disturbing the first', () => {
    const r = rig({ module: 'SH' });
    r.dispense(1, 3);
    expect(resultOf(r.dispense(2, 4))).toMatchObject({ aisle: 4, code: 'busy', motorMs: 0 });
    expect(resultOf(r.drain(2000))).toMatchObject({ aisle: 3, code: 'success' });
    expect(r.board.motorLog.map((m) => m.aisle)).toEqual([3]);
  });
});

describe('board: retransmission never runs the motor twice', () => {
  it('ACKs a retransmission again (duplicate) and re-sends the stored result', () => {
    const r = rig({ module: 'SH' });
    r.dispense(7, 12);
    expect(r.dispense(7, 12)).toMatchObject([{ seq: 7, kind: 'dispenseAck', message: { disposition: 'duplicate' } }]);
    r.drain(5000);
    const again = r.dispense(7, 12);
    expect(again.map((f) => f.kind)).toEqual(['dispenseAck', 'result']);
    expect(resultOf(again)).toMatchObject({ code: 'success', aisle: 12 });
    expect(r.board.motorLog).toHaveLength(1);
    expect(r.board.lane(12).stock).toBe(4);
    expect(r.board.retransmissions).toBe(2);
  });

  it('holds for any interleaving of retransmissions, new requests and time', () => {
    const step = fc.oneof(
      fc.record({ t: fc.constant('new' as const), aisle: fc.integer({ min: 1, max: 60 }) }),
      fc.record({ t: fc.constant('again' as const) }),
      fc.record({ t: fc.constant('status' as const) }),
      fc.record({ t: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 3000 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.constantFrom('SH' as const, 'SH_YAxis' as const), (steps, module) => {
        const r = rig({ module });
        let seq = 0;
        let lastDispense: { seq: number; aisle: number } | null = null;
        const accepted = new Set<number>(); // request numbers the board accepted as new
        for (const s of steps) {
          if (s.t === 'new') {
            seq = (seq % 127) + 1;
            lastDispense = { seq, aisle: s.aisle };
            const ack = r.dispense(seq, s.aisle)[0];
            expect(ack?.message).toMatchObject({ kind: 'dispenseAck', disposition: 'accepted' });
            accepted.add(seq);
          } else if (s.t === 'again' && lastDispense) {
            const ack = r.dispense(lastDispense.seq, lastDispense.aisle)[0];
            // only a retransmission of the latest frame is a retransmission; after a status poll it is a new frame
            expect(ack?.kind).toBe('dispenseAck');
          } else if (s.t === 'status') {
            lastDispense = null; // the host moved on: it must never resend an older frame
            seq = (seq % 127) + 1;
            r.send(seq, { kind: 'status' });
          } else if (s.t === 'wait') r.drain(s.ms);
        }
        r.drain(60_000);
        const runsPerSeq = new Map<number, number>();
        for (const run of r.board.motorLog) runsPerSeq.set(run.request, (runsPerSeq.get(run.request) ?? 0) + 1);
        for (const n of runsPerSeq.values()) expect(n).toBe(1);
        expect(r.board.motorLog.length).toBeLessThanOrEqual(accepted.size);
        expect(r.board.dispenseRequests).toBeLessThanOrEqual(accepted.size);
      }),
      { numRuns: 150 },
    );
  });

  it('a dispense refused busy while another runs does not evict it: a late retransmission of the running one is a duplicate', () => {
    const r = rig({ module: 'SH' });
    r.dispense(5, 3);
    expect(resultOf(r.dispense(6, 4))).toMatchObject({ aisle: 4, code: 'busy' });
    // the running dispense asked again after the refused one: recognised, still running, not started again
    expect(r.dispense(5, 3)).toMatchObject([{ seq: 5, kind: 'dispenseAck', message: { disposition: 'duplicate', aisle: 3 } }]);
    expect(resultOf(r.drain(2000))).toMatchObject({ aisle: 3, code: 'success' });
    expect(r.board.motorLog.map((m) => m.aisle)).toEqual([3]);
    // the refused one, retransmitted while it is the last frame: the same refusal again, nothing runs
    const busyAgain = r.dispense(6, 4);
    expect(busyAgain.map((f) => f.kind)).toEqual(['dispenseAck', 'result']);
    expect(resultOf(busyAgain)).toMatchObject({ aisle: 4, code: 'busy' });
    expect(r.board.motorLog).toHaveLength(1);
  });

  it('the last dispense the board started keeps its stored RESULT after queries and refusals, until another one starts', () => {
    const r = rig({ module: 'SH' });
    r.dispense(10, 12);
    r.drain(5000);
    r.send(11, { kind: 'info' });
    expect(resultOf(r.dispense(12, 61))).toMatchObject({ code: 'unknownAisle' });
    const again = r.dispense(10, 12);
    expect(again.map((f) => f.kind)).toEqual(['dispenseAck', 'result']);
    expect(again[0]!.message).toMatchObject({ disposition: 'duplicate', estimateMs: 0 });
    expect(resultOf(again)).toMatchObject({ aisle: 12, code: 'success' });
    expect(r.board.motorLog).toHaveLength(1);
    // a sequenced query retransmitted gets its stored reply, byte for byte
    const info = r.send(13, { kind: 'dropSensor' });
    expect(r.send(13, { kind: 'dropSensor' })).toEqual(info);
    // a new dispense that starts replaces the kept one: the old frame is then a new request (a host never resends it)
    r.dispense(14, 13);
    r.drain(5000);
    expect(r.board.motorLog.map((m) => m.aisle)).toEqual([12, 13]);
  });

  it("plays the protocol document's busy example (§8) frame for frame, with §7's timings", () => {
    const r = rig({ module: 'SH_YAxis', motorMs: 1200, dropMs: 300, liftMsPerRow: 400 });
    expect(r.dispense(48, 12)).toMatchObject([{ seq: 48, kind: 'dispenseAck', message: { disposition: 'accepted', estimateMs: 3100 } }]);
    r.drain(100);
    const busy = r.dispense(49, 13);
    expect(busy).toMatchObject([
      { seq: 49, kind: 'dispenseAck', message: { disposition: 'accepted', aisle: 13, estimateMs: 0 } },
      { seq: 49, kind: 'result', message: { aisle: 13, code: 'busy', motorMs: 0, dropDetected: false, liftRow: 2 } },
    ]);
    r.drain(500);
    expect(r.dispense(48, 12)).toMatchObject([{ seq: 48, kind: 'dispenseAck', message: { disposition: 'duplicate', aisle: 12, estimateMs: 2500 } }]);
    expect(r.drain(2500)).toMatchObject([{ seq: 48, kind: 'result', message: { aisle: 12, code: 'success', motorMs: 1200, dropDetected: true, liftRow: 2 } }]);
    expect(r.board.motorLog.map((m) => m.aisle)).toEqual([12]);
  });

  it("a jam: the ACK estimates a vend (§7), the RESULT comes when the motor stalls, and the lane stays flagged (the document's fault example)", () => {
    const r = rig({ module: 'SH_YAxis', motorMs: 1200, dropMs: 300, liftMsPerRow: 400 });
    r.board.lane(7).jammed = true;
    expect(r.dispense(44, 7)).toMatchObject([{ kind: 'dispenseAck', message: { estimateMs: 2300 } }]);
    expect(r.drain(1599)).toEqual([]);
    expect(r.drain(1)).toMatchObject([{ kind: 'result', message: { aisle: 7, code: 'motorJam', motorMs: 1200, liftRow: 1 } }]);
    expect(r.send(45, { kind: 'status' })[0]?.message).toMatchObject({ faults: { jammedLanes: true } });
  });

  it('NAKs a reused sequence number with different content instead of guessing', () => {
    const r = rig();
    r.dispense(9, 12);
    expect(r.dispense(9, 13)).toMatchObject([{ seq: 9, kind: 'nak', message: { reason: 'sequenceConflict' } }]);
    r.drain(10_000);
    expect(r.board.motorLog.map((m) => m.aisle)).toEqual([12]);
  });

  it('answers unsequenced (seq 0) queries without forgetting the last sequenced frame, and refuses a seq-0 dispense', () => {
    const r = rig();
    r.dispense(4, 12);
    expect(r.send(0, { kind: 'status' })).toMatchObject([{ seq: 0, kind: 'status', message: { lastSeq: 4 } }]);
    expect(r.dispense(4, 12)[0]?.message).toMatchObject({ kind: 'dispenseAck', disposition: 'duplicate' });
    expect(r.dispense(0, 13)).toMatchObject([{ seq: 0, kind: 'nak', message: { reason: 'sequenceZero' } }]);
    r.drain(10_000);
    expect(r.board.motorLog).toHaveLength(1);
  });

  it('after a power cycle refuses a request meant for the previous boot (NAK bootMismatch)', () => {
    const r = rig();
    const oldBoot = r.board.bootId;
    r.dispense(4, 12, oldBoot);
    r.drain(500); // the motor is running when the power goes
    r.board.reboot();
    expect(r.board.bootId).not.toBe(oldBoot);
    expect(r.dispense(4, 12, oldBoot)).toMatchObject([{ seq: 4, kind: 'nak', message: { reason: 'bootMismatch' } }]);
    r.drain(10_000);
    expect(r.board.motorLog).toHaveLength(1);
    expect(r.send(0, { kind: 'status' })[0]?.message).toMatchObject({ lastSeq: 0, lastResult: 'none', bootId: r.board.bootId });
  });

  it('withholds results when told to: never sent, not even on a retransmission', () => {
    const r = rig({ module: 'SH' });
    r.board.withholdResults(1);
    r.dispense(1, 2);
    expect(r.drain(10_000)).toEqual([]);
    expect(r.dispense(1, 2).map((f) => f.kind)).toEqual(['dispenseAck']);
    expect(r.board.motorLog).toHaveLength(1);
    // the next request reports normally
    expect(resultOf([...r.dispense(2, 3), ...r.drain(10_000)]).code).toBe('success');
  });
});

describe('board: DEX audit', () => {
  it('counts vends per lane since creation and since power-up, and failed vends, in a file that reads back', () => {
    const r = rig();
    let seq = 1;
    const vend = (aisle: number) => {
      r.dispense(seq++, aisle);
      r.drain(10_000);
    };
    vend(3);
    vend(3);
    r.board.lane(5).jammed = true;
    vend(5);
    r.board.reboot();
    vend(3);
    const parsed = parseDex(renderDex(r.board.dexAudit(r.clock.now())));
    if (!parsed.ok) throw new Error(parsed.error);
    const seg = (id: string) => parsed.segments.filter((s) => s.id === id).map((s) => s.elements);
    const pa1 = seg('PA1');
    const pa2 = seg('PA2');
    const lane3 = pa2[pa1.findIndex((p) => p[0] === '3')]!;
    expect(lane3.slice(0, 4).map(Number)).toEqual([3, 0, 1, 0]);
    expect(pa2[pa1.findIndex((p) => p[0] === '5')]!.map(Number)).toEqual([0, 0, 0, 0]);
    expect(seg('VA1')[0]!.map(Number)).toEqual([0, 3, 0, 1]);
    expect(seg('EA2')[0]).toEqual(['OFV', '1', '0', '']);
    expect(seg('DXS')[0]![0]).toBe('VMCSIM');
  });
});

// The points docs/vmc-protocol.md settles (issue 29), one test each.
describe('board: what the document settles', () => {
  const yAxis = { module: 'SH_YAxis' as const, motorMs: 1200, dropMs: 300, liftMsPerRow: 400 };
  const status = (r: ReturnType<typeof rig>, seq = 0) => r.send(seq, { kind: 'status' })[0]?.message as VmcBoardMessage & { kind: 'status' };

  it('STATUS reports the kept dispense’s seq (byte 7) beside the last frame’s, and a power-up forgets it', () => {
    const r = rig();
    expect(status(r)).toMatchObject({ lastSeq: 0, keptSeq: 0 });
    r.dispense(63, 3);
    r.drain(5000);
    r.send(60, { kind: 'info' });
    expect(status(r)).toMatchObject({ lastSeq: 60, keptSeq: 63 });
    r.board.reboot();
    expect(status(r)).toMatchObject({ lastSeq: 0, keptSeq: 0 });
  });

  it('a retransmission of the kept dispense does not become the last frame again', () => {
    const r = rig(yAxis);
    r.dispense(48, 12);
    r.drain(100);
    r.dispense(49, 13); // refused busy: now the last frame
    r.drain(500);
    expect(r.dispense(48, 12)[0]?.message).toMatchObject({ disposition: 'duplicate' });
    expect(status(r)).toMatchObject({ lastSeq: 49, keptSeq: 48 });
    // so seq 49 with other bytes is still a conflict, and seq 48 with other bytes a new frame (busy)
    expect(r.dispense(49, 14)).toMatchObject([{ kind: 'nak', message: { reason: 'sequenceConflict' } }]);
  });

  it('a sequenced STATUS reports the frame before it in byte 3, not itself', () => {
    const r = rig();
    r.send(7, { kind: 'info' });
    expect(status(r, 8)).toMatchObject({ lastSeq: 7 });
    expect(status(r)).toMatchObject({ lastSeq: 8 });
  });

  it('after a jam the dispense is over at the stall, the lift reads the jam’s row until it is home, and a new DISPENSE meanwhile starts', () => {
    const r = rig(yAxis);
    r.board.lane(25).jammed = true; // row 3: 1.2 s up, stall at 2.4 s, 1.2 s home
    r.dispense(1, 25);
    expect(r.drain(2400)).toMatchObject([{ kind: 'result', message: { code: 'motorJam', liftRow: 3 } }]);
    expect(status(r)).toMatchObject({ state: 'idle', liftRow: 3, lastResult: 'motorJam' });
    r.drain(1199);
    expect(status(r)).toMatchObject({ liftRow: 3 });
    r.drain(1);
    expect(status(r)).toMatchObject({ liftRow: 0 });
    // again, and this time a DISPENSE before the lift is home: started, the lift sent to its own row
    r.dispense(2, 25);
    r.drain(2400 + 600);
    expect(r.dispense(3, 12)).toMatchObject([{ kind: 'dispenseAck', message: { disposition: 'accepted', estimateMs: 3100 } }]);
    expect(status(r)).toMatchObject({ state: 'dispensing', liftRow: 2 });
    r.drain(1000);
    expect(status(r)).toMatchObject({ liftRow: 2 }); // not sent home by the jam's old way back
  });

  it('a lift fault: a vend’s estimate, the RESULT at twice the travel, the lift flag and state fault', () => {
    const r = rig(yAxis);
    r.board.setLiftFault(true);
    expect(status(r)).toMatchObject({ state: 'fault', faults: { lift: true } });
    expect(r.dispense(51, 12)).toMatchObject([{ kind: 'dispenseAck', message: { estimateMs: 3100 } }]);
    expect(status(r)).toMatchObject({ state: 'dispensing', liftRow: 2 });
    expect(r.drain(1599)).toEqual([]);
    expect(r.drain(1)).toMatchObject([{ kind: 'result', message: { code: 'liftFault', motorMs: 0, dropDetected: false, liftRow: 0 } }]);
    expect(status(r)).toMatchObject({ state: 'fault', liftRow: 0, lastResult: 'liftFault', lastSeq: 51, keptSeq: 51, faults: { lift: true } });
    expect(r.board.motorLog).toEqual([]);
    r.board.reboot();
    expect(status(r)).toMatchObject({ faults: { lift: true } });
  });

  it('state priority: dispensing, then busy, then fault, then idle', () => {
    const r = rig(yAxis);
    r.board.setLiftFault(true);
    r.board.busyFor(10_000);
    expect(status(r)).toMatchObject({ state: 'busy' });
    r.drain(10_000);
    expect(status(r)).toMatchObject({ state: 'fault' });
    r.board.setLiftFault(false);
    r.board.lane(7).jammed = true;
    expect(status(r)).toMatchObject({ state: 'idle', faults: { jammedLanes: true } });
    r.dispense(1, 12);
    r.board.setLiftFault(true);
    expect(status(r)).toMatchObject({ state: 'dispensing' });
  });

  it('a board restarted in place with other firmware answers INFO with it', () => {
    const r = rig();
    const before = r.board.bootId;
    r.board.reboot({ vmcVersion: '2.5.0' });
    expect(r.send(0, { kind: 'info' })).toMatchObject([{ message: { vmcVersion: '2.5.0', bootId: r.board.bootId } }]);
    expect(r.board.bootId).not.toBe(before);
    expect(() => r.board.reboot({ vmcVersion: '200.0.0' })).toThrow(RangeError);
  });
});
