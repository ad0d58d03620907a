import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractAjv } from './contract.ts';
import { arbitraryOf, codePoints, UnsupportedSchema, type Schema } from './schema-arbitrary.ts';
import { mutationsOf } from './schema-mutations.ts';

const ajv = contractAjv();

/** A request schema as the document has it: zod's 2020-12 output for input. */
const doc = (s: z.ZodType): Schema => {
  const { $schema: _, ...json } = z.toJSONSchema(s, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return json;
};

/** The shapes the document's request bodies are made of. */
const SHAPES: Record<string, Schema> = {
  'a strict object, nullable and optional fields, bounds': doc(
    z.strictObject({
      machineNo: z
        .string()
        .regex(/^[A-Za-z0-9-]+$/)
        .min(8)
        .max(32),
      name: z.string().max(100).optional(),
      notes: z.string().max(255).nullable().optional(),
      salesTaxRate: z.number().min(0).max(100).nullable().optional(),
      count: z.number().int().min(1).max(20),
      cents: z.number().multipleOf(0.01).min(0).max(1000),
      enabled: z.boolean().nullable(),
    }),
  ),
  'enums, consts and a discriminated union': doc(
    z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('aisle'), aisle: z.number().int().min(1).max(80) }),
      z.strictObject({ kind: z.literal('product'), product: z.enum(['cola', 'water']), quantity: z.number().int().positive().optional() }),
    ]),
  ),
  'arrays, records, formats, an open object': doc(
    z.object({
      days: z.array(z.iso.date()).min(1).max(7),
      at: z.iso.datetime(),
      email: z.email(),
      quiet: z.record(z.string().regex(/^[a-z]{2,5}$/), z.number().min(0).max(10)).optional(),
      window: z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$/),
      tags: z.array(z.string().min(1).max(10)).max(3).optional(),
    }),
  ),
  'two patterns, a branch of required properties, a property ruled out, minProperties': {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      code: { type: 'string', allOf: [{ pattern: '^[A-Z0-9]+$' }, { pattern: '\\d' }], maxLength: 6 },
      one: { type: 'string', pattern: '^[a-z]{2}$' },
      list: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 3 }, maxItems: 2 },
    },
    anyOf: [
      { required: ['one'], properties: { list: false } },
      { required: ['list'], properties: { one: false } },
    ],
  },
  'a $ref into $defs': {
    type: 'object',
    additionalProperties: false,
    required: ['a'],
    properties: { a: { $ref: '#/$defs/A' } },
    $defs: { A: { type: 'string', minLength: 2, maxLength: 4 } },
  },
};

describe('arbitraryOf', () => {
  it.each(Object.entries(SHAPES))('makes values the schema accepts: %s', (_name, schema) => {
    const validate = ajv.compile(schema as object);
    fc.assert(
      fc.property(arbitraryOf(schema, { text: 'any' }), (v) => {
        expect(validate(v), `${JSON.stringify(v)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }),
      { numRuns: 300, seed: 30 },
    );
  });

  it('counts string lengths in code points, as JSON Schema does', () => {
    const schema = { type: 'string', minLength: 2, maxLength: 3 };
    fc.assert(
      fc.property(arbitraryOf(schema), (v) => {
        const n = codePoints(v as string);
        expect(n >= 2 && n <= 3, JSON.stringify(v)).toBe(true);
      }),
      { numRuns: 300, seed: 30 },
    );
  });

  it('leaves optional properties out and puts extras in an open object, sometimes', () => {
    const schema = doc(z.object({ a: z.string().optional() }));
    const seen = fc.sample(arbitraryOf(schema), { numRuns: 200, seed: 30 }) as Record<string, unknown>[];
    expect(seen.some((v) => !('a' in v))).toBe(true);
    expect(seen.some((v) => 'a' in v)).toBe(true);
    expect(seen.some((v) => Object.keys(v).some((k) => k !== 'a'))).toBe(true);
    expect(
      (fc.sample(arbitraryOf(schema, { openExtras: false }), { numRuns: 200, seed: 30 }) as object[]).every((v) => Object.keys(v).every((k) => k === 'a')),
    ).toBe(true);
  });

  it('refuses a keyword it does not know rather than guess', () => {
    expect(() => arbitraryOf({ type: 'object', patternProperties: { '^a': {} } })).toThrow(UnsupportedSchema);
    expect(() => arbitraryOf({ not: { type: 'string' } })).toThrow(UnsupportedSchema);
    expect(() => arbitraryOf({ type: 'string', format: 'hostname' })).toThrow(UnsupportedSchema);
  });
});

describe('mutationsOf', () => {
  it.each(Object.entries(SHAPES))('derives refused values of each kind the schema can break: %s', (_name, schema) => {
    const validate = ajv.compile(schema as object);
    const kinds = new Set<string>();
    fc.assert(
      fc.property(arbitraryOf(schema), (v) => {
        const refused = mutationsOf(schema, v).filter((m) => !validate(m.value));
        for (const m of refused) kinds.add(m.kind);
        // a value whose schema says anything at all has some way to break it
        expect(refused.length).toBeGreaterThan(0);
      }),
      { numRuns: 100, seed: 30 },
    );
    expect(kinds.has('type')).toBe(true);
  });

  it('names each rule it breaks on the strict object', () => {
    const schema = SHAPES['a strict object, nullable and optional fields, bounds']!;
    const value = { machineNo: 'SBX-00000001', name: 'Lobby', notes: null, count: 3, cents: 1.25, enabled: true };
    const validate = ajv.compile(schema as object);
    expect(validate(value)).toBe(true);
    const refused = mutationsOf(schema, value).filter((m) => !validate(m.value));
    const whys = refused.map((m) => m.why);
    expect(whys).toEqual(
      expect.arrayContaining([
        '/machineNo missing',
        '/count missing',
        '/unexpected not declared',
        '/machineNo longer than 32',
        '/machineNo shorter than 8',
        '/count above 20',
        '/count below 1',
        '/count not a whole number',
        '/name longer than 100',
        '/enabled of the wrong type',
      ]),
    );
    expect(whys.some((w) => w.startsWith('/machineNo off the pattern'))).toBe(true);
    expect(refused.find((m) => m.why === '/count missing')?.value).not.toHaveProperty('count');
    // a union's type is its branches' together: `null` or a boolean, so a string is of the wrong type, kind 'type'
    expect(refused.find((m) => m.why === '/enabled of the wrong type')?.kind).toBe('type');
  });
});
