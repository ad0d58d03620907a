import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { formatBytes, MEDIA_LIMITS, probeMedia, sniff } from './media-probe.ts';
import { MAX_SAMPLES_PER_TRACK } from './mp4-structure.ts';
import { box, image, mp4, noisyPng, patchAfter, pngDeclaring } from './creatives.test-support.ts';

/** The refusal of `bytes`: status and message (fails the test when they are accepted). */
async function refusal(bytes: Buffer): Promise<{ status: number; message: string }> {
  try {
    const m = await probeMedia(bytes);
    throw new Error(`accepted: ${JSON.stringify(m)}`);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { status: err.status, message: err.message };
  }
}

describe('probeMedia: images', () => {
  it.each([
    ['png', 'image/png', 'png'],
    ['jpeg', 'image/jpeg', 'jpg'],
    ['webp', 'image/webp', 'webp'],
  ] as const)('measures a portrait %s from its bytes: type, size, hash', async (format, mediaType, ext) => {
    const bytes = await image(format, 1080, 1920);
    expect(await probeMedia(bytes)).toEqual({
      sha256: createHash('sha256').update(bytes).digest('hex'),
      mediaType,
      kind: 'image',
      ext,
      width: 1080,
      height: 1920,
      durationMs: null,
      bytes: bytes.length,
    });
  });

  it('accepts the smallest size, 540×960, and refuses one pixel less either way, saying the size', async () => {
    expect((await probeMedia(await image('png', 540, 960))).width).toBe(540);
    expect(await refusal(await image('png', 539, 960))).toEqual({ status: 400, message: 'too small: 539×960, at least 540×960' });
    expect(await refusal(await image('jpeg', 540, 959))).toEqual({ status: 400, message: 'too small: 540×959, at least 540×960' });
  });

  it('refuses landscape and square images, naming the measured size', async () => {
    expect((await refusal(await image('png', 1920, 1080))).message).toMatch(/^landscape: 1920×1080 is not portrait/);
    expect((await refusal(await image('webp', 1000, 1000))).message).toMatch(/^landscape: 1000×1000 is not portrait/);
  });

  it('reads the EXIF orientation: a phone photo stored sideways is portrait as shown', async () => {
    const sideways = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#884422' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await probeMedia(sideways)).toMatchObject({ mediaType: 'image/jpeg', width: 1080, height: 1920 });
  });

  it('refuses an image over 10 MB before reading it', async () => {
    const big = Buffer.concat([await image('png', 1080, 1920), Buffer.alloc(MEDIA_LIMITS.imageMaxBytes)]);
    expect((await refusal(big)).message).toBe('too large: 10.1 MB, at most 10 MB for images');
  });

  it('refuses a PNG bomb (100000×100000 declared in 1 kB) by its declared size, without decoding it', async () => {
    const bomb = pngDeclaring(100_000, 100_000);
    expect(bomb.length).toBeLessThan(4096);
    expect(await refusal(bomb)).toEqual({ status: 400, message: 'too large: 100000×100000 pixels, at most 40 megapixels' });
    // under the pixel bound but still a lie: the tiny data cannot fill it
    expect((await refusal(pngDeclaring(4000, 9000))).message).toMatch(/^undecodable: the PNG image is truncated or corrupt/);
  });

  it('refuses truncated images: the header alone is not enough, every pixel is decoded', async () => {
    const png = await noisyPng(600, 1000);
    expect((await refusal(png.subarray(0, png.length >> 1))).message).toMatch(/^undecodable: the PNG image is truncated/);
    expect((await refusal(png.subarray(0, png.length - 12))).message).toMatch(/^undecodable: the PNG image is truncated/);
    const jpeg = await sharp({ create: { width: 600, height: 1000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
      .jpeg()
      .toBuffer();
    expect((await refusal(jpeg.subarray(0, jpeg.length - 5000))).message).toMatch(/^undecodable: the JPEG image is truncated or corrupt/);
    const webp = await image('webp', 600, 1000);
    expect((await refusal(webp.subarray(0, webp.length - 10))).message).toMatch(/^undecodable: the WebP image/);
  });

  it('refuses corrupt pixel data behind a valid header', async () => {
    const png = Buffer.from(await noisyPng(600, 1000));
    png.fill(0x55, png.length >> 1, (png.length >> 1) + 64);
    expect((await refusal(png)).message).toMatch(/^undecodable: the PNG image is truncated or corrupt/);
  });
});

describe('probeMedia: what the bytes are, never what they claim', () => {
  it.each([
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1'), 'wrong type: the bytes are a GIF image; accepted are PNG, JPEG, WebP or MP4'],
    ['PDF', Buffer.from('%PDF-1.7\n%...', 'latin1'), 'wrong type: the bytes are a PDF document; accepted are PNG, JPEG, WebP or MP4'],
    [
      'SVG',
      Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'),
      'wrong type: the bytes are an SVG image; accepted are PNG, JPEG, WebP or MP4',
    ],
    ['HEIC', box('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'latin1')), 'wrong type: the bytes are a HEIF/HEIC image; accepted are PNG, JPEG, WebP or MP4'],
    ['text', Buffer.from('just some text'), 'wrong type: the bytes are not a PNG, JPEG, WebP or MP4 file'],
  ])('names %s bytes as what they are', async (_name, bytes, message) => {
    expect(await refusal(bytes)).toEqual({ status: 400, message });
  });

  it('refuses an empty file', async () => {
    expect(await refusal(Buffer.alloc(0))).toEqual({ status: 400, message: 'undecodable: the file is empty' });
  });

  it('refuses a file that starts like a PNG and is not one', async () => {
    const fake = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('not really a png at all')]);
    expect((await refusal(fake)).message).toMatch(/^undecodable: the PNG image header cannot be read/);
  });

  it('sniffs the four accepted signatures', async () => {
    expect(sniff(await image('png', 10, 10))).toEqual({ type: 'image/png' });
    expect(sniff(await image('jpeg', 10, 10))).toEqual({ type: 'image/jpeg' });
    expect(sniff(await image('webp', 10, 10))).toEqual({ type: 'image/webp' });
    expect(sniff(mp4({ width: 10, height: 20, durationMs: 100 }))).toEqual({ type: 'video/mp4' });
    expect(sniff(mp4({ width: 10, height: 20, durationMs: 100, brand: 'qt  ' }))).toEqual({ other: 'a QuickTime movie' });
  });
});

describe('probeMedia: MP4', () => {
  it('measures a 2 s portrait clip: size and duration from the movie header', async () => {
    const bytes = mp4({ width: 1080, height: 1920, durationMs: 2000 });
    expect(await probeMedia(bytes)).toEqual({
      sha256: createHash('sha256').update(bytes).digest('hex'),
      mediaType: 'video/mp4',
      kind: 'video',
      ext: 'mp4',
      width: 1080,
      height: 1920,
      durationMs: 2000,
      bytes: bytes.length,
    });
  });

  it('accepts up to 16 s (the 15 s slot with its tolerance) and refuses longer, saying the duration', async () => {
    expect((await probeMedia(mp4({ width: 1080, height: 1920, durationMs: 16_000 }))).durationMs).toBe(16_000);
    expect(await refusal(mp4({ width: 1080, height: 1920, durationMs: 16_500 }))).toEqual({
      status: 400,
      message: 'too long: 16.5 s, at most 16 s (one 15 s slot)',
    });
    expect(await refusal(mp4({ width: 1080, height: 1920, durationMs: 20_000 }))).toEqual({
      status: 400,
      message: 'too long: 20 s, at most 16 s (one 15 s slot)',
    });
  });

  it('applies the display rotation: a phone video stored 1920×1080 at 90° is portrait, one stored upright landscape is not', async () => {
    expect(await probeMedia(mp4({ width: 1920, height: 1080, durationMs: 2000, rotation: 90 }))).toMatchObject({ width: 1080, height: 1920 });
    expect((await refusal(mp4({ width: 1920, height: 1080, durationMs: 2000 }))).message).toMatch(/^landscape: 1920×1080/);
    expect((await refusal(mp4({ width: 1080, height: 1920, durationMs: 2000, rotation: 90 }))).message).toMatch(/^landscape: 1920×1080/);
    expect((await refusal(mp4({ width: 480, height: 854, durationMs: 2000 }))).message).toBe('too small: 480×854, at least 540×960');
  });

  it('reads a file whose movie header comes after the media data', async () => {
    expect((await probeMedia(mp4({ width: 1080, height: 1920, durationMs: 15_000, moovLast: true }))).durationMs).toBe(15_000);
  });

  it('refuses QuickTime, audio-only and fragmented files', async () => {
    expect((await refusal(mp4({ width: 1080, height: 1920, durationMs: 2000, brand: 'qt  ' }))).message).toMatch(
      /^wrong type: the bytes are a QuickTime movie/,
    );
    expect((await refusal(mp4({ width: 1080, height: 1920, durationMs: 2000, audioOnly: true }))).message).toMatch(
      /^wrong type: the bytes are an MP4 without a video track/,
    );
    expect((await refusal(mp4({ width: 1080, height: 1920, durationMs: 2000, fragmented: true }))).message).toMatch(/^undecodable: fragmented MP4/);
  });

  it('refuses a video over 60 MB before reading it', async () => {
    const big = Buffer.concat([mp4({ width: 1080, height: 1920, durationMs: 2000 }), Buffer.alloc(MEDIA_LIMITS.videoMaxBytes)]);
    expect((await refusal(big)).message).toBe('too large: 60.1 MB, at most 60 MB for videos');
  });

  it('refuses a truncated file, wherever it is cut', async () => {
    for (const moovLast of [false, true]) {
      const whole = mp4({ width: 1080, height: 1920, durationMs: 2000, moovLast });
      for (let cut = 1; cut < whole.length; cut += 37) {
        const r = await refusal(whole.subarray(0, cut));
        expect(r.status, `cut at ${cut}`).toBe(400);
      }
      expect((await refusal(whole.subarray(0, whole.length - 1))).message).toMatch(/^undecodable: the MP4 is truncated/);
    }
  });

  it('refuses huge declarations in a tiny file: a day-long duration, four billion samples, a box larger than the file', async () => {
    const clip = mp4({ width: 1080, height: 1920, durationMs: 2000 });
    // mvhd: version/flags, creation, modification, timescale, then duration at +16
    expect((await refusal(patchAfter(clip, 'mvhd', 16, 86_400_000))).message).toBe('too long: 86400 s, at most 16 s (one 15 s slot)');
    // stsz: version/flags, sample size (constant), then the sample count at +8
    expect((await refusal(patchAfter(clip, 'stsz', 8, 0xffffffff))).message).toBe(
      `undecodable: a track of the MP4 declares 4294967295 samples, more than the ${MAX_SAMPLES_PER_TRACK} a 16 s clip could hold`,
    );
    // stts: one entry claiming more samples than time: the samples' own durations count too
    expect((await refusal(patchAfter(clip, 'stts', 12, 0x7fffffff))).message).toMatch(/^too long:|^undecodable:/);
    // the mdat box's size field (4 bytes before its type) claims 2 GB
    expect((await refusal(patchAfter(clip, 'mdat', -8, 0x7fffffff))).message).toMatch(/^undecodable: the MP4 is truncated \(box 'mdat'/);
    // a chunk offset pointing past the end of the file
    expect((await refusal(patchAfter(clip, 'stco', 8, 0x7fff0000))).message).toBe(
      'undecodable: the MP4 is truncated or corrupt (its samples point outside its media data)',
    );
    // the video track's display size (16.16 fixed point, after the matrix): a 60000×60000 frame
    const huge = patchAfter(patchAfter(clip, 'tkhd', 76, 60_000 * 65536), 'tkhd', 80, 60_000 * 65536);
    expect((await refusal(huge)).message).toBe('too large: 60000×60000 pixels, at most 40 megapixels');
  });
});

describe('formatBytes', () => {
  it('rounds up, so a size over a limit never reads as the limit', () => {
    expect([formatBytes(10 * 1024 * 1024), formatBytes(10 * 1024 * 1024 + 1), formatBytes(1536), formatBytes(900)]).toEqual([
      '10 MB',
      '10.1 MB',
      '1.5 kB',
      '900 bytes',
    ]);
  });
});
