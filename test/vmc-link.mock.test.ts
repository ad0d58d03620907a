import { afterEach, describe, expect, it } from 'vitest';
import { runSelfCheck } from '@vend/agent';
import { mockRig } from './support/vmc-rig.ts';

// The agent's VMC driver against the simulated board over serialport's mock binding: every fault the
// simulator can inject, with the spec's timings (0.5 s ACK, 30 s result, 10 × 2 s open) on a virtual clock.

type Rig = Awaited<ReturnType<typeof mockRig>>;
let rig: Rig | null = null;
afterEach(async () => {
  await rig?.close();
  rig = null;
});

async function start(board: Parameters<typeof mockRig>[0] = {}): Promise<Rig> {
  rig = await mockRig(board);
  return rig;
}

/** Opens the port and greets the board first, so a line fault set afterwards hits the dispense itself. */
async function connected(board: Parameters<typeof mockRig>[0] = {}): Promise<Rig> {
  const r = await start(board);
  await r.run(r.driver.connect());
  return r;
}

describe('driver ↔ simulator over the mock binding', () => {
  it('vends on SH_YAxis: the lift goes to the row, the motor runs once, the drop is seen', async () => {
    const r = await start({ board: { module: 'SH_YAxis', motorMs: 1200, liftMsPerRow: 400, dropMs: 300 } });
    const rep = await r.run(r.driver.dispense(45));
    expect(rep).toMatchObject({ outcome: 'success', motorRan: 'yes', aisle: 45, sends: 1 });
    // 5 rows up (2 s) + 1.2 s motor + 5 rows down (2 s) + 0.3 s drop, plus the frames on the wire
    expect(rep.durationMs).toBeGreaterThanOrEqual(5500);
    expect(rep.durationMs).toBeLessThan(5600);
    expect(r.sim.motorLog).toMatchObject([{ aisle: 45, row: 5, column: 5 }]);
    expect(r.sim.board.lane(45).stock).toBe(4);
  });

  it('vends on SH without a lift', async () => {
    const r = await start({ board: { module: 'SH', motorMs: 1200, dropMs: 300 } });
    const rep = await r.run(r.driver.dispense(45));
    expect(rep).toMatchObject({ outcome: 'success' });
    expect(rep.durationMs).toBeLessThan(1600);
  });

  it.each([
    ['jam a lane', { do: 'jam', aisle: 12 }, 12, 'motor_jam', 1],
    ['empty a lane', { do: 'empty', aisle: 12 }, 12, 'lane_empty', 0],
    ['remove a motor', { do: 'motor', aisle: 12, present: false }, 12, 'no_motor', 0],
    ['lift fault', { do: 'liftFault', on: true }, 12, 'lift_fault', 0],
    ['blind drop sensor', { do: 'dropSensor', healthy: false }, 12, 'drop_not_detected', 1],
    ['product caught on the spring', { do: 'missDrops', count: 1 }, 12, 'drop_not_detected', 1],
    ['busy board', { do: 'busy', ms: 60_000 }, 12, 'board_busy', 0],
    ['no such aisle', { do: 'clearFaults' }, 61, 'unknown_aisle', 0],
  ] as const)('%s -> %s', async (_name, action, aisle, outcome, runs) => {
    const r = await start();
    await r.sim.apply(action);
    const rep = await r.run(r.driver.dispense(aisle));
    expect(rep.outcome).toBe(outcome);
    expect(rep.motorRan).toBe(runs ? 'yes' : 'no');
    expect(r.sim.motorLog).toHaveLength(runs);
  });

  it('drop the next 2 ACKs: retransmits with the same sequence number, the motor runs once', async () => {
    const r = await connected();
    await r.sim.apply({ do: 'dropAcks', count: 2 });
    const rep = await r.run(r.driver.dispense(3));
    expect(rep).toMatchObject({ outcome: 'success', sends: 3 });
    expect(r.sim.motorLog).toHaveLength(1);
    expect(r.sim.board.retransmissions).toBe(2);
  });

  it('line trouble during the greeting: the seq-0 STATUS is retransmitted, then the dispense goes through', async () => {
    const r = await start();
    await r.sim.apply({ do: 'dropAcks', count: 2 });
    const rep = await r.run(r.driver.dispense(3));
    expect(rep).toMatchObject({ outcome: 'success', sends: 1 });
    expect(r.driver.stats.retransmissions).toBe(2);
    expect(r.sim.motorLog).toHaveLength(1);
  });

  it('drop every ACK: gives up after 5 sends with no_ack, and says the motor may have run (it did)', async () => {
    const r = await connected();
    await r.sim.apply({ do: 'dropAcks', count: 100 });
    await r.sim.apply({ do: 'loseFrames', count: 100, direction: 'toHost' });
    const rep = await r.run(r.driver.dispense(3));
    expect(rep).toMatchObject({ outcome: 'no_ack', motorRan: 'unknown', sends: 5 });
    expect(rep.durationMs).toBeGreaterThanOrEqual(2500);
    expect(rep.durationMs).toBeLessThan(2600);
    expect(r.sim.motorLog).toHaveLength(1);
  });

  it('delay ACKs past 0.5 s: the late ACK is taken, the retransmission is answered as a duplicate', async () => {
    const r = await connected();
    await r.sim.apply({ do: 'delayAcks', ms: 800 });
    const rep = await r.run(r.driver.dispense(3));
    expect(rep).toMatchObject({ outcome: 'success', sends: 2 });
    expect(r.sim.motorLog).toHaveLength(1);
    expect(r.sim.board.retransmissions).toBe(1);
  });

  it.each(['toHost', 'toBoard'] as const)('corrupt a byte (%s): the damaged frame is dropped, the retransmission gets through', async (direction) => {
    const r = await connected();
    await r.sim.apply({ do: 'corrupt', count: 1, direction });
    const rep = await r.run(r.driver.dispense(3));
    expect(rep).toMatchObject({ outcome: 'success', sends: 2 });
    expect(r.sim.motorLog).toHaveLength(1);
  });

  it('never send a result: no_result after 30 s of asking, one motor run', async () => {
    const r = await start({ board: { module: 'SH', motorMs: 1000, dropMs: 200 } });
    await r.sim.apply({ do: 'withholdResults', count: 1 });
    const rep = await r.run(r.driver.dispense(3));
    expect(rep).toMatchObject({ outcome: 'no_result', motorRan: 'unknown' });
    expect(rep.durationMs).toBeGreaterThanOrEqual(30_000);
    expect(rep.durationMs).toBeLessThan(30_100);
    expect(rep.sends).toBeGreaterThan(10);
    expect(r.sim.motorLog).toHaveLength(1);
    // and the board is usable afterwards
    expect((await r.run(r.driver.dispense(4))).outcome).toBe('success');
  });

  it('unplug for 5 s while the lift travels: reopens, asks again, gets the stored result', async () => {
    const r = await start({ board: { module: 'SH_YAxis' } });
    const p = r.driver.dispense(55);
    r.clock.setTimeout(() => void r.sim.apply({ do: 'unplug', forMs: 5000 }), 1000);
    const rep = await r.run(p);
    expect(rep).toMatchObject({ outcome: 'success' });
    expect(r.driver.stats.opens).toBe(2);
    expect(r.sim.motorLog).toHaveLength(1);
  });

  it('unplugged when the request comes: the open is retried until the board is back', async () => {
    const r = await start();
    await r.sim.apply({ do: 'unplug', forMs: 7000 });
    const rep = await r.run(r.driver.dispense(3));
    expect(rep.outcome).toBe('success');
    expect(rep.durationMs).toBeGreaterThanOrEqual(7000);
  });

  it('unplugged for good: board_unavailable after 10 opens 2 s apart, nothing sent', async () => {
    const r = await start();
    await r.sim.apply({ do: 'unplug' });
    const rep = await r.run(r.driver.dispense(3));
    expect(rep).toMatchObject({ outcome: 'board_unavailable', motorRan: 'no', sends: 0 });
    expect(rep.durationMs).toBe(18_000);
    expect(rep.detail).toMatch(/after 10 attempts/);
  });

  it('unplugged after the ACK and never back: no_result, the motor may have run', async () => {
    const r = await start();
    const p = r.driver.dispense(3);
    r.clock.setTimeout(() => void r.sim.apply({ do: 'unplug' }), 100);
    const rep = await r.run(p);
    expect(rep).toMatchObject({ outcome: 'no_result', motorRan: 'unknown' });
    expect(r.sim.motorLog).toHaveLength(1);
  });

  it('a power cycle mid-vend is never answered by running the motor again', async () => {
    const r = await start({ board: { module: 'SH_YAxis' } });
    const p = r.driver.dispense(55);
    r.clock.setTimeout(() => void r.sim.apply({ do: 'reboot' }), 2500); // the motor is running
    const rep = await r.run(p);
    expect(rep).toMatchObject({ outcome: 'no_result', motorRan: 'unknown' });
    expect(rep.detail).toMatch(/restarted/);
    expect(r.sim.motorLog).toHaveLength(1);
    const next = await r.run(r.driver.dispense(56));
    expect(next.outcome).toBe('success');
  });

  it('self-check reads info, status, every lane and the drop sensor', async () => {
    const r = await start({ board: { rows: 4, columnsPerRow: 8, vmcVersion: '3.2.1' } });
    await r.sim.apply({ do: 'jam', aisle: 30 });
    await r.sim.apply({ do: 'motor', aisle: 2, present: false });
    const report = await r.run(runSelfCheck(r.driver));
    expect(report).toMatchObject({
      ok: false,
      info: { vmcVersion: '3.2.1', rows: 4, columnsPerRow: 8, module: 'SH_YAxis' },
      status: { state: 'idle' },
      lanes: { count: 32, jammed: [30], withoutMotor: [2] },
      dropSensor: { healthy: true },
      problems: ['jammed lanes: 30'],
    });
  });
});
