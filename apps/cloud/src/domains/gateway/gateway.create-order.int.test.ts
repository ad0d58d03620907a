import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import { FLEET, aisleStock, keyHeader, enrolled, newSerial, provision } from './gateway.test-support.ts';

interface Opened {
  orderNumber: string;
  aisleNo: number;
  quantity: number;
  amountCents: number;
  payStatus: string;
}

/**
 * createOrder with a `requestRef` (decisions: gateway-and-credentials, "createOrder is idempotent"): a
 * retry after a lost answer gets the order the first call opened, never a second order that the
 * dispense-decision loop would later refund.
 */
describe.each(DIALECTS)('createOrder requestRef on %s', (dialect) => {
  const t = suiteServer(dialect);

  const ordersOf = async (serial: string) =>
    t.ctx.database.db
      .selectFrom('orders')
      .innerJoin('machines', 'machines.id', 'orders.machine_id')
      .select(['order_number', 'aisle_no', 'request_ref'])
      .where('machines.machine_no', '=', serial)
      .execute();
  it('the same requestRef twice answers the same order; one order is stored', async () => {
    const e = await enrolled(t);
    const body = { aisleNo: 2, quantity: 1, payMethod: 'card', cardBrand: 'visa', cardLast4: '4242', requestRef: 'wu-0001-retry-test' };
    const first = await expectStatus<Opened>(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: body }), 200);
    const again = await expectStatus<Opened>(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: body }), 200);
    expect(again.body.data).toEqual(first.body.data);
    expect(await ordersOf(e.serial)).toEqual([{ order_number: first.body.data.orderNumber, aisle_no: 2, request_ref: 'wu-0001-retry-test' }]);
    // Without a reference every call is a new sale, as before.
    const a = await expectStatus<Opened>(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: 3 } }), 200);
    const b = await expectStatus<Opened>(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: 3 } }), 200);
    expect(a.body.data.orderNumber).not.toBe(b.body.data.orderNumber);
  });

  it('a reference reused for another aisle or quantity is 409 and opens nothing', async () => {
    const e = await enrolled(t);
    await expectStatus(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: 2, requestRef: 'wu-reused-ref' } }), 200);
    const otherAisle = await call<Body>(t.url, 'POST', '/cabinet/createOrder', {
      headers: keyHeader(e.key),
      json: { aisleNo: 3, requestRef: 'wu-reused-ref' },
    });
    expect(otherAisle.status).toBe(409);
    expect(otherAisle.body.message).toContain('wu-reused-ref');
    const otherQuantity = await call(t.url, 'POST', '/cabinet/createOrder', {
      headers: keyHeader(e.key),
      json: { aisleNo: 2, quantity: 2, requestRef: 'wu-reused-ref' },
    });
    expect(otherQuantity.status).toBe(409);
    expect(await ordersOf(e.serial)).toHaveLength(1);
  });

  it('the same reference on another cabinet is that cabinet’s own sale', async () => {
    const a = await enrolled(t);
    const b = await enrolled(t);
    const ref = { aisleNo: 1, requestRef: 'wu-shared-ref-01' };
    const oa = await expectStatus<Opened>(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(a.key), json: ref }), 200);
    const ob = await expectStatus<Opened>(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(b.key), json: ref }), 200);
    expect(oa.body.data.orderNumber).not.toBe(ob.body.data.orderNumber);
  });

  it('twenty concurrent calls with one reference open one order', async () => {
    const e = await enrolled(t);
    const rs = await Promise.all(
      Array.from({ length: 20 }, () =>
        call<Body<Opened>>(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: 4, requestRef: 'wu-concurrent-01' } }),
      ),
    );
    expect(rs.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(rs.map((r) => r.body.data.orderNumber)).size).toBe(1);
    expect(await ordersOf(e.serial)).toHaveLength(1);
  });

  it('family A: a retried vended sale takes the stock once, even when the first took the last unit', async () => {
    const serial = await provision(t, newSerial('APKREF'));
    await t.ctx.database.db
      .updateTable('aisles')
      .set({ current_stock: 1 })
      .where('machine_id', '=', t.ctx.database.db.selectFrom('machines').select('id').where('machine_no', '=', serial))
      .where('aisle_no', '=', 5)
      .execute();
    const body = { machineNo: serial, aisleNo: 5, requestRef: 'wu-apk-last-unit' };
    const first = await expectStatus<Opened>(call(t.url, 'POST', '/apk/createOrder', { headers: FLEET, json: body }), 200);
    const retry = await expectStatus<Opened>(call(t.url, 'POST', '/apk/createOrder', { headers: FLEET, json: body }), 200);
    expect(retry.body.data).toEqual(first.body.data);
    expect(first.body.data.payStatus).toBe('shipped');
    expect(await aisleStock(t, serial, 5)).toBe(0);
  });

  it.each(['short', 'has space in it', 'x'.repeat(65), 'semi;colon-ref', 'nul\u0000-in-ref'])('requestRef %j is 400 and opens nothing', async (bad) => {
    const e = await enrolled(t);
    const r = await call<Body>(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: 1, requestRef: bad } });
    expect(r.status, r.text).toBe(400);
    expect(r.body.message).toMatch(/^Bad request — invalid or missing parameters/);
    expect(await ordersOf(e.serial)).toHaveLength(0);
  });
});
