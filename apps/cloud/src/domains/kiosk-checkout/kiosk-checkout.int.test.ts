import { describe, expect, it, vi } from 'vitest';
import { CHECKOUT_TTL_SECONDS, CheckoutData } from '@vend/protocol';
import { DIALECTS, TEST_EPOCH, call, startTestServer, suiteServer } from '../../testing/harness.ts';
import { expectRefused } from '../../testing/answers.ts';
import { BOB, FLEET, enrolled } from '../gateway/gateway.test-support.ts';
import { TestProcessor } from '../ad-purchases/test-processor.ts';
import { KioskCheckoutsRepo } from './kiosk-checkout.repo.ts';
import { ALICE, cancelCheckout, checkoutFor, checkoutRow, createCheckout, getCheckout, ownedCabinet, type Cabinet } from './kiosk-checkout.test-support.ts';

const setAisle = (t: { url: string }, c: Cabinet, aisleNo: number, json: Record<string, unknown>) =>
  call(t.url, 'PUT', `/api/v1/inventory/machines/${c.serial}/aisles/${aisleNo}`, { headers: ALICE, json });

describe.each(DIALECTS)('kiosk checkouts: the cabinet legs on %s', (dialect) => {
  const t = suiteServer(dialect);

  it("creates a checkout (201) for the aisle at the server's name and price, in the operator's currency, payable for CHECKOUT_TTL_SECONDS", async () => {
    const c = await ownedCabinet(t);
    const r = await createCheckout(t, c, { aisleNo: 3, equipmentNo: c.serial });
    expect(r.status, r.text).toBe(201);
    expect(r.body.code).toBe(200);
    const data = CheckoutData.parse(r.body.data);
    const aisle = await t.ctx.database.db
      .selectFrom('aisles')
      .selectAll()
      .where('machine_id', '=', c.machineId)
      .where('aisle_no', '=', 3)
      .executeTakeFirstOrThrow();
    expect(data).toMatchObject({
      aisleNo: 3,
      name: aisle.product_name,
      amountCents: aisle.price_cents,
      amount: aisle.price_cents / 100,
      currency: 'USD',
      status: 'awaiting_payment',
      secondsLeft: CHECKOUT_TTL_SECONDS,
      paidAt: null,
      orderNumber: null,
      commandId: null,
      refund: null,
      detail: null,
    });
    expect(data.checkoutId).toMatch(/^chk_[0-9a-f]{32}$/);
    expect(data.payUrl).toBe(`${t.url}/buy/${data.checkoutId}`);
    expect(Date.parse(data.expiresAt) - Date.parse(data.createdAt)).toBe(CHECKOUT_TTL_SECONDS * 1000);
    // the processor's intent: exactly that amount, delivered to the checkout webhook, the buyer sent back to the phone page
    const row = await checkoutRow(t, data.checkoutId);
    const intent = await t.ctx.database.db.selectFrom('test_payment_intents').selectAll().where('id', '=', row.intent_id!).executeTakeFirstOrThrow();
    expect(intent).toMatchObject({
      purchase_id: data.checkoutId,
      amount_cents: aisle.price_cents,
      currency: 'USD',
      webhook_path: '/api/v1/kiosk-checkouts/webhook',
      return_url: data.payUrl,
    });
    expect(row).toMatchObject({ processor: 'test', checkout_url: `/pay/test/${intent.id}`, machine_id: c.machineId });
    await cancelCheckout(t, c, data.checkoutId);
  });

  it("prices come from the server's planogram: a price changed through the operator API is the next checkout's; a price sent by the cabinet is refused", async () => {
    const c = await ownedCabinet(t);
    expect((await setAisle(t, c, 2, { sellingPrice: 4.35 })).status).toBe(200);
    const first = await checkoutFor(t, c, 2);
    expect(first).toMatchObject({ amountCents: 435, amount: 4.35 });
    await cancelCheckout(t, c, first.checkoutId);
    expect((await setAisle(t, c, 2, { sellingPrice: 0.99 })).status).toBe(200);
    const second = await checkoutFor(t, c, 2);
    expect(second.amountCents).toBe(99);
    await cancelCheckout(t, c, second.checkoutId);
    expectRefused(await createCheckout(t, c, { aisleNo: 2, amountCents: 1 }), 400);
  });

  it("the operator's currency: bob's cabinets sell in GBP", async () => {
    const c = await ownedCabinet(t, BOB);
    const d = await checkoutFor(t, c, 1);
    expect(d.currency).toBe('GBP');
    await cancelCheckout(t, c, d.checkoutId);
  });

  it('one open checkout per cabinet: a second create is 409 and says the machine is busy; free again once the first ends', async () => {
    const c = await ownedCabinet(t);
    const first = await checkoutFor(t, c, 1);
    const again = await createCheckout(t, c, { aisleNo: 4 });
    expectRefused(again, 409, /busy with another purchase/);
    // another cabinet is not held by it
    const other = await ownedCabinet(t);
    const elsewhere = await checkoutFor(t, other, 4);
    expect((await cancelCheckout(t, c, first.checkoutId)).body.data.status).toBe('cancelled');
    const next = await checkoutFor(t, c, 4);
    expect(next.status).toBe('awaiting_payment');
    await cancelCheckout(t, c, next.checkoutId);
    await cancelCheckout(t, other, elsewhere.checkoutId);
  });

  it('racing creates on one cabinet: exactly one 201, every other 409 busy (the database decides)', async () => {
    const c = await ownedCabinet(t);
    // every create passes its "is the cabinet busy?" read before any of them inserts: only the database can tell them apart
    const racers = 6;
    let arrived = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const read = KioskCheckoutsRepo.prototype.openOf;
    const spy = vi.spyOn(KioskCheckoutsRepo.prototype, 'openOf').mockImplementation(async function (this: KioskCheckoutsRepo, machineId: string) {
      const open = await read.call(this, machineId);
      if (++arrived === racers) release();
      await Promise.race([gate, new Promise((r) => setTimeout(r, 2_000))]);
      return open;
    });
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((aisleNo) => createCheckout(t, c, { aisleNo }))).finally(() => spy.mockRestore());
    expect(arrived).toBeGreaterThanOrEqual(racers);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const open = await t.ctx.database.db
      .selectFrom('kiosk_checkouts')
      .select('id')
      .where('machine_id', '=', c.machineId)
      .where('status', '=', 'awaiting_payment')
      .execute();
    expect(open).toHaveLength(1);
    await cancelCheckout(t, c, open[0]!.id);
  });

  it('refuses an aisle sold out, faulted or without a price (409), one the machine lacks (400), a malformed body (422), and writes nothing', async () => {
    const c = await ownedCabinet(t);
    expect((await setAisle(t, c, 5, { currentStock: 0 })).status).toBe(200);
    expect((await setAisle(t, c, 6, { faulted: true })).status).toBe(200);
    await t.ctx.database.db.updateTable('aisles').set({ price_cents: 0 }).where('machine_id', '=', c.machineId).where('aisle_no', '=', 7).execute();
    expectRefused(await createCheckout(t, c, { aisleNo: 5 }), 409, /sold out/);
    expectRefused(await createCheckout(t, c, { aisleNo: 6 }), 409, /out of order/);
    expectRefused(await createCheckout(t, c, { aisleNo: 7 }), 409, /no price/);
    expectRefused(await createCheckout(t, c, { aisleNo: 42 }), 400, /has no aisle 42/);
    expectRefused(await createCheckout(t, c, { aisleNo: 0 }), 400);
    expectRefused(await createCheckout(t, c, { aisleNo: '3' }), 422);
    expectRefused(await createCheckout(t, c, {}), 400);
    expectRefused(await createCheckout(t, c, { aisleNo: 3, equipmentNo: 'SOMEONE-ELSE-0001' }), 403);
    const rows = await t.ctx.database.db.selectFrom('kiosk_checkouts').select('id').where('machine_id', '=', c.machineId).execute();
    expect(rows).toEqual([]);
  });

  it('an unpaid checkout expires at expiresAt: the cabinet reads it expired (written so), and the cabinet is free again', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 1);
    t.clock.advance(CHECKOUT_TTL_SECONDS * 1000 - 1000);
    expect((await getCheckout(t, c, d.checkoutId)).body.data).toMatchObject({ status: 'awaiting_payment', secondsLeft: 1 });
    expectRefused(await createCheckout(t, c, { aisleNo: 2 }), 409);
    t.clock.advance(1000);
    const expired = await getCheckout(t, c, d.checkoutId);
    expect(expired.status).toBe(200);
    expect(expired.body.data).toMatchObject({ status: 'expired', secondsLeft: 0, refund: null });
    expect((await checkoutRow(t, d.checkoutId)).status).toBe('expired');
    const next = await checkoutFor(t, c, 2);
    await cancelCheckout(t, c, next.checkoutId);
  });

  it('a stale unpaid checkout does not keep the cabinet busy even when nobody read it since it expired', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 1);
    t.clock.advance(CHECKOUT_TTL_SECONDS * 1000);
    const next = await checkoutFor(t, c, 3);
    expect((await checkoutRow(t, d.checkoutId)).status).toBe('expired');
    await cancelCheckout(t, c, next.checkoutId);
  });

  it('cancel: an unpaid checkout is cancelled (written); cancelling again or after expiry answers it as it stands', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 1);
    const r = await cancelCheckout(t, c, d.checkoutId);
    expect(r.status).toBe(200);
    expect(CheckoutData.parse(r.body.data)).toMatchObject({ checkoutId: d.checkoutId, status: 'cancelled', refund: null });
    expect((await checkoutRow(t, d.checkoutId)).status).toBe('cancelled');
    expect((await cancelCheckout(t, c, d.checkoutId)).body.data.status).toBe('cancelled');
    const e = await checkoutFor(t, c, 1);
    t.clock.advance(CHECKOUT_TTL_SECONDS * 1000);
    expect((await cancelCheckout(t, c, e.checkoutId)).body.data.status).toBe('expired');
  });

  it("another cabinet's checkout, an unknown id and a malformed one are 404 on read and cancel", async () => {
    const mine = await ownedCabinet(t);
    const theirs = await ownedCabinet(t);
    const d = await checkoutFor(t, theirs, 1);
    expectRefused(await getCheckout(t, mine, d.checkoutId), 404, /Checkout not found/);
    expectRefused(await cancelCheckout(t, mine, d.checkoutId), 404);
    expect((await checkoutRow(t, d.checkoutId)).status).toBe('awaiting_payment');
    expectRefused(await getCheckout(t, mine, `chk_${'0'.repeat(32)}`), 404);
    expectRefused(await getCheckout(t, mine, 'not-a-checkout'), 404);
    await cancelCheckout(t, theirs, d.checkoutId);
  });

  it('takes the device key only: the fleet secret and no credential are 401', async () => {
    const c = await ownedCabinet(t);
    expectRefused(await call(t.url, 'POST', '/cabinet/checkouts', { headers: { ...FLEET, equipmentNo: c.serial }, json: { aisleNo: 1 } }), 401);
    expectRefused(await call(t.url, 'POST', '/cabinet/checkouts', { json: { aisleNo: 1 } }), 401);
  });

  it('a retired machine is 410 on every checkout leg', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 1);
    await t.ctx.database.db.updateTable('machines').set({ retired_at: t.clock.now() }).where('id', '=', c.machineId).execute();
    t.clock.advance(t.services.runtime.devices.options.cacheTtlMs);
    expectRefused(await createCheckout(t, c, { aisleNo: 2 }), 410);
    expectRefused(await getCheckout(t, c, d.checkoutId), 410);
    expectRefused(await cancelCheckout(t, c, d.checkoutId), 410);
  });

  it('the processor failing to make the intent: 502, the checkout cancelled at once and the cabinet free', async () => {
    const c = await ownedCabinet(t);
    const spy = vi.spyOn(TestProcessor.prototype, 'createIntent').mockRejectedValueOnce(new Error('processor down'));
    try {
      expectRefused(await createCheckout(t, c, { aisleNo: 1 }), 502, /nothing was charged/);
    } finally {
      spy.mockRestore();
    }
    const rows = await t.ctx.database.db.selectFrom('kiosk_checkouts').select(['status', 'intent_id']).where('machine_id', '=', c.machineId).execute();
    expect(rows).toEqual([{ status: 'cancelled', intent_id: null }]);
    const next = await checkoutFor(t, c, 1);
    await cancelCheckout(t, c, next.checkoutId);
  });

  it('an unclaimed pool cabinet sells in the default currency (USD)', async () => {
    const e = await enrolled(t);
    const r = await call<{ data: CheckoutData }>(t.url, 'POST', '/cabinet/checkouts', { headers: { 'x-device-key': e.key }, json: { aisleNo: 1 } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data.currency).toBe('USD');
  });
});

describe('kiosk checkouts on a deployment without a payment processor', () => {
  it('answers 503 and writes nothing', async () => {
    const t = await startTestServer('sqlite', { services: { noPaymentProcessor: true } });
    try {
      const c = await ownedCabinet(t);
      expectRefused(await createCheckout(t, c, { aisleNo: 1 }), 503, /no payment processor/);
      expect(await t.ctx.database.db.selectFrom('kiosk_checkouts').select('id').execute()).toEqual([]);
      expect(t.clock.now()).toBe(TEST_EPOCH);
    } finally {
      await t.close();
    }
  });
});
