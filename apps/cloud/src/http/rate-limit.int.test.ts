import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startReplicas, startTestServer, type Replicas, type TestServer } from '../testing/harness.ts';
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

const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
/** `n` requests of one credential, alternating between the replicas (a, b, a, …): their statuses in order. */
async function spread(r: Replicas, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await call((i % 2 === 0 ? r.a : r.b).url, 'GET', '/sandbox/audit', { headers: admin })).status);
  return statuses;
}

describe.runIf(REDIS_URL)('rate limit across two replicas on one Redis', () => {
  let r: Replicas;
  beforeAll(async () => {
    r = await startReplicas('sqlite', { RATE_LIMIT_PER_HOUR: '3', REDIS_URL: REDIS_URL!, REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:` });
  });
  afterAll(async () => r.close());

  it('the budget holds for the sum over replicas: N + 1 requests spread over both, exactly one 429 (the last)', async () => {
    expect(await spread(r, 4)).toEqual([200, 200, 200, 429]);
  });
});

describe('rate limit across two replicas while their Redis is down', () => {
  let r: Replicas;
  beforeAll(async () => {
    // nothing listens on port 1: every connection attempt is refused, and the client keeps retrying
    r = await startReplicas('sqlite', { RATE_LIMIT_PER_HOUR: '3', REDIS_URL: 'redis://127.0.0.1:1' });
  });
  afterAll(async () => r.close());

  it('each replica keeps limiting in process: N per replica (replicas × N in all), then 429, never a 5xx, each answer prompt', async () => {
    for (let i = 0; i < 6; i++) {
      const started = performance.now();
      const res = await call((i % 2 === 0 ? r.a : r.b).url, 'GET', '/sandbox/audit', { headers: admin });
      expect(res.status, res.text).toBe(200);
      expect(performance.now() - started).toBeLessThan(2000);
    }
    const over = await call(r.a.url, 'GET', '/sandbox/audit', { headers: admin });
    expect([over.status, over.headers.get('retry-after')]).toEqual([429, '3600']);
    expect((await call(r.b.url, 'GET', '/sandbox/audit', { headers: admin })).status).toBe(429);
    expect([r.a.ctx.rateLimiter.fallingBack, r.b.ctx.rateLimiter.fallingBack]).toEqual([true, true]);
    expect((await call(r.b.url, 'GET', '/api/v1/auth/me', { headers: { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey } })).status).toBe(200);
    // and health says why
    const health = await call<{ data: { redis: string } }>(r.a.url, 'GET', '/health');
    expect([health.status, health.body.data.redis]).toEqual([503, 'error']);
  });
});
