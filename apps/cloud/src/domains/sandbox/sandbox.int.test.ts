import { describe, expect, it } from 'vitest';
import { DIALECTS, call, type TestServer, suiteServer } from '../../testing/harness.ts';
import type { Body } from '../../testing/answers.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import type { ManualClock } from '@vend/protocol';

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

interface AuditEntry {
  keyId: string | null;
  userId: string | null;
  action: string;
  resource: string;
  timestamp: string;
}

describe.each(DIALECTS)('sandbox core on %s', (dialect) => {
  const t = suiteServer(dialect);

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

    const audit = await call<{ data: AuditEntry[] }>(t.url, 'GET', '/sandbox/audit', { headers: admin });
    expect(audit.body.data.map((a) => a.action)).toEqual(expect.arrayContaining(['sandbox.reset', 'sandbox.reset.wipe_money']));
    expect(audit.body.data[0]).toMatchObject({ keyId: '5bada0000000a001', resource: 'sandbox' });
  });

  it('answers the audit log as the spec says: data is the array of {keyId,userId,action,resource,timestamp}, timestamps in +0000 form, total in X-Total-Count', async () => {
    // two resets a second apart: two audit records, the later one newest
    for (const wipe of ['false', 'true']) {
      (t.clock as ManualClock).advance(1000);
      expect((await call(t.url, 'POST', '/sandbox/reset', { headers: admin, query: { wipeMoney: wipe } })).status).toBe(200);
    }
    const total = Number(
      (
        await t.ctx.database.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(total).toBeGreaterThan(1);
    const r = await call<Body<AuditEntry[]>>(t.url, 'GET', '/sandbox/audit', { headers: admin });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(200);
    expect(Array.isArray(r.body.data)).toBe(true);
    expect(r.body.data.length).toBe(Math.min(total, 20));
    for (const e of r.body.data) {
      expect(Object.keys(e).sort()).toEqual(['action', 'keyId', 'resource', 'timestamp', 'userId']);
      expect(e.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/);
    }
    expect(r.body.data[0]).toEqual({
      action: 'sandbox.reset.wipe_money',
      keyId: '5bada0000000a001',
      userId: 'op_sbx_admin',
      resource: 'sandbox',
      timestamp: new Date(t.clock.now()).toISOString().replace('Z', '+0000'),
    });
    expect(r.body.data[1]).toMatchObject({ action: 'sandbox.reset' });
    expect(r.headers.get('x-total-count')).toBe(String(total));

    // paging stays in the query: page 2 of size 1 is the second newest entry
    const second = await call<{ data: AuditEntry[] }>(t.url, 'GET', '/sandbox/audit', { headers: admin, query: { page: '2', size: '1' } });
    expect(second.body.data).toEqual([r.body.data[1]]);
    expect(second.headers.get('x-total-count')).toBe(String(total));
    const past = await call<{ data: AuditEntry[] }>(t.url, 'GET', '/sandbox/audit', { headers: admin, query: { page: '1000', size: '100' } });
    expect(past.body.data).toEqual([]);
    expect((await call(t.url, 'GET', '/sandbox/audit', { headers: admin, query: { size: '101' } })).status).toBe(400);
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

  // last in the suite: the server stays draining
  it('readiness is 200 ready while serving, 503 draining once shutdown began (liveness unaffected, sockets closed after each answer)', async () => {
    const ready = await call<{ data: { status: string; db: string } }>(t.url, 'GET', '/ready');
    expect([ready.status, ready.body.data]).toEqual([200, { status: 'ready', db: 'ok' }]);
    t.ctx.lifecycle.startDraining();
    const draining = await call(t.url, 'GET', '/ready');
    expect([draining.status, draining.body]).toEqual([503, { code: 503, message: 'draining', data: { status: 'draining', db: 'unchecked' } }]);
    expect(draining.headers.get('connection')).toBe('close');
    expect((await call(t.url, 'GET', '/health')).status).toBe(200);
  });
});
