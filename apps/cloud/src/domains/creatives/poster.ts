import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import opentype from 'opentype.js';
import sharp from 'sharp';
import { copyOf, paletteOf, type Palette } from './poster.rules.ts';

/**
 * The built-in poster renderer: real 1080×1920 PNG posters drawn without any font installed on the
 * machine. A brief's poster is composed by the rules of poster.rules.ts (headline, detail, the sponsor, the
 * colours the brief names, legible contrast). Text is laid out with the glyph outlines of Inter Bold (the `@fontsource/inter` package,
 * SIL Open Font License) read by opentype.js and drawn as SVG paths, which sharp (librsvg) rasterises:
 * no system font, no fontconfig. Glyphs come from Inter's Latin, Latin-extended, Greek, Cyrillic and
 * Vietnamese subsets; a character none of them has is drawn as the font's missing-glyph box.
 */

export const POSTER_WIDTH = 1080;
export const POSTER_HEIGHT = 1920;

/** Inter's subsets in lookup order (the most common first). */
const FONT_SUBSETS = ['latin', 'latin-ext', 'greek', 'greek-ext', 'cyrillic', 'cyrillic-ext', 'vietnamese'];

/** Only printable text: control characters become spaces, runs of white space one space. */
export function cleanText(s: string): string {
  return s
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

interface Line {
  text: string;
  width: number;
}

/** Lays out and draws text with the bundled font; built once per renderer (the fonts are read on first use). */
class TextPainter {
  #fonts: opentype.Font[] | undefined;

  private fonts(): opentype.Font[] {
    if (!this.#fonts) {
      const require = createRequire(import.meta.url);
      this.#fonts = FONT_SUBSETS.map((subset) => {
        const file = readFileSync(require.resolve(`@fontsource/inter/files/inter-${subset}-700-normal.woff`));
        return opentype.parse(file.buffer.slice(file.byteOffset, file.byteOffset + file.length));
      });
    }
    return this.#fonts;
  }

  /** The glyph of a character from the first subset that has it, else the missing-glyph box. */
  private glyph(ch: string): { font: opentype.Font; glyph: opentype.Glyph } {
    const fonts = this.fonts();
    for (const font of fonts) {
      const glyph = font.charToGlyph(ch);
      if (glyph.index !== 0) return { font, glyph };
    }
    return { font: fonts[0]!, glyph: fonts[0]!.glyphs.get(0) };
  }

  /** Advance width of `text` at `size` px. */
  width(text: string, size: number): number {
    let w = 0;
    for (const ch of text) {
      const { font, glyph } = this.glyph(ch);
      w += ((glyph.advanceWidth ?? font.unitsPerEm / 2) * size) / font.unitsPerEm;
    }
    return w;
  }

  /** Greedy word wrap to `maxWidth`; a word wider than a line is broken between characters. */
  wrap(text: string, size: number, maxWidth: number): Line[] {
    const lines: Line[] = [];
    let current = '';
    const push = (t: string) => lines.push({ text: t, width: this.width(t, size) });
    for (const word of text.split(' ').filter(Boolean)) {
      const candidate = current ? `${current} ${word}` : word;
      if (this.width(candidate, size) <= maxWidth) {
        current = candidate;
        continue;
      }
      if (current) push(current);
      current = '';
      if (this.width(word, size) <= maxWidth) {
        current = word;
        continue;
      }
      let piece = '';
      for (const ch of word) {
        if (piece && this.width(piece + ch, size) > maxWidth) {
          push(piece);
          piece = '';
        }
        piece += ch;
      }
      current = piece;
    }
    if (current) push(current);
    return lines;
  }

  /** SVG path data of one line with its left end at `x` and baseline at `y`. */
  path(text: string, x: number, y: number, size: number): string {
    let pen = x;
    const parts: string[] = [];
    for (const ch of text) {
      const { font, glyph } = this.glyph(ch);
      parts.push(glyph.getPath(pen, y, size).toPathData(1));
      pen += ((glyph.advanceWidth ?? font.unitsPerEm / 2) * size) / font.unitsPerEm;
    }
    return parts.join('');
  }

  /**
   * The largest size from `sizes` at which `text` wraps into `box` (lines × 1.2 × size ≤ height); at the
   * smallest size, lines past the box are dropped and the last kept one ends in an ellipsis.
   */
  fit(text: string, box: { width: number; height: number }, sizes: number[]): { size: number; lines: Line[] } {
    for (const size of sizes) {
      const lines = this.wrap(text, size, box.width);
      if (lines.length * size * 1.2 <= box.height) return { size, lines };
    }
    const size = sizes.at(-1)!;
    const max = Math.max(1, Math.floor(box.height / (size * 1.2)));
    const lines = this.wrap(text, size, box.width).slice(0, max);
    const last = lines[max - 1];
    if (last) {
      let t = last.text;
      while (t && this.width(`${t}…`, size) > box.width) t = [...t].slice(0, -1).join('');
      lines[max - 1] = { text: `${t}…`, width: this.width(`${t}…`, size) };
    }
    return { size, lines };
  }

  /** Centred lines as one SVG path element, the first baseline at `top + size`. */
  block(lines: Line[], size: number, top: number, fill: string): string {
    const d = lines.map((l, i) => this.path(l.text, (POSTER_WIDTH - l.width) / 2, top + size + i * size * 1.2, size)).join('');
    return `<path fill="${fill}" d="${d}"/>`;
  }
}

/** What a brief's poster shows, as drawn: the palette and the lines of each block of text. */
export interface BriefDesign {
  palette: Palette;
  sponsor: { size: number; lines: string[] };
  headline: { size: number; lines: string[] };
  detail: { size: number; lines: string[] };
}

/** Rendered brief posters, oldest first; shared by every renderer in the process. */
const RECENT_POSTERS = new Map<string, Promise<Buffer>>();
const RECENT_POSTERS_MAX = 32;

/** Side margins of a brief poster's text. */
const MARGIN = 110;
const TEXT_WIDTH = POSTER_WIDTH - 2 * MARGIN;

/** Renders the built-in studio's poster and the machines' house posters. Pure CPU: no I/O after the fonts are read. */
export class PosterRenderer {
  readonly #text = new TextPainter();

  /** `keepRecent: false` renders every call afresh (the determinism test). */
  constructor(private readonly opts: { keepRecent?: boolean } = {}) {}

  /**
   * A 9:16 poster composed from a brief: the sponsor's name on top, the headline large in the middle, the
   * detail under it, in the colours the brief names. The render is a pure function of the brief and the
   * sponsor and costs a fifth of a second of CPU, so recent ones are kept (every sandbox reset renders
   * the same seed poster; a buyer retries the same brief).
   */
  briefPoster(brief: string, sponsorName: string | null = null): Promise<Buffer> {
    if (this.opts.keepRecent === false) return this.#renderBrief(brief, sponsorName);
    const key = JSON.stringify([brief, sponsorName]);
    const hit = RECENT_POSTERS.get(key);
    if (hit) return hit;
    const rendering = this.#renderBrief(brief, sponsorName);
    RECENT_POSTERS.set(key, rendering);
    if (RECENT_POSTERS.size > RECENT_POSTERS_MAX) RECENT_POSTERS.delete(RECENT_POSTERS.keys().next().value!);
    rendering.catch(() => RECENT_POSTERS.delete(key));
    return rendering;
  }

  /** The composition of a brief's poster: what `briefPoster` draws (the words wrapped and sized to their boxes). */
  briefDesign(brief: string, sponsorName: string | null = null): BriefDesign {
    const t = this.#text;
    const cleaned = cleanText(brief);
    const sponsor = cleanText(sponsorName ?? '');
    const copy = copyOf(cleaned);
    // a brief that is all design notes still makes a poster: the sponsor's name becomes the headline
    const headline = copy.headline || sponsor || '…';
    const text = (s: { size: number; lines: { text: string }[] }) => ({ size: s.size, lines: s.lines.map((l) => l.text) });
    const none = { size: 0, lines: [] };
    return {
      palette: paletteOf(cleaned, sponsor || null),
      sponsor: sponsor && copy.headline ? text(t.fit(sponsor, { width: TEXT_WIDTH, height: 150 }, [64, 56, 48, 42, 36])) : none,
      headline: text(t.fit(headline, { width: TEXT_WIDTH, height: 820 }, [136, 120, 104, 96, 84, 72, 64])),
      detail: copy.detail ? text(t.fit(copy.detail, { width: TEXT_WIDTH, height: 330 }, [60, 54, 48, 42, 36])) : none,
    };
  }

  async #renderBrief(brief: string, sponsorName: string | null): Promise<Buffer> {
    const t = this.#text;
    const d = this.briefDesign(brief, sponsorName);
    const { background, text, accent } = d.palette;
    const lines = (block: { size: number; lines: string[] }) => block.lines.map((l) => ({ text: l, width: t.width(l, block.size) }));
    // the headline and the detail together, centred in the space under the sponsor's name
    const headH = d.headline.lines.length * d.headline.size * 1.2;
    const gap = d.detail.lines.length ? 80 : 0;
    const detailH = d.detail.lines.length * d.detail.size * 1.2;
    const top = 420 + (1320 - (headH + gap + detailH)) / 2;
    const svg = [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${POSTER_WIDTH}" height="${POSTER_HEIGHT}" viewBox="0 0 ${POSTER_WIDTH} ${POSTER_HEIGHT}">`,
      `<rect width="100%" height="100%" fill="${background}"/>`,
      d.sponsor.lines.length ? t.block(lines(d.sponsor), d.sponsor.size, 150, text) : '',
      `<rect x="${(POSTER_WIDTH - 160) / 2}" y="${Math.round(top - 90)}" width="160" height="18" rx="9" fill="${accent}"/>`,
      t.block(lines(d.headline), d.headline.size, top, text),
      d.detail.lines.length ? t.block(lines(d.detail), d.detail.size, top + headH + gap, text) : '',
      `<rect x="0" y="${POSTER_HEIGHT - 36}" width="${POSTER_WIDTH}" height="36" fill="${accent}"/>`,
      '</svg>',
    ].join('');
    return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
  }

  /**
   * A machine's "Advertise on this screen" house poster: headline, the advertise QR on a white card,
   * the machine's code and the address the QR opens, on a fixed dark blue.
   */
  async housePoster(input: { machineNo: string; qrPng: Buffer; qrSize: number; address: string }): Promise<Buffer> {
    const t = this.#text;
    const navy = '#0f2547';
    const headline = t.block(t.wrap('Advertise on this screen', 104, POSTER_WIDTH - 160), 104, 190, '#ffffff');
    const sub = t.fit('Put your brand here. Scan the code to start.', { width: POSTER_WIDTH - 200, height: 130 }, [52, 46, 40]);
    const card = input.qrSize + 80;
    const cardTop = 690;
    const machine = t.fit(`Machine ${cleanText(input.machineNo)}`, { width: POSTER_WIDTH - 160, height: 80 }, [60, 52, 44, 36]);
    const address = t.fit(cleanText(input.address), { width: POSTER_WIDTH - 160, height: 90 }, [34, 30, 26, 22]);
    const svg = [
      `<svg xmlns="http://www.w3.org/2000/svg" width="${POSTER_WIDTH}" height="${POSTER_HEIGHT}" viewBox="0 0 ${POSTER_WIDTH} ${POSTER_HEIGHT}">`,
      `<rect width="100%" height="100%" fill="${navy}"/>`,
      headline,
      t.block(sub.lines, sub.size, 480, '#c9d6ea'),
      `<rect x="${(POSTER_WIDTH - card) / 2}" y="${cardTop}" width="${card}" height="${card}" rx="36" fill="#ffffff"/>`,
      t.block(machine.lines, machine.size, cardTop + card + 70, '#ffffff'),
      t.block(address.lines, address.size, cardTop + card + 180, '#8fa6c8'),
      '</svg>',
    ].join('');
    return sharp(Buffer.from(svg))
      .composite([{ input: input.qrPng, left: Math.round((POSTER_WIDTH - input.qrSize) / 2), top: cardTop + 40 }])
      .png({ compressionLevel: 9 })
      .toBuffer();
  }
}
