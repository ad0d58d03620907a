import { describe, expect, it } from 'vitest';
import { ManualClock, MOTOR_RAN_BY_OUTCOME } from '@vend/protocol';
import type { DispenseOutcome } from '@vend/protocol';
import { CloudError } from '../cloud/client.ts';
import type { DispenseBinding, DispenseResolution } from '../vmc/driver.ts';
import type { DispenseReport } from '../vmc/outcomes.ts';
import { DispenseBook } from './book.ts';
import { DispenseRefused, Dispenser } from './dispenser.ts';
import type { PendingCommand } from './dispenser.ts';
import { MemoryJsonlJournal } from '../state/jsonl-journal.ts';
import { JournalRecord } from './journal.ts';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};
const cmd = (id: string, aisle = 3): PendingCommand => ({ commandId: id, aisleNo: aisle, reason: 'r', externalRef: null, createdAt: 'x' });
const report = (aisle: number, outcome: DispenseOutcome = 'success'): DispenseReport => ({
  outcome,
  detail: `aisle ${aisle}: ${outcome}`,
  motorRan: MOTOR_RAN_BY_OUTCOME[outcome],
  aisle,
  seq: 5,
  sends: 1,
  durationMs: 100,
});

/** A board driver that records what it was asked and checks the journal at the moment the frame would go out. */
class FakeDriver {
  sent: { aisle: number; intentOnDisk: boolean }[] = [];
  resolved: DispenseBinding[] = [];
  outcome: DispenseOutcome = 'success';
  resolution: DispenseResolution | Error = { state: 'resolved', report: report(3) };
  gate: Promise<void> | null = null;
  constructor(private readonly journal: MemoryJsonlJournal<JournalRecord>) {}
  async dispense(aisle: number, o: { onRequest: (b: DispenseBinding) => Promise<void> }): Promise<DispenseReport> {
    await o.onRequest({ aisle, seq: 5, bootId: 77, boardLastSeq: 4 });
    this.sent.push({ aisle, intentOnDisk: this.journal.text.includes('"t":"intent"') && this.journal.text.includes(`"aisle":${aisle}`) });
    if (this.gate) await this.gate;
    return report(aisle, this.outcome);
  }
  async resolveDispense(b: DispenseBinding): Promise<DispenseResolution> {
    this.resolved.push(b);
    if (this.resolution instanceof Error) throw this.resolution;
    return this.resolution;
  }
}

function rig(journal = new MemoryJsonlJournal(JournalRecord), o: { createOrder?: () => Promise<unknown>; boardAvailable?: boolean } = {}) {
  const clock = new ManualClock(0);
  const book = new DispenseBook(journal, clock);
  book.load();
  const driver = new FakeDriver(journal);
  const outcomes: string[] = [];
  const orders: unknown[] = [];
  const d = new Dispenser({
    book,
    driver,
    client: {
      createOrder: (async (body: unknown) => {
        orders.push(body);
        if (o.createOrder) return o.createOrder();
        return { orderNumber: `ord_${orders.length}`, machineCode: 'M', aisleNo: 2, quantity: 1, amount: 1, amountCents: 100, payStatus: 'paid' };
      }) as never,
    },
    clock,
    log: quiet,
    onOutcome: (r) => outcomes.push(r.id),
    aisleCount: () => 60,
    boardAvailable: () => o.boardAvailable ?? true,
  });
  const ac = new AbortController();
  void d.runQueue(ac.signal);
  return { d, book, driver, journal, outcomes, orders, stop: () => ac.abort() };
}

describe('dispenser: remote drops', () => {
  it('writes the intent before the frame goes out and the outcome before telling the spool', async () => {
    const r = rig();
    await r.d.recover();
    r.d.offer([cmd('c1', 4)]);
    await flush();
    expect(r.driver.sent).toEqual([{ aisle: 4, intentOnDisk: true }]);
    expect(r.outcomes).toEqual(['drop:c1']);
    expect(r.book.get('drop:c1')?.outcome).toMatchObject({ commandId: 'c1', success: true, outcome: 'success', via: 'dispense' });
    r.stop();
  });

  it('a command listed again (by the next poll, or after a restart) is never run twice', async () => {
    const journal = new MemoryJsonlJournal(JournalRecord);
    const r = rig(journal);
    await r.d.recover();
    r.driver.gate = new Promise(() => {}); // the first drop is still running
    expect(r.d.offer([cmd('c1'), cmd('c2')])).toBe(2);
    await flush();
    expect(r.d.offer([cmd('c1'), cmd('c2')])).toBe(0);
    expect(r.d.leased).toBe(2);
    r.stop();
    // restart: the journal holds c1's intent; c2 never started, so it may run
    const again = rig(journal);
    expect(again.d.offer([cmd('c1'), cmd('c2')])).toBe(1);
    again.stop();
  });

  it('nothing runs before crash recovery is done', async () => {
    const r = rig();
    r.d.offer([cmd('c1')]);
    await flush();
    expect(r.driver.sent).toEqual([]);
    await r.d.recover();
    await flush();
    expect(r.driver.sent).toHaveLength(1);
    r.stop();
  });
});

describe('dispenser: crash recovery', () => {
  it('an intent without an outcome is settled from the board, never by a new request', async () => {
    const journal = new MemoryJsonlJournal(JournalRecord);
    const first = rig(journal);
    await first.d.recover();
    first.driver.gate = new Promise(() => {}); // dies with the frame out
    first.d.offer([cmd('c1', 6)]);
    await flush();
    first.stop();
    const r = rig(journal);
    r.driver.resolution = { state: 'resolved', report: report(6) };
    expect(await r.d.recover()).toBe(1);
    expect(r.driver.resolved).toEqual([{ aisle: 6, seq: 5, bootId: 77, boardLastSeq: 4 }]);
    expect(r.driver.sent).toEqual([]);
    expect(r.book.get('drop:c1')?.outcome).toMatchObject({ success: true, via: 'recovery' });
    expect(r.outcomes).toEqual(['drop:c1']);
    r.stop();
  });

  it('a request the board never accepted is reported as not sent (the motor did not run)', async () => {
    const journal = new MemoryJsonlJournal(JournalRecord);
    const first = rig(journal);
    await first.d.recover();
    first.driver.gate = new Promise(() => {});
    first.d.offer([cmd('c1')]);
    await flush();
    first.stop();
    const r = rig(journal);
    r.driver.resolution = { state: 'not-sent', detail: 'the board never accepted the request for aisle 3 (seq 5); the motor did not run' };
    await r.d.recover();
    expect(r.book.get('drop:c1')?.outcome).toMatchObject({ success: false, outcome: 'board_unavailable', motorRan: 'no' });
    expect(r.book.get('drop:c1')?.outcome?.detail).toMatch(/^agent restarted: the board never accepted/);
    r.stop();
  });

  it('while the board cannot be asked, recovery waits (throws) and nothing else runs', async () => {
    const journal = new MemoryJsonlJournal(JournalRecord);
    const first = rig(journal);
    await first.d.recover();
    first.driver.gate = new Promise(() => {});
    first.d.offer([cmd('c1')]);
    await flush();
    first.stop();
    const r = rig(journal);
    r.driver.resolution = new Error('board_unavailable');
    await expect(r.d.recover()).rejects.toThrow('board_unavailable');
    expect(r.d.recovered).toBe(false);
    expect(r.book.unresolved()).toHaveLength(1);
    await expect(r.d.walkUp({ aisle: 2 })).rejects.toMatchObject({ code: 'not-ready' });
    r.stop();
  });
});

describe('dispenser: walk-up sales', () => {
  it('opens the order, runs the motor and journals the outcome under walkup:<orderNumber>', async () => {
    const r = rig();
    await r.d.recover();
    const v = await r.d.walkUp({ aisle: 2, payMethod: 'cash' });
    // one reference per sale, so a retried createOrder gets this order back (never a second order)
    expect(r.orders).toEqual([{ aisleNo: 2, quantity: 1, payMethod: 'cash', requestRef: expect.stringMatching(/^wu-[0-9a-f-]{36}$/) }]);
    expect(v).toMatchObject({ dispenseId: 'walkup:ord_1', kind: 'order', orderNumber: 'ord_1', aisle: 2, success: true });
    expect(r.driver.sent).toEqual([{ aisle: 2, intentOnDisk: true }]);
    r.stop();
  });

  it('is refused, not queued, while another dispense holds the vend lock', async () => {
    const r = rig();
    await r.d.recover();
    let open!: () => void;
    r.driver.gate = new Promise((res) => (open = res));
    r.d.offer([cmd('c1')]);
    await flush();
    await expect(r.d.walkUp({ aisle: 2 })).rejects.toMatchObject({ code: 'busy' });
    expect(r.orders).toEqual([]);
    open();
    await flush();
    r.driver.gate = null;
    await expect(r.d.walkUp({ aisle: 2 })).resolves.toMatchObject({ success: true });
    r.stop();
  });

  it('refuses before the motor: an aisle the machine lacks, a board known down, an order the cloud refuses or cannot open', async () => {
    const r = rig();
    await r.d.recover();
    await expect(r.d.walkUp({ aisle: 61 })).rejects.toMatchObject({ code: 'bad-aisle' });
    const down = rig(new MemoryJsonlJournal(JournalRecord), { boardAvailable: false });
    await down.d.recover();
    await expect(down.d.walkUp({ aisle: 2 })).rejects.toMatchObject({ code: 'board-unavailable' });
    const refused = rig(new MemoryJsonlJournal(JournalRecord), {
      createOrder: async () => Promise.reject(new CloudError('http', 'createOrder: 409 Aisle 2 is empty', 409)),
    });
    await refused.d.recover();
    const e = await refused.d.walkUp({ aisle: 2 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DispenseRefused);
    expect(e).toMatchObject({ code: 'cloud-refused', cloudStatus: 409 });
    const away = rig(new MemoryJsonlJournal(JournalRecord), { createOrder: async () => Promise.reject(new CloudError('unreachable', 'ECONNREFUSED')) });
    await away.d.recover();
    await expect(away.d.walkUp({ aisle: 2 })).rejects.toMatchObject({ code: 'cloud-unreachable' });
    for (const x of [r, down, refused, away]) {
      expect(x.driver.sent).toEqual([]);
      x.stop();
    }
  });

  it('a failed vend is journaled as a failure (the cloud refunds the order)', async () => {
    const r = rig();
    await r.d.recover();
    r.driver.outcome = 'lane_empty';
    const v = await r.d.walkUp({ aisle: 2 });
    expect(v).toMatchObject({ success: false, outcome: 'lane_empty', motorRan: 'no' });
    expect(r.book.depth()).toBe(1);
    r.stop();
  });
});
