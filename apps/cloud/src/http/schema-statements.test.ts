import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReleaseManifest } from '@vend/protocol';
import { ApiDocs } from './api-docs.ts';

/** The request body schema of a one-route document. */
function bodyOf(body: z.ZodType): Record<string, Record<string, unknown>> {
  const docs = new ApiDocs();
  docs.add({ method: 'post', path: '/x', tag: 'meta', summary: 'x', auth: 'none', body });
  const paths = docs.document()['paths'] as Record<string, Record<string, { requestBody: { content: Record<string, { schema: Record<string, unknown> }> } }>>;
  return paths['/x']!['post']!.requestBody.content['application/json']!.schema['properties'] as Record<string, Record<string, unknown>>;
}

describe('what the document states of a request beyond zod’s rendering', () => {
  it('a trimmed string with a least length refuses spaces alone: a non-space, or two n-1 apart', () => {
    const p = bodyOf(z.object({ name: z.string().trim().min(1), reason: z.string().trim().min(4).max(9), free: z.string().trim().max(5) }));
    expect(p['name']).toMatchObject({ minLength: 1, pattern: '\\S' });
    expect(p['reason']).toMatchObject({ minLength: 4, maxLength: 9, pattern: '\\S[\\s\\S]{2,}\\S' });
    expect(p['free']).not.toHaveProperty('pattern');
    for (const [value, ok] of [
      ['   ', false],
      [' ab ', false],
      [' a  b ', true],
      ['abcd', true],
    ] as const)
      expect(new RegExp(p['reason']!['pattern'] as string, 'u').test(value), value).toBe(ok);
  });

  it('a trimmed line piped into a stricter string states that one’s format, patterns and least length too', () => {
    const line = z
      .string()
      .trim()
      .max(254)
      .regex(/^[^#]*$/);
    const p = bodyOf(z.object({ email: line.pipe(z.email()), code: line.pipe(z.string().min(2)) }));
    expect(p['email']).toMatchObject({ format: 'email', maxLength: 254 });
    expect((p['email']!['allOf'] as { pattern: string }[]).length).toBe(2);
    expect(p['code']).toMatchObject({ minLength: 2, allOf: [{ pattern: '^[^#]*$' }, { pattern: '\\S[\\s\\S]{0,}\\S' }] });
  });

  it('keeps the metadata of a schema behind a lazySchema stand-in (@vend/protocol’s release manifest: its two shapes)', () => {
    const docs = new ApiDocs();
    docs.add({ method: 'post', path: '/x', tag: 'meta', summary: 'x', auth: 'none', body: ReleaseManifest });
    const schema = (docs.document()['paths'] as Record<string, Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>>)['/x']![
      'post'
    ]!.requestBody.content['application/json']!.schema;
    expect(schema).toMatchObject({ anyOf: [{ required: ['sha256', 'size', 'url'] }, { required: ['artifacts'] }] });
  });
});
