import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { FileLoopStore } from './loop.ts';
import { MEDIA_RETRY_MS, MediaCache, mediaKey, nodeMediaFetch } from './media.ts';
import { JsonlJournal } from '../state/jsonl-journal.ts';
import { PlaySpoolRecord } from './play-journal.ts';
import { PlaySpool } from './play-spool.ts';

// The ads' files in a real state directory: the play spool's append-only file, the kept loop, and the
// media cache against a real HTTP server.

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const T0 = Date.parse('2026-11-20T12:00:00Z');
const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'agent-ads-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const spoolOn = (path: string, clock = new ManualClock(T0)) => {
  const journal = new JsonlJournal(path, PlaySpoolRecord);
  const spool = new PlaySpool({
    journal,
    client: { saveAdRecords: async (r) => ({ accepted: r.length, duplicates: 0, unattributed: 0 }) },
    clock,
    random: () => 0,
    log: quiet,
    backoff: { baseMs: 1000, capMs: 1000 },
    max: 1000,
    flushMs: 0,
  });
  return { spool, journal, loaded: spool.load() };
};

describe('play spool file', () => {
  it('holds the plays across a restart (0600), repairs a torn tail on disk, and numbers on', () => {
    const path = join(temp(), 'ad-plays.log');
    const a = spoolOn(path);
    a.spool.add([
      { id: 'house:poster:1', playedAt: T0 - 2 },
      { id: 'house:poster:2', playedAt: T0 - 1 },
    ]);
    a.journal.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    appendFileSync(path, '{"t":"play","n":3,"at":1,"play":{"id":"to'); // the power went mid-write
    const b = spoolOn(path);
    expect(b.loaded.dropped).toBe(1);
    expect(b.spool.backlog).toBe(2);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true); // truncated back to the last whole record
    b.spool.add([{ id: 'house:poster:3', playedAt: T0 }]);
    b.journal.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[2]!)).toMatchObject({ t: 'play', n: 3 });
  });

  it('a compaction rewrites the file atomically (0600), and appends go on into the new one', () => {
    const path = join(temp(), 'ad-plays.log');
    const a = spoolOn(path);
    a.spool.add([{ id: 'x', playedAt: 1 }]);
    a.journal.rewrite([{ t: 'meta', at: 1, lastN: 1, delivered: 1, duplicates: 0, rejected: 0, dropped: 0, lastDeliveredAt: 1 }]);
    a.spool.add([{ id: 'y', playedAt: 2 }]);
    a.journal.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { t: string }).t),
    ).toEqual(['meta', 'play']);
    expect(readdirSync(join(path, '..'))).toEqual(['ad-plays.log']);
  });
});

describe('kept loop file', () => {
  it('reads back what was written; an unreadable file is no loop, never a crash', () => {
    const path = join(temp(), 'ad-loop.json');
    const store = new FileLoopStore(path);
    expect(store.read()).toBeNull();
    const stored = { fetchedAt: T0, loop: { machineCode: 'CAB-0001', slotSeconds: 15, entries: [] } };
    store.write(stored);
    expect(new FileLoopStore(path).read()).toEqual(stored);
    writeFileSync(path, '{"fetchedAt": 1, "loo');
    expect(new FileLoopStore(path).read()).toBeNull();
  });
});

describe('media cache', () => {
  const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(2000, 7)]);
  let server: Server;
  let base: string;
  let hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.headers['x-device-key'] !== undefined) res.writeHead(500).end('a credential was sent');
      else if (req.url?.startsWith('/media/')) res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG);
      else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<script>alert(1)</script>');
      else if (req.url === '/big.mp4') res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.alloc(10_000));
      else if (req.url === '/moved.png') res.writeHead(302, { location: '/media/a.png' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const cache = (dir: string, capBytes: number, clock = new ManualClock(T0)) => {
    const c = new MediaCache({ dir, capBytes, fetch: nodeMediaFetch(), clock, log: quiet, timeoutMs: 5000 });
    c.init();
    return c;
  };

  it('keeps images and videos of the loop in loop order while they fit; refuses other types, redirects and what does not fit', async () => {
    hits = [];
    const dir = join(temp(), 'ad-media');
    const c = cache(dir, 5000);
    const urls = [`${base}/media/a.png`, `${base}/page.html`, `${base}/moved.png`, `${base}/big.mp4`, `${base}/media/b.png`, `${base}/media/c.png`];
    await c.follow(urls);
    expect(c.lookup(urls[0]!)).toMatchObject({ contentType: 'image/png', bytes: PNG.length, key: mediaKey(urls[0]!) });
    for (const u of urls.slice(1, 4)) expect(c.lookup(u)).toBeNull();
    expect(c.lookup(urls[4]!)).not.toBeNull(); // 2 × 2008 bytes fit under 5000
    expect(c.lookup(urls[5]!)).toBeNull(); // the third does not
    expect(c.status()).toMatchObject({ files: 2, bytes: 2 * PNG.length, capBytes: 5000 });
    expect(readFileSync(c.file(mediaKey(urls[0]!))!.path)).toEqual(PNG);
    expect(readdirSync(dir).sort()).toEqual([mediaKey(urls[0]!), mediaKey(urls[4]!), 'index.json'].sort()); // no temp file left
    expect(c.status().lastError).toMatch(/media\/c\.png: .*room left/);
  });

  it('follows the loop: what left it is removed; a restart keeps what is there and forgets a file of the wrong size', async () => {
    const dir = join(temp(), 'ad-media');
    const clock = new ManualClock(T0);
    const a = cache(dir, 1_000_000, clock);
    await a.follow([`${base}/media/a.png`, `${base}/media/b.png`]);
    await a.follow([`${base}/media/b.png`]);
    expect(a.lookup(`${base}/media/a.png`)).toBeNull();
    expect(existsSync(join(dir, mediaKey(`${base}/media/a.png`)))).toBe(false);
    const b = cache(dir, 1_000_000, clock);
    expect(b.lookup(`${base}/media/b.png`)).toMatchObject({ bytes: PNG.length });
    writeFileSync(join(dir, mediaKey(`${base}/media/b.png`)), 'torn');
    writeFileSync(join(dir, '.stray.tmp'), 'x');
    const c = cache(dir, 1_000_000, clock);
    expect(c.lookup(`${base}/media/b.png`)).toBeNull();
    expect(readdirSync(dir)).toEqual(['index.json']);
  });

  it('fetches a copy again once it is a day old, and not before', async () => {
    hits = [];
    const clock = new ManualClock(T0);
    const c = cache(join(temp(), 'ad-media'), 1_000_000, clock);
    const url = `${base}/media/a.png`;
    await c.follow([url]);
    clock.advance(86_400_000 - 1);
    await c.follow([url]);
    expect(hits).toEqual(['/media/a.png']);
    clock.advance(1);
    await c.follow([url]);
    expect(hits).toEqual(['/media/a.png', '/media/a.png']);
  });

  it('a URL that could not be fetched is not asked for at every loop refresh: again only after MEDIA_RETRY_MS', async () => {
    hits = [];
    const clock = new ManualClock(T0);
    const c = cache(join(temp(), 'ad-media'), 1_000_000, clock);
    const url = `${base}/gone.png`;
    await c.follow([url]);
    clock.advance(MEDIA_RETRY_MS - 1);
    await c.follow([url]);
    expect(hits).toEqual(['/gone.png']);
    expect(c.status().lastError).toMatch(/gone\.png: HTTP 404/);
    clock.advance(1);
    await c.follow([url]);
    expect(hits).toEqual(['/gone.png', '/gone.png']);
  });
});
