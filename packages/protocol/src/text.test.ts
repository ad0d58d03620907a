import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hasUnsafeChars, NO_UNSAFE_CHARS, NO_UNSAFE_CHARS_BREAKS_ALLOWED, safeString } from './text.ts';

describe('hasUnsafeChars: the one rule for stored and looked-up text', () => {
  it('refuses NUL, other C0/C1 controls and lone surrogates; keeps letters, emoji and (in free text) breaks', () => {
    for (const bad of ['\u0000', 'a\u0000b', '\u0001', '\u001f', '\u007f', '\u0085', '\u009f', '\ud800', 'a\udc00', '\udc00\ud800', 'x\ud83d']) {
      expect(hasUnsafeChars(bad), JSON.stringify(bad)).toBe(true);
      expect(hasUnsafeChars(bad, true), JSON.stringify(bad)).toBe(true);
    }
    for (const ok of ['', 'café', '1.2.3-rc.1', 'voice 😀', '漢字', '\u00a0nbsp']) expect(hasUnsafeChars(ok), ok).toBe(false);
    for (const br of ['a\tb', 'a\nb', 'a\r\nb']) {
      expect(hasUnsafeChars(br)).toBe(true);
      expect(hasUnsafeChars(br, true)).toBe(false);
    }
  });

  it('is what the patterns the API document states say (NO_UNSAFE_CHARS, in Unicode mode as JSON Schema reads it)', () => {
    const unit = fc.oneof(fc.constantFrom('\ud800', '\udc00', '\t', '\n', '\r', '\u0085', 'a', '😀'), fc.string({ unit: 'binary', maxLength: 1 }));
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (s) => {
        expect(NO_UNSAFE_CHARS.test(s), JSON.stringify(s)).toBe(!hasUnsafeChars(s));
        expect(NO_UNSAFE_CHARS_BREAKS_ALLOWED.test(s), JSON.stringify(s)).toBe(!hasUnsafeChars(s, true));
        expect(new RegExp(NO_UNSAFE_CHARS.source, 'u').test(s)).toBe(!hasUnsafeChars(s));
      }),
      { numRuns: 400 },
    );
  });

  it('agrees with a code-point reading of the string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (s) => {
        const cps = [...s].map((c) => c.codePointAt(0)!);
        const expected = cps.some((c) => c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xdfff));
        expect(hasUnsafeChars(s)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('safeString refuses what it finds, trims first when asked, and chains bounds', () => {
    expect(safeString().max(5).safeParse('a\u0000').success).toBe(false);
    expect(safeString().max(5).safeParse('abcdef').success).toBe(false);
    expect(safeString().safeParse('ok').success).toBe(true);
    expect(safeString().safeParse('ok\n').success).toBe(false);
    expect(safeString({ trim: true }).parse('  ok\n')).toBe('ok');
    expect(safeString({ allowBreaks: true }).safeParse('one\ntwo').success).toBe(true);
  });
});
