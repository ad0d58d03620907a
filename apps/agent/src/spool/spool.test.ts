import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import type { ReportData } from '@vend/protocol';
import { CloudError } from '../cloud/client.ts';
import { DispenseBook } from './book.ts';
import { MemoryJsonlJournal } from '../state/jsonl-journal.ts';
import { JournalRecord } from './journal.ts';
import { ReportSpool } from './spool.ts';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};
const outcome = (id: string) => ({
  id,
  kind: 'command' as const,
  commandId: id,
  aisle: 1,
  success: true,
  outcome: 'success' as const,
  detail: 'ok',
  motorRan: 'yes' as const,
  via: 'dispense' as const,
});
const ok = (id: string, duplicate = false): ReportData => ({
  dispenseId: id,
  duplicate,
  kind: 'command',
  commandId: id,
  orderNumber: null,
  status: 'acknowledged',
  receivedAt: 'x',
});

/** A cloud's report leg: answers from `answer`, remembering what it was sent; dedupes on dispenseId like the real one. */
function cloud(answer: (id: string, n: number) => 'ok' | CloudError) {
  const sent: string[] = [];
  const seen = new Set<string>();
  return {
    sent,
    report: async (body: { dispenseId: string }) => {
      sent.push(body.dispenseId);
      const a = answer(body.dispenseId, sent.length);
      if (a instanceof CloudError) throw a;
      const dup = seen.has(body.dispenseId);
      seen.add(body.dispenseId);
      return ok(body.dispenseId, dup);
    },
  };
}

function rig(answer: Parameters<typeof cloud>[0], journal = new MemoryJsonlJournal(JournalRecord)) {
  const clock = new ManualClock(0);
  const book = new DispenseBook(journal, clock);
  book.load();
  const c = cloud(answer);
  const spool = new ReportSpool({ book, client: c, clock, random: () => 0, log: quiet, backoff: { baseMs: 1000, capMs: 8000 } });
  const ac = new AbortController();
  void spool.start(ac.signal);
  return { clock, book, journal, cloud: c, spool, stop: () => ac.abort() };
}

const down = (): CloudError => new CloudError('unreachable', 'ECONNREFUSED', null, null, true);

describe('report spool', () => {
  it('delivers in the order the dispenses ended and marks each delivered only after the 2xx', async () => {
    const { book, cloud: c, spool, stop } = rig(() => 'ok');
    for (const id of ['a', 'b', 'c']) book.recordOutcome(outcome(id));
    spool.wake();
    await flush();
    expect(c.sent).toEqual(['a', 'b', 'c']);
    expect(book.depth()).toBe(0);
    stop();
  });

  it('keeps reports through an outage, retrying with backoff, and delivers each once when the cloud is back', async () => {
    let up = false;
    const { clock, book, cloud: c, spool, stop } = rig(() => (up ? 'ok' : down()));
    for (const id of ['a', 'b']) book.recordOutcome(outcome(id));
    spool.wake();
    await flush();
    expect(c.sent).toEqual(['a']);
    for (const wait of [500, 1000, 2000, 4000, 4000]) {
      clock.advance(wait);
      await flush();
    }
    expect(c.sent).toEqual(['a', 'a', 'a', 'a', 'a', 'a']); // head of line: b never overtakes a
    expect(book.depth()).toBe(2);
    up = true;
    spool.nudge(); // a poll just reached the cloud
    await flush();
    expect(c.sent.slice(6)).toEqual(['a', 'b']);
    expect(book.depth()).toBe(0);
    expect(spool.delivered).toBe(2);
    stop();
  });

  it('a report the cloud refuses for good is set aside as rejected and the queue moves on', async () => {
    const { book, cloud: c, spool, stop } = rig((id) => (id === 'a' ? new CloudError('http', 'report: 400 Command is for aisle 2', 400) : 'ok'));
    for (const id of ['a', 'b']) book.recordOutcome(outcome(id));
    spool.wake();
    await flush();
    expect(c.sent).toEqual(['a', 'b']);
    expect(book.rejected().map((r) => r.id)).toEqual(['a']);
    expect(book.depth()).toBe(0);
    stop();
  });

  it('revocation stops delivery: the reports stay in the spool', async () => {
    const { book, cloud: c, spool, stop } = rig(() => new CloudError('revoked', 'credential revoked', 403));
    book.recordOutcome(outcome('a'));
    spool.wake();
    await flush();
    spool.wake();
    await flush();
    expect(c.sent).toEqual(['a']);
    expect(book.depth()).toBe(1);
    stop();
  });

  it('a crash between the 2xx and the mark redelivers once, which the cloud answers as a duplicate; no other crash point sends twice', async () => {
    // first life: the report goes out, the cloud takes it, the agent dies before writing "delivered"
    const journal = new MemoryJsonlJournal(JournalRecord);
    const first = rig(() => 'ok', journal);
    first.book.recordOutcome(outcome('a'));
    const beforeMark = journal.text;
    first.spool.wake();
    await flush();
    first.stop();
    expect(first.cloud.sent).toEqual(['a']);
    journal.text = beforeMark; // the "delivered" record never reached the disk
    const second = rig(() => 'ok', journal);
    const sent: string[] = [];
    second.spool.wake();
    await flush();
    sent.push(...second.cloud.sent);
    expect(sent).toEqual(['a']);
    expect(second.book.depth()).toBe(0);
    second.stop();
    // and with the mark on disk, a restart sends nothing
    const third = rig(() => 'ok', journal);
    third.spool.wake();
    await flush();
    expect(third.cloud.sent).toEqual([]);
    third.stop();
  });
});
