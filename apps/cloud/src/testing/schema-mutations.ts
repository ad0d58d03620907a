import { mergeBranch, patternsOf, resolveRef, typesOf, type Obj, type Schema } from './schema-arbitrary.ts';

/**
 * Refused values derived from accepted ones (issue 30, the request side): the mutations of a value the schema accepts
 * that each break one rule of it, for the property that the service never accepts what the document refuses.
 */

/** A value derived from an accepted one that should be refused, and why. */
export interface Mutation {
  /** Where the change is, as a JSON pointer into the value (`''`: the whole). */
  at: string;
  /** What kind of change: a wrong type is the spec's malformed type (422); the rest are out-of-rule (400). */
  kind: 'missing' | 'type' | 'enum' | 'const' | 'range' | 'length' | 'pattern' | 'format' | 'extra' | 'items';
  why: string;
  value: unknown;
}

/** A value of none of the types named (the malformed-type mutation). */
function wrongTypeFor(types: string[]): unknown {
  if (!types.includes('string')) return 'not-a-' + (types[0] ?? 'value');
  if (!types.includes('number') && !types.includes('integer')) return 12345;
  if (!types.includes('boolean')) return true;
  if (!types.includes('object')) return { unexpected: 'object' };
  return [];
}

/**
 * The mutations of `value` (accepted by `schema`) that each break one rule: a required property dropped, a wrong
 * type, a value outside the enum, the range, the length or the pattern, an undeclared property where
 * `additionalProperties` is false, too many or too few items. Some may still be accepted (a mutated branch of an
 * `anyOf` may match another): the caller keeps those its validator refuses.
 */
export function mutationsOf(schema: Schema, value: unknown, options: { root?: Schema } = {}): Mutation[] {
  const root = options.root ?? schema;
  const out: Mutation[] = [];

  const walk = (node: Schema, v: unknown, at: string, set: (nv: unknown) => unknown, depth: number, typed = true): void => {
    if (typeof node === 'boolean' || depth > 8) return;
    if (typeof node['$ref'] === 'string') return walk(resolveRef(root, node['$ref']), v, at, set, depth + 1, typed);
    const branches = (node['anyOf'] ?? node['oneOf']) as Schema[] | undefined;
    if (branches) {
      // the type is the union's: a value of a type no branch takes (a string where the branches are an enum and null is
      // a value outside the enum, not of the wrong type)
      const { anyOf: _a, oneOf: _o, ...rest } = node;
      const merged = branches.map((b) => (typeof b === 'boolean' ? b : mergeBranch(rest, b)));
      const union = new Set(merged.flatMap((b) => (typeof b === 'object' ? (branchTypes(root, b) ?? []) : [])));
      if (union.size) out.push({ at, kind: 'type', why: `${at || 'the body'} of the wrong type`, value: set(wrongTypeFor([...union])) });
      for (const b of merged) walk(b, v, at, set, depth + 1, false);
      return;
    }
    const types = typesOf(node);
    if ('const' in node) out.push({ at, kind: 'const', why: `${at || 'the body'} not the constant`, value: set(constBreaker(node['const'])) });
    if (Array.isArray(node['enum']))
      out.push({ at, kind: 'enum', why: `${at || 'the body'} outside the enum`, value: set(enumBreaker(node['enum'] as unknown[])) });
    if (types && typed) out.push({ at, kind: 'type', why: `${at || 'the body'} of the wrong type`, value: set(wrongTypeFor(types)) });
    if (typeof v === 'string') {
      const min = node['minLength'] as number | undefined;
      const max = node['maxLength'] as number | undefined;
      if (max !== undefined) out.push({ at, kind: 'length', why: `${at} longer than ${max}`, value: set(lengthen(v, max + 1)) });
      if (min !== undefined && min > 0) out.push({ at, kind: 'length', why: `${at} shorter than ${min}`, value: set([...v].slice(0, min - 1).join('')) });
      if (patternsOf(node).length)
        for (const off of offPattern(v)) out.push({ at, kind: 'pattern', why: `${at} off the pattern (${JSON.stringify(off).slice(0, 40)})`, value: set(off) });
      if (typeof node['format'] === 'string')
        out.push({ at, kind: 'format', why: `${at} not a ${String(node['format'])}`, value: set(`not a ${String(node['format'])}`) });
    }
    if (typeof v === 'number') {
      const integer = types?.includes('integer') && !types.includes('number');
      if (typeof node['minimum'] === 'number')
        out.push({ at, kind: 'range', why: `${at} below ${node['minimum']}`, value: set(below(node['minimum'], integer)) });
      if (typeof node['maximum'] === 'number')
        out.push({ at, kind: 'range', why: `${at} above ${node['maximum']}`, value: set(above(node['maximum'], integer)) });
      if (integer) out.push({ at, kind: 'type', why: `${at} not a whole number`, value: set(v + 0.5) });
    }
    if (Array.isArray(v)) {
      const min = node['minItems'] as number | undefined;
      const max = node['maxItems'] as number | undefined;
      if (max !== undefined && v.length > 0)
        out.push({ at, kind: 'items', why: `${at} more than ${max} items`, value: set(Array.from({ length: max + 1 }, (_, i) => v[i % v.length])) });
      if (min !== undefined && min > 0) out.push({ at, kind: 'items', why: `${at} fewer than ${min} items`, value: set(v.slice(0, min - 1)) });
      const items = node['items'] as Schema | undefined;
      if (items !== undefined && v.length > 0) walk(items, v[0], `${at}/0`, (nv) => set([nv, ...v.slice(1)]), depth + 1);
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Obj;
      const props = (node['properties'] ?? {}) as Record<string, Schema>;
      for (const r of (node['required'] ?? []) as string[]) {
        if (!(r in o)) continue;
        const { [r]: _, ...rest } = o;
        out.push({ at: `${at}/${r}`, kind: 'missing', why: `${at}/${r} missing`, value: set(rest) });
      }
      if (node['additionalProperties'] === false) {
        let extra = 'unexpected';
        while (extra in props) extra += '_';
        out.push({ at: `${at}/${extra}`, kind: 'extra', why: `${at}/${extra} not declared`, value: set({ ...o, [extra]: 1 }) });
      }
      for (const [k, p] of Object.entries(props)) {
        if (!(k in o)) continue;
        walk(p, o[k], `${at}/${k}`, (nv) => set({ ...o, [k]: nv }), depth + 1);
      }
    }
  };

  walk(schema, value, '', (nv) => nv, 0);
  return out;
}

function constBreaker(c: unknown): unknown {
  if (typeof c === 'string') return `${c}-not`;
  if (typeof c === 'number') return c + 1;
  if (typeof c === 'boolean') return !c;
  return 'not-the-constant';
}

function enumBreaker(values: unknown[]): unknown {
  if (values.every((v) => typeof v === 'number')) return Math.max(...(values as number[])) + 1;
  let s = 'not-one-of-them';
  while (values.includes(s)) s += '-';
  return s;
}

/** Padded with a letter: not a space, which a service that trims would take off again. */
function lengthen(v: string, n: number): string {
  const cps = [...v];
  while (cps.length < n) cps.push('x');
  return cps.join('');
}

/** Values the patterns of the document refuse: symbols and a space, spaces alone, a control character. */
function offPattern(v: string): string[] {
  return [`${v} !?`, '   ', `${v}\u0007`];
}

/** The types a branch of a union takes (following a `$ref`, and nested unions); null when it says none. */
function branchTypes(root: Schema, b: Obj): string[] | null {
  if (typeof b['$ref'] === 'string') {
    const target = resolveRef(root, b['$ref']);
    return typeof target === 'object' ? branchTypes(root, target) : null;
  }
  const nested = (b['anyOf'] ?? b['oneOf']) as Obj[] | undefined;
  if (nested) return nested.flatMap((n) => branchTypes(root, n) ?? []);
  if ('const' in b) return [jsonTypeOf(b['const'])];
  if (Array.isArray(b['enum'])) return (b['enum'] as unknown[]).map(jsonTypeOf);
  return typesOf(b);
}

const jsonTypeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function below(min: number, integer: boolean | undefined): number {
  return integer || Number.isInteger(min) ? min - 1 : min - Math.max(Math.abs(min) * 1e-6, 1e-6);
}

function above(max: number, integer: boolean | undefined): number {
  return integer || Number.isInteger(max) ? max + 1 : max + Math.max(Math.abs(max) * 1e-6, 1e-6);
}
