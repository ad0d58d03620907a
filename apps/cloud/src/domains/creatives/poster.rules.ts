import { createHash } from 'node:crypto';

/**
 * What the built-in studio composes from a brief, as pure rules: the colours the brief names (a small
 * colour vocabulary), text that stays legible on them (WCAG contrast, at least AA 4.5:1), and the
 * words to print — a headline and a line of detail, never the brief's own notes on colour.
 */

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface Palette {
  background: string;
  text: string;
  /** The decorative bars: the text colour, so they never add a third colour the brief did not name. */
  accent: string;
  /** Where the colours came from: named by the brief, or the default picked from the sponsor's name. */
  source: 'brief' | 'default';
}

/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;

/**
 * The colour words the studio understands, each a colour that reads as the word on a poster. A word
 * outside this list names no colour (the poster falls back to the default palette).
 */
export const COLOUR_WORDS: Readonly<Record<string, string>> = {
  black: '#111111',
  white: '#ffffff',
  cream: '#fff4dc',
  ivory: '#fffbeb',
  beige: '#e9dcc0',
  tan: '#c8a77a',
  brown: '#5b3a22',
  red: '#b3261e',
  maroon: '#6d1a1f',
  burgundy: '#6b1530',
  orange: '#e8711c',
  coral: '#f27059',
  yellow: '#f6c915',
  gold: '#c99a2e',
  green: '#1f6b3a',
  olive: '#5c6b2a',
  teal: '#0f6e6e',
  turquoise: '#2ab7b0',
  blue: '#1d4f91',
  navy: '#14213d',
  purple: '#5b2a86',
  violet: '#7b4fbf',
  lavender: '#ddd2f4',
  pink: '#f2a7c3',
  magenta: '#b0207a',
  grey: '#6b6f76',
  gray: '#6b6f76',
  silver: '#c9ccd1',
  charcoal: '#2b2d31',
};

/** Words that only describe a colour or a look: a sentence of these and colour words is a note to the designer. */
const DESIGN_WORDS = new Set(
  (
    'warm cool cold dark deep light pale bright soft muted bold rich earthy pastel neon vivid subtle calm clean simple minimal ' +
    'modern classic elegant cozy cosy vintage rustic colour colours color colors colourway palette scheme tone tones theme ' +
    'background backdrop text lettering letters font type accent accents highlight highlights shade shades hue hues look feel ' +
    'style vibe and or with on in of a an the use using please make it its should be is are for as plus mostly some'
  ).split(' '),
);

/** Words that make a colour darker or lighter. */
const DARKER = new Set(['dark', 'deep', 'rich']);
const LIGHTER = new Set(['light', 'pale', 'soft', 'pastel']);

/** Default palettes (background, text), each at least 7:1: picked from the sponsor's name when the brief names no colour. */
export const DEFAULT_PALETTES: readonly (readonly [string, string])[] = [
  ['#14213d', '#fca311'],
  ['#1d3557', '#f1faee'],
  ['#2b2d42', '#edf2f4'],
  ['#264653', '#e9f5db'],
  ['#3d2314', '#fff4dc'],
  ['#0b4f4f', '#ffffff'],
  ['#5b2a86', '#fff4dc'],
  ['#6d1a1f', '#fbe7c6'],
  ['#fff4dc', '#3d2314'],
  ['#f1faee', '#1d3557'],
];

const parseHex = (hex: string): Rgb => ({ r: parseInt(hex.slice(1, 3), 16), g: parseInt(hex.slice(3, 5), 16), b: parseInt(hex.slice(5, 7), 16) });
const toHex = ({ r, g, b }: Rgb) =>
  `#${[r, g, b]
    .map((v) =>
      Math.round(Math.max(0, Math.min(255, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** WCAG 2 relative luminance of an sRGB colour. */
export function luminance(colour: string | Rgb): number {
  const { r, g, b } = typeof colour === 'string' ? parseHex(colour) : colour;
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio of two colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `a` moved a fraction `t` of the way to `b`. */
function mix(a: string, b: string, t: number): string {
  const x = parseHex(a);
  const y = parseHex(b);
  return toHex({ r: x.r + (y.r - x.r) * t, g: x.g + (y.g - x.g) * t, b: x.b + (y.b - x.b) * t });
}

/**
 * The text colour kept as close to the one named as contrast allows: when the pair fails AA, the text
 * is moved step by step toward black or white (whichever the background contrasts with more) until it
 * passes. One of black and white always reaches 4.58:1 on any background, so this ends.
 */
export function legibleText(background: string, text: string, min = MIN_CONTRAST): string {
  if (contrast(background, text) >= min) return text;
  const target = contrast(background, '#ffffff') >= contrast(background, '#000000') ? '#ffffff' : '#000000';
  for (let step = 1; step <= 20; step++) {
    const moved = mix(text, target, step / 20);
    if (contrast(background, moved) >= min) return moved;
  }
  return target;
}

/** The words of a text, lower-cased, without punctuation ("Warm-brown, cream." → warm brown cream). */
function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A colour word of the vocabulary in `w`, allowing the "-ish"/"-y" of "brownish", "creamy". */
function colourWord(w: string): string | null {
  if (COLOUR_WORDS[w]) return w;
  for (const suffix of ['ish', 'y']) {
    const stem = w.endsWith(suffix) ? w.slice(0, -suffix.length) : '';
    if (stem && COLOUR_WORDS[stem]) return stem;
  }
  return null;
}

/** The colours a text names, in order, each darkened or lightened by the word before it ("dark blue", "pale pink"). */
export function namedColours(text: string): string[] {
  const ws = words(text);
  const out: string[] = [];
  ws.forEach((w, i) => {
    const name = colourWord(w);
    if (!name) return;
    const before = ws[i - 1] ?? '';
    let hex = COLOUR_WORDS[name]!;
    if (DARKER.has(before)) hex = mix(hex, '#000000', 0.35);
    if (LIGHTER.has(before)) hex = mix(hex, '#ffffff', 0.55);
    if (!out.includes(hex)) out.push(hex);
  });
  return out;
}

/** Whether a sentence is only a note on colours and looks ("Warm brown and cream."): it names a colour and says nothing else. */
export function isDesignNote(sentence: string): boolean {
  const ws = words(sentence);
  return ws.some((w) => colourWord(w) !== null) && ws.every((w) => colourWord(w) !== null || DESIGN_WORDS.has(w));
}

/** The sentences of a brief: split after . ! ? (and line breaks), a decimal point ("8.99") kept inside its sentence. */
export function sentences(brief: string): string[] {
  return brief
    .split(/(?<=[.!?…])\s+|\n+/u)
    .map((s) => s.replace(/\s+/gu, ' ').trim())
    .filter(Boolean);
}

/** A stable index from a name (the same sponsor always gets the same default palette). */
function pick(name: string, n: number): number {
  return createHash('sha256').update(name.trim().toLowerCase()).digest().readUInt32BE(0) % n;
}

/**
 * The poster's palette. Colours named in the brief's design notes first, else anywhere in it: the first
 * is the background, the second the text; one colour alone gets black or white text, whichever reads
 * better. No colour named: a default palette picked from the sponsor's name (the brief when there is
 * none). The text colour is then adjusted, if needed, to at least AA 4.5:1 on the background.
 */
export function paletteOf(brief: string, sponsorName: string | null): Palette {
  const notes = sentences(brief).filter(isDesignNote);
  const fromNotes = namedColours(notes.join(' '));
  const named = fromNotes.length ? fromNotes : namedColours(brief);
  let background: string;
  let text: string;
  let source: Palette['source'] = 'brief';
  if (named.length >= 2) {
    [background, text] = [named[0]!, named[1]!];
  } else if (named.length === 1) {
    background = named[0]!;
    text = contrast(background, '#ffffff') >= contrast(background, '#111111') ? '#ffffff' : '#111111';
  } else {
    [background, text] = DEFAULT_PALETTES[pick(sponsorName?.trim() || brief, DEFAULT_PALETTES.length)]!;
    source = 'default';
  }
  text = legibleText(background, text);
  return { background, text, accent: text, source };
}

/** Longest headline in characters; a longer first sentence is cut at a phrase break (— , : ;) or a word. */
export const HEADLINE_MAX_CHARS = 60;
/** Longest line of detail under the headline. */
export const DETAIL_MAX_CHARS = 160;

const cutAt = (s: string, max: number): string => {
  const chars = [...s];
  if (chars.length <= max) return s;
  const head = chars.slice(0, max).join('');
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:—–-]+$/u, '')}…`;
};

/**
 * The words printed: the headline (the first sentence that is not a design note, or its first phrase
 * when the sentence is long) and the detail (what follows, bounded). Design notes are never printed.
 */
export function copyOf(brief: string): { headline: string; detail: string } {
  const said = sentences(brief).filter((s) => !isDesignNote(s));
  if (said.length === 0) return { headline: '', detail: '' };
  let first = said[0]!;
  let rest = said.slice(1).join(' ');
  if ([...first].length > HEADLINE_MAX_CHARS) {
    // the first phrase, when there is a break in a sensible place; else the sentence cut at a word
    const m = /^(.{12,60}?)\s*(?:[—–:;]|,|\s-\s)\s*(.+)$/u.exec(first);
    if (m) {
      rest = [m[2]!, rest].filter(Boolean).join(' ');
      first = m[1]!;
    }
  }
  const headline = cutAt(first.replace(/[.!]$/u, '').trim(), HEADLINE_MAX_CHARS);
  const detail = cutAt(rest.trim(), DETAIL_MAX_CHARS);
  return { headline: headline.charAt(0).toUpperCase() + headline.slice(1), detail };
}
