import fc from 'fast-check';

/**
 * fast-check arbitraries from the JSON Schemas (2020-12) of the served document's requests (issue 30): values the
 * schema accepts, and values derived from one of them that it refuses. Written over the keywords the document's
 * request schemas use (zod's output); a keyword it does not know throws, so a generator never guesses:
 *
 * - `type` (one or a list), `const`, `enum`, `anyOf`/`oneOf` (one branch), `$ref` (a local pointer, `#` included);
 * - strings: `minLength`/`maxLength` (code points, as JSON Schema counts), `pattern` (more than one: `allOf` of
 *   patterns, as zod writes them), `format` (`date`, `date-time`, `email`, `uri`, `uuid`);
 * - numbers: `minimum`/`maximum`, `exclusiveMinimum`/`exclusiveMaximum`, `multipleOf`, `integer`;
 * - objects: `properties`, `required`, `additionalProperties` (false, or a schema with `propertyNames`),
 *   `minProperties`/`maxProperties`;
 * - arrays: `items`, `minItems`/`maxItems`, `uniqueItems`.
 *
 * Annotations (`description`, `default`, `examples`, `title`…) are read as what they are: no constraint. Whether a
 * value keeps the schema is Ajv's to say (the contract checker's); the generator's unit test holds it to that.
 */

export type Schema = boolean | { [keyword: string]: unknown };
export type Obj = { [keyword: string]: unknown };

export const ANNOTATIONS = new Set([
  'description',
  'default',
  'examples',
  'example',
  'title',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  '$schema',
  '$id',
  '$defs',
  'definitions',
  'id',
  'contentEncoding',
  'contentMediaType',
]);

const KNOWN = new Set([
  'type',
  'const',
  'enum',
  'anyOf',
  'oneOf',
  '$ref',
  'minLength',
  'maxLength',
  'pattern',
  'allOf',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'items',
  'minItems',
  'maxItems',
  'uniqueItems',
]);

/** A schema keyword this module cannot honour: generating around it would produce values of unknown validity. */
export class UnsupportedSchema extends Error {}

export interface ArbitraryOptions {
  /** The document `$ref`s point into (default: the schema itself). */
  root?: Schema;
  /**
   * Which characters free text is made of: `printable` (the default: printable ASCII, some letters beyond it and an
   * emoji, spaces) or `any` (besides those, control characters and line breaks: what a schema with no `pattern`
   * also accepts).
   */
  text?: 'printable' | 'any';
  /** Extra, undeclared properties on objects whose schema leaves `additionalProperties` open (default true). */
  openExtras?: boolean;
}

/** One code point each, so that fast-check's lengths are JSON Schema's. */
const printableChar = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCodePoint(c)) },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ß', 'Ж', '中', 'ع', '😀', '\u00a0') },
);
const anyChar = fc.oneof(
  { weight: 6, arbitrary: printableChar },
  { weight: 1, arbitrary: fc.constantFrom('\t', '\n', '\r', '\u0000', '\u0007', '\u001b', '\u007f', '\u0085') },
);

/** Code points, as JSON Schema's string lengths count them. */
export const codePoints = (s: string): number => [...s].length;

function asObj(schema: Schema, where: string): Obj {
  if (schema === true) return {};
  if (schema === false) throw new UnsupportedSchema(`${where}: the schema \`false\` accepts nothing`);
  return schema;
}

/** The node a local `$ref` (`#`, `#/$defs/X`, `#/components/schemas/X`) points at. */
export function resolveRef(root: Schema, ref: string): Schema {
  if (!ref.startsWith('#')) throw new UnsupportedSchema(`$ref ${ref}: only local references`);
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').filter(Boolean)) {
    node = (node as Obj | undefined)?.[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')];
    if (node === undefined) throw new UnsupportedSchema(`$ref ${ref}: nothing there`);
  }
  return node as Schema;
}

export function typesOf(s: Obj): string[] | null {
  const t = s['type'];
  if (t === undefined) return null;
  return Array.isArray(t) ? (t as string[]) : [t as string];
}

function checkKeywords(s: Obj, where: string): void {
  for (const k of Object.keys(s)) if (!KNOWN.has(k) && !ANNOTATIONS.has(k)) throw new UnsupportedSchema(`${where}: keyword ${k}`);
}

/** Values `schema` accepts. */
export function arbitraryOf(schema: Schema, options: ArbitraryOptions = {}): fc.Arbitrary<unknown> {
  const root = options.root ?? schema;
  const char = options.text === 'any' ? anyChar : printableChar;
  const openExtras = options.openExtras ?? true;

  const gen = (node: Schema, where: string, depth: number): fc.Arbitrary<unknown> => {
    const s = asObj(node, where);
    checkKeywords(s, where);
    if (typeof s['$ref'] === 'string') {
      if (depth > 6) throw new UnsupportedSchema(`${where}: $ref nested deeper than 6`);
      const { $ref, ...rest } = s;
      if (Object.keys(rest).some((k) => !ANNOTATIONS.has(k))) throw new UnsupportedSchema(`${where}: $ref beside other keywords`);
      return gen(resolveRef(root, $ref as string), where, depth + 1);
    }
    if (s['allOf'] !== undefined && !patternsOnly(s['allOf'])) throw new UnsupportedSchema(`${where}: allOf of more than patterns`);
    if ('const' in s) return fc.constant(s['const']);
    if (Array.isArray(s['enum'])) return fc.constantFrom(...(s['enum'] as unknown[]));
    const branches = (s['anyOf'] ?? s['oneOf']) as Schema[] | undefined;
    if (branches) {
      const { anyOf: _a, oneOf: _o, ...rest } = s;
      // keywords beside the branches apply to each: an object's branches add required properties or rule some out
      const merged = branches.map((b) => (typeof b === 'boolean' ? b : mergeBranch(rest, b)));
      return fc.oneof(...merged.map((b, i) => gen(b, `${where}/${s['anyOf'] ? 'anyOf' : 'oneOf'}/${i}`, depth)));
    }
    const types = typesOf(s);
    if (!types) {
      if (Object.keys(s).every((k) => ANNOTATIONS.has(k))) return fc.jsonValue({ maxDepth: 1 });
      throw new UnsupportedSchema(`${where}: no type`);
    }
    return types.length === 1 ? typed(s, types[0]!, where, depth) : fc.oneof(...types.map((t) => typed(s, t, where, depth)));
  };

  const typed = (s: Obj, type: string, where: string, depth: number): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
      case 'number':
        return numberOf(s, type === 'integer', where);
      case 'string':
        return stringOf(s, char, where);
      case 'array': {
        const min = (s['minItems'] as number | undefined) ?? 0;
        const max = (s['maxItems'] as number | undefined) ?? Math.max(min, 4);
        const item = gen((s['items'] as Schema | undefined) ?? true, `${where}/items`, depth + 1);
        return s['uniqueItems'] === true
          ? fc.uniqueArray(item, { minLength: min, maxLength: Math.min(max, min + 4), selector: (v) => JSON.stringify(v) })
          : fc.array(item, { minLength: min, maxLength: Math.min(max, min + 4) });
      }
      case 'object': {
        const props = (s['properties'] ?? {}) as Record<string, Schema>;
        const required = (s['required'] ?? []) as string[];
        for (const r of required) if (!(r in props)) throw new UnsupportedSchema(`${where}: required ${r} is not among the properties`);
        // a property whose schema is `false` may not appear at all
        const model = Object.fromEntries(
          Object.entries(props)
            .filter(([, v]) => v !== false)
            .map(([k, v]) => [k, gen(v, `${where}/properties/${k}`, depth + 1)]),
        );
        const minProps = (s['minProperties'] as number | undefined) ?? 0;
        const maxProps = (s['maxProperties'] as number | undefined) ?? Infinity;
        const counted = (o: unknown) => Object.keys(o as Obj).length >= minProps && Object.keys(o as Obj).length <= maxProps;
        const declared = fc.record(model, { requiredKeys: required }).filter(counted);
        const additional = s['additionalProperties'];
        if (additional === false) return declared;
        const known = new Set(Object.keys(props));
        const keys =
          s['propertyNames'] !== undefined
            ? (gen(s['propertyNames'] as Schema, `${where}/propertyNames`, depth + 1) as fc.Arbitrary<string>)
            : fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 1, maxLength: 8 }).map((k) => `x_${k}`);
        if (additional === undefined || additional === true) {
          if (!openExtras) return declared;
          // an open object accepts what it does not name: now and then, one such property
          return fc
            .tuple(declared, fc.option(fc.tuple(keys, fc.jsonValue({ maxDepth: 1 })), { freq: 4 }))
            .map(([d, extra]) => {
              const o = d as Obj;
              return extra && !known.has(extra[0]) ? { ...o, [extra[0]]: extra[1] } : o;
            })
            .filter(counted);
        }
        const value = gen(additional as Schema, `${where}/additionalProperties`, depth + 1);
        return fc
          .tuple(declared, fc.dictionary(keys, value, { maxKeys: 4 }))
          .map(([d, extra]) => ({ ...Object.fromEntries(Object.entries(extra).filter(([k]) => !known.has(k))), ...(d as Obj) }));
      }
      default:
        throw new UnsupportedSchema(`${where}: type ${type}`);
    }
  };

  return gen(schema, '#', 0);
}

/**
 * A branch of a union with the keywords beside it: the branch's own win, but an object's `properties` and `required`
 * add up (`anyOf: [{required: ['a']}, {required: ['b'], properties: {a: false}}]` beside the properties).
 */
export function mergeBranch(rest: Obj, b: Obj): Obj {
  const merged: Obj = { ...rest, ...b };
  if (rest['properties'] !== undefined || b['properties'] !== undefined) {
    const props: Record<string, Schema> = { ...((rest['properties'] ?? {}) as Record<string, Schema>) };
    for (const [k, v] of Object.entries((b['properties'] ?? {}) as Record<string, Schema>)) {
      // the branch narrows what the object says: `false` rules the property out, a schema with only annotations says nothing
      if (v === false || !(k in props) || (typeof v === 'object' && Object.keys(v).some((kw) => !ANNOTATIONS.has(kw)))) props[k] = v;
    }
    merged['properties'] = props;
  }
  if (rest['required'] !== undefined || b['required'] !== undefined)
    merged['required'] = [...new Set([...((rest['required'] ?? []) as string[]), ...((b['required'] ?? []) as string[])])];
  // patterns beside the branches and in them all hold
  const patterns = [...new Set([...patternsOf(rest), ...patternsOf(b)])];
  delete merged['pattern'];
  delete merged['allOf'];
  if (patterns.length === 1) merged['pattern'] = patterns[0];
  if (patterns.length > 1) merged['allOf'] = patterns.map((pattern) => ({ pattern }));
  return merged;
}

/** `allOf: [{pattern}, …]`: the one `allOf` zod writes (a string with more than one `regex`). */
function patternsOnly(allOf: unknown): allOf is { pattern: string }[] {
  return Array.isArray(allOf) && allOf.every((m) => typeof m === 'object' && m !== null && Object.keys(m).every((k) => k === 'pattern' || ANNOTATIONS.has(k)));
}

/** Every pattern a string schema states: its own and those of its `allOf`. */
export function patternsOf(s: Obj): string[] {
  const all = s['allOf'] as { pattern: string }[] | undefined;
  return [...(typeof s['pattern'] === 'string' ? [s['pattern']] : []), ...(all ?? []).map((m) => m.pattern)];
}

function numberOf(s: Obj, integer: boolean, where: string): fc.Arbitrary<number> {
  let min = (s['minimum'] as number | undefined) ?? -1e9;
  let max = (s['maximum'] as number | undefined) ?? 1e9;
  const exMin = s['exclusiveMinimum'] as number | undefined;
  const exMax = s['exclusiveMaximum'] as number | undefined;
  const step = s['multipleOf'] as number | undefined;
  if (integer || step !== undefined) {
    const unit = step ?? 1;
    // whole multiples of the step within the bounds (an integer step of 1 is the integers)
    let lo = Math.ceil(Math.max(min, Number.MIN_SAFE_INTEGER) / unit);
    let hi = Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER) / unit);
    if (exMin !== undefined) lo = Math.max(lo, Math.floor(exMin / unit) + 1);
    if (exMax !== undefined) hi = Math.min(hi, Math.ceil(exMax / unit) - 1);
    if (integer && !Number.isInteger(unit)) throw new UnsupportedSchema(`${where}: an integer with a fractional multipleOf`);
    if (lo > hi) throw new UnsupportedSchema(`${where}: no number in range`);
    // rounding keeps decimal steps exact as JSON writes them (0.01 × 7 → 0.07, not 0.07000000000000001)
    const decimals = Math.max(0, -Math.floor(Math.log10(unit)));
    return fc.integer({ min: lo, max: hi }).map((k) => (unit === 1 ? k : Number((k * unit).toFixed(decimals))));
  }
  if (exMin !== undefined) min = Math.max(min, exMin);
  if (exMax !== undefined) max = Math.min(max, exMax);
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: exMin !== undefined, maxExcluded: exMax !== undefined })
    .map((n) => (Object.is(n, -0) ? 0 : n));
}

const DAY = 86_400_000;
const FROM = Date.UTC(2000, 0, 1);
const TO = Date.UTC(2099, 11, 31);

function stringOf(s: Obj, char: fc.Arbitrary<string>, where: string): fc.Arbitrary<string> {
  const min = (s['minLength'] as number | undefined) ?? 0;
  const max = s['maxLength'] as number | undefined;
  const patterns = patternsOf(s).map((p) => new RegExp(p, 'u'));
  const fits = (v: string) => codePoints(v) >= min && (max === undefined || codePoints(v) <= max) && patterns.every((re) => re.test(v));
  const format = s['format'] as string | undefined;
  if (format !== undefined) {
    let base: fc.Arbitrary<string>;
    switch (format) {
      case 'date':
        base = fc.integer({ min: FROM / DAY, max: TO / DAY }).map((d) => new Date(d * DAY).toISOString().slice(0, 10));
        break;
      case 'date-time':
        base = fc.integer({ min: FROM, max: TO }).map((t) => new Date(Math.floor(t / 1000) * 1000).toISOString());
        break;
      case 'email':
        base = fc.emailAddress();
        break;
      case 'uri':
        base = fc.webUrl();
        break;
      case 'uuid':
        base = fc.uuid();
        break;
      default:
        throw new UnsupportedSchema(`${where}: format ${format}`);
    }
    return base.filter(fits);
  }
  if (patterns.length === 0) return fc.string({ unit: char, minLength: min, ...(max !== undefined ? { maxLength: max } : {}) });
  // from each pattern in turn (fast-check reads it without the Unicode flag: the document's patterns need none to be
  // generated from), kept when it also keeps the others and the bounds
  return fc.oneof(...patternsOf(s).map((p) => fc.stringMatching(new RegExp(p)).filter(fits)));
}
