import { describe, expect, it } from 'vitest';
import { ManualClock, decodeHostMessage, encodeBoardMessage, vmcHex } from '@vend/protocol';
import type { VmcBoardMessage, VmcHostMessage } from '@vend/protocol';
import { VmcDriver } from './driver.ts';
import { VmcLinkError } from './link.ts';
import type { VmcTimings } from './driver.ts';
import type { SerialEvents, SerialTransport } from './transport.ts';

const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

interface Received {
  seq: number;
  message: VmcHostMessage;
  hex: string;
}

type Respond = (r: Received, n: number) => VmcBoardMessage[] | Uint8Array[] | void;

/**
 * A serial line with a scripted board at the far end. The board answers the seq-0 status handshake
 * by itself (boot id, last seq); everything else is up to the test's `respond`.
 */
class FakeLine implements SerialTransport {
  opens = 0;
  failOpens = 0;
  received: Received[] = [];
  bootId = 100;
  lastSeq = 0;
  keptSeq = 0;
  respond: Respond = () => [];
  silentHandshake = false;
  private events: SerialEvents | null = null;

  async open(_path: string, events: SerialEvents) {
    this.opens++;
    if (this.failOpens > 0) {
      this.failOpens--;
      throw new Error('ENOENT: no such file or directory');
    }
    this.events = events;
    return {
      write: async (bytes: Uint8Array) => {
        if (this.events !== events) throw new Error('EIO');
        const d = decodeHostMessage(bytes);
        if (!d?.ok) throw new Error(`driver wrote a bad frame ${vmcHex(bytes)}`);
        const r = { seq: d.seq, message: d.message, hex: vmcHex(bytes) };
        if (d.seq === 0 && d.message.kind === 'status') {
          if (!this.silentHandshake) this.later(d.seq, [this.statusReply()]);
          return;
        }
        this.received.push(r);
        const out = this.respond(r, this.received.filter((x) => x.message.kind === r.message.kind).length);
        if (out) this.later(d.seq, out);
      },
      close: async () => {
        if (this.events === events) this.events = null;
      },
    };
  }
  async list() {
    return [];
  }
  statusReply(): VmcBoardMessage {
    return {
      kind: 'status',
      state: 'idle',
      bootId: this.bootId,
      lastSeq: this.lastSeq,
      keptSeq: this.keptSeq,
      lastResult: 'none',
      liftRow: 0,
      faults: { lift: false, dropSensor: false, jammedLanes: false },
    };
  }
  /** Sends frames (or raw bytes) to the driver on the next turn, as a port would. */
  later(seq: number, out: VmcBoardMessage[] | Uint8Array[]): void {
    const events = this.events;
    setImmediate(() => {
      for (const o of out) events?.data(o instanceof Uint8Array ? o : encodeBoardMessage(seq, o));
    });
  }
  send(seq: number, m: VmcBoardMessage): void {
    this.later(seq, [m]);
  }
  unplug(): void {
    const e = this.events;
    this.events = null;
    e?.closed(new Error('device disconnected'));
  }
  dispenses(): Received[] {
    return this.received.filter((r) => r.message.kind === 'dispense');
  }
}

const ack = (aisle: number, estimateMs = 1500, disposition: 'accepted' | 'duplicate' = 'accepted'): VmcBoardMessage => ({
  kind: 'dispenseAck',
  disposition,
  aisle,
  estimateMs,
});
const result = (aisle: number, code: 'success' | 'motorJam' | 'laneEmpty' = 'success'): VmcBoardMessage => ({
  kind: 'result',
  aisle,
  code,
  motorMs: code === 'laneEmpty' ? 0 : 1200,
  dropDetected: code === 'success',
  liftRow: 0,
});

function rig(timings: Partial<VmcTimings> = {}) {
  const clock = new ManualClock(0);
  const line = new FakeLine();
  const driver = new VmcDriver({ transport: line, path: '/dev/ttyVMC', clock, timings });
  /** Advances the clock in small steps, letting the driver run in between. */
  const pass = async (ms: number, step = 50): Promise<void> => {
    for (let t = 0; t < ms; t += step) {
      await flush();
      clock.advance(Math.min(step, ms - t));
    }
    await flush();
  };
  return { clock, line, driver, pass };
}

describe('driver: opening the port', () => {
  it('retries the open 10 times, 2 s apart, then reports the board unavailable with the reason', async () => {
    const { line, driver, pass, clock } = rig();
    line.failOpens = 100;
    const p = driver.dispense(3);
    await pass(30_000, 500);
    const r = await p;
    expect(line.opens).toBe(10);
    expect(r).toMatchObject({ outcome: 'board_unavailable', motorRan: 'no', seq: 0, sends: 0 });
    expect(r.detail).toMatch(/could not open \/dev\/ttyVMC after 10 attempts.*ENOENT/);
    expect(r.durationMs).toBe(18_000);
    expect(clock.now()).toBeGreaterThanOrEqual(18_000);
  });

  it('gets through when the device appears during the retries', async () => {
    const { line, driver, pass } = rig();
    line.failOpens = 3;
    line.respond = (r) => (r.message.kind === 'dispense' ? [ack(3), result(3)] : []);
    const p = driver.dispense(3);
    await pass(10_000, 500);
    expect(await p).toMatchObject({ outcome: 'success', durationMs: 6000 });
    expect(line.opens).toBe(4);
  });

  it('starts its sequence after the last one the board remembers', async () => {
    const { line, driver, pass } = rig();
    line.lastSeq = 41;
    line.respond = (r) => (r.message.kind === 'dispense' ? [ack(3), result(3)] : []);
    const p = driver.dispense(3);
    await pass(100);
    await p;
    expect(line.dispenses()[0]?.seq).toBe(42);
    expect(line.dispenses()[0]?.message).toEqual({ kind: 'dispense', aisle: 3, bootId: 100 });
  });

  it('reports a board that opens but never answers as unavailable, without sending the request', async () => {
    const { line, driver, pass } = rig();
    line.silentHandshake = true;
    const p = driver.dispense(3);
    await pass(5000);
    expect(await p).toMatchObject({ outcome: 'board_unavailable', motorRan: 'no', sends: 0 });
    expect(line.dispenses()).toEqual([]);
  });
});

describe('driver: acknowledgement', () => {
  it('retransmits the same bytes every 0.5 s without an ACK and gives up after 5 sends', async () => {
    const { line, driver, pass } = rig();
    const p = driver.dispense(7);
    await pass(5000);
    const r = await p;
    expect(r).toMatchObject({ outcome: 'no_ack', motorRan: 'unknown', sends: 5, durationMs: 2500 });
    expect(r.detail).toMatch(/may have run/);
    const sent = line.dispenses();
    expect(sent).toHaveLength(5);
    expect(new Set(sent.map((s) => s.hex)).size).toBe(1); // same sequence number, same bytes
  });

  it('takes an ACK that arrives late (after a retransmission) and does not count it twice', async () => {
    const { line, driver, pass, clock } = rig();
    // the board delays every ACK by 700 ms: the driver retransmits at 500 ms, then the first ACK lands
    line.respond = (r, n) => {
      if (r.message.kind !== 'dispense') return;
      clock.setTimeout(() => line.send(r.seq, ack(7, 1000, n === 1 ? 'accepted' : 'duplicate')), 700);
    };
    const p = driver.dispense(7);
    await pass(1000);
    expect(line.dispenses()).toHaveLength(2);
    line.send(line.dispenses()[0]!.seq, result(7));
    await pass(2000);
    expect(await p).toMatchObject({ outcome: 'success', sends: 2 });
    expect(driver.stats.retransmissions).toBe(1);
  });

  it('ignores a damaged ACK and retransmits', async () => {
    const { line, driver, pass } = rig();
    line.respond = (r, n) => {
      if (r.message.kind !== 'dispense') return;
      const good = encodeBoardMessage(r.seq, ack(7));
      if (n === 1) {
        const bad = good.slice();
        bad[6] = (bad[6]! ^ 0x11) & 0x7f;
        return [bad];
      }
      return [good, encodeBoardMessage(r.seq, result(7))];
    };
    const p = driver.dispense(7);
    await pass(2000);
    expect(await p).toMatchObject({ outcome: 'success', sends: 2 });
    expect(driver.stats.badFrames).toBe(1);
  });

  it('recovers at the next frame after a byte is lost on the line (a fixed-length chopper would stay misaligned)', async () => {
    const { line, driver, pass } = rig();
    line.respond = (r, n) => {
      if (r.message.kind !== 'dispense') return;
      const a = encodeBoardMessage(r.seq, ack(7));
      if (n === 1) return [Uint8Array.from([...a.slice(0, 5), ...a.slice(6)])]; // 15 bytes
      return [a, encodeBoardMessage(r.seq, result(7))];
    };
    const p = driver.dispense(7);
    await pass(2000);
    expect(await p).toMatchObject({ outcome: 'success', sends: 2 });
  });

  it('accepts a RESULT that arrives when every ACK was lost', async () => {
    const { line, driver, pass } = rig();
    line.respond = (r) => (r.message.kind === 'dispense' ? [result(7, 'motorJam')] : []);
    const p = driver.dispense(7);
    await pass(1000);
    expect(await p).toMatchObject({ outcome: 'motor_jam', motorRan: 'yes', sends: 1 });
  });

  it('maps a NAK to board_refused: the motor did not run', async () => {
    const { line, driver, pass } = rig();
    line.respond = (r) => (r.message.kind === 'dispense' ? [{ kind: 'nak', reason: 'badArgument', command: 3 }] : []);
    const p = driver.dispense(7);
    await pass(1000);
    expect(await p).toMatchObject({ outcome: 'board_refused', motorRan: 'no' });
  });
});

describe('driver: the result', () => {
  it('waits past the board estimate, then asks again with the same bytes, and takes the stored result', async () => {
    const { line, driver, pass } = rig();
    line.respond = (r, n) => {
      if (r.message.kind !== 'dispense') return;
      if (n === 1) return [ack(9, 2000)]; // the result frame is then lost
      return [ack(9, 0, 'duplicate'), result(9)];
    };
    const p = driver.dispense(9);
    await pass(2900);
    expect(line.dispenses()).toHaveLength(1); // estimate 2 s + grace 1 s not yet over
    await pass(200);
    expect(line.dispenses()).toHaveLength(2);
    expect(await p).toMatchObject({ outcome: 'success', sends: 2 });
    expect(line.dispenses()[1]?.hex).toBe(line.dispenses()[0]?.hex);
  });

  it('gives up 30 s after the ACK with no_result (motor may have run), asking every 2 s meanwhile', async () => {
    const { line, driver, pass } = rig();
    line.respond = (r) => (r.message.kind === 'dispense' ? [ack(9, 1000)] : []);
    const p = driver.dispense(9);
    await pass(31_000, 100);
    const r = await p;
    expect(r).toMatchObject({ outcome: 'no_result', motorRan: 'unknown' });
    expect(r.detail).toMatch(/no result within 30 s.*may have run/);
    expect(r.durationMs).toBeGreaterThanOrEqual(30_000);
    expect(r.durationMs).toBeLessThan(30_200);
    // first send, then queries from 2 s (1 s estimate + 1 s grace) every 2 s until 30 s: 2, 4, ..., 28
    expect(line.dispenses()).toHaveLength(15);
  });

  it('survives an unplug after the ACK: reopens, checks the boot id, asks again', async () => {
    const { line, driver, pass } = rig({ openBackoffMs: 1000 });
    line.respond = (r, n) => {
      if (r.message.kind !== 'dispense') return;
      if (n === 1) return [ack(4, 3000)];
      return [ack(4, 0, 'duplicate'), result(4)];
    };
    const p = driver.dispense(4);
    await pass(500);
    line.unplug();
    line.failOpens = 2;
    await pass(4000);
    expect(await p).toMatchObject({ outcome: 'success', sends: 2 });
    expect(line.opens).toBe(4);
  });

  it('never resends after the board restarted mid-vend: reports no_result', async () => {
    const { line, driver, pass } = rig();
    line.respond = (r) => (r.message.kind === 'dispense' ? [ack(4, 3000)] : []);
    const p = driver.dispense(4);
    await pass(500);
    line.unplug();
    line.bootId = 101; // it power-cycled while unplugged
    await pass(3000);
    const r = await p;
    expect(r).toMatchObject({ outcome: 'no_result', motorRan: 'unknown' });
    expect(r.detail).toMatch(/restarted/);
    expect(line.dispenses()).toHaveLength(1);
  });

  it('rebinds once to a new boot when its first send is refused with bootMismatch (nothing ran), reading INFO first', async () => {
    const { line, driver, pass } = rig();
    line.respond = (r, n) => {
      if (r.message.kind === 'info')
        return [{ kind: 'info', vmcVersion: '2.5.0', module: 'SH', rows: 6, columnsPerRow: 10, bootId: line.bootId, protocolVersion: 1 }];
      if (r.message.kind !== 'dispense') return;
      if (n === 1) {
        line.bootId = 555;
        return [{ kind: 'nak', reason: 'bootMismatch', command: 3 }];
      }
      return [ack(4), result(4)];
    };
    const p = driver.dispense(4);
    await pass(1000);
    expect(await p).toMatchObject({ outcome: 'success' });
    const [first, second] = line.dispenses();
    expect(first?.message).toMatchObject({ bootId: 100 });
    expect(second?.message).toMatchObject({ bootId: 555 });
    expect(line.dispenses()).toHaveLength(2);
    expect(line.received.map((x) => x.message.kind)).toEqual(['dispense', 'info', 'dispense']);
  });

  it('an ACK duplicate to the first send is another request’s: no_result (never success), not resent', async () => {
    const { line, driver, pass } = rig();
    // a board built before STATUS reported the kept dispense (byte 7 = 0), holding an earlier session's DISPENSE
    // of aisle 3 with the seq this host takes next: it answers duplicate and that session's stored RESULT
    line.lastSeq = 62;
    line.respond = (r) => (r.message.kind === 'dispense' ? [ack(3, 0, 'duplicate'), result(3)] : []);
    const p = driver.dispense(3);
    await pass(5000);
    const r = await p;
    expect(r).toMatchObject({ outcome: 'no_result', motorRan: 'unknown', seq: 63, sends: 1 });
    expect(r.detail).toMatch(/first send.*retransmission.*not vended/);
    expect(line.dispenses()).toHaveLength(1);
  });

  it('treats a result for another aisle as no definite outcome', async () => {
    const { line, driver, pass } = rig();
    line.respond = (r) => (r.message.kind === 'dispense' ? [ack(4), result(5)] : []);
    const p = driver.dispense(4);
    await pass(1000);
    expect(await p).toMatchObject({ outcome: 'no_result', motorRan: 'unknown' });
  });
});

describe('driver: one operation at a time', () => {
  it('holds a second dispense until the first has its result', async () => {
    const { line, driver, pass } = rig();
    let release = (): void => {};
    line.respond = (r) => {
      if (r.message.kind !== 'dispense') return;
      if (r.message.aisle === 1) {
        release = () => line.send(r.seq, result(1));
        return [ack(1, 5000)];
      }
      return [ack(2), result(2)];
    };
    const a = driver.dispense(1);
    const b = driver.dispense(2);
    await pass(1000);
    expect(line.dispenses().map((d) => d.message)).toEqual([{ kind: 'dispense', aisle: 1, bootId: 100 }]);
    expect(driver.lock.isFree).toBe(false);
    release();
    await pass(500);
    expect((await a).outcome).toBe('success');
    expect((await b).outcome).toBe('success');
    expect(line.dispenses().map((d) => (d.message.kind === 'dispense' ? d.message.aisle : 0))).toEqual([1, 2]);
  });
});

describe('driver: queries', () => {
  it('reads info, and a multi-page lane scan', async () => {
    const { line, driver, pass } = rig();
    line.respond = (r) => {
      const m = r.message;
      if (m.kind === 'info') return [{ kind: 'info', vmcVersion: '3.1.0', module: 'SH', rows: 2, columnsPerRow: 15, bootId: 100, protocolVersion: 1 }];
      if (m.kind === 'laneScan') {
        const n = m.page === 0 ? 21 : 9;
        return [
          {
            kind: 'laneScan',
            page: m.page,
            pages: 2,
            firstAisle: m.page * 21 + 1,
            motors: Array.from({ length: n }, (_, i) => i !== 3),
            jams: Array.from({ length: n }, (_, i) => m.page === 1 && i === 0),
          },
        ];
      }
      return undefined;
    };
    const info = driver.info();
    await pass(100);
    expect(await info).toMatchObject({ vmcVersion: '3.1.0', rows: 2, columnsPerRow: 15 });
    const scan = driver.laneScan();
    await pass(100);
    const s = await scan;
    expect(s.lanes).toHaveLength(30);
    expect(s.lanes.filter((l) => !l.motor).map((l) => l.aisle)).toEqual([4, 25]);
    expect(s.lanes.filter((l) => l.jammed).map((l) => l.aisle)).toEqual([22]);
  });

  it('throws a VmcLinkError(no_ack) when a query is never answered', async () => {
    const { driver, pass } = rig();
    const p = driver.status().catch((e: unknown) => e);
    await pass(3000);
    const e = await p;
    expect(e).toBeInstanceOf(VmcLinkError);
    expect((e as VmcLinkError).code).toBe('no_ack');
  });
});
