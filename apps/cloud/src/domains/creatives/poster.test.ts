import fc from 'fast-check';
import jsqrModule from 'jsqr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { qrPng } from './advertise-qr.ts';
import { cleanText, POSTER_HEIGHT, POSTER_WIDTH, PosterRenderer, posterColours } from './poster.ts';

type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
// jsqr is CommonJS with a `default` export: take whichever the loader hands us
const jsQR = ((jsqrModule as unknown as { default?: Decode }).default ?? jsqrModule) as unknown as Decode;

const renderer = new PosterRenderer();

/** The poster's RGB pixels. */
async function pixels(png: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

const rgbOf = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** How many pixels are (nearly) white: the text of a brief poster. */
function whitePixels(data: Buffer): number {
  let n = 0;
  for (let i = 0; i < data.length; i += 3) if (data[i]! > 230 && data[i + 1]! > 230 && data[i + 2]! > 230) n++;
  return n;
}

describe('the built-in poster of a brief', () => {
  it('is a real 1080×1920 PNG: the brief’s colour behind, its text drawn in white', async () => {
    const brief = 'Fresh lemonade at the pool, 2 for $3 all summer';
    const png = await renderer.briefPoster(brief);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', POSTER_WIDTH, POSTER_HEIGHT]);
    const { data } = await pixels(png);
    // the corner is the background colour derived from the brief
    expect([...data.subarray(0, 3)]).toEqual(rgbOf(posterColours(brief).background));
    // the text: a few percent of the poster in white glyph pixels, not a blank page
    const white = whitePixels(data);
    expect(white).toBeGreaterThan(POSTER_WIDTH * POSTER_HEIGHT * 0.02);
    expect(white).toBeLessThan(POSTER_WIDTH * POSTER_HEIGHT * 0.5);
  });

  it('draws more text for a longer brief, and different briefs make different posters', async () => {
    const short = await pixels(await renderer.briefPoster('Hi'));
    const long = await pixels(await renderer.briefPoster('Hi there, come and see what is new in the lobby this week'));
    expect(whitePixels(long.data)).toBeGreaterThan(whitePixels(short.data) * 2);
    const a = await renderer.briefPoster('Coffee 2 for 1');
    const b = await renderer.briefPoster('Coffee 2 for 7');
    expect(a.equals(b)).toBe(false);
    // the same brief always makes the same bytes (the content hash is stable), rendered afresh
    const fresh = new PosterRenderer({ keepRecent: false });
    const again = await fresh.briefPoster('Coffee 2 for 1');
    expect(again).not.toBe(a);
    expect(again.equals(a)).toBe(true);
  });

  it('keeps recent renders: the same brief again is answered without rendering', async () => {
    const first = await renderer.briefPoster('Seed poster, rendered once');
    expect(await new PosterRenderer().briefPoster('Seed poster, rendered once')).toBe(first);
  });

  it('needs no installed font: text in Latin, Greek, Cyrillic and Vietnamese comes from the bundled glyph outlines', async () => {
    for (const brief of ['Ελληνικά', 'Приходите', 'Tiếng Việt', 'Ünïcödé ß']) {
      const { data } = await pixels(await renderer.briefPoster(brief));
      expect(whitePixels(data), brief).toBeGreaterThan(10_000);
    }
  });

  it('fits any brief on the poster: a very long one is cut, a single long word is broken', async () => {
    const { data } = await pixels(await renderer.briefPoster('word '.repeat(2000)));
    expect(whitePixels(data)).toBeGreaterThan(0);
    const unbroken = await pixels(await renderer.briefPoster('x'.repeat(300)));
    // nothing drawn off the sides: the left and right margins stay background
    for (let y = 0; y < POSTER_HEIGHT; y += 8) {
      for (const x of [10, POSTER_WIDTH - 10]) {
        const i = (y * POSTER_WIDTH + x) * 3;
        expect(unbroken.data[i]! > 230 && unbroken.data[i + 1]! > 230 && unbroken.data[i + 2]! > 230, `white at ${x},${y}`).toBe(false);
      }
    }
  });

  it('keeps white text legible on every background: contrast at least 7:1', () => {
    const lum = (hex: string) => {
      const [r, g, b] = rgbOf(hex).map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    fc.assert(
      fc.property(fc.string(), (brief) => {
        const { background } = posterColours(brief);
        expect(1.05 / (lum(background) + 0.05)).toBeGreaterThanOrEqual(7);
      }),
    );
  });

  it('cleans control characters and runs of white space out of the text', () => {
    expect(cleanText('  a\tb\n\nc\u0000d\u200be  ')).toBe('a b c d e');
  });
});

describe('the house poster', () => {
  it('carries a QR that scans to the advertise address', async () => {
    const address = 'https://ads.example.test/advertise?machine=SBX-ALICE-0001&qr=qr_0123456789abcdef';
    const png = await renderer.housePoster({ machineNo: 'SBX-ALICE-0001', qrPng: await qrPng(address, 720), qrSize: 720, address });
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([POSTER_WIDTH, POSTER_HEIGHT]);
    expect(jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data).toBe(address);
  });
});
