import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../testing/harness.ts';
import { SANDBOX_CREDENTIALS } from '../db/seed.ts';

const REDIS_URL = process.env['REDIS_URL'];
const stores = REDIS_URL ? (['memory', 'redis'] as const) : (['memory'] as const);

describe.each(stores)('rate limit with %s counters', (store) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', {
      env: { RATE_LIMIT_PER_HOUR: '3', ...(store === 'redis' ? { REDIS_URL: REDIS_URL!, REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:` } : {}) },
    });
  });
  afterAll(async () => t.close());

  it('allows the hourly budget per credential, then 429 with Retry-After: 3600', async () => {
    const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
    for (let i = 0; i < 3; i++) expect((await call(t.url, 'GET', '/sandbox/audit', { headers: admin })).status).toBe(200);
    const over = await call(t.url, 'GET', '/sandbox/audit', { headers: admin });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('3600');
    expect(over.body).toEqual({ code: 429, message: 'Rate limit exceeded', data: null });
    // another credential has its own budget
    const bob = await call(t.url, 'GET', '/sandbox/audit', { headers: { 'x-api-key': SANDBOX_CREDENTIALS.bob.apiKey } });
    expect(bob.status).toBe(403);
  });

  it('an invalid credential is 401 before any budget is spent', async () => {
    const r = await call(t.url, 'GET', '/sandbox/audit', { headers: { 'x-api-key': 'vk_0000000000000000.nope-nope-nope' } });
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ code: 401, message: 'Invalid API key', data: null });
  });
});

describe('rate limit with Redis configured but down', () => {
  let t: TestServer;
  beforeAll(async () => {
    // nothing listens on port 1: every connection attempt is refused, and the client keeps retrying
    t = await startTestServer('sqlite', { env: { RATE_LIMIT_PER_HOUR: '3', REDIS_URL: 'redis://127.0.0.1:1' } });
  });
  afterAll(async () => t.close());

  it('keeps limiting in process: the budget, then 429, never a 500, each answer prompt', async () => {
    const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const r = await call(t.url, 'GET', '/sandbox/audit', { headers: admin });
      expect(r.status, r.text).toBe(200);
      expect(performance.now() - started).toBeLessThan(2000);
    }
    const over = await call(t.url, 'GET', '/sandbox/audit', { headers: admin });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('3600');
    expect((await call(t.url, 'GET', '/api/v1/auth/me', { headers: { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey } })).status).toBe(200);
    // and health says why
    const health = await call<{ data: { redis: string } }>(t.url, 'GET', '/health');
    expect([health.status, health.body.data.redis]).toEqual([503, 'error']);
  });
});
