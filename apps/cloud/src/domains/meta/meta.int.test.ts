import { parseReleaseSecretKey } from '@vend/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { DOCS_CSP } from './docs-ui.ts';

const SANDBOX_KEYS = Object.values(SANDBOX_CREDENTIALS).flatMap((c) => ('apiKey' in c ? [c.apiKey] : []));

/** Every script and stylesheet a page loads, and whether any script or style is inline. */
function pageResources(html: string): { scripts: string[]; styles: string[]; inline: boolean } {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  return {
    scripts: scripts.map((m) => /src="([^"]+)"/.exec(m[1] ?? '')?.[1] ?? ''),
    styles: [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!),
    inline: scripts.some((m) => (m[2] ?? '').trim() !== '') || /<style\b|\sstyle=|\son[a-z]+=/i.test(html),
  };
}

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
    // every route registered through defineRoute/defineLegacyRoute appears, with parameters derived from its zod schema
    for (const doc of t.ctx.docs.list()) {
      const p = doc.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(r.body.paths[p]?.[doc.method], `${doc.method} ${p}`).toBeDefined();
    }
    const reset = r.body.paths['/sandbox/reset']?.['post'];
    expect(reset?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'wipeMoney', in: 'query' })]));
    expect(reset?.security.length).toBeGreaterThan(0);
  });

  it('documents each error with the catalogue text as its example (spec 1 §7)', async () => {
    type Response = { $ref?: string; description?: string; headers?: Record<string, unknown>; content?: Record<string, { example?: { message?: string } }> };
    const r = await call<{
      paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
      components: { responses: Record<string, Response> };
    }>(t.url, 'GET', '/openapi.json');
    const resolve = (x: Response | undefined) => (x?.$ref ? r.body.components.responses[x.$ref.split('/').pop()!] : x);
    const example = (x: Response | undefined) => resolve(x)?.content?.['application/json']?.example?.message;
    const getMachine = r.body.paths['/api/v1/machines/{machineNo}']!['get']!.responses;
    expect(example(getMachine['400'])).toBe('Bad request — invalid or missing parameters');
    expect(example(getMachine['401'])).toBe('Invalid API key');
    expect(example(getMachine['403'])).toBe('Insufficient scope');
    expect(example(getMachine['404'])).toBe('Machine not found');
    expect(example(getMachine['429'])).toBe('Rate limit exceeded');
    expect(resolve(getMachine['429'])?.headers).toHaveProperty('Retry-After');
    expect(example(getMachine['413'])).toBe('Request body too large');
    expect(getMachine['415']).toBeDefined();
    for (const [path, ops] of Object.entries(r.body.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, res] of Object.entries(op.responses)) expect(resolve(res)?.description, `${method} ${path} ${status}`).toBeTruthy();
      }
    }
  });

  it('serves the interactive reference with a self-only content policy and no inline code', async () => {
    const r = await call(t.url, 'GET', '/docs');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(DOCS_CSP).toMatch(/default-src 'self'/);
    expect(DOCS_CSP).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    const { scripts, styles, inline } = pageResources(r.text);
    expect(inline).toBe(false);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of [...scripts, ...styles]) expect(src.startsWith('/'), src).toBe(true);
    // readers without JavaScript still get every route
    for (const doc of t.ctx.docs.list()) expect(r.text).toContain(doc.path.replace(/:([A-Za-z_]+)/g, '{$1}'));
  });

  it('serves Swagger UI from its package, cached for a year under a versioned path, and nothing else of the package', async () => {
    const page = await call(t.url, 'GET', '/docs');
    const { scripts, styles } = pageResources(page.text);
    const assets = [...scripts, ...styles].filter((s) => s.startsWith('/docs/assets/'));
    expect(assets).toHaveLength(2);
    for (const asset of assets) {
      const r = await call(t.url, 'GET', asset);
      expect(r.status, asset).toBe(200);
      expect(r.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
      expect(r.text.length, asset).toBeGreaterThan(10_000);
    }
    const base = assets[0]!.slice(0, assets[0]!.lastIndexOf('/'));
    expect(base).toMatch(/^\/docs\/assets\/\d+\.\d+\.\d+$/);
    for (const other of ['package.json', 'index.html', 'swagger-ui.js.map', '..%2Fpackage.json']) {
      expect((await call(t.url, 'GET', `${base}/${other}`)).status, other).toBe(404);
    }
  });

  it("presets alice's sandbox key in sandbox mode", async () => {
    const init = await call(t.url, 'GET', '/docs/init.js');
    expect(init.status).toBe(200);
    expect(init.headers.get('content-type')).toContain('javascript');
    expect(init.text).toContain(`preauthorizeApiKey('apiKey', ${JSON.stringify(SANDBOX_CREDENTIALS.alice.apiKey)})`);
  });
});

describe('API documentation in production', () => {
  let t: TestServer;
  beforeAll(async () => {
    const releaseKey = parseReleaseSecretKey('22'.repeat(32))!;
    t = await startTestServer('sqlite', {
      seed: false,
      env: {
        VEND_MODE: 'production',
        DATA_KEY: 'd'.repeat(40),
        FLEET_SECRET: 'prod-fleet-secret-0001',
        WEBHOOK_SECRET: 'w'.repeat(24),
        AD_PAYMENTS_WEBHOOK_SECRET: 'a'.repeat(24),
        RELEASE_PUBLIC_KEY: Buffer.from(releaseKey.publicKey).toString('base64'),
        ARTIFACT_URL_PREFIX: 'https://artifacts.vend.test/agent/',
      },
    });
  });
  afterAll(async () => t.close());

  it('presets no credential: neither the page nor its script carries a key', async () => {
    const page = await call(t.url, 'GET', '/docs');
    const init = await call(t.url, 'GET', '/docs/init.js');
    expect(page.status).toBe(200);
    expect(init.status).toBe(200);
    expect(init.text).not.toContain('preauthorizeApiKey(');
    for (const key of SANDBOX_KEYS) {
      expect(page.text).not.toContain(key);
      expect(init.text).not.toContain(key);
    }
    expect(page.text).not.toContain('sandbox-note');
  });
});
