import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { createAppStore } from '../../repos.ts';
import { freshDatabase } from '../../testing/harness.ts';
import { MediaStore } from './media-store.ts';
import { CreativesService } from './creatives.service.ts';
import { image, mp4 } from './creatives.test-support.ts';
import { startFakeStudio, type FakeStudio } from './fake-studio.ts';
import { HttpStudio, STUDIO_ERROR_CHARS, type Studio } from './studio.ts';

/**
 * The studio client against a local fake speaking its wire contract (studio.ts), and generations
 * through the service with and without a studio, onto a real media directory. No rows are written
 * (the campaign service inserts them): SQLite only.
 */
let fake: FakeStudio;
let dir: string;
let database: Database;
let poster: Buffer;

beforeAll(async () => {
  poster = await image('png', 1080, 1920, '#aa3355');
  fake = await startFakeStudio(poster);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-studio-'));
  database = await freshDatabase('sqlite');
});
afterAll(async () => {
  await fake.close();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.reply({ kind: 'image' });
  fs.rmSync(path.join(dir, 'media'), { recursive: true, force: true });
});

const media = () => new MediaStore(path.join(dir, 'media'));
const stored = () => (fs.existsSync(path.join(dir, 'media')) ? fs.readdirSync(path.join(dir, 'media')) : []);
const service = (studio: Studio | null) =>
  new CreativesService({ store: createAppStore(database), clock: new ManualClock(0), media: media(), studio, config: loadConfig({ LOG_LEVEL: 'silent' }) });

/** The 502 a call ends in: its message. */
async function upstreamFailure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect({ status: (err as AppError).status, code: (err as AppError).code }).toEqual({ status: 502, code: 'upstream' });
    return (err as AppError).message;
  }
  throw new Error('succeeded');
}

describe('HttpStudio against a local fake', () => {
  it('POSTs the brief and the 9:16 size as JSON and returns the image and its reference', async () => {
    const studio = new HttpStudio({ url: fake.url, timeoutMs: 5000 });
    const out = await studio.generate('Lemonade, 2 for $3');
    expect(out.bytes.equals(poster)).toBe(true);
    expect(out.ref).toMatch(/^gen-\d+$/);
    expect(fake.requests.at(-1)).toEqual({
      method: 'POST',
      path: '/v1/generate',
      contentType: 'application/json',
      accept: 'image/png, image/jpeg, image/webp',
      body: { brief: 'Lemonade, 2 for $3', width: 1080, height: 1920 },
    });
  });

  it('passes a failing studio’s own words on verbatim as a 502, bounded', async () => {
    const studio = new HttpStudio({ url: fake.url, timeoutMs: 5000 });
    fake.reply({ kind: 'status', status: 500, body: 'model overloaded — try again in 30 s' });
    expect(await upstreamFailure(studio.generate('x'))).toBe('model overloaded — try again in 30 s');
    fake.reply({ kind: 'status', status: 429, body: '{"error":"quota exceeded for key k_123"}', contentType: 'application/json' });
    expect(await upstreamFailure(studio.generate('x'))).toBe('{"error":"quota exceeded for key k_123"}');
    fake.reply({ kind: 'status', status: 503, body: '' });
    expect(await upstreamFailure(studio.generate('x'))).toBe('Studio answered HTTP 503 with no body');
    fake.reply({ kind: 'status', status: 500, body: 'e'.repeat(100_000) });
    const long = await upstreamFailure(studio.generate('x'));
    expect(long).toHaveLength(STUDIO_ERROR_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });

  it('gives up on a studio that does not answer, or stops half way, and on one it cannot reach (502)', async () => {
    const studio = new HttpStudio({ url: fake.url, timeoutMs: 300 });
    fake.reply({ kind: 'hang' });
    expect(await upstreamFailure(studio.generate('x'))).toBe('Studio did not answer within 300 ms');
    fake.reply({ kind: 'stall', bytes: poster.subarray(0, 100) });
    expect(await upstreamFailure(studio.generate('x'))).toBe('Studio did not answer within 300 ms');
    const nowhere = new HttpStudio({ url: 'http://127.0.0.1:1/generate', timeoutMs: 2000 });
    expect(await upstreamFailure(nowhere.generate('x'))).toBe('Studio unreachable (ECONNREFUSED)');
  });

  it('refuses an answer without its reference', async () => {
    const studio = new HttpStudio({ url: fake.url, timeoutMs: 5000 });
    fake.reply({ kind: 'image', ref: null });
    expect(await upstreamFailure(studio.generate('x'))).toBe('Studio answer has no valid X-Studio-Ref header');
    fake.reply({ kind: 'image', ref: 'has spaces' });
    expect(await upstreamFailure(studio.generate('x'))).toBe('Studio answer has no valid X-Studio-Ref header');
  });
});

describe('generate', () => {
  it('with a studio: stores its image and returns its reference', async () => {
    const out = await service(new HttpStudio({ url: fake.url, timeoutMs: 5000 })).generate('  Lemonade  ');
    expect(out).toMatchObject({ mediaType: 'image/png', kind: 'image', width: 1080, height: 1920, contentxRef: expect.stringMatching(/^gen-\d+$/) });
    expect(fake.requests.at(-1)?.body).toMatchObject({ brief: 'Lemonade' });
    expect(stored()).toEqual([`${out.sha256}.png`]);
  });

  it('with a studio: an answer that is not an acceptable portrait image is a 502, and nothing is stored', async () => {
    const s = service(new HttpStudio({ url: fake.url, timeoutMs: 5000 }));
    fake.reply({ kind: 'image', bytes: Buffer.from('<html><body>Bad gateway</body></html>'), contentType: 'text/html' });
    expect(await upstreamFailure(s.generate('x'))).toBe(
      'Studio answered an unusable creative: wrong type: the bytes are an HTML document; accepted are PNG, JPEG, WebP or MP4',
    );
    fake.reply({ kind: 'image', bytes: await image('png', 1920, 1080) });
    expect(await upstreamFailure(s.generate('x'))).toMatch(/^Studio answered an unusable creative: landscape: 1920×1080/);
    fake.reply({ kind: 'image', bytes: poster.subarray(0, poster.length - 100) });
    expect(await upstreamFailure(s.generate('x'))).toMatch(/^Studio answered an unusable creative: undecodable/);
    fake.reply({ kind: 'image', bytes: mp4({ width: 1080, height: 1920, durationMs: 2000 }), contentType: 'video/mp4' });
    expect(await upstreamFailure(s.generate('x'))).toBe('Studio answered an MP4 video; the studio contract is a portrait image');
    fake.reply({ kind: 'status', status: 500, body: 'GPU on fire' });
    expect(await upstreamFailure(s.generate('x'))).toBe('GPU on fire');
    expect(stored()).toEqual([]);
  });

  it('without a studio: the built-in renderer stores a real 1080×1920 PNG of the brief', async () => {
    const s = service(null);
    const out = await s.generate('Fresh lemonade at the pool');
    expect(out).toMatchObject({ mediaType: 'image/png', kind: 'image', ext: 'png', width: 1080, height: 1920, durationMs: null });
    expect(out.contentxRef).toBe(`builtin:${out.sha256.slice(0, 16)}`);
    expect(stored()).toEqual([`${out.sha256}.png`]);
    const meta = await sharp(fs.readFileSync(path.join(dir, 'media', `${out.sha256}.png`))).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1080, 1920]);
    // another brief, another poster
    expect((await s.generate('Coffee and cake, 5 dollars')).sha256).not.toBe(out.sha256);
  });

  it('refuses an empty brief (400) without calling the studio', async () => {
    const before = fake.requests.length;
    for (const brief of ['', '   ']) {
      await expect(service(new HttpStudio({ url: fake.url, timeoutMs: 5000 })).generate(brief)).rejects.toMatchObject({
        status: 400,
        message: 'brief is empty',
      });
    }
    expect(fake.requests.length).toBe(before);
  });
});
