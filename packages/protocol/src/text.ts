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
 * What `hasUnsafeChars` refuses, as a regular expression (Unicode mode: a lone surrogate is a code point of its own
 * there, a pair one astral character): no C0 or C1 control, no lone surrogate; `BREAKS_ALLOWED` keeps tab, LF and CR.
 * A schema built on these states the rule in the API document as its `pattern`, where a refinement would say nothing.
 */
// eslint-disable-next-line no-control-regex -- control characters are what these refuse
export const NO_UNSAFE_CHARS = /^[^\u0000-\u001f\u007f-\u009f\ud800-\udfff]*$/u;
// eslint-disable-next-line no-control-regex -- control characters are what these refuse
export const NO_UNSAFE_CHARS_BREAKS_ALLOWED = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff]*$/u;

/**
 * A string schema that refuses what `hasUnsafeChars` finds (a 400 through the cloud's parseInput),
 * after trimming when `trim` is set. Chain bounds after it: `safeString().min(1).max(64)`.
 */
export const safeString = (opts: { allowBreaks?: boolean; trim?: boolean } = {}) =>
  (opts.trim ? z.string().trim() : z.string()).regex(opts.allowBreaks ? NO_UNSAFE_CHARS_BREAKS_ALLOWED : NO_UNSAFE_CHARS, UNSAFE_CHARS_MESSAGE);
