import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import type { AdLoopData } from '@vend/protocol';
import { CloudError } from '../cloud/client.ts';
import { loopAnswer } from './ads.ts';
import { AdLoopKeeper, DEMAND_GAP_MS, MemoryLoopStore, resolveMediaUrl } from './loop.ts';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
};
const T0 = Date.parse('2026-11-20T12:00:00Z');

function loopOf(tag: string, urls: string[] = ['/advertise/poster/CAB-0001.png']): AdLoopData {
  return {
    machineCode: 'CAB-0001',
    slotSeconds: 15,
    entries: urls.map((url, i) => ({
      id: `${tag}:${i + 1}`,
      url,
      head: 'h',
      type: 'image',
      startTime: '2026-11-20T00:00:00.000+0000',
      endTime: '2026-11-20T23:59:59.999+0000',
    })),
  };
}

const down = (): CloudError => new CloudError('unreachable', 'getAd: ECONNREFUSED', null, null, true);

/** A keeper over a scripted cloud: each getAd takes the next answer (a loop, or an error to throw). */
function rig(
  answers: (AdLoopData | CloudError)[],
  o: { hold?: boolean; store?: MemoryLoopStore; clock?: ManualClock; refreshMs?: number; staleMs?: number; random?: number } = {},
) {
  const clock = o.clock ?? new ManualClock(T0);
  const store = o.store ?? new MemoryLoopStore();
  let calls = 0;
  const held: (() => void)[] = [];
  const keeper = new AdLoopKeeper({
    client: {
      getAd: async () => {
        calls++;
        if (o.hold) await new Promise<void>((r) => held.push(r));
        const a = answers.shift() ?? down();
        if (a instanceof CloudError) throw a;
        return a;
      },
    },
    store,
    clock,
    random: () => o.random ?? 0.5,
    log: quiet,
    refreshMs: o.refreshMs ?? 60_000,
    staleMs: o.staleMs ?? 300_000,
    backoff: { baseMs: 1000, capMs: 8000 },
  });
  return { clock, store, keeper, calls: () => calls, release: () => held.splice(0).forEach((r) => r()) };
}

describe('media URLs of the loop', () => {
  it.each([
    ['/media/ab.png', 'http://cloud:8080', 'http://cloud:8080/media/ab.png'],
    ['/advertise/poster/CAB-1.png', 'https://h.example/cloud', 'https://h.example/cloud/advertise/poster/CAB-1.png'],
    ['media/ab.png', 'https://h.example/cloud/', 'https://h.example/cloud/media/ab.png'],
    ['https://cdn.example/x.mp4', 'http://cloud:8080', 'https://cdn.example/x.mp4'],
    ['//cdn.example/x.png', 'https://h.example', 'https://cdn.example/x.png'],
    ['data:image/png;base64,AAAA', 'http://cloud:8080', null],
    ['javascript:alert(1)', 'http://cloud:8080', null],
    ['ftp://files.example/x.png', 'http://cloud:8080', null],
  ])('%s against %s → %s', (url, cloud, expected) => {
    expect(resolveMediaUrl(url, cloud)).toBe(expected);
  });

  it('the kiosk gets absolute URLs, the local copy where there is one, and never an entry it cannot play', () => {
    const loop = loopOf('c', ['/media/a.png', 'javascript:alert(1)', 'https://cdn.example/b.mp4']);
    const view = { stored: { fetchedAt: T0, loop }, source: 'cloud' as const, stale: false, ageMs: 0, error: null };
    const copy = { key: '0'.repeat(32), url: 'http://cloud/media/a.png', contentType: 'image/png', bytes: 3, fetchedAt: T0 };
    const answer = loopAnswer(view, 'http://cloud', 'http://127.0.0.1:8770', (u) => (u === copy.url ? copy : null));
    expect(answer.entries.map((e) => [e.id, e.url, e.remoteUrl, e.cached])).toEqual([
      ['c:1', `http://127.0.0.1:8770/v1/ads/media/${copy.key}`, 'http://cloud/media/a.png', true],
      ['c:3', 'https://cdn.example/b.mp4', 'https://cdn.example/b.mp4', false],
    ]);
  });
});

describe('the attract loop keeper', () => {
  it('fetches at start, keeps the loop on disk, and a restart serves it from there (source disk) until the next fetch', async () => {
    const { keeper, store, clock } = rig([loopOf('a')]);
    expect(keeper.view()).toMatchObject({ stored: null, source: 'none', stale: true });
    const ac = new AbortController();
    void keeper.run(ac.signal);
    await flush();
    expect(keeper.view()).toMatchObject({ source: 'cloud', stale: false, ageMs: 0 });
    expect(store.stored).toEqual({ fetchedAt: T0, loop: loopOf('a') });
    ac.abort();
    clock.advance(10_000);
    const again = rig([], { store, clock }).keeper;
    expect(again.view()).toMatchObject({ source: 'disk', stale: false, ageMs: 10_000, stored: { loop: loopOf('a') } });
  });

  it('refreshes every interval, jittered ±20 % (random 0 → 0.8 ×, random 1 → 1.2 ×)', async () => {
    for (const [random, waitMs] of [
      [0, 48_000],
      [0.999999, 72_000],
    ] as const) {
      const { keeper, clock, calls } = rig([loopOf('a'), loopOf('b')], { random });
      const ac = new AbortController();
      void keeper.run(ac.signal);
      await flush();
      expect(calls()).toBe(1);
      clock.advance(waitMs - 1);
      await flush();
      expect(calls()).toBe(1);
      clock.advance(1);
      await flush();
      expect(calls()).toBe(2);
      expect(keeper.view().stored?.loop).toEqual(loopOf('b'));
      ac.abort();
    }
  });

  it('with the cloud away keeps serving the last good loop, stale once older than staleMs, and names the error', async () => {
    const { keeper, clock } = rig([loopOf('a')], { staleMs: 300_000 });
    const ac = new AbortController();
    void keeper.run(ac.signal);
    await flush();
    for (let i = 0; i < 10; i++) {
      clock.advance(60_000);
      await flush();
    }
    const v = keeper.view();
    expect(v.stored?.loop).toEqual(loopOf('a'));
    expect(v.stale).toBe(true);
    expect(v.ageMs).toBe(600_000);
    expect(v.error).toMatch(/ECONNREFUSED/);
    ac.abort();
  });

  it('is fresh up to staleMs and stale one millisecond after', async () => {
    const { keeper, clock } = rig([loopOf('a')], { staleMs: 300_000, refreshMs: 3_600_000 });
    await keeper.refresh();
    clock.advance(300_000);
    expect(keeper.view().stale).toBe(false);
    clock.advance(1);
    expect(keeper.view().stale).toBe(true);
  });

  it('after a failure retries sooner, with backoff, never later than the interval', async () => {
    const { keeper, clock, calls } = rig([down(), down(), loopOf('a')], { refreshMs: 60_000 });
    const ac = new AbortController();
    void keeper.run(ac.signal);
    await flush();
    expect(calls()).toBe(1);
    clock.advance(750); // attempt 0: d = 1000, wait in [500, 1000] → 750 with random 0.5
    await flush();
    expect(calls()).toBe(2);
    clock.advance(1500); // attempt 1: d = 2000 → 1500
    await flush();
    expect(calls()).toBe(3);
    expect(keeper.view()).toMatchObject({ source: 'cloud', error: null });
    ac.abort();
  });

  it('a kiosk request: waits for a first loop, answers at once when one is due (fetching behind)', async () => {
    const { keeper, clock, calls, release } = rig([loopOf('a'), loopOf('b')], { refreshMs: 60_000, hold: true });
    let answered = false;
    const first = keeper.demand().then(() => (answered = true));
    await flush();
    expect(calls()).toBe(1);
    expect(answered).toBe(false); // no loop yet: the request waits for the fetch
    release();
    await first;
    expect(keeper.view().stored?.loop).toEqual(loopOf('a'));
    await keeper.demand(); // fresh: nothing to do
    expect(calls()).toBe(1);
    clock.advance(60_000);
    await keeper.demand(); // due: answered with what it has while the fetch runs
    expect(calls()).toBe(2);
    expect(keeper.view().stored?.loop).toEqual(loopOf('a'));
    release();
    await flush();
    expect(keeper.view().stored?.loop).toEqual(loopOf('b'));
  });

  it('a kiosk asking often while the cloud is away causes one fetch per gap, not one per request', async () => {
    const { keeper, clock, calls } = rig([loopOf('a')], { refreshMs: 60_000 });
    await keeper.refresh();
    clock.advance(60_000);
    for (let i = 0; i < 5; i++) await keeper.demand();
    await flush();
    expect(calls()).toBe(2);
    clock.advance(DEMAND_GAP_MS - 1);
    await keeper.demand();
    await flush();
    expect(calls()).toBe(2);
    clock.advance(1);
    await keeper.demand();
    await flush();
    expect(calls()).toBe(3);
  });

  it('a revoked credential stops the fetching; the last loop is still served', async () => {
    const { keeper, clock, calls } = rig([loopOf('a'), new CloudError('revoked', 'getAd: credential revoked', 403)], { refreshMs: 1000 });
    const ac = new AbortController();
    const ran = keeper.run(ac.signal);
    await flush();
    clock.advance(1200);
    await ran; // the loop ended by itself
    expect(calls()).toBe(2);
    clock.advance(60_000);
    await keeper.demand();
    expect(calls()).toBe(2);
    expect(keeper.view().stored?.loop).toEqual(loopOf('a'));
  });

  it('an unchanged loop is written again (its fetch time counts for staleness after a restart)', async () => {
    const { keeper, store, clock } = rig([loopOf('a'), loopOf('a')]);
    await keeper.refresh();
    clock.advance(61_000);
    await keeper.refresh();
    expect(store.writes).toBe(2);
    expect(store.stored?.fetchedAt).toBe(T0 + 61_000);
  });
});
