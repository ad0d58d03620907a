import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

describe('lazySchema', () => {
  it('builds the schema on first use, and only once', () => {
    let builds = 0;
    const S = lazySchema(() => {
      builds++;
      return z.object({ n: z.number().int() });
    });
    expect(builds).toBe(0);
    expect(S.parse({ n: 1 })).toEqual({ n: 1 });
    expect(S.safeParse({ n: 1.5 }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it('stands in for the schema: instanceof, shape, extend, composition, JSON Schema', () => {
    const eager = z.object({ id: z.string().min(1), at: z.number().nullable() });
    const S = lazySchema(() => z.object({ id: z.string().min(1), at: z.number().nullable() }));
    expect(S).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(S.shape)).toEqual(['id', 'at']);
    const Wider = S.extend({ extra: z.boolean() });
    expect(Wider.parse({ id: 'a', at: null, extra: true })).toEqual({ id: 'a', at: null, extra: true });
    const Outer = z.object({ inner: S, list: z.array(S).max(2) });
    expect(Outer.safeParse({ inner: { id: '', at: 1 }, list: [] }).error?.issues[0]?.path).toEqual(['inner', 'id']);
    expect(z.toJSONSchema(z.object({ inner: S }))).toEqual(z.toJSONSchema(z.object({ inner: eager })));
    expect(z.toJSONSchema(S, { io: 'input' })).toEqual(z.toJSONSchema(eager, { io: 'input' }));
  });

  it('composes with another lazy schema without building either at definition', () => {
    let builds = 0;
    const A = lazySchema(() => (builds++, z.object({ a: z.string() })));
    const B = lazySchema(() => (builds++, A.extend({ b: z.number() })));
    expect(builds).toBe(0);
    expect(B.parse({ a: 'x', b: 2 })).toEqual({ a: 'x', b: 2 });
    expect(builds).toBe(2);
  });
});

describe('the protocol package', () => {
  it('exports every schema as a lazy stand-in (built on first use, not at import)', async () => {
    const { types } = await import('node:util');
    const protocol: Record<string, unknown> = await import('./index.ts');
    const eager = Object.entries(protocol)
      .filter(([, v]) => v instanceof z.ZodType && !types.isProxy(v))
      .map(([name]) => name);
    expect(eager).toEqual([]);
  });
});
