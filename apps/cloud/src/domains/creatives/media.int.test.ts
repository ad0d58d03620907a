import path from 'node:path';
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import jsqrModule from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { ApiDocs } from '../../http/api-docs.ts';
import { sendOk } from '../../http/envelope.ts';
import { errorHandler, notFoundHandler } from '../../http/error-middleware.ts';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { checkedFetch } from '../../testing/contract.ts';
import type { Body } from '../../testing/answers.ts';
import { advertiseQrId } from './advertise-qr.ts';
import { CreativesRepo } from './creatives.repo.ts';
import { CreativesService, POSTER_RENDER_QUEUE } from './creatives.service.ts';
import type { AppError } from '../../http/errors.ts';
import { image, mp4, noisyPng } from './creatives.test-support.ts';
import { MEDIA_CACHE_CONTROL, POSTER_CACHE_CONTROL, mediaRoutes, uploadJsonParser } from './media.routes.ts';
import { MediaStore } from './media-store.ts';

type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
// jsqr is CommonJS with a `default` export: take whichever the loader hands us
const jsQR = ((jsqrModule as unknown as { default?: Decode }).default ?? jsqrModule) as unknown as Decode;

function decodeQr(bytes: Buffer): { width: number; height: number; text: string | null } {
  const png = PNG.sync.read(bytes);
  const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  return { width: png.width, height: png.height, text: code?.data ?? null };
}

const PUBLIC_BASE = 'https://ads.example.test';
const MACHINE = 'SBX-ALICE-0001';

/**
 * The public creative routes over a real listening server. Until app.ts mounts `mediaRoutes`, the
 * router runs in a small Express app of its own (with the app's 404 and error middleware) beside a
 * harness server, whose store, config and DATA_DIR it shares; the harness server answers the
 * operator's advertise QR the poster's QR must match.
 */
describe.each(DIALECTS)('media and house posters on %s', (dialect) => {
  let t: TestServer;
  let creatives: CreativesService;
  let server: Server;
  let url: string;
  const get = async (p: string, headers: Record<string, string> = {}, method = 'GET') => {
    const res = await checkedFetch(url + p, { method, headers });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    t = await startTestServer(dialect, { env: { PUBLIC_BASE_URL: PUBLIC_BASE } });
    creatives = new CreativesService({
      store: t.services.store,
      clock: t.clock,
      media: new MediaStore(path.join(t.ctx.config.dataDir, 'media')),
      studio: null,
      config: t.ctx.config,
    });
    const app = express();
    // as app.ts will: the upload parser on the upload paths, before the app's 1 MB JSON parser
    app.use('/upload', uploadJsonParser());
    app.use(express.json({ limit: '1mb', type: ['application/json', 'application/*+json'] }));
    app.post(['/upload', '/elsewhere'], async (req, res) =>
      sendOk(res, await creatives.measureUpload(req.body as { contentType: string; dataBase64: string })),
    );
    app.use(mediaRoutes({ docs: new ApiDocs(), access: () => [] }, creatives));
    app.use(notFoundHandler);
    app.use(errorHandler(t.ctx.logger, t.ctx.metrics));
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await t.close();
  });

  it('takes upload bodies past the app’s 1 MB JSON limit on the upload paths only', async () => {
    const png = await noisyPng(540, 960);
    const body = JSON.stringify({ contentType: 'image/png', dataBase64: png.toString('base64') });
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const post = (p: string, headers: Record<string, string> = { 'x-api-key': 'vk_any' }) =>
      call<Body<{ width: number } | null>>(url, 'POST', p, {
        body,
        headers: { 'content-type': 'application/json', ...headers },
      });
    const ok = await post('/upload');
    expect([ok.status, ok.body.data?.width]).toEqual([200, 540]);
    const elsewhere = await post('/elsewhere');
    expect([elsewhere.status, elsewhere.body.message]).toEqual([413, 'Request body too large']);
    // Without a credential the large limit does not apply: nobody reads 80 MB for an anonymous caller.
    const anonymous = await post('/upload', {});
    expect([anonymous.status, anonymous.body.message]).toEqual([413, 'Request body too large']);
  });

  it('serves a stored image at its stable URL with its type, a strong ETag, year-long immutable caching and nosniff', async () => {
    const png = await image('png', 1080, 1920);
    const m = await creatives.measureUpload({ contentType: 'image/png', dataBase64: png.toString('base64') });
    const r = await get(`/media/${m.sha256}.png`);
    expect(r.status).toBe(200);
    expect(r.bytes.equals(png)).toBe(true);
    expect({
      type: r.headers.get('content-type'),
      cache: r.headers.get('cache-control'),
      etag: r.headers.get('etag'),
      nosniff: r.headers.get('x-content-type-options'),
      length: r.headers.get('content-length'),
    }).toEqual({ type: 'image/png', cache: MEDIA_CACHE_CONTROL, etag: `"${m.sha256}"`, nosniff: 'nosniff', length: String(png.length) });
    expect(MEDIA_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    // a cache that has it asks with its ETag (as a browser revalidates; fetch would add no-cache): not modified
    const again = await get(`/media/${m.sha256}.png`, { 'if-none-match': `"${m.sha256}"`, 'cache-control': 'max-age=0' });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    const head = await get(`/media/${m.sha256}.png`, {}, 'HEAD');
    expect([head.status, head.headers.get('content-length'), head.bytes.length]).toEqual([200, String(png.length), 0]);
  });

  it('serves video in byte ranges (seeking), honouring If-Range', async () => {
    const clip = mp4({ width: 1080, height: 1920, durationMs: 2000 });
    const m = await creatives.measureUpload({ contentType: 'video/mp4', dataBase64: clip.toString('base64') });
    const r = await get(`/media/${m.sha256}.mp4`, { range: 'bytes=0-99' });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-type')).toBe('video/mp4');
    expect(r.headers.get('content-range')).toBe(`bytes 0-99/${clip.length}`);
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.bytes.equals(clip.subarray(0, 100))).toBe(true);
    const tail = await get(`/media/${m.sha256}.mp4`, { range: 'bytes=-10', 'if-range': `"${m.sha256}"` });
    expect([tail.status, tail.bytes.equals(clip.subarray(-10))]).toEqual([206, true]);
    // a stale validator gets the whole file
    const stale = await get(`/media/${m.sha256}.mp4`, { range: 'bytes=0-9', 'if-range': '"something-else"' });
    expect([stale.status, stale.bytes.length]).toEqual([200, clip.length]);
  });

  it('answers 404 in the envelope for an unknown file and for any name that is not a content address', async () => {
    const png = await image('png', 600, 1000);
    const m = await creatives.measureUpload({ contentType: 'image/png', dataBase64: png.toString('base64') });
    // a temporary file in the directory is never served
    const temp = `.${m.sha256}.0123456789ab.tmp`;
    fs.writeFileSync(path.join(t.ctx.config.dataDir, 'media', temp), 'half');
    const names = [
      `${'0'.repeat(64)}.png`,
      `${m.sha256}.jpg`,
      `${m.sha256}.gif`,
      `${m.sha256.toUpperCase()}.png`,
      `${m.sha256}.png.bak`,
      `${m.sha256}`,
      encodeURIComponent(temp),
      'x.png',
      encodeURIComponent('../../etc/passwd'),
      encodeURIComponent(`../media/${m.sha256}.png`),
    ];
    for (const name of names) {
      const r = await call(url, 'GET', `/media/${name}`);
      expect({ name, status: r.status, body: r.body }).toEqual({ name, status: 404, body: { code: 404, message: 'Media not found', data: null } });
    }
  });

  it('serves each machine’s house poster: 1080×1920, its QR the same address as the operator’s advertise QR', async () => {
    const r = await get(`/advertise/poster/${MACHINE}.png`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('cache-control')).toBe(POSTER_CACHE_CONTROL);
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    const poster = decodeQr(r.bytes);
    expect([poster.width, poster.height]).toEqual([1080, 1920]);
    expect(poster.text).toBe(`${PUBLIC_BASE}/advertise?machine=${MACHINE}&qr=${advertiseQrId(MACHINE, t.ctx.config.dataKey)}`);
    // the operator's own advertise QR (another server, same deployment) encodes the very same address
    const qr = await checkedFetch(`${t.url}/api/v1/machines/${MACHINE}/advertise-qr`, { headers: { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey } });
    expect(decodeQr(Buffer.from(await qr.arrayBuffer())).text).toBe(poster.text);
    // rendered once, then the same bytes
    expect((await get(`/advertise/poster/${MACHINE}.png`)).bytes.equals(r.bytes)).toBe(true);
  });

  it('keeps a bounded number of rendered posters, dropping the least recently used', async () => {
    const small = new CreativesService({
      store: t.services.store,
      clock: t.clock,
      media: new MediaStore(path.join(t.ctx.config.dataDir, 'media')),
      studio: null,
      // no public address: each origin is its own poster (its QR names that origin)
      config: { ...t.ctx.config, publicBaseUrl: undefined },
      posterCacheEntries: 2,
    });
    const a = await small.housePoster(MACHINE, 'http://a.example');
    expect(await small.housePoster(MACHINE, 'http://a.example')).toBe(a);
    expect(decodeQr(a).text).toMatch(/^http:\/\/a\.example\/advertise\?machine=SBX-ALICE-0001&qr=qr_/);
    const b = await small.housePoster(MACHINE, 'http://b.example');
    expect(await small.housePoster(MACHINE, 'http://a.example')).toBe(a); // a used again: b is now the oldest
    await small.housePoster(MACHINE, 'http://c.example');
    expect(await small.housePoster(MACHINE, 'http://a.example')).toBe(a);
    const b2 = await small.housePoster(MACHINE, 'http://b.example');
    expect(b2).not.toBe(b);
    expect(b2.equals(b)).toBe(true);
  });

  it('draws house posters one at a time; past a short queue, fresh renders answer 503 with Retry-After', async () => {
    const fresh = new CreativesService({
      store: t.services.store,
      clock: t.clock,
      media: new MediaStore(path.join(t.ctx.config.dataDir, 'media')),
      studio: null,
      config: { ...t.ctx.config, publicBaseUrl: undefined },
    });
    const n = POSTER_RENDER_QUEUE + 4;
    const all = await Promise.allSettled(Array.from({ length: n }, (_, i) => fresh.housePoster(MACHINE, `http://host-${i}.example`)));
    const drawn = all.filter((r) => r.status === 'fulfilled');
    const refused = all.flatMap((r) => (r.status === 'rejected' ? [r.reason as AppError] : []));
    expect(drawn).toHaveLength(POSTER_RENDER_QUEUE);
    expect(refused.map((e) => [e.status, e.options.headers?.['Retry-After']])).toEqual(Array(n - POSTER_RENDER_QUEUE).fill([503, '5']));
    // Once the queue drains, a new one is drawn; a cached one never waits.
    expect((await fresh.housePoster(MACHINE, 'http://later.example')).length).toBeGreaterThan(0);
    expect(await fresh.housePoster(MACHINE, 'http://host-0.example')).toBe((drawn[0] as PromiseFulfilledResult<Buffer>).value);
  });

  it('answers 404 in the envelope for an unknown or malformed machine code', async () => {
    for (const no of ['NOSUCH-0000000000000001', 'short', 'has%20space', 'x'.repeat(33), '%E0%A4%A']) {
      const r = await call(url, 'GET', `/advertise/poster/${no}.png`);
      expect({ no, status: r.status }).toEqual({ no, status: no === '%E0%A4%A' ? 400 : 404 });
      if (r.status === 404) expect(r.body).toEqual({ code: 404, message: 'Machine not found', data: null });
    }
  });

  it('records creatives as rows and shows them with their URL (repo and view)', async () => {
    const png = await image('webp', 600, 1000);
    const m = await creatives.measureUpload({ contentType: 'image/webp', dataBase64: png.toString('base64') });
    const now = t.clock.now();
    const upload = creatives.row(OPERATOR_IDS.alice, m, 'upload', null, now);
    const generated = await creatives.generate('Two for one');
    const studio = creatives.row(OPERATOR_IDS.alice, generated, 'contentx', generated.contentxRef, now + 1);
    // until repos.ts has its getter (tx.creatives), the repo is built on the database handle here
    const repo = new CreativesRepo(t.ctx.database.db);
    await repo.insert(upload);
    await repo.insert(studio);
    const row = await repo.byId(upload.id!);
    expect(row && creatives.view(row)).toEqual({
      id: upload.id,
      url: `/media/${m.sha256}.webp`,
      mediaType: 'image/webp',
      kind: 'image',
      width: 600,
      height: 1000,
      durationMs: null,
      bytes: png.length,
      source: 'upload',
      contentxRef: null,
    });
    expect(
      (await repo.byIds([studio.id!, upload.id!, 'crv_nosuch', studio.id!])).map((r) => creatives.view(r)).sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual(
      [
        creatives.view((await repo.byId(upload.id!))!),
        { ...creatives.view((await repo.byId(studio.id!))!), source: 'contentx', contentxRef: generated.contentxRef },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(await repo.byIds([])).toEqual([]);
    // the row's URL is served
    const served = await get(creatives.view(row!).url);
    expect([served.status, served.bytes.equals(png)]).toEqual([200, true]);
  });
});
