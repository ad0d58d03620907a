import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import type { PrizeEvent, PrizeEventsData, PrizeStateData } from '@vend/protocol';
import { CloudError } from '../cloud/client.ts';
import { MemoryJsonlJournal, parseJsonl } from '../state/jsonl-journal.ts';
import { PrizeSpool, PrizeSpoolRecord } from './prize-spool.ts';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const flush = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};
const T0 = Date.parse('2026-11-20T12:00:00Z');
const KINDS = ['scan', 'entry', 'play', 'win'] as const;
/** Event i of a shopper's funnel: scan, entry, play, win (a 2.50 voucher) in turn. */
const event = (i: number): PrizeEvent => {
  const kind = KINDS[i % 4]!;
  return {
    eventId: `ev-${i}`,
    kind,
    ...(kind === 'scan' ? {} : { mechanic: 'spinToWin' as const }),
    at: T0 - 1_000_000 + i * 1000,
    ...(kind === 'win' ? { prizeValue: 2.5 } : {}),
  };
};
const events = (from: number, count: number): PrizeEvent[] => Array.from({ length: count }, (_, i) => event(from + i));
const state = (winsLeftToday: number): PrizeStateData => {
  const off = { enabled: false, maxWinsPerDay: null, winsLeftToday: null, maxPrizeValue: null };
  return {
    mechanics: { spinToWin: { enabled: true, maxWinsPerDay: 5, winsLeftToday, maxPrizeValue: 10 }, scratchCard: off, loyaltyStamp: off },
    period: '2026-11',
    budgetLeft: 40,
  };
};

type Answer = 'ok' | CloudError;

/** The cloud's /cabinet/prize-events: idempotent by eventId like the real one; refuses every win past the first two; answers scripted per call. */
function cloud(script: Answer[] = []) {
  const verdicts = new Map<string, string | null>();
  const batches: PrizeEvent[][] = [];
  let wins = 0;
  return {
    verdicts,
    batches,
    prizeEvents: async (evs: PrizeEvent[]): Promise<PrizeEventsData> => {
      batches.push(evs);
      const a = script.shift() ?? 'ok';
      if (a instanceof CloudError) throw a;
      let accepted = 0;
      let duplicates = 0;
      const refused: PrizeEventsData['refused'] = [];
      for (const e of evs) {
        if (verdicts.has(e.eventId)) duplicates++;
        else if (e.kind === 'win' && ++wins > 2) verdicts.set(e.eventId, 'over_daily_cap');
        else {
          verdicts.set(e.eventId, null);
          accepted++;
        }
        const v = verdicts.get(e.eventId);
        if (v) refused.push({ eventId: e.eventId, reason: 'over_daily_cap' });
      }
      return { accepted, duplicates, refused, state: state(Math.max(0, 5 - wins)) };
    },
  };
}

function rig(o: { journal?: MemoryJsonlJournal<PrizeSpoolRecord>; script?: Answer[]; max?: number } = {}) {
  const clock = new ManualClock(T0);
  const journal = o.journal ?? new MemoryJsonlJournal(PrizeSpoolRecord);
  const c = cloud(o.script);
  const states: PrizeStateData[] = [];
  const rejected: string[] = [];
  const spool = new PrizeSpool({
    journal,
    client: c,
    clock,
    random: () => 0,
    log: quiet,
    backoff: { baseMs: 1000, capMs: 8000 },
    max: o.max ?? 50_000,
    flushMs: 0,
    onState: (s) => states.push(s),
    onRejected: (e, m) => rejected.push(`${e.eventId}: ${m}`),
  });
  spool.load();
  const ac = new AbortController();
  return { clock, journal, cloud: c, spool, states, rejected, start: () => void spool.start(ac.signal), stop: () => ac.abort() };
}

const down = (): CloudError => new CloudError('unreachable', 'prizeEvents: ECONNREFUSED', null, null, true);

describe('prize event spool', () => {
  it('keeps events on the medium before add returns; an eventId already waiting is a duplicate', () => {
    const { spool, journal } = rig();
    expect(spool.add(events(0, 3))).toEqual({ accepted: 3, duplicates: 0, backlog: 3, dropped: 0 });
    expect(spool.add(events(2, 2))).toEqual({ accepted: 1, duplicates: 1, backlog: 4, dropped: 0 });
    expect(journal.appends).toBe(2);
    expect(parseJsonl(journal.text, PrizeSpoolRecord).records.map((r) => (r.t === 'play' ? r.play.eventId : r.t))).toEqual(['ev-0', 'ev-1', 'ev-2', 'ev-3']);
  });

  it('sends in order in batches of at most 500; refused events are delivered too (the cloud’s verdict) and its state is passed on', async () => {
    const { spool, cloud: c, states, start, stop } = rig();
    for (let i = 0; i < 12; i++) spool.add(events(i * 100, 100));
    start();
    await flush();
    expect(c.batches.map((b) => b.length)).toEqual([500, 500, 200]);
    expect(c.batches.flat().map((e) => e.eventId)).toEqual(events(0, 1200).map((e) => e.eventId));
    expect([...c.verdicts.values()].filter((v) => v === 'over_daily_cap')).toHaveLength(298);
    expect(spool.backlog).toBe(0);
    expect(spool.totals).toMatchObject({ delivered: 1200, duplicates: 0, rejected: 0, dropped: 0 });
    expect(states).toHaveLength(3);
    expect(states.at(-1)?.mechanics.spinToWin.winsLeftToday).toBe(0);
    stop();
  });

  it('a cloud that is away keeps the events and is retried with the backoff', async () => {
    const { spool, cloud: c, clock, states, start, stop } = rig({ script: [down(), down()] });
    spool.add(events(0, 4));
    start();
    await flush();
    expect(c.batches).toHaveLength(1);
    expect(spool.backlog).toBe(4);
    expect(spool.lastError?.message).toMatch(/ECONNREFUSED/);
    clock.advance(499);
    await flush();
    expect(c.batches).toHaveLength(1); // the first wait (half of the 1 s base, no jitter) is not over
    clock.advance(1);
    await flush();
    expect(c.batches).toHaveLength(2);
    expect(spool.backlog).toBe(4);
    clock.advance(1000);
    await flush();
    expect(c.batches).toHaveLength(3);
    expect(spool.backlog).toBe(0);
    expect(states).toHaveLength(1);
    stop();
  });

  it('after a crash before the delivered record, the events go again and the cloud counts each once', async () => {
    const journal = new MemoryJsonlJournal(PrizeSpoolRecord);
    const first = rig({ journal });
    first.spool.add(events(0, 8));
    journal.failNextAppend = new Error('killed'); // the cloud answered; the `delivered` record never reached the disk
    first.start();
    await flush();
    first.stop();
    expect(first.cloud.batches).toHaveLength(1);
    const second = rig({ journal });
    expect(second.spool.backlog).toBe(8);
    for (const e of events(0, 8)) second.cloud.verdicts.set(e.eventId, null); // the cloud remembers them
    second.start();
    await flush();
    expect(second.cloud.batches.map((b) => b.length)).toEqual([8]);
    expect(second.spool.totals).toMatchObject({ delivered: 8, duplicates: 8 });
    expect(second.spool.backlog).toBe(0);
    expect(rig({ journal }).spool.backlog).toBe(0); // and a third start finds nothing to send
    second.stop();
  });

  it('a malformed event (422) is found by halving and set aside; the rest are delivered', async () => {
    const journal = new MemoryJsonlJournal(PrizeSpoolRecord);
    const { spool, cloud: c, rejected, start, stop } = rig({ journal });
    const bad: PrizeEvent = { eventId: 'bad', kind: 'entry', mechanic: 'scratchCard', at: 'yesterday' };
    const original = c.prizeEvents;
    c.prizeEvents = (evs) =>
      evs.some((e) => e.eventId === 'bad') ? Promise.reject(new CloudError('http', 'prizeEvents: 422 events.2.at', 422)) : original(evs);
    spool.add([...events(0, 2), bad, ...events(2, 3)]);
    start();
    await flush();
    expect(spool.backlog).toBe(0);
    expect(rejected).toEqual(['bad: prizeEvents: 422 events.2.at']);
    expect([...c.verdicts.keys()].sort()).toEqual(['ev-0', 'ev-1', 'ev-2', 'ev-3', 'ev-4']);
    expect(spool.totals).toMatchObject({ delivered: 5, rejected: 1 });
    stop();
  });

  it('over its cap the oldest events are dropped, counted', () => {
    const { spool } = rig({ max: 150 });
    spool.add(events(0, 100));
    expect(spool.add(events(100, 100))).toMatchObject({ accepted: 100, backlog: 150, dropped: 50 });
    expect(spool.oldestAt).toBe(T0);
    expect(spool.totals.dropped).toBe(50);
  });

  it('refuses more than 100 events in one request (400)', () => {
    const { spool } = rig();
    expect(() => spool.add(events(0, 101))).toThrow(/at most 100 prize events/);
    expect(spool.backlog).toBe(0);
  });
});
