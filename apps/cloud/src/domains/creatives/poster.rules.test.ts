import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COLOUR_WORDS,
  DEFAULT_PALETTES,
  MIN_CONTRAST,
  contrast,
  copyOf,
  isDesignNote,
  legibleText,
  namedColours,
  paletteOf,
  sentences,
} from './poster.rules.ts';

describe('contrast (WCAG 2)', () => {
  it('is 21:1 for black on white, 1:1 for a colour on itself, the same both ways', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#1d4f91', '#1d4f91')).toBe(1);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrast('#ffffff', '#777777')).toBe(contrast('#777777', '#ffffff'));
  });
});

describe('the colours a brief names', () => {
  it('"warm brown and cream": a brown background with cream text', () => {
    expect(paletteOf('Fresh bread daily. Warm brown and cream.', 'Bright Bakery')).toEqual({
      background: COLOUR_WORDS['brown'],
      text: COLOUR_WORDS['cream'],
      accent: COLOUR_WORDS['cream'],
      source: 'brief',
    });
  });

  it('reads colour words in order, with "dark"/"pale" and "-ish"/"-y" forms, once each', () => {
    expect(namedColours('Navy and gold')).toEqual([COLOUR_WORDS['navy'], COLOUR_WORDS['gold']]);
    expect(namedColours('brownish, creamy')).toEqual([COLOUR_WORDS['brown'], COLOUR_WORDS['cream']]);
    expect(namedColours('dark green on pale yellow')[0]).not.toBe(COLOUR_WORDS['green']);
    expect(namedColours('red, red and RED')).toEqual([COLOUR_WORDS['red']]);
    expect(namedColours('Lemonade, 2 for $3')).toEqual([]);
  });

  it('prefers the colours of the design note over a colour word elsewhere in the brief', () => {
    expect(paletteOf('Red Rooster wings, 6 for $5. Black and yellow.', null).background).toBe(COLOUR_WORDS['black']);
    // no design note: a colour word anywhere still counts
    expect(paletteOf('Green salads all week', null).background).toBe(COLOUR_WORDS['green']);
  });

  it('one colour: black or white text, whichever reads better on it', () => {
    expect(paletteOf('Navy please.', null).text).toBe('#ffffff');
    expect(paletteOf('Yellow background.', null).text).toBe('#111111');
  });

  it('a named pair that fails AA 4.5:1 is adjusted: the text moves toward white or black until it passes', () => {
    expect(contrast(COLOUR_WORDS['blue']!, COLOUR_WORDS['purple']!)).toBeLessThan(MIN_CONTRAST);
    const p = paletteOf('Blue and purple.', null);
    expect(p.background).toBe(COLOUR_WORDS['blue']);
    expect(p.text).not.toBe(COLOUR_WORDS['purple']);
    expect(contrast(p.background, p.text)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    // a passing pair is left as named
    expect(legibleText('#ffffff', '#111111')).toBe('#111111');
  });

  it('no colour named: a default palette chosen from the sponsor’s name, the same every time', () => {
    const a = paletteOf('Lemonade, 2 for $3', 'Joe’s Coffee');
    expect(a.source).toBe('default');
    expect(DEFAULT_PALETTES.map(([bg, text]) => `${bg}/${text}`)).toContain(`${a.background}/${a.text}`);
    expect(paletteOf('A different brief', 'joe’s coffee ')).toEqual(a);
    // different sponsors spread over the palettes
    const picks = new Set(['Ann', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus', 'Hal', 'Ida', 'Jo', 'Kim', 'Lu'].map((n) => paletteOf('x', n).background));
    expect(picks.size).toBeGreaterThan(3);
  });

  it('every palette, named or default, has text at least AA 4.5:1 on its background', () => {
    const words = [...Object.keys(COLOUR_WORDS), 'dark', 'pale', 'and', 'warm', 'bread'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...words), { maxLength: 4 }), fc.string(), (ws, sponsor) => {
        const p = paletteOf(`${ws.join(' ')}.`, sponsor);
        expect(contrast(p.background, p.text)).toBeGreaterThanOrEqual(MIN_CONTRAST);
      }),
    );
    for (const [bg, text] of DEFAULT_PALETTES) expect(contrast(bg, text)).toBeGreaterThanOrEqual(7);
  });
});

describe('the words printed', () => {
  it('splits sentences after . ! ? but not inside a price', () => {
    expect(sentences('Any sandwich for 8.99. Open till 9! Warm brown and cream.')).toEqual(['Any sandwich for 8.99.', 'Open till 9!', 'Warm brown and cream.']);
  });

  it('a design note is a sentence of colour and look words only', () => {
    expect(isDesignNote('Warm brown and cream.')).toBe(true);
    expect(isDesignNote('Use a dark navy background with gold text')).toBe(true);
    expect(isDesignNote('Fresh bread daily.')).toBe(false);
    expect(isDesignNote('Red Rooster wings')).toBe(false);
  });

  it('the headline is the first sentence that is not a design note; the detail is what follows', () => {
    expect(copyOf('Warm brown and cream. Fresh bread every morning! Sourdough from 7 am.')).toEqual({
      headline: 'Fresh bread every morning',
      detail: 'Sourdough from 7 am.',
    });
    expect(copyOf('Corner Deli — any sandwich and a cold drink for 8.99. Two blocks north, open till 9.')).toEqual({
      headline: 'Corner Deli — any sandwich and a cold drink for 8.99',
      detail: 'Two blocks north, open till 9.',
    });
    expect(copyOf('Warm brown and cream.')).toEqual({ headline: '', detail: '' });
  });

  it('a long first sentence gives its first phrase as the headline, the rest goes to the detail', () => {
    const c = copyOf('Joe’s Coffee: the best espresso in the building, roasted every week in our own shop downstairs. Come by.');
    expect(c.headline).toBe('Joe’s Coffee');
    expect(c.detail).toBe('the best espresso in the building, roasted every week in our own shop downstairs. Come by.');
    // no phrase break: cut at a word, with an ellipsis, never past the bound
    const unbroken = copyOf('word '.repeat(40));
    expect([...unbroken.headline].length).toBeLessThanOrEqual(61);
    expect(unbroken.headline.endsWith('…')).toBe(true);
    expect([...copyOf(`Hi. ${'more '.repeat(100)}`).detail].length).toBeLessThanOrEqual(161);
  });
});
