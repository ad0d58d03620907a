import { afterEach, describe, expect, it } from 'vitest';
import { MockSerialLink, VmcSimulator, seededRandom } from '@vend/firmware-sim';
import {
  AdLoopKeeper,
  DispenseBook,
  JournalRecord,
  MemoryLoopStore,
  MemoryJsonlJournal,
  PlaySpool,
  PlaySpoolRecord,
  VmcDriver,
  dispenseIdForCommand,
  serialportTransport,
} from '@vend/agent';
import type { PendingCommand } from '@vend/agent';
import { FakeBoard, FakeCloud, cabinetParts, quietLog, until } from './support/cabinet-parts.ts';
import { SteppedClock } from './support/stepped-clock.ts';

// The cabinet's wall clock stepped by hours (NTP reaching it after a power cut; docs/decisions/outages.md, "The
// cabinet"), its timers and monotonic clock undisturbed, as on the real box. What the agent decides by elapsed time
// reads the monotonic clock; what records say happened when keeps the wall time. No report lost, no vend run
// twice, no wait stretched to hours or cut to nothing.

const HOURS = 3_600_000;
const drop = (n: number): PendingCommand => ({ commandId: `cmd-${n}`, aisleNo: n }) as PendingCommand;

describe('the cabinet clock stepped back and forward by hours', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('no report lost and no drop run twice when a poll lists finished drops again across steps and compactions', async () => {
    const clock = new SteppedClock();
    const book = new DispenseBook(new MemoryJsonlJournal(JournalRecord), clock, { keepFinished: 3, compactEvery: 4 });
    const board = new FakeBoard();
    const cloud = new FakeCloud(clock);
    const { spool, dispenser } = cabinetParts({ book, board, cloud, clock });
    const abort = new AbortController();
    await dispenser.recover();
    const worker = dispenser.runQueue(abort.signal);
    void spool.start(abort.signal);
    const settle = () => clock.run(until(clock, () => dispenser.leased === 0 && book.depth() === 0));

    dispenser.offer([drop(1), drop(2), drop(3)]);
    await settle();
    clock.step(-5 * HOURS); // the newest drops now carry the oldest times
    dispenser.offer([drop(4), drop(5)]);
    await settle();
    // a poll that raced the reports lists the newest again: the journal still knows them
    expect(dispenser.offer([drop(4), drop(5)])).toBe(0);
    clock.step(+10 * HOURS);
    dispenser.offer([drop(6)]);
    await settle();
    expect(dispenser.offer([drop(5), drop(6)])).toBe(0);
    await settle();

    expect(board.motorRuns).toBe(6);
    expect([...cloud.kept].sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => dispenseIdForCommand(`cmd-${n}`)).sort());
    expect(cloud.received).toHaveLength(6);
    abort.abort();
    await worker;
  });

  it('the quiet window counts elapsed time: a step forward does not make a cabinet that just sold look idle for hours', async () => {
    const clock = new SteppedClock();
    const book = new DispenseBook(new MemoryJsonlJournal(JournalRecord), clock);
    const { dispenser } = cabinetParts({ book, board: new FakeBoard(), cloud: new FakeCloud(clock), clock });
    await dispenser.recover();
    await dispenser.walkUp({ aisle: 1 });
    clock.step(+3 * HOURS);
    expect(dispenser.idleSeconds()).toBeLessThan(5); // the upgrade must still wait its quiet window
    await clock.pass(600_000);
    clock.step(-6 * HOURS);
    expect(dispenser.idleSeconds()).toBe(600); // and a step back does not hold it off for hours
  });

  it('ad plays gathering for a batch go after the flush time, not hours later, when the clock steps back', async () => {
    const clock = new SteppedClock();
    const sent: number[] = [];
    const spool = new PlaySpool({
      journal: new MemoryJsonlJournal(PlaySpoolRecord),
      client: { saveAdRecords: async (plays) => (sent.push(plays.length), { accepted: plays.length, duplicates: 0, unattributed: 0 }) },
      log: quietLog,
      clock,
      random: () => 0.5,
      backoff: { baseMs: 1_000, capMs: 60_000 },
      max: 10_000,
      flushMs: 5_000,
    });
    const abort = new AbortController();
    void spool.start(abort.signal);
    spool.add([{ id: 'entry-1', playedAt: clock.now() }]);
    await clock.pass(1_000);
    clock.step(-3 * HOURS);
    await clock.run(
      until(clock, () => sent.length > 0),
      60_000,
    );
    expect(sent).toEqual([1]);
    abort.abort();
  });

  it('the ad loop’s age is elapsed time: a step forward does not make a fresh loop stale, a step back does not keep an old one fresh', async () => {
    const clock = new SteppedClock();
    const loop = { machineCode: 'M1', slotSeconds: 15, entries: [] };
    let calls = 0;
    const keeper = (store = new MemoryLoopStore()) =>
      new AdLoopKeeper({
        client: { getAd: async () => (calls++, loop) },
        store,
        clock,
        random: () => 0.5,
        log: quietLog,
        refreshMs: 60_000,
        staleMs: 300_000,
        backoff: { baseMs: 1_000, capMs: 8_000 },
      });
    const k = keeper();
    await k.refresh();
    clock.step(+3 * HOURS);
    expect(k.view()).toMatchObject({ stale: false, ageMs: 0 });
    await clock.pass(120_000);
    clock.step(-6 * HOURS);
    await k.demand(); // two minutes old: past the refresh interval, however the wall clock moved
    expect(calls).toBe(2);
    // a loop kept on disk whose time lies ahead of the clock (stepped back since): its age is unknown, so stale and due
    const store = new MemoryLoopStore();
    store.write({ fetchedAt: clock.now() + 2 * HOURS, loop });
    const fromDisk = keeper(store);
    expect(fromDisk.view().stale).toBe(true);
    await fromDisk.demand();
    expect(calls).toBe(3);
  });

  it('a dispense under way when the clock steps forward waits for its result instead of calling it lost', async () => {
    const clock = new SteppedClock();
    const link = new MockSerialLink();
    // the board keeps its own time: the cabinet's wall clock stepping does not move it
    const boardClock = { now: () => clock.monotonic(), setTimeout: clock.setTimeout.bind(clock), clearTimeout: clock.clearTimeout.bind(clock) };
    const sim = new VmcSimulator({
      front: link,
      clock: boardClock,
      random: seededRandom(1),
      board: { module: 'SH', motorMs: 3_000, dropMs: 300 },
      pace: 'frame',
    });
    await sim.start();
    // no grace past the board's estimate: the driver's wait ends as the result comes, so the step lands between them
    const driver = new VmcDriver({ transport: serialportTransport({ binding: link.binding }), path: link.hostPath, clock, timings: { resultGraceMs: 0 } });
    closers.push(async () => {
      await driver.close();
      await sim.stop();
    });
    await clock.run(driver.info());
    clock.setTimeout(() => clock.step(+3 * HOURS), 1_500); // mid-vend: the motor is running
    const forward = await clock.run(driver.dispense(3));
    expect(forward).toMatchObject({ outcome: 'success', motorRan: 'yes' });
    expect(forward.durationMs).toBeLessThan(10_000);
    clock.setTimeout(() => clock.step(-6 * HOURS), 1_500);
    const back = await clock.run(driver.dispense(4), 60_000);
    expect(back).toMatchObject({ outcome: 'success', motorRan: 'yes' });
    expect(back.durationMs).toBeGreaterThan(0);
  });
});
