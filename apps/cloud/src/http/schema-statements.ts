import { z } from 'zod';

/**
 * What the API document says of a request schema beyond zod's own rendering (`z.toJSONSchema`'s `override`, called for
 * every node): rules the service holds a value to that would otherwise go unsaid (issue 30, the request side).
 */

/** The `override` of zod's rendering for a request (`input`) or an answer (`output`) schema. */
export function statements(io: 'input' | 'output'): (ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) => void {
  return ({ zodSchema, jsonSchema }) => {
    stateLazyMetadata(zodSchema, jsonSchema);
    if (io === 'input') stateTrimmedRules(zodSchema, jsonSchema);
  };
}

/**
 * The metadata (`.meta()`, `.describe()`) of a schema behind @vend/protocol's `lazySchema` stand-in: zod looks it up by
 * the object it was given, the stand-in, and finds none; the built schema's own `meta()` still answers.
 */
export function stateLazyMetadata(zodSchema: unknown, json: Record<string, unknown>): void {
  const meta = (zodSchema as { meta?: () => unknown }).meta?.();
  if (meta && typeof meta === 'object') for (const [k, v] of Object.entries(meta)) if (!(k in json)) json[k] = v;
}

type ZodDef = { type: string; checks?: { _zod: { def: { check: string; minimum?: number; tx?: (s: string) => string } } }[]; in?: unknown; out?: unknown };
const defOf = (s: unknown): ZodDef | undefined => (s as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def;

/** The string's own checks trim it (`.trim()` is an overwrite that takes the spaces off). */
function trims(def: ZodDef | undefined): boolean {
  return def?.type === 'string' && (def.checks ?? []).some((c) => c._zod.def.check === 'overwrite' && c._zod.def.tx?.(' a ') === 'a');
}

/** The least length a string's checks ask for (0: none). */
function minimumOf(def: ZodDef | undefined): number {
  if (def?.type !== 'string') return 0;
  return Math.max(0, ...(def.checks ?? []).filter((c) => c._zod.def.check === 'min_length').map((c) => c._zod.def.minimum ?? 0));
}

/**
 * What the service holds a request string to after trimming it, which the document would otherwise leave out:
 * - a least length (`.trim().min(1)`): spaces alone are empty once trimmed ("   " is refused). `\S[\s\S]{n-2,}\S`
 *   (or `\S` for 1) finds two non-spaces n-1 apart: what is left after trimming has n characters at least;
 * - a trimmed string piped into another (`line(…).pipe(z.email())`): that one's format and patterns too.
 */
export function stateTrimmedRules(zodSchema: unknown, json: Record<string, unknown>): void {
  const def = defOf(zodSchema);
  let min = 0;
  const patterns: string[] = [];
  if (trims(def)) min = minimumOf(def);
  else if (def?.type === 'pipe' && trims(defOf(def.in)) && defOf(def.out)?.type === 'string') {
    min = Math.max(minimumOf(defOf(def.in)), minimumOf(defOf(def.out)));
    const out = z.toJSONSchema(def.out as z.ZodType, { io: 'input' }) as Record<string, unknown>;
    if (typeof out['format'] === 'string') json['format'] = out['format'];
    if (typeof out['pattern'] === 'string') patterns.push(out['pattern']);
    for (const p of (out['allOf'] as { pattern?: string }[] | undefined) ?? []) if (p.pattern) patterns.push(p.pattern);
    if (typeof out['maxLength'] === 'number' && !(typeof json['maxLength'] === 'number' && json['maxLength'] <= out['maxLength']))
      json['maxLength'] = out['maxLength'];
  }
  if (min >= 1) {
    if (typeof json['minLength'] !== 'number' || json['minLength'] < min) json['minLength'] = min;
    patterns.push(min === 1 ? '\\S' : `\\S[\\s\\S]{${min - 2},}\\S`);
  }
  if (patterns.length === 0) return;
  const all = [
    ...new Set([
      ...((json['allOf'] as { pattern: string }[] | undefined) ?? []).map((p) => p.pattern),
      ...(typeof json['pattern'] === 'string' ? [json['pattern']] : []),
      ...patterns,
    ]),
  ];
  delete json['pattern'];
  delete json['allOf'];
  // one pattern as `pattern`, more as `allOf` of patterns (zod's own spelling)
  if (all.length === 1) json['pattern'] = all[0];
  else json['allOf'] = all.map((pattern) => ({ pattern }));
}
