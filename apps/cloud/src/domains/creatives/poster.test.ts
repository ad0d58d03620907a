import jsqrModule from 'jsqr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { qrPng } from './advertise-qr.ts';
import { cleanText, POSTER_HEIGHT, POSTER_WIDTH, PosterRenderer } from './poster.ts';
import { COLOUR_WORDS } from './poster.rules.ts';

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

/** How many pixels are (nearly) the colour `hex`: the text of a brief poster. */
function pixelsOf(data: Buffer, hex: string, from = 0, to = data.length): number {
  const [r, g, b] = rgbOf(hex) as [number, number, number];
  let n = 0;
  for (let i = from - (from % 3); i < to; i += 3) if (Math.abs(data[i]! - r) + Math.abs(data[i + 1]! - g) + Math.abs(data[i + 2]! - b) < 24) n++;
  return n;
}

/** Byte range of poster rows `y0`–`y1` in RGB pixels. */
const rows = (y0: number, y1: number): [number, number] => [y0 * POSTER_WIDTH * 3, y1 * POSTER_WIDTH * 3];

describe('the built-in poster of a brief', () => {
  const brief = 'Fresh bread every morning. Sourdough, rye and croissants from 7 am. Warm brown and cream.';

  it('is composed, not printed: the headline, the detail and the sponsor, in the colours the brief names', () => {
    const d = renderer.briefDesign(brief, 'Bright Bakery');
    expect(d.palette).toMatchObject({ background: COLOUR_WORDS['brown'], text: COLOUR_WORDS['cream'], source: 'brief' });
    expect(d.headline.lines.join(' ')).toBe('Fresh bread every morning');
    expect(d.detail.lines.join(' ')).toBe('Sourdough, rye and croissants from 7 am.');
    expect(d.sponsor.lines.join(' ')).toBe('Bright Bakery');
    // the note on colours is for the designer: not a word of it is printed
    const printed = [...d.headline.lines, ...d.detail.lines, ...d.sponsor.lines].join(' ');
    expect(printed).not.toMatch(/warm|brown|cream/i);
    // the headline is the largest text on the poster
    expect(d.headline.size).toBeGreaterThan(d.detail.size);
    expect(d.headline.size).toBeGreaterThan(d.sponsor.size);
  });

  it('is a real 1080×1920 PNG drawn in those colours: the background behind, the sponsor on top, the headline below it', async () => {
    const png = await renderer.briefPoster(brief, 'Bright Bakery');
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', POSTER_WIDTH, POSTER_HEIGHT]);
    const { data } = await pixels(png);
    const { background, text } = renderer.briefDesign(brief, 'Bright Bakery').palette;
    expect([...data.subarray(0, 3)]).toEqual(rgbOf(background));
    // the sponsor's name in the band at the top, in the text colour
    expect(pixelsOf(data, text, ...rows(150, 320))).toBeGreaterThan(3000);
    // the headline and detail in the middle: a few percent of the poster, not a blank page, not a filled one
    const glyphs = pixelsOf(data, text, ...rows(420, 1740));
    expect(glyphs).toBeGreaterThan(POSTER_WIDTH * POSTER_HEIGHT * 0.02);
    expect(glyphs).toBeLessThan(POSTER_WIDTH * POSTER_HEIGHT * 0.5);
    // without a sponsor the top stays background
    const bare = await pixels(await renderer.briefPoster(brief));
    expect(pixelsOf(bare.data, text, ...rows(150, 320))).toBe(0);
  });

  it('draws more text for a longer brief, and different briefs make different posters', async () => {
    const { text } = renderer.briefDesign('Hi', null).palette;
    const short = await pixels(await renderer.briefPoster('Hi'));
    const long = await pixels(await renderer.briefPoster('Hi there. Come and see what is new in the lobby this week, all week long.'));
    expect(pixelsOf(long.data, renderer.briefDesign('Hi there. Come and see what is new in the lobby this week, all week long.').palette.text)).toBeGreaterThan(
      pixelsOf(short.data, text),
    );
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
    const first = await renderer.briefPoster('Seed poster, rendered once', 'Seed');
    expect(await new PosterRenderer().briefPoster('Seed poster, rendered once', 'Seed')).toBe(first);
    expect(await new PosterRenderer().briefPoster('Seed poster, rendered once', 'Other')).not.toBe(first);
  });

  it('needs no installed font: text in Latin, Greek, Cyrillic and Vietnamese comes from the bundled glyph outlines', async () => {
    for (const brief of ['Ελληνικά', 'Приходите', 'Tiếng Việt', 'Ünïcödé ß']) {
      const { data } = await pixels(await renderer.briefPoster(brief));
      expect(pixelsOf(data, renderer.briefDesign(brief).palette.text), brief).toBeGreaterThan(10_000);
    }
  });

  it('fits any brief on the poster: a very long one is cut, a single long word is broken', async () => {
    const { data } = await pixels(await renderer.briefPoster('word '.repeat(2000)));
    expect(pixelsOf(data, renderer.briefDesign('word '.repeat(2000)).palette.text)).toBeGreaterThan(0);
    const long = 'x'.repeat(300);
    const unbroken = await pixels(await renderer.briefPoster(long));
    const { background } = renderer.briefDesign(long).palette;
    // nothing drawn off the sides: the left and right margins stay background (above the bottom bar)
    for (let y = 0; y < POSTER_HEIGHT - 40; y += 8) {
      for (const x of [10, POSTER_WIDTH - 10]) {
        const i = (y * POSTER_WIDTH + x) * 3;
        expect([...unbroken.data.subarray(i, i + 3)], `text at ${x},${y}`).toEqual(rgbOf(background));
      }
    }
  });

  it('a brief that is only a note on colours: the sponsor’s name is its headline', () => {
    const d = renderer.briefDesign('Warm brown and cream.', 'Joe’s Coffee');
    expect(d.headline.lines.join(' ')).toBe('Joe’s Coffee');
    expect(d.sponsor.lines).toEqual([]);
    expect(d.palette.background).toBe(COLOUR_WORDS['brown']);
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
