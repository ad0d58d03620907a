import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../../testing/harness.ts';

describe('API documentation', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => t.close());

  it('serves an OpenAPI 3.1 document generated from the route schemas', async () => {
    const r = await call<{ openapi: string; paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; security: unknown[] }>> }>(
      t.url,
      'GET',
      '/openapi.json',
    );
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    // every route registered through defineLegacyRoute appears, with parameters derived from its zod schema
    for (const doc of t.ctx.docs.list()) {
      const p = doc.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(r.body.paths[p]?.[doc.method], `${doc.method} ${p}`).toBeDefined();
    }
    const reset = r.body.paths['/sandbox/reset']?.['post'];
    expect(reset?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'wipeMoney', in: 'query' })]));
    expect(reset?.security.length).toBeGreaterThan(0);
  });

  it('serves a docs page for people listing every route', async () => {
    const r = await call(t.url, 'GET', '/docs');
    expect(r.headers.get('content-type')).toContain('text/html');
    for (const doc of t.ctx.docs.list()) expect(r.text).toContain(doc.path.replace(/:([A-Za-z_]+)/g, '{$1}'));
  });
});
