import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PtyFront, VmcSimulator, seededRandom, socatAvailable } from '@vend/firmware-sim';
import type { BoardConfig } from '@vend/firmware-sim';
import { VmcDriver, runSelfCheck, serialportTransport } from '@vend/agent';
import { systemClock, vmcWireTimeMs } from '@vend/protocol';

// The true path: the agent's driver on a real serialport, the simulator on the other end of a
// socat pseudo-terminal pair, wire pacing at 9600 8N1, the wall clock. ACK timeout and open
// attempts are the spec's; the result wait and open back-off are shortened so the suite stays quick.

const HAVE_SOCAT = socatAvailable();
const dir = mkdtempSync(join(tmpdir(), 'vmc-pty-'));
const started: { sim: VmcSimulator; front: PtyFront; driver: VmcDriver }[] = [];
const socatPids: number[] = [];
let n = 0;

async function rig(board: Partial<BoardConfig> = {}) {
  const front = new PtyFront({ hostLink: join(dir, `tty${++n}`) });
  const sim = new VmcSimulator({
    front,
    clock: systemClock,
    random: seededRandom(n),
    board: { module: 'SH_YAxis', motorMs: 200, liftMsPerRow: 50, dropMs: 100, ...board },
    pace: 'byte',
  });
  await sim.start();
  if (front.socatPid) socatPids.push(front.socatPid);
  const driver = new VmcDriver({
    transport: serialportTransport(),
    path: front.hostPath,
    clock: systemClock,
    timings: { resultTimeoutMs: 3000, resultGraceMs: 300, resultQueryMs: 500, openBackoffMs: 200 },
  });
  const r = { sim, front, driver };
  started.push(r);
  return r;
}

afterEach(async () => {
  for (const r of started.splice(0)) {
    await r.driver.close();
    await r.sim.stop();
  }
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAVE_SOCAT)(`driver ↔ simulator over a socat pty pair (real serial devices)${HAVE_SOCAT ? '' : ' [SKIPPED: socat is not installed]'}`, () => {
  it('vends, with the round trip bounded below by the wire time of its frames', async () => {
    const { driver, sim } = await rig();
    await driver.connect();
    const t0 = Date.now();
    const rep = await driver.dispense(23);
    expect(rep).toMatchObject({ outcome: 'success', sends: 1 });
    // row 3: 150 ms up, 200 ms motor, 150 ms down, 100 ms drop; plus the request and the result on
    // the wire (the ACK goes out while the lift moves)
    expect(Date.now() - t0).toBeGreaterThanOrEqual(600 + 2 * vmcWireTimeMs(16) - 2);
    expect(sim.motorLog).toHaveLength(1);
  });

  it.each([
    ['jam a lane', { do: 'jam', aisle: 5 }, 'motor_jam', 1],
    ['empty a lane', { do: 'empty', aisle: 5 }, 'lane_empty', 0],
    ['lift fault', { do: 'liftFault', on: true }, 'lift_fault', 0],
  ] as const)('%s -> %s', async (_n, action, outcome, runs) => {
    const { driver, sim } = await rig();
    await sim.apply(action);
    const rep = await driver.dispense(5);
    expect(rep.outcome).toBe(outcome);
    expect(sim.motorLog).toHaveLength(runs);
  });

  it('drop the next 2 ACKs: two retransmissions 0.5 s apart, one motor run', async () => {
    const { driver, sim } = await rig({ motorMs: 1500 }); // the result must not beat the retransmissions
    await driver.connect();
    await sim.apply({ do: 'dropAcks', count: 2 });
    const rep = await driver.dispense(5);
    expect(rep).toMatchObject({ outcome: 'success', sends: 3 });
    expect(rep.durationMs).toBeGreaterThanOrEqual(1000);
    expect(sim.motorLog).toHaveLength(1);
  });

  it('delay ACKs past 0.5 s: retransmits once, takes the late ACK, one motor run', async () => {
    const { driver, sim } = await rig();
    await driver.connect();
    await sim.apply({ do: 'delayAcks', ms: 800, count: 2 });
    const rep = await driver.dispense(5);
    expect(rep).toMatchObject({ outcome: 'success', sends: 2 });
    expect(sim.motorLog).toHaveLength(1);
    expect(sim.board.retransmissions).toBe(1);
  });

  it.each(['toHost', 'toBoard'] as const)('corrupt a byte (%s): detected, retransmitted, one motor run', async (direction) => {
    const { driver, sim } = await rig({ motorMs: 1000 });
    await driver.connect();
    await sim.apply({ do: 'corrupt', count: 1, direction });
    const rep = await driver.dispense(5);
    expect(rep).toMatchObject({ outcome: 'success', sends: 2 });
    expect(sim.motorLog).toHaveLength(1);
  });

  it('never send a result: no_result when the (shortened) result wait runs out', async () => {
    const { driver, sim } = await rig();
    await sim.apply({ do: 'withholdResults', count: 1 });
    const rep = await driver.dispense(5);
    expect(rep).toMatchObject({ outcome: 'no_result', motorRan: 'unknown' });
    expect(rep.durationMs).toBeGreaterThanOrEqual(3000);
    expect(sim.motorLog).toHaveLength(1);
  });

  it('unplug and re-plug while the lift travels: the device vanishes, comes back, the stored result is fetched', async () => {
    const { driver, sim, front } = await rig({ liftMsPerRow: 300 });
    await driver.connect();
    const p = driver.dispense(25); // row 3: 0.9 s up, 0.2 s motor, 0.9 s down, 0.1 s drop
    await new Promise((r) => setTimeout(r, 300));
    await sim.apply({ do: 'unplug' });
    expect(existsSync(front.hostPath)).toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    await sim.apply({ do: 'replug' });
    if (front.socatPid) socatPids.push(front.socatPid);
    const rep = await p;
    expect(rep).toMatchObject({ outcome: 'success' });
    expect(driver.stats.opens).toBe(2);
    expect(sim.motorLog).toHaveLength(1);
  });

  it('unplugged when the request comes: the open is retried until the device is back', async () => {
    const { driver, sim, front } = await rig();
    await sim.apply({ do: 'unplug', forMs: 900 });
    const rep = await driver.dispense(5);
    if (front.socatPid) socatPids.push(front.socatPid);
    expect(rep.outcome).toBe('success');
    expect(rep.durationMs).toBeGreaterThanOrEqual(800);
  });

  it('self-check over the pty', async () => {
    const { driver, sim } = await rig({ rows: 3, columnsPerRow: 9 });
    await sim.apply({ do: 'jam', aisle: 27 });
    const report = await runSelfCheck(driver);
    expect(report).toMatchObject({ ok: false, info: { rows: 3, columnsPerRow: 9 }, lanes: { count: 27, jammed: [27] }, problems: ['jammed lanes: 27'] });
  });

  it('leaves no socat behind', async () => {
    for (const r of started.splice(0)) {
      await r.driver.close();
      await r.sim.stop();
    }
    expect(socatPids.length).toBeGreaterThan(5);
    const alive = socatPids.filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
    expect(alive).toEqual([]);
  });
});
