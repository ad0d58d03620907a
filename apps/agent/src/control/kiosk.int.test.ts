import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ControlAdPlay, ControlAdPlaysAccepted, PrizeEvent } from '@vend/protocol';
import { ItemsRefused } from '../cloud/batch-spool.ts';
import { loopAnswer } from '../ads/ads.ts';
import type { KioskAds } from '../ads/ads.ts';
import { PlaysRefused, normalizePlays } from '../ads/play-spool.ts';
import type { KioskPrizes } from '../prizes/prizes.ts';
import { byteRange } from './kiosk.ts';
import { startControlServer } from './server.ts';
import type { ControlServer } from './server.ts';

// The kiosk's ad routes of the control channel, over a real socket: no token (with or without one,
// even an empty control token), but an exact Host, an allowed Origin, JSON bodies, bounded input.

const KIOSK = 'https://cloud.example';
const KEY = 'a'.repeat(32);
const BYTES = Buffer.from('0123456789');
const T0 = Date.parse('2026-11-20T12:00:00Z');
let server: ControlServer | null = null;
let dir: string | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

async function start(o: { token?: string; addPlays?: (p: ControlAdPlay[]) => ControlAdPlaysAccepted; prizes?: KioskPrizes | null } = {}) {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-'));
  writeFileSync(join(dir, KEY), BYTES);
  const added: ControlAdPlay[][] = [];
  const loop = {
    machineCode: 'CAB-0001',
    slotSeconds: 15,
    entries: [
      { id: 'house:poster:1', url: '/media/p.png', head: 'h', type: 'image', startTime: 's', endTime: 'e' },
      {
        id: 'c1',
        url: 'https://cdn.example/v.mp4',
        head: 'h',
        type: 'video',
        startTime: 's',
        endTime: 'e',
        campaignId: 'cmp_1',
        source: 'direct-sold' as const,
      },
    ],
  };
  const ads: KioskAds = {
    loop: async (base) =>
      loopAnswer(
        { stored: { fetchedAt: T0, loop }, source: 'disk', stale: true, ageMs: 900_000, error: 'getAd: ECONNREFUSED' },
        'http://cloud.example:8080',
        base,
        (u) => (u === 'http://cloud.example:8080/media/p.png' ? { key: KEY, url: u, contentType: 'image/png', bytes: BYTES.length, fetchedAt: T0 } : null),
      ),
    addPlays: (plays) => {
      normalizePlays(plays, T0);
      added.push(plays);
      return (o.addPlays ?? ((p) => ({ accepted: p.length, duplicates: 0, backlog: p.length, dropped: 0 })))(plays);
    },
    media: (key) => (key === KEY ? { key, url: 'u', contentType: 'image/png', bytes: BYTES.length, fetchedAt: T0, path: join(dir!, KEY) } : null),
    allowedOrigins: () => [KIOSK],
  };
  server = await startControlServer({
    host: '127.0.0.1',
    port: 0,
    token: () => o.token ?? 'tok-123',
    api: {} as never,
    ads,
    prizes: o.prizes ?? null,
    log: { info: () => {}, warn: () => {} },
  });
  const port = server.port;
  const call = (method: string, path: string, h: Record<string, string | null> = {}, body?: string) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}` };
    for (const [k, v] of Object.entries(h))
      if (v === null) delete headers[k];
      else headers[k] = v;
    return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string; json: Record<string, unknown> }>(
      (resolve, reject) => {
        const req = request(server!.url + path, { method, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: Record<string, unknown> = {};
            try {
              json = JSON.parse(text) as Record<string, unknown>;
            } catch {
              // media
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
          });
        });
        req.on('error', reject);
        req.end(body);
      },
    );
  };
  const json = { 'content-type': 'application/json' };
  return { call, added, port, json };
}

const onePlay = JSON.stringify({ plays: [{ id: 'house:poster:1', source: 'house', playedAt: T0 - 1000, durationMs: 15000 }] });

describe('kiosk ad routes', () => {
  it('need no token — none, a wrong one, or an empty control token — while the rest of the channel still does', async () => {
    for (const token of ['tok-123', '']) {
      const { call, json } = await start({ token });
      expect((await call('GET', '/v1/ads/loop')).status).toBe(200);
      expect((await call('GET', '/v1/ads/loop', { authorization: 'Bearer wrong' })).status).toBe(200);
      expect((await call('POST', '/v1/ads/plays', json, onePlay)).status).toBe(202);
      expect((await call('GET', '/v1/status')).status).toBe(401);
      await server!.close();
      server = null;
    }
  });

  it('serves the loop with absolute URLs, the cached copy on the address the kiosk used, and its age and staleness', async () => {
    const { call, port } = await start();
    const r = await call('GET', '/v1/ads/loop', { host: `localhost:${port}` });
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json).toMatchObject({
      machineCode: 'CAB-0001',
      fetchedAt: new Date(T0).toISOString(),
      ageSeconds: 900,
      stale: true,
      source: 'disk',
      error: 'getAd: ECONNREFUSED',
      entries: [
        { id: 'house:poster:1', url: `http://localhost:${port}/v1/ads/media/${KEY}`, remoteUrl: 'http://cloud.example:8080/media/p.png', cached: true },
        { id: 'c1', url: 'https://cdn.example/v.mp4', remoteUrl: 'https://cdn.example/v.mp4', cached: false, campaignId: 'cmp_1' },
      ],
    });
  });

  it('answers only the exact Host of the channel: another name (DNS rebinding) or another port is 421, and nothing is written', async () => {
    const { call, added, port, json } = await start();
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `localhost:80`, '127.0.0.1']) {
      expect((await call('GET', '/v1/ads/loop', { host })).status, host).toBe(421);
      expect((await call('POST', '/v1/ads/plays', { ...json, host }, onePlay)).status, host).toBe(421);
    }
    expect(added).toEqual([]);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) expect((await call('GET', '/v1/ads/loop', { host })).status, host).toBe(200);
  });

  it('CORS: an allowed kiosk origin gets its headers and its preflight (Private Network Access too); any other origin is 403 and nothing is written', async () => {
    const { call, added, json } = await start();
    const ok = await call('POST', '/v1/ads/plays', { ...json, origin: KIOSK }, onePlay);
    expect(ok.status).toBe(202);
    expect(ok.headers['access-control-allow-origin']).toBe(KIOSK);
    expect(ok.headers['vary']).toBe('Origin');
    const pre = await call('OPTIONS', '/v1/ads/plays', {
      origin: KIOSK,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
      'access-control-request-private-network': 'true',
    });
    expect(pre.status).toBe(204);
    expect(pre.headers).toMatchObject({
      'access-control-allow-origin': KIOSK,
      'access-control-allow-methods': 'GET, HEAD, POST',
      'access-control-allow-headers': 'content-type, range',
      'access-control-allow-private-network': 'true',
    });
    added.length = 0;
    for (const origin of ['https://evil.example', 'null', 'https://cloud.example:444', `http://127.0.0.1:${1}`]) {
      const r = await call('POST', '/v1/ads/plays', { ...json, origin }, onePlay);
      expect(r.status, origin).toBe(403);
      expect(r.json).toMatchObject({ error: 'origin-not-allowed' });
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
      expect((await call('GET', '/v1/ads/loop', { origin })).status).toBe(403);
      expect((await call('OPTIONS', '/v1/ads/plays', { origin, 'access-control-request-method': 'POST' })).status).toBe(403);
    }
    expect(added).toEqual([]);
  });

  it('takes plays as JSON only (415 otherwise: no cross-site "simple" post)', async () => {
    const { call, added } = await start();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])
      expect((await call('POST', '/v1/ads/plays', { 'content-type': type }, onePlay)).status, type).toBe(415);
    expect((await call('POST', '/v1/ads/plays', {}, onePlay)).status).toBe(415);
    expect((await call('POST', '/v1/ads/plays', { 'content-type': 'application/json; charset=utf-8' }, onePlay)).status).toBe(202);
    expect(added).toHaveLength(1);
  });

  it('bad input is a 400 (or 413 for a body over 64 KiB) naming the problem, and nothing reaches the spool', async () => {
    const { call, added, json } = await start();
    const bad: [string, RegExp][] = [
      ['not json', /body must be JSON/],
      ['{}', /plays/],
      ['{"plays":[]}', /plays/],
      [JSON.stringify({ plays: [{ id: '' }] }), /plays\.0\.id/],
      [JSON.stringify({ plays: [{ id: 'x'.repeat(129) }] }), /plays\.0\.id/],
      [JSON.stringify({ plays: [{ id: 'a', extra: 1 }] }), /plays\.0/],
      [JSON.stringify({ plays: [{ id: 'a' }], more: 1 }), /more|Unrecognized/],
      [JSON.stringify({ plays: [{ id: 'a', source: 'sponsored' }] }), /plays\.0\.source/],
      [JSON.stringify({ plays: [{ id: 'a', durationMs: -1 }] }), /plays\.0\.durationMs/],
      [JSON.stringify({ plays: [{ id: 'a', playedAt: 'soon' }] }), /plays\.0\.playedAt/],
      [JSON.stringify({ plays: [{ id: 'a', playedAt: T0 + 86_400_000 }] }), /plays\.0\.playedAt: in the future/],
      [JSON.stringify({ plays: Array.from({ length: 101 }, (_, i) => ({ id: `p${i}` })) }), /plays/],
      [JSON.stringify({ plays: [{ id: 'a\u0000b' }] }), /plays\.0\.id/],
    ];
    for (const [body, why] of bad) {
      const r = await call('POST', '/v1/ads/plays', json, body);
      expect(r.status, body.slice(0, 60)).toBe(400);
      expect(String(r.json['message']), body.slice(0, 60)).toMatch(why);
    }
    const huge = await call('POST', '/v1/ads/plays', json, JSON.stringify({ plays: [{ id: 'a', pad: 'x'.repeat(70_000) }] }));
    expect(huge.status).toBe(413);
    expect(added).toEqual([]);
  });

  it('a disk that refuses the plays is a 503 (the kiosk keeps them and tries again)', async () => {
    const { call, json } = await start({
      addPlays: () => {
        throw new PlaysRefused(503, 'spool-unavailable', 'the plays could not be written to disk: ENOSPC');
      },
    });
    const r = await call('POST', '/v1/ads/plays', json, onePlay);
    expect(r.status).toBe(503);
    expect(r.json).toEqual({ error: 'spool-unavailable', message: 'the plays could not be written to disk: ENOSPC' });
  });

  it('serves a cached media file: type, ETag (304), single byte ranges (206 / 416), HEAD; an unknown key is 404', async () => {
    const { call } = await start();
    const path = `/v1/ads/media/${KEY}`;
    const whole = await call('GET', path);
    expect(whole.status).toBe(200);
    expect(whole.text).toBe(BYTES.toString());
    expect(whole.headers).toMatchObject({ 'content-type': 'image/png', 'accept-ranges': 'bytes', 'x-content-type-options': 'nosniff' });
    expect(whole.headers['content-security-policy']).toContain('sandbox');
    const etag = String(whole.headers['etag']);
    expect((await call('GET', path, { 'if-none-match': etag })).status).toBe(304);
    const part = await call('GET', path, { range: 'bytes=2-5' });
    expect([part.status, part.text, part.headers['content-range']]).toEqual([206, '2345', 'bytes 2-5/10']);
    const tail = await call('GET', path, { range: 'bytes=-3' });
    expect([tail.status, tail.text]).toEqual([206, '789']);
    const beyond = await call('GET', path, { range: 'bytes=10-' });
    expect([beyond.status, beyond.headers['content-range']]).toEqual([416, 'bytes */10']);
    const head = await call('HEAD', path);
    expect([head.status, head.text, head.headers['content-length']]).toEqual([200, '', '10']);
    expect((await call('GET', `/v1/ads/media/${'b'.repeat(32)}`)).status).toBe(404);
    expect((await call('GET', '/v1/ads/media/..%2F..%2Fcontrol-token')).status).toBe(404);
    expect((await call('GET', `/v1/ads/media/${KEY}`, { origin: 'https://evil.example' })).status).toBe(403);
  });

  it('answers 404 for the ad routes when the agent runs without them', async () => {
    server = await startControlServer({ host: '127.0.0.1', port: 0, token: () => 't', api: {} as never, log: { info: () => {}, warn: () => {} } });
    const res = await fetch(`${server.url}/v1/ads/loop`);
    expect(res.status).toBe(404);
  });
});

describe('byte ranges', () => {
  it.each([
    [undefined, 10, null],
    ['bytes=0-0', 10, { start: 0, end: 0 }],
    ['bytes=3-', 10, { start: 3, end: 9 }],
    ['bytes=3-100', 10, { start: 3, end: 9 }],
    ['bytes=-4', 10, { start: 6, end: 9 }],
    ['bytes=-40', 10, { start: 0, end: 9 }],
    ['bytes=10-12', 10, 'unsatisfiable'],
    ['bytes=-0', 10, 'unsatisfiable'],
    ['bytes=5-2', 10, null],
    ['bytes=0-1,4-5', 10, null],
    ['items=0-1', 10, null],
  ] as const)('%s of %i bytes → %j', (header, size, expected) => {
    expect(byteRange(header, size)).toEqual(expected);
  });
});

const STATE = {
  mechanics: {
    spinToWin: { enabled: true, maxWinsPerDay: 3, winsLeftToday: 1, maxPrizeValue: 5 },
    scratchCard: { enabled: false, maxWinsPerDay: null, winsLeftToday: null, maxPrizeValue: null },
    loyaltyStamp: { enabled: false, maxWinsPerDay: null, winsLeftToday: null, maxPrizeValue: null },
  },
  period: '2026-11',
  budgetLeft: 12.5,
};

/** The prize game behind the routes: records what it was given; `fail` makes the disk refuse. */
function prizeGame() {
  const taken: PrizeEvent[][] = [];
  const game = {
    taken,
    fail: false,
    addEvents: (events: PrizeEvent[]) => {
      if (game.fail) throw new ItemsRefused(503, 'spool-unavailable', 'the events could not be written to disk: ENOSPC');
      taken.push(events);
      return { accepted: events.length, duplicates: 0, backlog: taken.flat().length, dropped: 0 };
    },
    state: () => ({ state: STATE, fetchedAt: new Date(T0).toISOString(), ageSeconds: 60, source: 'disk' as const }),
  };
  return game;
}
const win = { eventId: 'w-1', kind: 'win', mechanic: 'spinToWin', at: T0 - 1000, prizeValue: 2.5 };
const twoEvents = JSON.stringify({ events: [{ eventId: 's-1', kind: 'scan', at: '2026-11-20T11:59:00Z' }, win] });

describe('kiosk prize routes', () => {
  it('takes events without a token (202 once taken) and serves the last state, the rest of the channel still behind the token', async () => {
    const game = prizeGame();
    const { call, json } = await start({ prizes: game });
    const r = await call('POST', '/v1/prizes/events', json, twoEvents);
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ accepted: 2, duplicates: 0, backlog: 2, dropped: 0 });
    expect(game.taken).toEqual([[{ eventId: 's-1', kind: 'scan', at: '2026-11-20T11:59:00Z' }, win]]);
    const st = await call('GET', '/v1/prizes/state', { authorization: 'Bearer wrong' });
    expect(st.status).toBe(200);
    expect(st.headers['cache-control']).toBe('no-store');
    expect(st.json).toEqual({ state: STATE, fetchedAt: new Date(T0).toISOString(), ageSeconds: 60, source: 'disk' });
    expect((await call('GET', '/v1/status')).status).toBe(401);
  });

  it('the same Host and Origin rules as the ad routes: 421 for another name, 403 for another origin, CORS for the kiosk; nothing taken', async () => {
    const game = prizeGame();
    const { call, json, port } = await start({ prizes: game });
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`]) {
      expect((await call('POST', '/v1/prizes/events', { ...json, host }, twoEvents)).status, host).toBe(421);
      expect((await call('GET', '/v1/prizes/state', { host })).status, host).toBe(421);
    }
    for (const origin of ['https://evil.example', 'null']) {
      expect((await call('POST', '/v1/prizes/events', { ...json, origin }, twoEvents)).status, origin).toBe(403);
      expect((await call('GET', '/v1/prizes/state', { origin })).status, origin).toBe(403);
    }
    expect(game.taken).toEqual([]);
    const ok = await call('POST', '/v1/prizes/events', { ...json, origin: KIOSK }, twoEvents);
    expect(ok.status).toBe(202);
    expect(ok.headers['access-control-allow-origin']).toBe(KIOSK);
    const pre = await call('OPTIONS', '/v1/prizes/events', { origin: KIOSK, 'access-control-request-method': 'POST' });
    expect(pre.status).toBe(204);
  });

  it('bad input: not JSON 415, malformed events 400 naming the problem (the protocol schema), over 100 events 400; nothing taken', async () => {
    const game = prizeGame();
    const { call, json } = await start({ prizes: game });
    expect((await call('POST', '/v1/prizes/events', { 'content-type': 'text/plain' }, twoEvents)).status).toBe(415);
    const bad: [string, RegExp][] = [
      ['{}', /events/],
      ['{"events":[]}', /events/],
      [JSON.stringify({ events: [{ ...win, kind: 'jackpot' }] }), /events\.0\.kind/],
      [JSON.stringify({ events: [{ ...win, mechanic: undefined }] }), /events\.0\.mechanic/],
      [JSON.stringify({ events: [{ eventId: 'p', kind: 'play', mechanic: 'spinToWin', at: T0, prizeValue: 1 }] }), /only a win/],
      [JSON.stringify({ events: [{ ...win, prizeValue: 1.234 }] }), /two decimals/],
      [JSON.stringify({ events: [win], more: 1 }), /more|Unrecognized/],
      [JSON.stringify({ events: Array.from({ length: 101 }, (_, i) => ({ ...win, eventId: `w-${i}` })) }), /events/],
    ];
    for (const [body, why] of bad) {
      const r = await call('POST', '/v1/prizes/events', json, body);
      expect(r.status, body.slice(0, 80)).toBe(400);
      expect(String(r.json['message']), body.slice(0, 80)).toMatch(why);
    }
    expect(game.taken).toEqual([]);
  });

  it('a disk that refuses is 503 (the kiosk keeps its events and retries); no prize game is 404', async () => {
    const game = prizeGame();
    game.fail = true;
    const { call, json } = await start({ prizes: game });
    const r = await call('POST', '/v1/prizes/events', json, twoEvents);
    expect(r.status).toBe(503);
    expect(r.json).toMatchObject({ error: 'spool-unavailable' });
    await server!.close();
    server = null;
    rmSync(dir!, { recursive: true, force: true });
    const none = await start({ prizes: null });
    expect((await none.call('GET', '/v1/prizes/state')).status).toBe(404);
    expect((await none.call('POST', '/v1/prizes/events', none.json, twoEvents)).status).toBe(404);
  });
});
