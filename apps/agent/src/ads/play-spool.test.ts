import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import type { AdPlayRecord } from '@vend/protocol';
import { CloudError } from '../cloud/client.ts';
import { MemoryJsonlJournal, parseJsonl } from '../state/jsonl-journal.ts';
import { PlaySpoolRecord } from './play-journal.ts';
import type { SpooledPlay } from './play-journal.ts';
import { COMPACT_AFTER_LINES, PLAYED_AT_MAX_AHEAD_MS, PlaySpool, PlaysRefused, normalizePlays } from './play-spool.ts';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const flush = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};
const T0 = Date.parse('2026-11-20T12:00:00Z');
const play = (i: number, id = `house:poster:${(i % 8) + 1}`): SpooledPlay => ({
  id,
  source: 'house',
  playedAt: T0 - 1_000_000 + i * 15_000,
  durationMs: 15_000,
});
const plays = (from: number, count: number): SpooledPlay[] => Array.from({ length: count }, (_, i) => play(from + i));

type Answer = 'ok' | CloudError | ((records: AdPlayRecord[]) => 'ok' | CloudError);

/** The cloud's saveAdRecord: a ledger unique on (entry id, playedAt), like the real one; answers scripted per call. */
function cloud(script: Answer[] = []) {
  const ledger = new Map<string, AdPlayRecord>();
  const batches: AdPlayRecord[][] = [];
  let fallback: Answer = 'ok';
  return {
    ledger,
    batches,
    setFallback: (a: Answer) => (fallback = a),
    saveAdRecords: async (records: AdPlayRecord[]) => {
      batches.push(records);
      let a = script.shift() ?? fallback;
      if (typeof a === 'function') a = a(records);
      if (a instanceof CloudError) throw a;
      let accepted = 0;
      for (const r of records) {
        const k = `${r.id}|${String(r.playedAt)}`;
        if (!ledger.has(k)) {
          ledger.set(k, r);
          accepted++;
        }
      }
      return { accepted, duplicates: records.length - accepted, unattributed: 0 };
    },
  };
}

function rig(o: { journal?: MemoryJsonlJournal<PlaySpoolRecord>; script?: Answer[]; max?: number; flushMs?: number; clock?: ManualClock } = {}) {
  const clock = o.clock ?? new ManualClock(T0);
  const journal = o.journal ?? new MemoryJsonlJournal(PlaySpoolRecord);
  const c = cloud(o.script);
  const rejected: string[] = [];
  const spool = new PlaySpool({
    journal,
    client: c,
    clock,
    random: () => 0,
    log: quiet,
    backoff: { baseMs: 1000, capMs: 8000 },
    max: o.max ?? 50_000,
    flushMs: o.flushMs ?? 0,
    onRejected: (p, m) => rejected.push(`${p.id}: ${m}`),
  });
  const loaded = spool.load();
  const ac = new AbortController();
  return { clock, journal, cloud: c, spool, rejected, loaded, start: () => void spool.start(ac.signal), stop: () => ac.abort() };
}

const down = (): CloudError => new CloudError('unreachable', 'saveAdRecord: ECONNREFUSED', null, null, true);
const http = (status: number, message = `saveAdRecord: ${status}`): CloudError => new CloudError('http', message, status);

describe('kiosk plays as they are kept', () => {
  it('fixes playedAt: the agent clock when absent, ISO and epoch ms read as sent', () => {
    expect(
      normalizePlays([{ id: 'a' }, { id: 'b', playedAt: '2026-11-20T11:59:00Z' }, { id: 'c', playedAt: T0 - 5 }, { id: 'd', playedAt: String(T0 - 7) }], T0),
    ).toEqual([
      { id: 'a', playedAt: T0 },
      { id: 'b', playedAt: T0 - 60_000 },
      { id: 'c', playedAt: T0 - 5 },
      { id: 'd', playedAt: T0 - 7 },
    ]);
  });

  it('refuses an unreadable playedAt or one far in the future (400), naming the play', () => {
    for (const [bad, why] of [
      ['yesterday', /plays\.1\.playedAt: not an ISO/],
      [T0 + PLAYED_AT_MAX_AHEAD_MS + 1, /plays\.1\.playedAt: in the future/],
    ] as const) {
      let thrown: unknown;
      try {
        normalizePlays([{ id: 'ok' }, { id: 'x', playedAt: bad }], T0);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(PlaysRefused);
      expect((thrown as PlaysRefused).status).toBe(400);
      expect((thrown as PlaysRefused).message).toMatch(why);
    }
    expect(normalizePlays([{ id: 'x', playedAt: T0 + PLAYED_AT_MAX_AHEAD_MS }], T0)).toHaveLength(1);
  });
});

describe('proof-of-play spool', () => {
  it('is on the medium before add returns: one append (one fsync) per request, plays and all', () => {
    const { spool, journal } = rig();
    expect(spool.add(plays(0, 3))).toEqual({ accepted: 3, duplicates: 0, backlog: 3, dropped: 0 });
    expect(journal.appends).toBe(1);
    expect(parseJsonl(journal.text, PlaySpoolRecord).records.map((r) => r.t)).toEqual(['play', 'play', 'play']);
  });

  it('a disk that refuses the write: add throws and nothing is taken', () => {
    const { spool, journal } = rig();
    journal.failNextAppend = new Error('ENOSPC');
    expect(() => spool.add(plays(0, 2))).toThrow('ENOSPC');
    expect(spool.backlog).toBe(0);
    expect(spool.add(plays(0, 2)).accepted).toBe(2); // the same plays, not taken for duplicates
  });

  it('delivers in order in batches of at most 500 and marks each delivered only after the 2xx', async () => {
    const { spool, cloud: c, journal, start, stop } = rig();
    for (let i = 0; i < 12; i++) spool.add(plays(i * 100, 100));
    start();
    await flush();
    expect(c.batches.map((b) => b.length)).toEqual([500, 500, 200]);
    expect(c.batches.flat().map((r) => r.playedAt)).toEqual(plays(0, 1200).map((p) => p.playedAt));
    expect(spool.backlog).toBe(0);
    const delivered = parseJsonl(journal.text, PlaySpoolRecord).records.filter((r) => r.t === 'delivered');
    expect(delivered.map((r) => r.upTo)).toEqual([500, 1000, 1200]);
    expect(spool.totals).toMatchObject({ delivered: 1200, duplicates: 0, rejected: 0, dropped: 0, lastDeliveredAt: T0 });
    stop();
  });

  it('keeps plays through an outage (retrying with backoff) and delivers each once when the cloud is back', async () => {
    const { spool, cloud: c, clock, start, stop } = rig();
    c.setFallback(down());
    spool.add(plays(0, 10));
    start();
    await flush();
    expect(c.batches).toHaveLength(1);
    expect(spool.backlog).toBe(10);
    expect(spool.lastError?.message).toMatch(/ECONNREFUSED/);
    spool.add(plays(10, 5)); // a new play does not cut the backoff short
    await flush();
    expect(c.batches).toHaveLength(1);
    clock.advance(500); // backoff 0: [500, 1000] with random 0
    await flush();
    expect(c.batches).toHaveLength(2);
    c.setFallback('ok');
    clock.advance(1000);
    await flush();
    expect(spool.backlog).toBe(0);
    expect(c.ledger.size).toBe(15);
    stop();
  });

  it('a poll that reaches the cloud ends the wait for an unreachable cloud (nudge); a 5xx wait is not cut short by it', async () => {
    const { spool, cloud: c, start, stop } = rig({ script: [down(), http(503)] });
    spool.add(plays(0, 1));
    start();
    await flush();
    spool.nudge();
    await flush();
    expect(c.batches).toHaveLength(2); // the nudge sent it again at once: answered 503
    spool.nudge();
    await flush();
    expect(c.batches).toHaveLength(2);
    stop();
  });

  it('a crash between the cloud’s 2xx and the delivered record: the batch goes again after the restart and counts once', async () => {
    const journal = new MemoryJsonlJournal(PlaySpoolRecord);
    const first = rig({ journal });
    first.spool.add(plays(0, 4));
    journal.failNextAppend = new Error('power cut'); // the `delivered` record never reaches the file
    first.start();
    await flush();
    first.stop();
    expect(first.cloud.ledger.size).toBe(4);
    const second = rig({ journal });
    expect(second.spool.backlog).toBe(4);
    for (const [k, v] of first.cloud.ledger) second.cloud.ledger.set(k, v); // the same cloud
    second.start();
    await flush();
    expect(second.spool.backlog).toBe(0);
    expect(second.cloud.ledger.size).toBe(4);
    expect(second.spool.totals).toMatchObject({ delivered: 4, duplicates: 4 });
    second.stop();
  });

  it('a batch the cloud calls malformed is halved until the one refused play is alone; it is set aside and the rest delivered in order', async () => {
    const poison = (records: AdPlayRecord[]) => (records.some((r) => r.id === 'poison') ? http(400, 'saveAdRecord: 400 records.3.playedAt') : 'ok');
    const { spool, cloud: c, rejected, journal, start, stop } = rig();
    const batch = plays(0, 10);
    batch[6] = { ...batch[6]!, id: 'poison' };
    spool.add(batch);
    c.setFallback(poison);
    start();
    await flush();
    expect(spool.backlog).toBe(0);
    expect(c.batches.map((b) => b.length)).toEqual([10, 5, 5, 3, 2, 1, 1, 3]);
    expect([...c.ledger.values()].map((r) => r.playedAt)).toEqual(batch.filter((p) => p.id !== 'poison').map((p) => p.playedAt));
    expect(rejected).toEqual(['poison: saveAdRecord: 400 records.3.playedAt']);
    expect(spool.totals).toMatchObject({ delivered: 9, rejected: 1 });
    expect(parseJsonl(journal.text, PlaySpoolRecord).records.filter((r) => r.t === 'rejected')).toEqual([
      expect.objectContaining({ upTo: 7, status: 400, message: 'saveAdRecord: 400 records.3.playedAt' }),
    ]);
    stop();
  });

  it.each([
    ['403 (revoked)', new CloudError('revoked', 'saveAdRecord: credential revoked', 403)],
    ['410 (retired)', http(410)],
  ])('%s stops delivery; the plays stay on disk', async (_name, error) => {
    const { spool, cloud: c, clock, start } = rig({ script: [error] });
    spool.add(plays(0, 3));
    start();
    await flush();
    clock.advance(3_600_000);
    spool.add(plays(3, 1));
    await flush();
    expect(c.batches).toHaveLength(1);
    expect(spool.backlog).toBe(4);
  });

  it('over its cap drops the oldest plays, counted, and the count survives a restart', () => {
    const journal = new MemoryJsonlJournal(PlaySpoolRecord);
    const { spool } = rig({ journal, max: 100 });
    spool.add(plays(0, 100));
    expect(spool.add(plays(100, 30))).toEqual({ accepted: 30, duplicates: 0, backlog: 100, dropped: 30 });
    expect(spool.totals.dropped).toBe(30);
    expect(spool.oldestAt).toBe(T0);
    const again = rig({ journal, max: 100 });
    expect(again.spool.backlog).toBe(100);
    expect(again.spool.totals.dropped).toBe(30);
  });

  it('the oldest go first: what is delivered after a drop is the newest plays, in order', async () => {
    const { spool, cloud: c, start, stop } = rig({ max: 100 });
    spool.add(plays(0, 100));
    spool.add(plays(100, 50));
    start();
    await flush();
    expect(c.batches.flat().map((r) => r.playedAt)).toEqual(plays(50, 100).map((p) => p.playedAt));
    stop();
  });

  it('a play already waiting (same entry, same playedAt) is kept once: a kiosk resending its POST adds nothing', async () => {
    const { spool, cloud: c, start, stop } = rig();
    spool.add(plays(0, 3));
    expect(spool.add([...plays(1, 3), play(3)])).toEqual({ accepted: 1, duplicates: 3, backlog: 4, dropped: 0 });
    start();
    await flush();
    expect(c.batches.flat().map((r) => r.playedAt)).toEqual(plays(0, 4).map((p) => p.playedAt));
    stop();
  });

  it('gathers plays for flushMs before sending (a full batch goes at once)', async () => {
    const { spool, cloud: c, clock, start, stop } = rig({ flushMs: 30_000 });
    start();
    spool.add(plays(0, 1));
    await flush();
    clock.advance(20_000);
    spool.add(plays(1, 1));
    await flush();
    expect(c.batches).toHaveLength(0);
    clock.advance(10_000);
    await flush();
    expect(c.batches.map((b) => b.length)).toEqual([2]);
    for (let i = 0; i < 5; i++) spool.add(plays(100 + i * 100, 100));
    await flush();
    expect(c.batches.map((b) => b.length)).toEqual([2, 500]);
    stop();
  });

  it('a torn last line (a crash mid-write) is dropped on load; the whole records before it stand', () => {
    const journal = new MemoryJsonlJournal(PlaySpoolRecord);
    rig({ journal }).spool.add(plays(0, 2));
    journal.text += '{"t":"play","n":3,"at":1,"pl';
    const again = rig({ journal });
    expect(again.loaded.dropped).toBe(1);
    expect(again.spool.backlog).toBe(2);
    expect(again.spool.add(plays(2, 1)).backlog).toBe(3);
    expect(parseJsonl(journal.text, PlaySpoolRecord)).toMatchObject({ dropped: 0 });
  });

  it('compacts the file once most of it is delivered: the totals and the waiting plays survive, numbers never repeat', async () => {
    const journal = new MemoryJsonlJournal(PlaySpoolRecord);
    const { spool, cloud: c, start, stop } = rig({ journal });
    start();
    let i = 0;
    while (journal.rewrites === 0) {
      spool.add(plays(i, 100));
      i += 100;
      await flush();
    }
    stop();
    expect(i).toBeGreaterThanOrEqual(COMPACT_AFTER_LINES);
    const records = parseJsonl(journal.text, PlaySpoolRecord).records;
    expect(records[0]).toMatchObject({ t: 'meta', lastN: i, delivered: spool.totals.delivered });
    expect(records.length).toBeLessThan(COMPACT_AFTER_LINES);
    const again = rig({ journal });
    again.spool.add(plays(i, 1));
    const last = parseJsonl(journal.text, PlaySpoolRecord).records.at(-1);
    expect(last).toMatchObject({ t: 'play', n: i + 1 });
    expect(again.spool.totals.delivered).toBe(c.ledger.size);
  });
});
