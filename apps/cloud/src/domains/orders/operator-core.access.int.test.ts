import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, type TestServer } from '../../testing/harness.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { STANDARD_OPERATOR_SCOPES, type Scope } from '../../http/scopes.ts';
import { ADMIN, ALICE, BOB, FACTORY, narrowKey, sendWebhook, snapshot, startServer, terminalOf } from '../payments/operator-core.test-support.ts';

/**
 * Every endpoint of inventory, orders and payments against every kind of caller: none (401), a
 * credential without the route's scope (403), another operator (404, or not listed), the owner and
 * an admin (200). Refused writes change nothing.
 */
interface Endpoint {
  method: 'GET' | 'POST' | 'PUT';
  /** Alice's resource. */
  path: (f: Fixture) => string;
  /** The same kind of request aimed at something Alice cannot see, made as Alice; 404 expected. */
  foreign?: (f: Fixture) => string;
  /** For lists without a resource: what Alice's answer must not contain. */
  mustNotList?: string;
  scope: Scope;
  json?: unknown;
  query?: Record<string, string>;
}

interface Fixture {
  aliceOrder: string;
  bobOrder: string;
}

const ENDPOINTS: Record<string, Endpoint> = {
  'GET /api/v1/inventory': { method: 'GET', path: () => '/api/v1/inventory', mustNotList: 'SBX-BOB-', scope: 'inventory:read' },
  'GET /api/v1/inventory/machines/:machineNo': {
    method: 'GET',
    path: () => '/api/v1/inventory/machines/SBX-ALICE-0001',
    foreign: () => '/api/v1/inventory/machines/SBX-BOB-0001',
    scope: 'inventory:read',
  },
  'POST /api/v1/inventory/machines/:machineNo/restock': {
    method: 'POST',
    path: () => '/api/v1/inventory/machines/SBX-ALICE-0001/restock',
    foreign: () => '/api/v1/inventory/machines/SBX-BOB-0001/restock',
    scope: 'inventory:write',
    json: { aisles: [1] },
  },
  'PUT /api/v1/inventory/machines/:machineNo/aisles/:aisleNo': {
    method: 'PUT',
    path: () => '/api/v1/inventory/machines/SBX-ALICE-0001/aisles/2',
    foreign: () => '/api/v1/inventory/machines/SBX-BOB-0001/aisles/2',
    scope: 'inventory:write',
    json: { alertThreshold: 1 },
  },
  'GET /api/v1/inventory/lots': { method: 'GET', path: () => '/api/v1/inventory/lots', mustNotList: 'lot_bob', scope: 'inventory:read' },
  'GET /api/v1/orders': {
    method: 'GET',
    path: () => '/api/v1/orders?machineNo=SBX-ALICE-0001',
    foreign: () => '/api/v1/orders?machineNo=SBX-BOB-0001',
    scope: 'orders:read',
  },
  'GET /api/v1/orders/summary': {
    method: 'GET',
    path: () => '/api/v1/orders/summary?machineNo=SBX-ALICE-0002',
    foreign: () => '/api/v1/orders/summary?machineNo=SBX-BOB-0002',
    scope: 'orders:read',
  },
  'GET /api/v1/orders/:orderNumber': {
    method: 'GET',
    path: (f) => `/api/v1/orders/${f.aliceOrder}`,
    foreign: (f) => `/api/v1/orders/${f.bobOrder}`,
    scope: 'orders:read',
  },
  'GET /api/v1/payments': {
    method: 'GET',
    path: () => '/api/v1/payments?machineNo=SBX-ALICE-0003',
    foreign: () => '/api/v1/payments?machineNo=SBX-BOB-0001',
    scope: 'orders:read',
  },
  'GET /api/v1/payments/summary': {
    method: 'GET',
    path: () => '/api/v1/payments/summary',
    foreign: () => '/api/v1/payments/summary?machineNo=SBX-BOB-0002',
    mustNotList: 'acct_op_sbx_bob',
    scope: 'orders:read',
  },
  'GET /api/v1/payments/cashless/terminals': {
    method: 'GET',
    path: () => '/api/v1/payments/cashless/terminals',
    mustNotList: 'SBX-BOB-',
    scope: 'orders:read',
  },
};

const cases = Object.entries(ENDPOINTS);

describe.each(DIALECTS)('inventory, orders and payments access on %s', (dialect) => {
  let t: TestServer;
  let f: Fixture;
  const lacking = new Map<Scope, Record<string, string>>();
  beforeAll(async () => {
    t = await startServer(dialect);
    const db = t.ctx.database.db;
    const first = (op: string) =>
      db.selectFrom('orders').select('order_number').where('operator_id', '=', op).orderBy('order_number').executeTakeFirstOrThrow();
    f = { aliceOrder: (await first(OPERATOR_IDS.alice)).order_number, bobOrder: (await first(OPERATOR_IDS.bob)).order_number };
    await db
      .insertInto('lots')
      .values({
        id: 'lot_bob',
        operator_id: OPERATOR_IDS.bob,
        sku: 'SKU-COLA-355',
        qty_received: 1,
        qty_remaining: 1,
        unit_cost_cents: 50,
        received_at: 0,
        purchase_order_ref: null,
      })
      .execute();
    // for each scope, an alice key holding every standard scope but that one
    for (const scope of ['inventory:read', 'inventory:write', 'orders:read'] as const) {
      lacking.set(scope, await narrowKey(t, OPERATOR_IDS.alice, STANDARD_OPERATOR_SCOPES.filter((s) => s !== scope).join(' ')));
    }
  });
  afterAll(async () => t.close());

  const send = (e: Endpoint, headers: Record<string, string>, path = e.path(f)) =>
    call(t.url, e.method, path, { headers, ...(e.json !== undefined ? { json: e.json } : {}) });

  it.each(cases)('%s: no credential is 401 and changes nothing', async (_name, e) => {
    const before = await snapshot(t);
    const r = await send(e, {});
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ code: 401, message: 'Invalid API key', data: null });
    expect(await snapshot(t)).toBe(before);
  });

  it.each(cases)('%s: the factory key (machines:read, machines:build) is 403 and changes nothing', async (_name, e) => {
    const before = await snapshot(t);
    const r = await send(e, FACTORY);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ code: 403, message: 'Insufficient scope', data: null });
    expect(await snapshot(t)).toBe(before);
  });

  it.each(cases)('%s: a key with every other operator scope is 403 and changes nothing', async (_name, e) => {
    const before = await snapshot(t);
    const r = await send(e, lacking.get(e.scope)!);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ code: 403, message: 'Insufficient scope', data: null });
    expect(await snapshot(t)).toBe(before);
  });

  it.each(cases)("%s: another operator's resource is 404, or absent from the list", async (_name, e) => {
    if (e.foreign) {
      const before = await snapshot(t);
      const r = await send(e, ALICE, e.foreign(f));
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 404, message: expect.stringMatching(/^(Machine|Order) not found$/), data: null });
      expect(await snapshot(t)).toBe(before);
      // and the owner does get it
      expect((await send(e, BOB, e.foreign(f))).status).toBe(200);
    }
    if (e.mustNotList) {
      const r = await send(e, ALICE);
      expect(r.status).toBe(200);
      expect(r.text).not.toContain(e.mustNotList);
      expect((await send(e, ADMIN)).text).toContain(e.mustNotList);
    }
    expect(e.foreign ?? e.mustNotList).toBeDefined();
  });

  it.each(cases)('%s: the owner and an admin get 200', async (_name, e) => {
    for (const who of [ALICE, ADMIN]) {
      const r = await send(e, who);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ code: 200, message: 'success' });
    }
  });

  describe('POST /api/v1/payments/cashless/webhook', () => {
    const event = async () => ({
      id: `evt_access_${Math.random().toString(36).slice(2)}`,
      type: 'payment.captured',
      data: {
        paymentId: `pay_access_${Math.random().toString(36).slice(2)}`,
        terminalId: await terminalOf(t, 'SBX-ALICE-0001'),
        amountCents: 100,
        cardBrand: 'visa',
        last4: '1111',
        aisleNo: 6,
      },
    });

    it('no credential and no signature is 401 and changes nothing', async () => {
      const before = await snapshot(t);
      const r = await call(t.url, 'POST', '/api/v1/payments/cashless/webhook', { json: await event() });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ code: 401, data: null });
      expect(await snapshot(t)).toBe(before);
    });

    it('an admin API key is no substitute for the signature', async () => {
      const before = await snapshot(t);
      const r = await call(t.url, 'POST', '/api/v1/payments/cashless/webhook', { headers: ADMIN, json: await event() });
      expect(r.status).toBe(401);
      expect(await snapshot(t)).toBe(before);
    });

    it('a correctly signed call is 200', async () => {
      expect((await sendWebhook(t, await event())).status).toBe(200);
    });
  });
});
