import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, call, type TestServer } from '../../testing/harness.ts';
import type { Body } from '../../testing/answers.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { ADMIN, ALICE, BOB, catalogued, machineIdOf, snapshot, startServer } from '../payments/operator-core.test-support.ts';

interface AisleOut {
  aisleNo: number;
  currentStock: number;
  maxStock: number;
  alertThreshold: number;
  sellingPrice: number;
  faulted: boolean;
  low: boolean;
  sku: string | null;
  productName: string | null;
  imageUrl: string | null;
}
interface MachineOut {
  machineNo: string;
  name: string;
  aisles: AisleOut[];
}

const M1 = 'SBX-ALICE-0001';
const path = (m: string, rest = '') => `/api/v1/inventory/machines/${m}${rest}`;

describe.each(DIALECTS)('inventory on %s', (dialect) => {
  let t: TestServer;
  let m1: string;
  beforeAll(async () => {
    t = await startServer(dialect);
    m1 = await machineIdOf(t, M1);
  });
  afterAll(async () => t.close());

  const db = () => t.ctx.database.db;
  /** The audit rows a call adds. */
  const auditAdded = async (fn: () => Promise<unknown>) => {
    const before = new Set((await db().selectFrom('audit_log').select('id').execute()).map((r) => r.id));
    await fn();
    return (await db().selectFrom('audit_log').selectAll().execute()).filter((r) => !before.has(r.id));
  };
  const rows = () => db().selectFrom('aisles').selectAll().where('machine_id', '=', m1).orderBy('aisle_no').execute();
  /** Puts every aisle of M1 into a known state: max 10, stock 1, threshold 2, price 1.75, not faulted. */
  beforeEach(async () => {
    await db()
      .updateTable('aisles')
      .set({ max_stock: 10, current_stock: 1, alert_threshold: 2, price_cents: 175, faulted: 0, image_url: null })
      .where('machine_id', '=', m1)
      .execute();
  });

  describe('reads', () => {
    it("lists every machine of the caller, grouped, with ten aisles each and nobody else's", async () => {
      const r = await call<Body<MachineOut[]>>(t.url, 'GET', '/api/v1/inventory', { headers: ALICE });
      expect(r.status).toBe(200);
      expect(r.body.data.map((m) => m.machineNo)).toEqual(['SBX-ALICE-0001', 'SBX-ALICE-0002', 'SBX-ALICE-0003']);
      for (const m of r.body.data) expect(m.aisles.map((a) => a.aisleNo)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      const bob = await call<Body<MachineOut[]>>(t.url, 'GET', '/api/v1/inventory', { headers: BOB });
      expect(bob.body.data.map((m) => m.machineNo)).toEqual(['SBX-BOB-0001', 'SBX-BOB-0002']);
    });

    it('admin sees every machine, the unclaimed pool included', async () => {
      const r = await call<Body<MachineOut[]>>(t.url, 'GET', '/api/v1/inventory', { headers: ADMIN });
      expect(r.body.data.map((m) => m.machineNo)).toEqual([
        'SBX-ALICE-0001',
        'SBX-ALICE-0002',
        'SBX-ALICE-0003',
        'SBX-BOB-0001',
        'SBX-BOB-0002',
        'SBX-POOL-0001',
      ]);
    });

    it('shows an aisle in the spec shape: price as a decimal, faulted as a boolean, sku and product', async () => {
      await db().updateTable('aisles').set({ faulted: 1, price_cents: 205 }).where('machine_id', '=', m1).where('aisle_no', '=', 4).execute();
      const r = await call<Body<MachineOut>>(t.url, 'GET', path(M1), { headers: ALICE });
      expect(r.status).toBe(200);
      expect(r.body.data.machineNo).toBe(M1);
      expect(r.body.data.aisles[0]).toEqual({
        aisleNo: 1,
        currentStock: 1,
        maxStock: 10,
        alertThreshold: 2,
        sellingPrice: 1.75,
        faulted: false,
        low: true,
        sku: 'SKU-COLA-355',
        productName: 'Cola 355ml',
        imageUrl: null,
      });
      expect(r.body.data.aisles[3]).toMatchObject({ aisleNo: 4, sellingPrice: 2.05, faulted: true });
    });

    it('an aisle is low exactly when currentStock <= alertThreshold', async () => {
      const set = (aisle: number, current: number) =>
        db().updateTable('aisles').set({ current_stock: current, alert_threshold: 2 }).where('machine_id', '=', m1).where('aisle_no', '=', aisle).execute();
      await set(1, 1);
      await set(2, 2);
      await set(3, 3);
      const r = await call<Body<MachineOut>>(t.url, 'GET', path(M1), { headers: ALICE });
      expect(r.body.data.aisles.slice(0, 3).map((a) => a.low)).toEqual([true, true, false]);
    });

    it("another operator's machine, or one that does not exist, is 404 'Machine not found'", async () => {
      for (const m of ['SBX-BOB-0001', 'SBX-NOPE-0001', 'SBX-POOL-0001', 'SBX-ALICE-0001\u0000', 'short']) {
        const r = await call(t.url, 'GET', path(encodeURIComponent(m)), { headers: ALICE });
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ code: 404, message: 'Machine not found', data: null });
      }
    });
  });

  describe('restock', () => {
    it('without a body fills every aisle to maxStock', async () => {
      await db().updateTable('aisles').set({ max_stock: 12 }).where('machine_id', '=', m1).where('aisle_no', '=', 7).execute();
      const r = await call<Body<MachineOut & { restocked: number[] }>>(t.url, 'POST', path(M1, '/restock'), { headers: ALICE });
      expect(r.status).toBe(200);
      expect(r.body.data.restocked).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect((await rows()).map((a) => a.current_stock)).toEqual([10, 10, 10, 10, 10, 10, 12, 10, 10, 10]);
      expect(r.body.data.aisles.every((a) => a.currentStock === a.maxStock && !a.low)).toBe(true);
    });

    it('with an empty object also fills every aisle', async () => {
      const r = await call(t.url, 'POST', path(M1, '/restock'), { headers: ALICE, json: {} });
      expect(r.status).toBe(200);
      expect((await rows()).every((a) => a.current_stock === a.max_stock)).toBe(true);
    });

    it('with a list fills only the listed aisles', async () => {
      const r = await call<Body<{ restocked: number[] }>>(t.url, 'POST', path(M1, '/restock'), { headers: ALICE, json: { aisles: [5, 2, 5] } });
      expect(r.status).toBe(200);
      expect(r.body.data.restocked).toEqual([2, 5]);
      expect((await rows()).map((a) => a.current_stock)).toEqual([1, 10, 1, 1, 10, 1, 1, 1, 1, 1]);
    });

    it('is recorded in the audit log in the same write', async () => {
      const added = await auditAdded(() => call(t.url, 'POST', path(M1, '/restock'), { headers: ALICE, json: { aisles: [3] } }));
      expect(added).toEqual([expect.objectContaining({ action: 'inventory.restock', resource: `machine:${M1}/aisles:3`, user_id: OPERATOR_IDS.alice })]);
    });

    it.each([
      ['an aisle the machine does not have', { aisles: [2, 11] }, 400, `body.aisles: Machine ${M1} has no aisle 11`],
      ['aisle 0', { aisles: [0] }, 400, 'aisles.0'],
      ['an empty list', { aisles: [] }, 400, 'at least one'],
      ['an unknown field', { aisle: [1] }, 400, 'aisle'],
      ['a string aisle number', { aisles: ['2'] }, 422, 'aisles.0'],
      ['a fractional aisle number', { aisles: [2.5] }, 422, 'aisles.0'],
      ['aisles as a number', { aisles: 2 }, 422, 'aisles'],
      ['a JSON array body', [2], 422, 'body'],
    ])('refuses %s and changes nothing', async (_what, json, status, inMessage) => {
      const before = await snapshot(t);
      const r = await call(t.url, 'POST', path(M1, '/restock'), { headers: ALICE, json });
      expect(r.status).toBe(status);
      expect(r.body).toEqual({ code: status, message: expect.stringMatching(catalogued(status, inMessage)), data: null });
      expect(await snapshot(t)).toBe(before);
    });

    it('refuses a body it cannot read as JSON instead of restocking everything', async () => {
      const before = await snapshot(t);
      const r = await call(t.url, 'POST', path(M1, '/restock'), { headers: { ...ALICE, 'content-type': 'text/plain' }, body: '{"aisles":[2]}' });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: 400, message: expect.stringMatching(catalogued(400, 'as JSON')), data: null });
      expect(await snapshot(t)).toBe(before);
    });

    it("refuses another operator's machine with 404 and changes nothing", async () => {
      const before = await snapshot(t);
      const r = await call(t.url, 'POST', path('SBX-ALICE-0001', '/restock'), { headers: BOB });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 404, message: 'Machine not found', data: null });
      expect(await snapshot(t)).toBe(before);
    });
  });

  describe('aisle update', () => {
    const put = (json: unknown, aisle: number | string = 3, headers = ALICE) =>
      call<Body<AisleOut & { machineNo: string }>>(t.url, 'PUT', path(M1, `/aisles/${aisle}`), { headers, json });

    it('changes only the sent field', async () => {
      const before = (await rows())[2]!;
      const r = await put({ sellingPrice: 2.5 });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ machineNo: M1, aisleNo: 3, sellingPrice: 2.5, currentStock: 1, maxStock: 10, alertThreshold: 2, faulted: false });
      expect((await rows())[2]).toEqual({ ...before, price_cents: 250 });
    });

    it.each([
      [{ currentStock: 7 }, { current_stock: 7 }],
      [{ maxStock: 4 }, { max_stock: 4 }],
      [{ alertThreshold: 0 }, { alert_threshold: 0 }],
      [{ faulted: true }, { faulted: 1 }],
      [{ sellingPrice: 0 }, { price_cents: 0 }],
      [{ sellingPrice: 1.15 }, { price_cents: 115 }],
      [
        { currentStock: 12, maxStock: 12 },
        { current_stock: 12, max_stock: 12 },
      ],
    ])('%j changes exactly %j', async (json, change) => {
      const others = (await rows()).filter((a) => a.aisle_no !== 3);
      const before = (await rows())[2]!;
      const r = await put(json);
      expect(r.status).toBe(200);
      expect((await rows())[2]).toEqual({ ...before, ...change });
      expect((await rows()).filter((a) => a.aisle_no !== 3)).toEqual(others);
    });

    it('sets a product picture (an https URL or a path on this service), shows it in every aisle view, and clears it with null', async () => {
      const before = (await rows())[2]!;
      for (const url of ['https://cdn.example.com/products/cola-355.png?v=2', '/media/0123456789abcdef.png']) {
        const r = await put({ imageUrl: url });
        expect(r.status).toBe(200);
        expect(r.body.data).toMatchObject({ aisleNo: 3, imageUrl: url, sellingPrice: 1.75 });
        expect((await rows())[2]).toEqual({ ...before, image_url: url });
        const read = await call<Body<MachineOut>>(t.url, 'GET', path(M1), { headers: ALICE });
        expect(read.body.data.aisles.map((a) => a.imageUrl)).toEqual([null, null, url, ...Array(7).fill(null)]);
      }
      const all = await call<Body<MachineOut[]>>(t.url, 'GET', '/api/v1/inventory', { headers: ALICE });
      expect(all.body.data.find((m) => m.machineNo === M1)?.aisles[2]?.imageUrl).toBe('/media/0123456789abcdef.png');
      // a price change leaves the picture; null removes it
      expect((await put({ sellingPrice: 2 })).body.data.imageUrl).toBe('/media/0123456789abcdef.png');
      const cleared = await put({ imageUrl: null });
      expect(cleared.body.data.imageUrl).toBeNull();
      expect((await rows())[2]).toEqual({ ...before, price_cents: 200, image_url: null });
    });

    it('reports low from the values after the change', async () => {
      expect((await put({ currentStock: 3 })).body.data.low).toBe(false);
      expect((await put({ alertThreshold: 3 })).body.data.low).toBe(true);
    });

    it('is recorded in the audit log', async () => {
      const added = await auditAdded(() => put({ faulted: true }));
      expect(added).toEqual([expect.objectContaining({ action: 'inventory.aisle.update', resource: `machine:${M1}/aisle:3`, user_id: OPERATOR_IDS.alice })]);
    });

    it.each([
      ['negative stock', { currentStock: -1 }, 3, 400, 'currentStock'],
      ['stock above maxStock', { currentStock: 11 }, 3, 400, 'cannot exceed maxStock'],
      ['maxStock below the current stock', { maxStock: 0 }, 3, 400, 'cannot exceed maxStock'],
      ['a threshold above maxStock', { alertThreshold: 11 }, 3, 400, 'alertThreshold (11) cannot exceed maxStock'],
      ['maxStock below the threshold', { maxStock: 1, currentStock: 0 }, 3, 400, 'alertThreshold (2) cannot exceed maxStock (1)'],
      ['a negative price', { sellingPrice: -0.01 }, 3, 400, 'sellingPrice'],
      ['a price with three decimals', { sellingPrice: 1.755 }, 3, 400, 'two decimals'],
      ['a fractional stock', { currentStock: 1.5 }, 3, 422, 'currentStock'],
      ['stock beyond any column', { currentStock: 1e12, maxStock: 1e12 }, 3, 400, 'at most'],
      ['an aisle the machine does not have', { currentStock: 1 }, 11, 400, `params.aisleNo: Machine ${M1} has no aisle 11`],
      ['aisle 0', { currentStock: 1 }, 0, 400, 'aisleNo'],
      ['an aisle past the board limit', { currentStock: 1 }, 5000, 400, 'aisleNo'],
      ['an empty body', {}, 3, 400, 'at least one'],
      ['an unknown field', { current_stock: 1 }, 3, 400, 'current_stock'],
      ['a string number', { currentStock: '3' }, 3, 422, 'currentStock'],
      ['a string price', { sellingPrice: '1.75' }, 3, 422, 'sellingPrice'],
      ['a string boolean', { faulted: 'yes' }, 3, 422, 'faulted'],
      ['null', { maxStock: null }, 3, 422, 'maxStock'],
      ['an array body', [{ currentStock: 1 }], 3, 422, 'body'],
      ['a non-numeric aisle', { currentStock: 1 }, 'abc', 422, 'aisleNo'],
      ['a picture over plain http', { imageUrl: 'http://cdn.example.com/cola.png' }, 3, 400, 'imageUrl'],
      ['a picture on another scheme', { imageUrl: 'javascript:alert(1)' }, 3, 400, 'imageUrl'],
      ['a data: picture', { imageUrl: 'data:image/png;base64,iVBORw0KGgo=' }, 3, 400, 'imageUrl'],
      ['a protocol-relative picture', { imageUrl: '//evil.example/cola.png' }, 3, 400, 'imageUrl'],
      ['a backslash path', { imageUrl: '/\\evil.example/cola.png' }, 3, 400, 'imageUrl'],
      ['a relative path', { imageUrl: 'media/cola.png' }, 3, 400, 'imageUrl'],
      ['credentials in the picture URL', { imageUrl: 'https://user:pw@cdn.example.com/cola.png' }, 3, 400, 'imageUrl'],
      ['a space in the picture URL', { imageUrl: 'https://cdn.example.com/my cola.png' }, 3, 400, 'imageUrl'],
      ['a picture URL over 500 characters', { imageUrl: `https://cdn.example.com/${'a'.repeat(480)}.png` }, 3, 400, 'at most 500'],
      ['an empty picture URL', { imageUrl: '' }, 3, 400, 'imageUrl'],
      ['a picture URL with a control character', { imageUrl: 'https://cdn.example.com/a\u0000.png' }, 3, 400, 'imageUrl'],
      ['a picture that is not a string', { imageUrl: 42 }, 3, 422, 'imageUrl'],
    ])('refuses %s and changes nothing', async (_what, json, aisle, status, inMessage) => {
      const before = await snapshot(t);
      const r = await put(json, aisle);
      expect(r.status).toBe(status);
      expect(r.body).toEqual({ code: status, message: expect.stringMatching(catalogued(status, inMessage)), data: null });
      expect(await snapshot(t)).toBe(before);
    });

    it("refuses another operator's machine with 404 and changes nothing", async () => {
      const before = await snapshot(t);
      const r = await call(t.url, 'PUT', path('SBX-BOB-0001', '/aisles/1'), { headers: ALICE, json: { currentStock: 0 } });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 404, message: 'Machine not found', data: null });
      expect(await snapshot(t)).toBe(before);
    });

    it("admin may change any operator's aisle", async () => {
      const r = await call<Body<AisleOut>>(t.url, 'PUT', path(M1, '/aisles/1'), { headers: ADMIN, json: { currentStock: 0 } });
      expect(r.status).toBe(200);
      expect((await rows())[0]!.current_stock).toBe(0);
    });
  });

  describe('lots', () => {
    type LotsPage = Body<{
      total: number;
      records: {
        id: string;
        sku: string;
        qtyReceived: number;
        qtyRemaining: number;
        unitCost: number;
        unitCostCents: number;
        receivedAt: string;
        purchaseOrderRef: string | null;
      }[];
    }>;

    it('refuse a sku with control characters (400), never reaching the store with them', async () => {
      const r = await call(t.url, 'GET', '/api/v1/inventory/lots', { headers: ALICE, query: { sku: 'SKU\u0000' } });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ code: 400, message: expect.stringContaining('control characters'), data: null });
    });

    it('are empty until purchase orders are received', async () => {
      // bob has received none (alice's sandbox books hold two purchase orders)
      const r = await call<LotsPage>(t.url, 'GET', '/api/v1/inventory/lots', { headers: BOB });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({ page: 1, size: 20, total: 0, records: [] });
    });

    it("list the caller's cost layers oldest first (FIFO), filterable by sku; admin sees all", async () => {
      const lot = (id: string, op: string, sku: string, at: number, cost: number) => ({
        id,
        operator_id: op,
        sku,
        qty_received: 24,
        qty_remaining: 20,
        unit_cost_cents: cost,
        received_at: at,
        purchase_order_ref: `PO-${id}`,
      });
      const day = Date.parse('2026-11-01T00:00:00Z');
      await db()
        .insertInto('lots')
        .values([
          lot('lot_c', OPERATOR_IDS.bob, 'SKU-TEST-COLA', day + 2, 61),
          lot('lot_a', OPERATOR_IDS.bob, 'SKU-TEST-COLA', day, 55),
          lot('lot_b', OPERATOR_IDS.bob, 'SKU-TEST-GUM', day + 1, 20),
          lot('lot_x', OPERATOR_IDS.alice, 'SKU-TEST-COLA', day - 1, 70),
        ])
        .execute();
      try {
        const r = await call<LotsPage>(t.url, 'GET', '/api/v1/inventory/lots', { headers: BOB });
        expect(r.body.data.records.map((l) => l.id)).toEqual(['lot_a', 'lot_b', 'lot_c']);
        expect(r.body.data.records[0]).toEqual({
          id: 'lot_a',
          sku: 'SKU-TEST-COLA',
          qtyReceived: 24,
          qtyRemaining: 20,
          unitCost: 0.55,
          unitCostCents: 55,
          receivedAt: '2026-11-01T00:00:00.000+0000',
          purchaseOrderRef: 'PO-lot_a',
        });
        const cola = await call<LotsPage>(t.url, 'GET', '/api/v1/inventory/lots', { headers: BOB, query: { sku: 'SKU-TEST-COLA' } });
        expect(cola.body.data.records.map((l) => l.id)).toEqual(['lot_a', 'lot_c']);
        const admin = await call<LotsPage>(t.url, 'GET', '/api/v1/inventory/lots', { headers: ADMIN, query: { sku: 'SKU-TEST-COLA', size: '2', page: '1' } });
        expect(admin.body.data.total).toBe(3);
        expect(admin.body.data.records.map((l) => l.id)).toEqual(['lot_x', 'lot_a']);
      } finally {
        await db().deleteFrom('lots').where('id', 'in', ['lot_a', 'lot_b', 'lot_c', 'lot_x']).execute();
      }
    });
  });
});
