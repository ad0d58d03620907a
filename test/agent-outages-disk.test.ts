import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CloudError, DiskWatch, DispenseBook, JournalRecord, JsonlJournal, VEND_ROOM_BYTES, freeBytes, watchedStore } from '@vend/agent';
import { FakeBoard, FakeCloud, cabinetParts, recordingLog, until } from './support/cabinet-parts.ts';
import { canMountTmpfs, fillDisk, mountTmpfs } from './support/tmpfs.ts';
import { VirtualClock } from './support/virtual-clock.ts';

// The cabinet's state disk full (docs/decisions/outages.md, "The cabinet"): the dispense journal on a 2 MB
// tmpfs filled to its last byte. A vend that could not be recorded is not started (before the cloud opens an
// order or the board is asked); a report the cloud answered whose record the disk refuses stays in the spool
// and goes again (the cloud counts it once); an outcome the disk refuses pauses vending until the board's
// stored result is journalled; one log line per episode; no restart when space returns, and the journal loads
// back whole.

describe.runIf(canMountTmpfs)('the cabinet state disk full', () => {
  let disk: { dir: string; close(): void };
  const abort = new AbortController();

  beforeAll(() => {
    disk = mountTmpfs('2m');
  });
  afterAll(() => {
    abort.abort();
    disk?.close();
  });
  afterEach(() => {
    for (const f of fs.readdirSync(disk.dir)) fs.rmSync(path.join(disk.dir, f), { force: true });
  });

  function cabinet(name: string) {
    const clock = new VirtualClock();
    const log = recordingLog();
    const room = () => (freeBytes(disk.dir) ?? Infinity) >= VEND_ROOM_BYTES;
    const watch = new DiskWatch(log, () => clock.now(), undefined, room);
    const file = path.join(disk.dir, `${name}.jsonl`);
    const journal = new JsonlJournal(file, JournalRecord);
    const book = new DispenseBook(watchedStore(journal, watch, 'the dispense journal'), clock, { compactEvery: 20 });
    book.load();
    const board = new FakeBoard();
    const cloud = new FakeCloud(clock);
    const parts = cabinetParts({ book, board, cloud, clock, diskRoom: room });
    return { clock, log, watch, file, journal, book, board, cloud, ...parts };
  }

  /** The journal as a restarted agent reads it: every line whole and valid. */
  function reload(file: string) {
    const again = new JsonlJournal(file, JournalRecord);
    const book = new DispenseBook(again, new VirtualClock());
    const loaded = book.load();
    again.close();
    return { loaded, book, endsWithNewline: fs.readFileSync(file, 'utf8').endsWith('\n') };
  }

  it('refuses new vends, keeps every report, and delivers each once when space returns', async () => {
    const c = cabinet('spool');
    await c.dispenser.recover();
    // 60 sales while the report leg is down: 60 reports wait (their delivered records need more than a page)
    const reportLeg = c.cloud.report.bind(c.cloud);
    let reportsUp = false;
    c.cloud.report = async (body) => {
      if (!reportsUp) throw new CloudError('unreachable', 'report leg down');
      return reportLeg(body);
    };
    for (let i = 0; i < 60; i++) await c.dispenser.walkUp({ aisle: 1 + (i % 10) });
    expect(c.book.depth()).toBe(60);
    const running = c.spool.start(abort.signal);
    let loopEnded: unknown = null;
    running.then(
      () => (loopEnded = 'returned'),
      (e: unknown) => (loopEnded = e),
    );

    fillDisk(path.join(disk.dir, 'filler'));
    // a walk-up: refused before the cloud opens an order and before the board is asked
    const orders = c.cloud.orders;
    const runs = c.board.motorRuns;
    await expect(c.dispenser.walkUp({ aisle: 2 })).rejects.toMatchObject({ code: 'disk-full' });
    expect([c.cloud.orders, c.board.motorRuns]).toEqual([orders, runs]);

    // the link returns with the disk still full: the spool sends, the disk refuses a delivered record, the loop goes on
    reportsUp = true;
    c.spool.wake();
    await c.clock.run(until(c.clock, () => c.watch.state !== null));
    await c.clock.pass(10 * 60_000);
    expect(loopEnded).toBeNull();
    expect(c.book.depth()).toBeGreaterThan(0);
    expect(c.spool.lastError?.message).toMatch(/journal could not be written: .*ENOSPC/);
    expect(c.log.lines.filter((l) => l.msg.startsWith('state disk full'))).toHaveLength(1); // once per episode

    // space returns: no restart; every report delivered, the cloud holds each once
    fs.rmSync(path.join(disk.dir, 'filler'));
    await c.clock.run(
      until(c.clock, () => c.book.depth() === 0),
      3_600_000,
    );
    expect(loopEnded).toBeNull();
    expect(c.watch.state).toBeNull();
    expect(c.log.lines.filter((l) => l.msg.startsWith('state disk has room again'))).toHaveLength(1);
    expect(c.cloud.kept.size).toBe(60);
    expect(c.cloud.resends).toBeGreaterThanOrEqual(1); // answered while its record could not be written: sent again, counted once
    expect(c.spool.delivered).toBe(60); // the journal marks each delivered once
    await expect(c.dispenser.walkUp({ aisle: 3 })).resolves.toMatchObject({ success: true });

    c.journal.close();
    const after = reload(c.file);
    expect(after.loaded.dropped).toBe(0);
    expect(after.endsWithNewline).toBe(true);
    expect(after.book.depth()).toBe(c.book.depth());
    expect(after.book.recent(100)).toHaveLength(61); // the 60 and the sale made after, each once
  });

  it('an outcome the disk refuses pauses vending until the board’s stored result is journalled', async () => {
    const c = cabinet('outcome');
    await c.dispenser.recover();
    c.board.detail = 'x'.repeat(5000); // the outcome record needs a page of its own
    c.board.beforeMotor = () => fillDisk(path.join(disk.dir, 'filler'));
    const sold = await c.dispenser.walkUp({ aisle: 4 });
    c.board.beforeMotor = null;
    expect(sold).toMatchObject({ success: true, motorRan: 'yes' }); // the customer has the product
    expect(c.dispenser.recovered).toBe(false);
    expect(c.book.unresolved()).toHaveLength(1); // the intent is on disk: the state a crash leaves
    await expect(c.dispenser.walkUp({ aisle: 5 })).rejects.toMatchObject({ code: 'not-ready' });
    // still full: recovery cannot journal either, and says so
    await expect(c.dispenser.recover()).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(c.board.motorRuns).toBe(1);

    fs.rmSync(path.join(disk.dir, 'filler'));
    await c.dispenser.recover();
    expect(c.book.unresolved()).toHaveLength(0);
    expect(c.book.pending()).toMatchObject([{ id: sold.dispenseId, success: true, via: 'recovery' }]);
    c.spool.start(abort.signal).catch(() => {});
    await c.clock.run(until(c.clock, () => c.book.depth() === 0));
    expect(c.cloud.received).toEqual([sold.dispenseId]);
    expect(c.board.motorRuns).toBe(1);
    c.journal.close();
    expect(reload(c.file).loaded.dropped).toBe(0);
  });
});
