import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';

const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };

/** The data set without credential hashes (salted/sealed per write): what a reset must reproduce byte for byte. */
async function snapshot(t: TestServer): Promise<string> {
  const db = t.ctx.database.db;
  const machines = await db.selectFrom('machines').selectAll().orderBy('id').execute();
  const aisles = await db.selectFrom('aisles').selectAll().orderBy('machine_id').orderBy('aisle_no').execute();
  const orders = await db.selectFrom('orders').selectAll().orderBy('order_number').execute();
  const terminals = await db.selectFrom('payment_terminals').selectAll().orderBy('id').execute();
  const operators = await db.selectFrom('operators').select(['id', 'email', 'name', 'admin', 'currency', 'merchant_account']).orderBy('id').execute();
  return JSON.stringify({ machines, aisles, orders, terminals, operators });
}

describe.each(DIALECTS)('sandbox core on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect);
  });
  afterAll(async () => t.close());

  it('answers unknown routes with 404 in the envelope', async () => {
    const r = await call(t.url, 'GET', '/api/v1/definitely-not-here');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 404, message: expect.stringContaining('No route'), data: null });
  });

  it('reports health of the store, with redis disabled when not configured', async () => {
    const r = await call(t.url, 'GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ code: 200, message: 'success', data: { db: 'ok', redis: 'disabled' } });
  });

  it('readiness really calls its own endpoints and passes', async () => {
    const r = await call<{
      data: {
        overall: string;
        version: string;
        dataset: { machines: number; operators: number };
        selfTest: { pass: boolean; latencyMs: number; status: number }[];
      };
    }>(t.url, 'GET', '/sandbox/readiness', { headers: { accept: 'application/json' } });
    expect(r.status).toBe(200);
    expect(r.body.data.version).toBe('v1');
    expect(r.body.data.dataset.operators).toBeGreaterThanOrEqual(3);
    expect(r.body.data.dataset.machines).toBeGreaterThanOrEqual(4);
    expect(r.body.data.selfTest.length).toBeGreaterThanOrEqual(3);
    for (const s of r.body.data.selfTest) {
      expect(s.pass).toBe(true);
      expect(typeof s.latencyMs).toBe('number');
    }
    expect(r.body.data.overall).toBe('pass');
  });

  it('serves readiness as an HTML dashboard to browsers', async () => {
    const r = await call(t.url, 'GET', '/sandbox/readiness', { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(r.headers.get('content-type')).toContain('text/html');
    expect(r.text).toContain('<table>');
    const forced = await call(t.url, 'GET', '/sandbox/readiness', { query: { format: 'html' } });
    expect(forced.headers.get('content-type')).toContain('text/html');
  });

  it('refuses audit and reset to non-admins', async () => {
    expect((await call(t.url, 'GET', '/sandbox/audit')).status).toBe(401);
    expect((await call(t.url, 'GET', '/sandbox/audit', { headers: alice })).status).toBe(403);
    expect((await call(t.url, 'POST', '/sandbox/reset', { headers: alice })).status).toBe(403);
  });

  it('a reset restores byte-identical data, re-applies later orders, and is audited', async () => {
    const before = await snapshot(t);
    const db = t.ctx.database.db;
    const someOrder = await db.selectFrom('orders').selectAll().limit(1).executeTakeFirstOrThrow();
    await db
      .insertInto('orders')
      .values({ ...someOrder, order_number: 'LIVE-0001' })
      .execute();
    await db.updateTable('aisles').set({ current_stock: 0 }).execute();

    const r = await call(t.url, 'POST', '/sandbox/reset', { headers: admin });
    expect(r.body).toEqual({ code: 200, message: 'success', data: { reset: true } });
    const kept = await db.selectFrom('orders').select('order_number').where('order_number', '=', 'LIVE-0001').execute();
    expect(kept).toHaveLength(1);

    const wiped = await call(t.url, 'POST', '/sandbox/reset', { headers: admin, query: { wipeMoney: 'true' } });
    expect(wiped.status).toBe(200);
    expect(await snapshot(t)).toBe(before);

    const audit = await call<{ data: { records: { action: string; keyId: string; userId: string; resource: string; timestamp: string }[] } }>(
      t.url,
      'GET',
      '/sandbox/audit',
      {
        headers: admin,
      },
    );
    expect(audit.body.data.records.map((a) => a.action)).toEqual(expect.arrayContaining(['sandbox.reset', 'sandbox.reset.wipe_money']));
    expect(audit.body.data.records[0]).toMatchObject({ keyId: '5bada0000000a001', resource: 'sandbox' });
  });

  it('reset query flags are validated', async () => {
    const r = await call(t.url, 'POST', '/sandbox/reset', { headers: admin, query: { wipeMoney: 'maybe' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 400, data: null });
  });

  it('reports persistence without the envelope', async () => {
    const r = await call<{ backend: string; active: boolean; counts: Record<string, number> }>(t.url, 'GET', '/sandbox/persistence');
    expect(r.body.backend).toBe(dialect);
    expect(r.body.counts['machines']).toBeGreaterThan(0);
  });

  it('a body that claims compression but is not compressed is a 4xx, never a 5xx', async () => {
    const r = await call(t.url, 'POST', '/sandbox/reset', {
      headers: { ...admin, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: '{"a":1}',
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 400, data: null });
  });

  it('malformed JSON is a 400 in the envelope, never a 5xx', async () => {
    const r = await call(t.url, 'POST', '/sandbox/reset', { headers: { ...admin, 'content-type': 'application/json' }, body: '{"oops' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 400, data: null });
  });
});
