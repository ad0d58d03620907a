import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, type TestServer } from '../../testing/harness.ts';
import type { Body } from '../../testing/answers.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { ADMIN, ALICE, BOB, catalogued, machineIdOf, startServer } from '../payments/operator-core.test-support.ts';

interface OrderOut {
  orderNumber: string;
  machineNo: string;
  aisleNo: number;
  quantity: number;
  payStatus: string;
  paidPrice: number;
  chargedCents: number;
  netCents: number;
  tax: number;
  taxCents: number;
  taxRate: number | null;
  channel: string;
  payMethod: string;
  createdAt: string;
  payment?: { terminalId: string; cardBrand: string | null; last4: string | null; settlementAccount: string | null };
}
type OrdersPage = Body<{ page: number; size: number; total: number; timeZone: string; records: OrderOut[] }>;
interface Money {
  count: number;
  grossCents: number;
  refundedCents: number;
  salesCents: number;
  taxCents: number;
  netCents: number;
}
type Summary = Body<
  Money & {
    machineNo: string | null;
    timeZone: string;
    byChannel: (Money & { channel: string })[];
    byPayStatus: { payStatus: string; count: number; chargedCents: number }[];
    byMachine: (Money & { machineNo: string })[];
  }
>;

/** `YYYY-MM-DD HH:MM:SS` of an instant in a zone. */
function wallIn(zone: string, ms: number): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'medium' }).format(new Date(ms));
}

describe.each(DIALECTS)('orders on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer(dialect);
  });
  afterAll(async () => t.close());
  afterEach(async () => {
    await db().updateTable('machines').set({ sales_tax_rate: null }).execute();
    await db().updateTable('orders').set({ tax_rate: null }).execute();
  });

  const db = () => t.ctx.database.db;
  const ordersOf = (operatorId: string | null) =>
    db()
      .selectFrom('orders')
      .innerJoin('machines', 'machines.id', 'orders.machine_id')
      .selectAll('orders')
      .select(['machines.machine_no', 'machines.sales_tax_rate'])
      .$if(operatorId !== null, (q) => q.where('orders.operator_id', '=', operatorId))
      .execute();
  const list = (query: Record<string, string>, headers = ALICE) => call<OrdersPage>(t.url, 'GET', '/api/v1/orders', { headers, query });

  describe('list', () => {
    it("pages the caller's orders newest first, default size 20", async () => {
      const mine = await ordersOf(OPERATOR_IDS.alice);
      const r = await list({});
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ page: 1, size: 20, total: mine.length, timeZone: 'UTC' });
      expect(r.body.data.records).toHaveLength(20);
      const newest = [...mine].sort((a, b) => b.created_at - a.created_at || (a.order_number < b.order_number ? 1 : -1));
      expect(r.body.data.records.map((o) => o.orderNumber)).toEqual(newest.slice(0, 20).map((o) => o.order_number));
      const p3 = await list({ page: '3', size: '7' });
      expect(p3.body.data.records.map((o) => o.orderNumber)).toEqual(newest.slice(14, 21).map((o) => o.order_number));
      expect(r.body.data.records.every((o) => o.machineNo.startsWith('SBX-ALICE-'))).toBe(true);
    });

    it("admin sees every operator's orders", async () => {
      const r = await list({ size: '1' }, ADMIN);
      expect(r.body.data.total).toBe((await ordersOf(null)).length);
    });

    it('filters by machine', async () => {
      const r = await list({ machineNo: 'SBX-ALICE-0002', size: '100' });
      const expected = (await ordersOf(OPERATOR_IDS.alice)).filter((o) => o.machine_no === 'SBX-ALICE-0002');
      expect(r.body.data.total).toBe(expected.length);
      expect(new Set(r.body.data.records.map((o) => o.machineNo))).toEqual(new Set(['SBX-ALICE-0002']));
    });

    it("another operator's machine, an unknown one, or no possible serial at all is 404 'Machine not found'", async () => {
      for (const machineNo of ['SBX-BOB-0001', 'SBX-NOPE-0009', 'SBX-ALICE-0001\u0000', 'sbx alice', 'SBX-ALICE-0001-AND-A-VERY-LONG-TAIL']) {
        const r = await list({ machineNo });
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ code: 404, message: 'Machine not found', data: null });
      }
    });

    it('shows an order in the spec shape, with a payment object only when paid through a terminal', async () => {
      const rows = await ordersOf(OPERATOR_IDS.alice);
      const card = rows.find((o) => o.pay_method === 'card')!;
      const cash = rows.find((o) => o.pay_method === 'cash')!;
      const c = await call<Body<OrderOut>>(t.url, 'GET', `/api/v1/orders/${card.order_number}`, { headers: ALICE });
      expect(c.status).toBe(200);
      expect(c.body.data).toEqual({
        orderNumber: card.order_number,
        machineNo: card.machine_no,
        aisleNo: card.aisle_no,
        quantity: 1,
        payStatus: card.pay_status,
        paidPrice: card.paid_cents / 100,
        chargedCents: card.charged_cents,
        netCents: card.charged_cents,
        tax: 0,
        taxCents: 0,
        taxRate: null,
        channel: 'walkup',
        payMethod: 'card',
        createdAt: new Date(card.created_at).toISOString().replace('Z', '+0000'),
        payment: { terminalId: card.terminal_id, cardBrand: card.card_brand, last4: card.card_last4, settlementAccount: 'acct_op_sbx_alice' },
      });
      const k = await call<Body<OrderOut>>(t.url, 'GET', `/api/v1/orders/${cash.order_number}`, { headers: ALICE });
      expect(k.body.data.payMethod).toBe('cash');
      expect('payment' in k.body.data).toBe(false);
    });

    it("another operator's order, or an unknown one, is 404 'Order not found'", async () => {
      const bobs = (await ordersOf(OPERATOR_IDS.bob))[0]!;
      for (const n of [bobs.order_number, 'NO-SUCH-ORDER', 'SBX\u0000']) {
        const r = await call(t.url, 'GET', `/api/v1/orders/${encodeURIComponent(n)}`, { headers: ALICE });
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ code: 404, message: 'Order not found', data: null });
      }
      expect((await call(t.url, 'GET', `/api/v1/orders/${bobs.order_number}`, { headers: ADMIN })).status).toBe(200);
    });
  });

  describe('time window', () => {
    it("reads startTime/endTime in the machine's time zone (Los Angeles), inclusive to the second", async () => {
      const la = (await ordersOf(OPERATOR_IDS.alice)).filter((o) => o.machine_no === 'SBX-ALICE-0003');
      const o = la.find((x) => la.filter((y) => Math.abs(y.created_at - x.created_at) < 2000).length === 1)!;
      const local = wallIn('America/Los_Angeles', o.created_at);
      const r = await list({ machineNo: 'SBX-ALICE-0003', startTime: local, endTime: local });
      expect(r.status).toBe(200);
      expect(r.body.data.timeZone).toBe('America/Los_Angeles');
      expect(r.body.data.records.map((x) => x.orderNumber)).toEqual([o.order_number]);
      // the same wall clock read as UTC would be 7–8 hours away: nothing there
      const utcWall = wallIn('UTC', o.created_at);
      expect((await list({ machineNo: 'SBX-ALICE-0003', startTime: utcWall, endTime: utcWall })).body.data.total).toBe(0);
      // one second either side excludes it
      const plus = wallIn('America/Los_Angeles', o.created_at + 1000);
      const minus = wallIn('America/Los_Angeles', o.created_at - 1000);
      expect((await list({ machineNo: 'SBX-ALICE-0003', startTime: plus })).body.data.records.map((x) => x.orderNumber)).not.toContain(o.order_number);
      expect((await list({ machineNo: 'SBX-ALICE-0003', endTime: minus, size: '100' })).body.data.records.map((x) => x.orderNumber)).not.toContain(
        o.order_number,
      );
    });

    it('without a machine, reads the times as UTC', async () => {
      const mine = await ordersOf(OPERATOR_IDS.alice);
      const o = mine.find((x) => mine.filter((y) => Math.abs(y.created_at - x.created_at) < 2000).length === 1)!;
      const utcWall = wallIn('UTC', o.created_at);
      const r = await list({ startTime: utcWall, endTime: utcWall });
      expect(r.body.data.timeZone).toBe('UTC');
      expect(r.body.data.records.map((x) => x.orderNumber)).toEqual([o.order_number]);
    });

    it('counts a whole local day', async () => {
      const la = (await ordersOf(OPERATOR_IDS.alice)).filter((o) => o.machine_no === 'SBX-ALICE-0003');
      const day = wallIn('America/Los_Angeles', la[0]!.created_at).slice(0, 10);
      const expected = la.filter((o) => wallIn('America/Los_Angeles', o.created_at).startsWith(day)).length;
      const r = await list({ machineNo: 'SBX-ALICE-0003', startTime: `${day} 00:00:00`, endTime: `${day} 23:59:59` });
      expect(r.body.data.total).toBe(expected);
    });

    it.each([
      [{ startTime: '2026-11-20T10:00:00' }, 400, 'startTime'],
      [{ startTime: '2026-11-20' }, 400, 'startTime'],
      [{ endTime: '20-11-2026 10:00:00' }, 400, 'endTime'],
      [{ startTime: '2026-02-30 10:00:00' }, 400, 'query.startTime: 2026-02-30 10:00:00 is not a real date'],
      [{ endTime: '2026-11-20 24:00:00' }, 400, 'not a real date'],
      [{ startTime: '2026-11-20 10:00:01', endTime: '2026-11-20 10:00:00' }, 400, 'query.startTime: must not be after endTime'],
      [{ page: '0' }, 400, 'page'],
      [{ size: '101' }, 400, 'size'],
      [{ page: 'abc' }, 422, 'page'],
    ])('refuses %j with %i', async (query, status, inMessage) => {
      const r = await list(query as Record<string, string>);
      expect(r.status).toBe(status);
      expect(r.body).toEqual({ code: status, message: expect.stringMatching(catalogued(status, inMessage)), data: null });
    });

    it('refuses a repeated parameter as a type error (422)', async () => {
      const r = await call(t.url, 'GET', '/api/v1/orders?machineNo=SBX-ALICE-0001&machineNo=SBX-ALICE-0002', { headers: ALICE });
      expect(r.status).toBe(422);
    });
  });

  describe('tax', () => {
    const get = async (n: string) => (await call<Body<OrderOut>>(t.url, 'GET', `/api/v1/orders/${n}`, { headers: ALICE })).body.data;
    const setMachineRate = (rate: number | null) =>
      db().updateTable('machines').set({ sales_tax_rate: rate }).where('machine_no', '=', 'SBX-ALICE-0001').execute();

    it("restates tax and net with the machine's salesTaxRate; chargedCents never changes", async () => {
      const id = await machineIdOf(t, 'SBX-ALICE-0001');
      const o = await db().selectFrom('orders').selectAll().where('machine_id', '=', id).where('charged_cents', '=', 175).executeTakeFirstOrThrow();
      expect(await get(o.order_number)).toMatchObject({ chargedCents: 175, taxCents: 0, tax: 0, netCents: 175, taxRate: null });
      await setMachineRate(8.875);
      // 175 × 8.875 / 108.875 = 14.27 → 14
      expect(await get(o.order_number)).toMatchObject({ chargedCents: 175, paidPrice: 1.75, taxCents: 14, tax: 0.14, netCents: 161, taxRate: 8.875 });
      await setMachineRate(10);
      // 175 × 10 / 110 = 15.9 → 16
      expect(await get(o.order_number)).toMatchObject({ chargedCents: 175, taxCents: 16, tax: 0.16, netCents: 159, taxRate: 10 });
    });

    it('a rate stamped at sale time is not repriced by a later machine rate', async () => {
      const id = await machineIdOf(t, 'SBX-ALICE-0001');
      const o = await db().selectFrom('orders').selectAll().where('machine_id', '=', id).where('charged_cents', '=', 175).executeTakeFirstOrThrow();
      await db().updateTable('orders').set({ tax_rate: 5 }).where('order_number', '=', o.order_number).execute();
      await setMachineRate(8.875);
      // 175 × 5 / 105 = 8.33 → 8, whatever the machine says now
      expect(await get(o.order_number)).toMatchObject({ chargedCents: 175, taxCents: 8, netCents: 167, taxRate: 5 });
      await setMachineRate(null);
      expect(await get(o.order_number)).toMatchObject({ chargedCents: 175, taxCents: 8, netCents: 167, taxRate: 5 });
    });
  });

  describe('summary', () => {
    /** The rollup computed the slow way, order by order. */
    function expectedRollup(rows: Awaited<ReturnType<typeof ordersOf>>): Money {
      const m = { count: 0, grossCents: 0, refundedCents: 0, salesCents: 0, taxCents: 0, netCents: 0 };
      for (const o of rows) {
        const rate = o.tax_rate ?? o.sales_tax_rate;
        const tax = rate ? Math.round((o.charged_cents * rate) / (100 + rate)) : 0;
        m.count++;
        m.grossCents += o.charged_cents;
        if (o.pay_status === 'refunded') m.refundedCents += o.charged_cents;
        else {
          m.salesCents += o.charged_cents;
          m.taxCents += tax;
          m.netCents += o.charged_cents - tax;
        }
      }
      return m;
    }
    const pick = (m: Money): Money => ({
      count: m.count,
      grossCents: m.grossCents,
      refundedCents: m.refundedCents,
      salesCents: m.salesCents,
      taxCents: m.taxCents,
      netCents: m.netCents,
    });

    it("totals the caller's orders, with tax, by channel, pay status and machine", async () => {
      await setRate('SBX-ALICE-0001', 8.875);
      await setRate('SBX-ALICE-0003', 9.5);
      const rows = await ordersOf(OPERATOR_IDS.alice);
      const r = await call<Summary>(t.url, 'GET', '/api/v1/orders/summary', { headers: ALICE });
      expect(r.status).toBe(200);
      const total = expectedRollup(rows);
      expect(total.taxCents).toBeGreaterThan(0);
      expect(total.refundedCents).toBeGreaterThan(0);
      expect(pick(r.body.data)).toEqual(total);
      expect(r.body.data.byMachine.map((m) => [m.machineNo, pick(m)])).toEqual(
        ['SBX-ALICE-0001', 'SBX-ALICE-0002', 'SBX-ALICE-0003'].map((no) => [no, expectedRollup(rows.filter((o) => o.machine_no === no))]),
      );
      expect(r.body.data.byChannel.map((c) => [c.channel, pick(c)])).toEqual([['walkup', total]]);
      const statuses = [...new Set(rows.map((o) => o.pay_status))].sort();
      expect(r.body.data.byPayStatus).toEqual(
        statuses.map((s) => ({
          payStatus: s,
          count: rows.filter((o) => o.pay_status === s).length,
          chargedCents: rows.filter((o) => o.pay_status === s).reduce((a, o) => a + o.charged_cents, 0),
        })),
      );
    });

    it('honours the machine and time filters, in the machine time zone', async () => {
      const la = (await ordersOf(OPERATOR_IDS.alice)).filter((o) => o.machine_no === 'SBX-ALICE-0003');
      const day = wallIn('America/Los_Angeles', la[la.length - 1]!.created_at).slice(0, 10);
      const inDay = la.filter((o) => wallIn('America/Los_Angeles', o.created_at).startsWith(day));
      const r = await call<Summary>(t.url, 'GET', '/api/v1/orders/summary', {
        headers: ALICE,
        query: { machineNo: 'SBX-ALICE-0003', startTime: `${day} 00:00:00`, endTime: `${day} 23:59:59` },
      });
      expect(r.body.data).toMatchObject({ machineNo: 'SBX-ALICE-0003', timeZone: 'America/Los_Angeles' });
      expect(pick(r.body.data)).toEqual(expectedRollup(inDay));
      expect(r.body.data.byMachine.map((m) => m.machineNo)).toEqual(inDay.length ? ['SBX-ALICE-0003'] : []);
    });

    it("admin totals everyone's; bob's machine is 404 for alice", async () => {
      const r = await call<Summary>(t.url, 'GET', '/api/v1/orders/summary', { headers: ADMIN });
      expect(pick(r.body.data)).toEqual(expectedRollup(await ordersOf(null)));
      const b = await call(t.url, 'GET', '/api/v1/orders/summary', { headers: ALICE, query: { machineNo: 'SBX-BOB-0002' } });
      expect(b.status).toBe(404);
    });

    const setRate = (machineNo: string, rate: number) =>
      db().updateTable('machines').set({ sales_tax_rate: rate }).where('machine_no', '=', machineNo).execute();
  });

  it('BOB never sees alice in any list', async () => {
    const r = await list({ size: '100' }, BOB);
    expect(r.body.data.records.every((o) => o.machineNo.startsWith('SBX-BOB-'))).toBe(true);
    expect(r.body.data.total).toBe((await ordersOf(OPERATOR_IDS.bob)).length);
  });
});
