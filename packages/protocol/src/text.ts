import { z } from 'zod';

/**
 * The one rule for text a client hands the cloud to store or look up: no C0/C1 control character
 * (NUL above all: PostgreSQL text cannot hold it and answers error 22021, a 500) and no lone UTF-16
 * surrogate (it cannot be encoded as UTF-8 and would be stored as U+FFFD). Free text may keep tab and
 * line breaks (`allowBreaks`); a single-line value keeps none.
 */
export function hasUnsafeChars(s: string, allowBreaks = false): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20) {
      if (allowBreaks && (c === 0x09 || c === 0x0a || c === 0x0d)) continue;
      return true;
    }
    if (c >= 0x7f && c <= 0x9f) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return true;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

export const UNSAFE_CHARS_MESSAGE = 'must not contain control characters or unpaired surrogates';

/**
 * A string schema that refuses what `hasUnsafeChars` finds (a 400 through the cloud's parseInput),
 * after trimming when `trim` is set. Chain bounds after it: `safeString().min(1).max(64)`.
 */
export const safeString = (opts: { allowBreaks?: boolean; trim?: boolean } = {}) =>
  (opts.trim ? z.string().trim() : z.string()).refine((s) => !hasUnsafeChars(s, opts.allowBreaks ?? false), UNSAFE_CHARS_MESSAGE);
