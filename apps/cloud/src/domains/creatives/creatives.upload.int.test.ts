import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { createAppStore } from '../../repos.ts';
import { freshDatabase } from '../../testing/harness.ts';
import { MEDIA_LIMITS } from './media-probe.ts';
import { MediaStore } from './media-store.ts';
import { CreativesService } from './creatives.service.ts';
import { image, mp4, noisyPng, pngDeclaring } from './creatives.test-support.ts';

/**
 * Uploads through the service onto a real media directory (file I/O, hence an integration test; no
 * HTTP and nothing dialect-specific: the service writes files, not rows, so SQLite alone). The rule
 * under test: an upload is measured from its bytes, refused with a 400 naming the reason, and nothing
 * is stored unless it is accepted — whatever the bytes.
 */
let dir: string;
let database: Database;
let media: MediaStore;
let creatives: CreativesService;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-media-'));
  database = await freshDatabase('sqlite');
  media = new MediaStore(path.join(dir, 'media'));
  creatives = new CreativesService({
    store: createAppStore(database),
    clock: new ManualClock(0),
    media,
    studio: null,
    config: loadConfig({ LOG_LEVEL: 'silent' }),
  });
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  fs.rmSync(media.dir, { recursive: true, force: true });
});

/** Every entry of the media directory (temporary files included). */
const stored = () => (fs.existsSync(media.dir) ? fs.readdirSync(media.dir).sort() : []);

const upload = (contentType: string, bytes: Buffer | string) =>
  creatives.measureUpload({ contentType, dataBase64: typeof bytes === 'string' ? bytes : bytes.toString('base64') });

async function refused(contentType: string, data: Buffer | string): Promise<string> {
  try {
    await upload(contentType, data);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    return (err as AppError).message;
  }
  throw new Error('accepted');
}

describe('measureUpload', () => {
  it('measures and stores an accepted file once, by its hash (the same bytes twice are one file)', async () => {
    const png = await image('png', 1080, 1920);
    const m = await upload('image/png', png);
    expect(m).toMatchObject({ mediaType: 'image/png', width: 1080, height: 1920, bytes: png.length });
    expect(stored()).toEqual([`${m.sha256}.png`]);
    expect(fs.readFileSync(media.pathOf(m.sha256, 'png')).equals(png)).toBe(true);
    expect(await upload('image/png', png)).toEqual(m);
    expect(stored()).toEqual([`${m.sha256}.png`]);
    const clip = await upload('video/mp4', mp4({ width: 1080, height: 1920, durationMs: 2000 }));
    expect(stored()).toEqual([`${m.sha256}.png`, `${clip.sha256}.mp4`].sort());
  });

  it('takes the declared type case-insensitively, parameters aside', async () => {
    expect((await upload('IMAGE/PNG; charset=binary', await image('png', 600, 1000))).mediaType).toBe('image/png');
  });

  it('refuses a declared type that is not one of the four, before looking at the data', async () => {
    expect(await refused('image/gif', 'not even base64!')).toBe('wrong type: contentType "image/gif" is not accepted; accepted are PNG, JPEG, WebP or MP4');
    expect(await refused('', await image('png', 600, 1000))).toMatch(/^wrong type: contentType "" is not accepted/);
    expect(stored()).toEqual([]);
  });

  it('refuses bytes that are not what the declared type says, naming both', async () => {
    expect(await refused('image/jpeg', await image('png', 600, 1000))).toBe('wrong type: contentType says image/jpeg but the bytes are a PNG image');
    expect(await refused('video/mp4', await image('webp', 600, 1000))).toBe('wrong type: contentType says video/mp4 but the bytes are a WebP image');
    expect(await refused('image/png', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toMatch(/^wrong type: the bytes are a GIF image/);
    expect(stored()).toEqual([]);
  });

  it('refuses anything but canonical base64', async () => {
    const b64 = (await image('png', 600, 1000)).toString('base64');
    const cases: [string, string][] = [
      ['white space', `${b64.slice(0, 40)} ${b64.slice(40, -1)}`],
      ['line breaks', b64.replace(/(.{76})/g, '$1\n')],
      ['URL-safe alphabet', `-_${b64.slice(2)}`],
      ['missing padding', b64.endsWith('=') ? b64.replace(/=+$/, '') : b64.slice(0, -1)],
      ['a data: URL', `data:image/png;base64,${b64}`],
    ];
    for (const [why, data] of cases) expect(await refused('image/png', data), why).toMatch(/^dataBase64 is not canonical base64: /);
    // the same bytes spelled with non-zero padding bits ("QQ==" and "QR==" both decode to "A")
    expect(await refused('image/png', 'QR==')).toBe('dataBase64 is not canonical base64: the bits after the last byte are not zero');
    expect(await refused('image/png', '')).toBe('undecodable: dataBase64 is empty');
    expect(stored()).toEqual([]);
  });

  it('refuses an oversized upload from its base64 length, before decoding a byte', async () => {
    // the length says "over 10 MB"; the content is not even base64: the size is what is judged
    const tooBig = 'A'.repeat(Math.ceil((MEDIA_LIMITS.imageMaxBytes + 1) / 3) * 4 - 4) + 'AA!!';
    expect(await refused('image/png', tooBig)).toBe('too large: 10.1 MB, at most 10 MB for images');
    const video = 'A'.repeat(Math.ceil((MEDIA_LIMITS.videoMaxBytes + 1) / 3) * 4);
    expect(await refused('video/mp4', video)).toBe('too large: 60.1 MB, at most 60 MB for videos');
    // the same length is fine for a video: then the content is judged
    expect(await refused('video/mp4', tooBig)).toMatch(/^dataBase64 is not canonical base64/);
    expect(stored()).toEqual([]);
  });

  it('names the measured reason: landscape, too small, too long, undecodable', async () => {
    expect(await refused('image/png', await image('png', 1920, 1080))).toMatch(/^landscape: 1920×1080/);
    expect(await refused('image/webp', await image('webp', 500, 900))).toBe('too small: 500×900, at least 540×960');
    expect(await refused('video/mp4', mp4({ width: 1080, height: 1920, durationMs: 20_000 }))).toBe('too long: 20 s, at most 16 s (one 15 s slot)');
    const png = await image('png', 600, 1000);
    expect(await refused('image/png', png.subarray(0, png.length - 30))).toMatch(/^undecodable: /);
    expect(stored()).toEqual([]);
  });
});

describe('MediaStore', () => {
  it('names files only by content hash: no other name, no path out of the directory', () => {
    expect(() => media.pathOf('../../etc/passwd', 'png')).toThrow(/not a media file name/);
    expect(() => media.pathOf('A'.repeat(64), 'png')).toThrow(/not a media file name/);
    expect(media.pathOf('a'.repeat(64), 'mp4')).toBe(path.join(media.dir, `${'a'.repeat(64)}.mp4`));
  });

  it('writes through a temporary file and leaves none behind; has() sees only whole files', async () => {
    const bytes = Buffer.from('whole file');
    const sha = 'b'.repeat(64);
    expect(await media.has(sha, 'png')).toBe(false);
    await Promise.all([media.put(sha, 'png', bytes), media.put(sha, 'png', bytes), media.put(sha, 'png', bytes)]);
    expect(stored()).toEqual([`${sha}.png`]);
    expect(await media.has(sha, 'png')).toBe(true);
    expect(await media.has(sha, 'jpg')).toBe(false);
  });
});

describe('uploads under hostile input (properties): a 400 or an accepted file, never anything else; nothing stored on refusal', () => {
  const TYPES = ['image/png', 'image/jpeg', 'image/webp', 'video/mp4'] as const;

  /** Uploads and reports the outcome; any throw other than a 400 AppError fails the property. */
  async function outcome(contentType: string, data: string): Promise<'stored' | 'refused'> {
    const before = stored();
    try {
      const m = await creatives.measureUpload({ contentType, dataBase64: data });
      expect(stored()).toContain(`${m.sha256}.${m.ext}`);
      return 'stored';
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 400) throw err;
      expect(stored()).toEqual(before);
      return 'refused';
    }
  }

  let fixtures: Record<string, Buffer>;
  beforeAll(async () => {
    fixtures = {
      png: await noisyPng(540, 960),
      jpeg: await image('jpeg', 600, 1000),
      webp: await image('webp', 600, 1000),
      mp4: mp4({ width: 1080, height: 1920, durationMs: 2000 }),
      'mp4 (moov last)': mp4({ width: 1080, height: 1920, durationMs: 2000, moovLast: true }),
    };
  });
  const typeOf = (name: string) => (name.startsWith('mp4') ? 'video/mp4' : `image/${name}`);

  it('random bytes under any declared type', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TYPES), fc.uint8Array({ maxLength: 4096 }), async (type, bytes) => {
        expect(await outcome(type, Buffer.from(bytes).toString('base64'))).toBe('refused');
      }),
    );
  });

  it('random bytes behind a valid signature (they look like the type, past the sniffer)', async () => {
    const heads: Record<string, Buffer> = {
      'image/png': Buffer.from('89504e470d0a1a0a', 'hex'),
      'image/jpeg': Buffer.from('ffd8ffe0', 'hex'),
      'image/webp': Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'),
      'video/mp4': Buffer.from('\0\0\0\x18ftypisom\0\0\x02\0isommp41', 'latin1'),
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TYPES), fc.uint8Array({ maxLength: 2048 }), async (type, tail) => {
        expect(await outcome(type, Buffer.concat([heads[type]!, tail]).toString('base64'))).toBe('refused');
      }),
    );
  });

  it('valid files truncated anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(fixtures)), fc.double({ min: 0, max: 1, noNaN: true }), async (name, at) => {
        const whole = fixtures[name]!;
        const cut = Math.min(whole.length - 1, Math.floor(at * whole.length));
        expect(await outcome(typeOf(name), whole.subarray(0, cut).toString('base64'))).toBe('refused');
      }),
      { numRuns: 200 },
    );
  });

  it('valid files with bytes overwritten anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(fixtures)),
        fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), value: fc.integer({ min: 0, max: 255 }) }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (name, edits) => {
          const bytes = Buffer.from(fixtures[name]!);
          for (const e of edits) bytes[Math.floor(e.at * bytes.length)] = e.value;
          await outcome(typeOf(name), bytes.toString('base64'));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a PNG bomb: any declared size in a tiny file', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 0x7fffffff }), fc.integer({ min: 1, max: 0x7fffffff }), async (w, h) => {
        expect(await outcome('image/png', pngDeclaring(w, h).toString('base64'))).toBe('refused');
      }),
    );
  });

  it('an MP4 whose headers declare anything: durations, sizes, counts, offsets', async () => {
    const clip = fixtures['mp4']!;
    // [box, offset of a 32-bit field from the end of its fourcc]: every size, count, offset and time the probe reads
    const fields: [string, number][] = [
      ['mvhd', 12], // timescale
      ['mvhd', 16], // duration
      ['tkhd', 20], // duration
      ['tkhd', 76], // width
      ['tkhd', 80], // height
      ['mdhd', 12], // timescale
      ['mdhd', 16], // duration
      ['stsd', 4], // entry count
      ['avc1', 24], // coded width and height
      ['stts', 4], // entry count
      ['stts', 8], // sample count
      ['stts', 12], // sample delta
      ['stsc', 4], // entry count
      ['stsc', 12], // samples per chunk
      ['stsz', 4], // constant sample size
      ['stsz', 8], // sample count
      ['stco', 4], // entry count
      ['stco', 8], // chunk offset
      ['moov', -8], // box sizes
      ['trak', -8],
      ['stbl', -8],
      ['mdat', -8],
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fields),
        fc.oneof(fc.constantFrom(0, 1, 0x7fffffff, 0xffffffff), fc.nat({ max: 0xffffffff })),
        async ([fourcc, offset], value) => {
          const bytes = Buffer.from(clip);
          // the last occurrence: 'avc1' is also a compatible brand in ftyp
          bytes.writeUInt32BE(value, bytes.lastIndexOf(Buffer.from(fourcc, 'latin1')) + 4 + offset);
          await outcome('video/mp4', bytes.toString('base64'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('strings that are almost base64', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TYPES),
        fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ \n.'.split('')), maxLength: 400 }),
        async (type, data) => {
          expect(await outcome(type, data)).toBe('refused');
        },
      ),
    );
  });
});
