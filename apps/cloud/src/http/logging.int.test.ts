import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../testing/harness.ts';
import { SANDBOX_CREDENTIALS } from '../db/seed.ts';

describe('request logs', () => {
  let t: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    t = await startTestServer('sqlite', { logDestination: sink });
  });
  afterAll(async () => t.close());

  it('carry a request id on every line, echoed to the client', async () => {
    const r = await call(t.url, 'GET', '/sandbox/audit', { headers: { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey, 'x-request-id': 'req-abc-123' } });
    expect(r.headers.get('x-request-id')).toBe('req-abc-123');
    const generated = await call(t.url, 'GET', '/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((r) => setTimeout(r, 50));
    const mine = lines.map((l) => JSON.parse(l) as { req?: { id?: string } }).filter((l) => l.req?.id === 'req-abc-123');
    expect(mine.length).toBeGreaterThan(0);
  });

  it('never contain a credential', async () => {
    const secrets = [SANDBOX_CREDENTIALS.admin.apiKey.split('.')[1]!, 'my-bearer-token-value', SANDBOX_CREDENTIALS.alice.password];
    await call(t.url, 'GET', '/sandbox/audit', { headers: { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey } });
    await call(t.url, 'GET', '/sandbox/audit', { headers: { authorization: 'Bearer my-bearer-token-value' } });
    await call(t.url, 'POST', '/sandbox/reset', { json: { password: SANDBOX_CREDENTIALS.alice.password }, headers: { secret: 'sbx-fleet-secret-4b2d' } });
    await new Promise((r) => setTimeout(r, 50));
    const all = lines.join('\n');
    expect(all.length).toBeGreaterThan(0);
    for (const s of [...secrets, 'sbx-fleet-secret-4b2d']) expect(all).not.toContain(s);
    expect(all).toContain('[redacted]');
  });

  it('never contain a buyer’s status token, which the status page carries in its path', async () => {
    const secret = 'Zk3Qm0dYbQx8k2nL1pVt7eHc9uRwAa4sJ6fGyT0oPqE';
    await call(t.url, 'GET', `/advertise/status/adp_0mwoxfuo0deadbeefdeadbeef.${secret}?lang=en`);
    await call(t.url, 'POST', '/api/v1/marketplace/purchases/lookup', { json: { statusToken: `adp_0mwoxfuo0deadbeefdeadbeef.${secret}` } });
    await new Promise((r) => setTimeout(r, 50));
    const all = lines.join('\n');
    expect(all).not.toContain(secret);
    expect(all).toContain('/advertise/status/[redacted]');
  });
});
