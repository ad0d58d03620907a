import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MockSerialLink, VmcSimulator, seededRandom } from '@vend/firmware-sim';
import type { BoardConfig } from '@vend/firmware-sim';
import { VmcDriver, serialportTransport } from '@vend/agent';
import type { DispenseBinding, DispenseReport } from '@vend/agent';
import type { VmcBoardInfo } from '@vend/protocol';
import { VirtualClock } from './support/virtual-clock.ts';

// The serial link across host sessions (issue 29), against the simulated board over serialport's mock
// binding on a virtual clock: a new session (a restarted daemon, `vend-agent service motor-test` in its
// own process, another host after the first) must never take the board's kept dispense — an earlier
// session's DISPENSE — for its own request; and a board that restarts with other firmware is read again
// (INFO) before the next request.

const COMMAND = { status: 0x02, info: 0x01, dispense: 0x03 } as const;

/** The board and one host session after another on the same line. */
async function sessions(board: Partial<BoardConfig> = {}) {
  const clock = new VirtualClock();
  const link = new MockSerialLink();
  const frames: { seq: number; command: number }[] = [];
  const sim = new VmcSimulator({
    front: link,
    clock,
    random: seededRandom(7),
    board: { stock: 1000, ...board },
    pace: 'frame',
    trace: true,
    log: (event, fields) => {
      if (event === 'rx') frames.push(fields as { seq: number; command: number });
    },
  });
  await sim.start();
  const infos: VmcBoardInfo[] = [];
  let driver: VmcDriver | null = null;
  /** Ends the current session (if any) and starts another: a host that knows nothing of the last one. */
  const newSession = async (): Promise<VmcDriver> => {
    await driver?.close();
    driver = new VmcDriver({
      transport: serialportTransport({ binding: link.binding }),
      path: link.hostPath,
      clock,
      onBoardInfo: (info) => infos.push(info),
    });
    return driver;
  };
  const run = <T>(p: Promise<T>): Promise<T> => clock.run(p);
  /** `n` sequenced queries: the board's last seq moves on, its kept dispense stays. */
  const queries = async (d: VmcDriver, n: number): Promise<void> => {
    for (let i = 0; i < n; i++) await run(d.status());
  };
  const close = async (): Promise<void> => {
    await driver?.close();
    await sim.stop();
  };
  return { clock, sim, frames, infos, newSession, run, queries, close };
}

type Rig = Awaited<ReturnType<typeof sessions>>;
let rig: Rig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

async function start(board: Partial<BoardConfig> = {}): Promise<Rig> {
  rig = await sessions(board);
  return rig;
}

/** Session one vends `aisle`, then asks the board 126 times: the next seq after its last is the kept dispense's. */
async function boardHoldingEarlierDispense(r: Rig, aisle: number): Promise<number> {
  const first = await r.newSession();
  const vend = await r.run(first.dispense(aisle));
  expect(vend).toMatchObject({ outcome: 'success' });
  await r.queries(first, 126);
  expect(r.sim.motorLog).toHaveLength(1);
  return vend.seq;
}

describe('a board holding an earlier session’s dispense', () => {
  it('a new session (the motor test: no journal) does not take the kept dispense’s seq: the motor runs, the success is its own', async () => {
    const r = await start({ module: 'SH' });
    const keptSeq = await boardHoldingEarlierDispense(r, 3);
    const second = await r.newSession();
    const rep = await r.run(second.dispense(3));
    expect(rep.seq).not.toBe(keptSeq);
    expect(rep).toMatchObject({ outcome: 'success', motorRan: 'yes' });
    expect(r.sim.motorLog.map((m) => m.aisle)).toEqual([3, 3]);
  });

  it('the daemon’s path (STATUS read for the journal before the DISPENSE) bars it too', async () => {
    const r = await start({ module: 'SH' });
    const keptSeq = await boardHoldingEarlierDispense(r, 3);
    const second = await r.newSession();
    const bindings: DispenseBinding[] = [];
    const rep = await r.run(second.dispense(3, { onRequest: async (b) => void bindings.push(b) }));
    expect(bindings).toHaveLength(1);
    expect(bindings[0]!.seq).not.toBe(keptSeq);
    expect(bindings[0]!.boardLastSeq).toBe(keptSeq === 1 ? 127 : keptSeq - 1);
    expect(rep).toMatchObject({ outcome: 'success' });
    expect(r.sim.motorLog).toHaveLength(2);
  });

  it('within one session too: a DISPENSE refused at once after a vend does not unbar the vend’s seq (the board still keeps it)', async () => {
    const r = await start({ module: 'SH' });
    await r.sim.apply({ do: 'empty', aisle: 5 });
    const d = await r.newSession();
    const vend = await r.run(d.dispense(3));
    expect(await r.run(d.dispense(5))).toMatchObject({ outcome: 'lane_empty', seq: vend.seq + 1 });
    // the sequence comes round to the vend's seq: the board's kept dispense, though not the host's last DISPENSE
    await r.queries(d, 125);
    const rep = await r.run(d.dispense(3));
    expect(rep.seq).not.toBe(vend.seq);
    expect(rep).toMatchObject({ outcome: 'success' });
    expect(r.sim.motorLog.map((m) => m.aisle)).toEqual([3, 3]);
  });
});

describe('a board restarted in place with other firmware', () => {
  it('mid-session (the daemon’s path): INFO is read before the next DISPENSE, and the host learns the new firmware from it', async () => {
    const r = await start({ module: 'SH', vmcVersion: '2.4.1' });
    const d = await r.newSession();
    const journal = { onRequest: async () => {} };
    expect((await r.run(d.info())).vmcVersion).toBe('2.4.1');
    await r.run(d.dispense(1, journal));
    await r.sim.apply({ do: 'reboot', vmcVersion: '2.5.0' });
    const mark = r.frames.length;
    const rep = await r.run(d.dispense(2, journal));
    expect(rep).toMatchObject({ outcome: 'success' });
    // the STATUS that finds the new boot id, INFO, the STATUS the journal's binding is read from, the request
    expect(r.frames.slice(mark).map((f) => f.command)).toEqual([COMMAND.status, COMMAND.info, COMMAND.status, COMMAND.dispense]);
    expect(r.infos.map((i) => i.vmcVersion)).toEqual(['2.4.1', '2.5.0']);
    expect(r.infos.at(-1)!.bootId).toBe(r.sim.board.bootId);
    expect(d.bootId).toBe(r.sim.board.bootId);
  });

  it('seen by a STATUS (the daemon’s board check): INFO is read at once', async () => {
    const r = await start({ vmcVersion: '2.4.1' });
    const d = await r.newSession();
    await r.run(d.info());
    await r.sim.apply({ do: 'reboot', vmcVersion: '3.0.0' });
    const st = await r.run(d.status());
    expect(st.bootId).toBe(r.sim.board.bootId);
    expect(r.infos.map((i) => i.vmcVersion)).toEqual(['2.4.1', '3.0.0']);
  });

  it('a board swapped under the host (unplugged, another one plugged in): INFO before the DISPENSE', async () => {
    const r = await start({ module: 'SH', vmcVersion: '2.4.1' });
    const d = await r.newSession();
    await r.run(d.info());
    await r.run(d.dispense(1));
    await r.sim.apply({ do: 'unplug' });
    await r.sim.apply({ do: 'reboot', vmcVersion: '1.9.0' });
    await r.sim.apply({ do: 'replug' });
    const mark = r.frames.length;
    const rep = await r.run(d.dispense(2));
    expect(rep).toMatchObject({ outcome: 'success' });
    expect(r.frames.slice(mark).map((f) => f.command)).toEqual([COMMAND.status, COMMAND.info, COMMAND.dispense]);
    expect(r.infos.at(-1)).toMatchObject({ vmcVersion: '1.9.0', bootId: r.sim.board.bootId });
  });
});

// Over random host sessions, sequence wraps, retransmissions (ACKs and frames lost on the line) and
// power cycles: every sale the host reports is a motor run on that aisle, and every motor run is a sale.
type Op =
  | { kind: 'dispense'; aisle: number; journal: boolean; trouble: 'none' | 'dropAck' | 'loseRequest' | 'loseResult' }
  | { kind: 'queries'; n: number }
  | { kind: 'session' }
  | { kind: 'reboot' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('dispense' as const),
      aisle: fc.integer({ min: 1, max: 3 }),
      journal: fc.boolean(),
      trouble: fc.constantFrom('none' as const, 'dropAck' as const, 'loseRequest' as const, 'loseResult' as const),
    }),
  },
  // around a full turn of the sequence, so a new session's next seq lands on the kept dispense's
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('queries' as const), n: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 122, max: 127 })) }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'session' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'reboot' as const }) },
);

async function salesEqualMotorRuns(ops: Op[]): Promise<void> {
  const r = await sessions({ module: 'SH', motorMs: 300, dropMs: 100 });
  try {
    let d = await r.newSession();
    const reports: DispenseReport[] = [];
    for (const o of ops) {
      switch (o.kind) {
        case 'session':
          d = await r.newSession();
          break;
        case 'reboot':
          await r.sim.apply({ do: 'reboot' });
          break;
        case 'queries':
          await r.queries(d, o.n);
          break;
        case 'dispense': {
          // the line's trouble hits the request, not the greeting
          if (o.trouble !== 'none') await r.run(d.connect());
          if (o.trouble === 'dropAck') await r.sim.apply({ do: 'dropAcks', count: 1 });
          if (o.trouble === 'loseRequest') await r.sim.apply({ do: 'loseFrames', count: 1, direction: 'toBoard' });
          const p = d.dispense(o.aisle, o.journal ? { onRequest: async () => {} } : {});
          if (o.trouble === 'loseResult') r.clock.setTimeout(() => void r.sim.apply({ do: 'loseFrames', count: 1, direction: 'toHost' }), 150);
          reports.push(await r.run(p));
          break;
        }
      }
    }
    for (const aisle of [1, 2, 3]) {
      const sales = reports.filter((x) => x.aisle === aisle && x.outcome === 'success').length;
      const runs = r.sim.motorLog.filter((m) => m.aisle === aisle).length;
      expect({ aisle, sales }).toEqual({ aisle, sales: runs });
    }
    // an undecided outcome (a power cycle between two sends of one request) is no sale, and no motor ran for it
    expect(reports.filter((x) => x.outcome !== 'success' && x.motorRan === 'yes')).toEqual([]);
  } finally {
    await r.close();
  }
}

describe('property: motor runs = sales reported, per aisle', () => {
  it('over random session changes, sequence wraps, retransmissions and power cycles', { timeout: 120_000 }, async () => {
    const wrapThenNewSession: Op[] = [
      { kind: 'dispense', aisle: 2, journal: true, trouble: 'none' },
      { kind: 'queries', n: 126 },
      { kind: 'session' },
      { kind: 'dispense', aisle: 2, journal: true, trouble: 'none' },
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), (ops) => salesEqualMotorRuns(ops)),
      { numRuns: 150, seed: 29, examples: [[wrapThenNewSession]] },
    );
  });
});
