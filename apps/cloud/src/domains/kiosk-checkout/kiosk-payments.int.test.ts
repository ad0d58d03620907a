import { describe, expect, it } from 'vitest';
import { CHECKOUT_TTL_SECONDS, type PendingData } from '@vend/protocol';
import { DIALECTS, call, suiteServer, type TestServer } from '../../testing/harness.ts';
import { checkedFetch } from '../../testing/contract.ts';
import { expectRefused, okData, type Body } from '../../testing/answers.ts';
import { aisleStock } from '../gateway/gateway.test-support.ts';
import {
  ALICE,
  cancelCheckout,
  checkoutFor,
  checkoutRow,
  createCheckout,
  deliver,
  getCheckout,
  moneyAndDrops,
  ownedCabinet,
  payByPhone,
  succeeded,
  type Cabinet,
} from './kiosk-checkout.test-support.ts';

/** Resolves once `cond()` holds; real time, bounded. */
async function until(cond: () => boolean, what: string, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The cabinet's dispense report of a command (what the agent sends after the board's drop). */
function report(t: TestServer, c: Cabinet, commandId: string, aisleNo: number, success: boolean) {
  return call(t.url, 'POST', '/cabinet/report', {
    headers: c.headers,
    json: { dispenseId: `d-${commandId}`, commandId, aisleNo, success, outcome: success ? 'vended' : 'motor_jam', detail: success ? '' : 'the motor jammed' },
  });
}

describe.each(DIALECTS)('kiosk checkouts: the payment and the drop on %s', (dialect) => {
  const t = suiteServer(dialect);

  /** A cabinet with a checkout paid through the test processor's page. */
  async function paid(aisleNo = 3) {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, aisleNo);
    const done = await payByPhone(t, d);
    expect(done.status, done.text.slice(0, 300)).toBe(303);
    return { c, d };
  }

  it('paying on the phone: the processor page returns the shopper to the phone page; one paid order with its payment, one pending drop, the held long poll woken', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 3);
    // the cabinet's long poll is held (nothing pending) while the shopper pays
    const url = new URL(`${t.url}/cabinet/pending`);
    url.searchParams.set('wait', '20');
    const held = t.services.runtime.pendingNotifier.holding();
    const poll = checkedFetch(url, { headers: c.headers }).then(async (r) => (await r.json()) as Body<PendingData>);
    await until(() => t.services.runtime.pendingNotifier.holding() > held, 'the poll to be held');

    const done = await payByPhone(t, d);
    expect(done.status).toBe(303);
    expect(done.location).toBe(d.payUrl);

    const after = okData(await getCheckout(t, c, d.checkoutId));
    expect(after).toMatchObject({ status: 'paid', refund: null, paidAt: expect.any(String) });
    const { row, orders, commands } = await moneyAndDrops(t, d.checkoutId);
    expect(orders).toHaveLength(1);
    expect(commands).toHaveLength(1);
    const [order, command] = [orders[0]!, commands[0]!];
    expect(command).toMatchObject({
      machine_id: c.machineId,
      aisle_no: 3,
      status: 'pending',
      external_ref: d.checkoutId,
      reason: `kiosk checkout ${d.checkoutId}`,
    });
    const alice = await t.ctx.database.db.selectFrom('operators').select('merchant_account').where('id', '=', 'op_sbx_alice').executeTakeFirstOrThrow();
    expect(order).toMatchObject({
      machine_id: c.machineId,
      aisle_no: 3,
      quantity: 1,
      pay_status: 'paid',
      vended: 0,
      charged_cents: d.amountCents,
      paid_cents: d.amountCents,
      channel: 'api_drop',
      pay_method: 'phone',
      terminal_id: 'test',
      payment_ref: row.intent_id,
      settlement_account: alice.merchant_account,
      command_id: command.id,
    });
    expect(after).toMatchObject({ orderNumber: order.order_number, commandId: command.id });
    // the operator sees the order with its payment
    const seen = okData(
      await call<Body<{ payStatus: string; payment?: { terminalId: string; settlementAccount: string } }>>(
        t.url,
        'GET',
        `/api/v1/orders/${order.order_number}`,
        { headers: ALICE },
      ),
    );
    expect(seen).toMatchObject({ payStatus: 'paid', payment: { terminalId: 'test', settlementAccount: alice.merchant_account } });
    // the cabinet's held poll answered at once with the drop (the clock never moved)
    const woke = await Promise.race([poll, new Promise<null>((r) => setTimeout(() => r(null), 3_000))]);
    expect(woke?.data.commands.map((x) => x.commandId)).toEqual([command.id]);
    expect(woke?.data.commands[0]).toMatchObject({ aisleNo: 3, externalRef: d.checkoutId });
    // paid: not cancellable, answered as it stands; and the cabinet stays busy until the drop ends
    expect(okData(await cancelCheckout(t, c, d.checkoutId)).status).toBe('paid');
    expect((await checkoutRow(t, d.checkoutId)).status).toBe('paid');
    expectRefused(await createCheckout(t, c, { aisleNo: 1 }), 409, /dropping a paid product/);
  });

  it('the webhook delivered again, by another event id of the same intent, and in a concurrent burst: one order, one drop', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 2);
    const row = await checkoutRow(t, d.checkoutId);
    const first = okData(await deliver(t, succeeded(row)));
    expect(first).toMatchObject({ duplicate: false, status: 'paid', checkoutId: d.checkoutId, orderNumber: expect.any(String), commandId: expect.any(String) });
    expect(okData(await deliver(t, succeeded(row)))).toMatchObject({ duplicate: true, status: 'paid', orderNumber: first.orderNumber });
    expect(okData(await deliver(t, succeeded(row, {}, 'evt_retry_other_id')))).toMatchObject({ duplicate: true, status: 'paid' });
    const burst = await Promise.all([1, 2, 3, 4].map((i) => deliver(t, succeeded(row, {}, `evt_burst_${d.checkoutId}_${i}`))));
    expect(burst.map((b) => b.status)).toEqual([200, 200, 200, 200]);
    const { orders, commands } = await moneyAndDrops(t, d.checkoutId);
    expect(orders.map((o) => o.order_number)).toEqual([first.orderNumber]);
    expect(commands.map((x) => x.id)).toEqual([first.commandId]);
    // each event id is on file once, as first received
    const events = await t.ctx.database.db.selectFrom('kiosk_checkout_events').select(['id', 'payload']).where('checkout_id', '=', d.checkoutId).execute();
    expect(events).toHaveLength(6);
    expect(events.find((e) => e.id === `evt_${row.intent_id}`)?.payload).toBe(succeeded(row));
  });

  it('two first deliveries racing on a fresh checkout: exactly one pays it', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 2);
    const row = await checkoutRow(t, d.checkoutId);
    const answers = await Promise.all(['a', 'b', 'c'].map((s) => deliver(t, succeeded(row, {}, `evt_race_${s}_${d.checkoutId}`))));
    expect(answers.map((a) => a.body.data.duplicate).sort()).toEqual([false, true, true]);
    const { orders, commands } = await moneyAndDrops(t, d.checkoutId);
    expect([orders.length, commands.length]).toEqual([1, 1]);
  });

  it("a payment that is not the checkout's (amount, currency, intent, unknown checkout) is 400 and changes nothing; the right one then applies", async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 2);
    const row = await checkoutRow(t, d.checkoutId);
    for (const over of [{ amountCents: d.amountCents - 1 }, { currency: 'EUR' }, { intentId: 'pi_someone_else' }, { purchaseId: `chk_${'f'.repeat(32)}` }])
      expectRefused(await deliver(t, succeeded(row, over)), 400);
    expect((await checkoutRow(t, d.checkoutId)).status).toBe('awaiting_payment');
    expect(await moneyAndDrops(t, d.checkoutId)).toMatchObject({ orders: [], commands: [] });
    expect(okData(await deliver(t, succeeded(row))).status).toBe('paid');
  });

  it('an unsigned delivery is 401 and changes nothing', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 2);
    const body = succeeded(await checkoutRow(t, d.checkoutId));
    expectRefused(await call(t.url, 'POST', '/api/v1/kiosk-checkouts/webhook', { body, headers: { 'content-type': 'application/json' } }), 401);
    expect((await checkoutRow(t, d.checkoutId)).status).toBe('awaiting_payment');
    await cancelCheckout(t, c, d.checkoutId);
  });

  it('a payment after the checkout expired is owed back: an order refund_owed, no drop, nothing dropped', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 4);
    const done = await payByPhone(t, d, async () => {
      t.clock.advance(CHECKOUT_TTL_SECONDS * 1000 + 5_000);
    });
    expect(done.status).toBe(303);
    const after = okData(await getCheckout(t, c, d.checkoutId));
    expect(after).toMatchObject({ status: 'expired', refund: 'owed', commandId: null, orderNumber: expect.any(String), paidAt: expect.any(String) });
    const { orders, commands } = await moneyAndDrops(t, d.checkoutId);
    expect(commands).toEqual([]);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ order_number: after.orderNumber, pay_status: 'refund_owed', vended: 0, command_id: null, charged_cents: d.amountCents });
    const pending = okData(await call<Body<PendingData>>(t.url, 'GET', '/cabinet/pending', { headers: c.headers }));
    expect(pending.commands).toEqual([]);
    // delivered again: still one order
    expect(okData(await deliver(t, succeeded(await checkoutRow(t, d.checkoutId), {}, 'evt_late_again'))).duplicate).toBe(true);
    expect((await moneyAndDrops(t, d.checkoutId)).orders).toHaveLength(1);
  });

  it('a payment after the cabinet cancelled is owed back too', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 4);
    const done = await payByPhone(t, d, async () => {
      expect(okData(await cancelCheckout(t, c, d.checkoutId)).status).toBe('cancelled');
    });
    expect(done.status).toBe(303);
    expect(okData(await getCheckout(t, c, d.checkoutId))).toMatchObject({ status: 'cancelled', refund: 'owed', commandId: null });
    const { orders, commands } = await moneyAndDrops(t, d.checkoutId);
    expect(commands).toEqual([]);
    expect(orders.map((o) => o.pay_status)).toEqual(['refund_owed']);
  });

  it('the cabinet reports the drop done: the checkout is vended, the order shipped, one unit leaves the aisle (once), the cabinet is free', async () => {
    const { c, d } = await paid(3);
    const before = await aisleStock(t, c.serial, 3);
    const { commands } = await moneyAndDrops(t, d.checkoutId);
    expect((await report(t, c, commands[0]!.id, 3, true)).status).toBe(200);
    expect((await report(t, c, commands[0]!.id, 3, true)).status).toBe(200);
    expect(okData(await getCheckout(t, c, d.checkoutId))).toMatchObject({ status: 'vended', refund: null, detail: null });
    const { orders } = await moneyAndDrops(t, d.checkoutId);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ pay_status: 'shipped', vended: 1 });
    expect(await aisleStock(t, c.serial, 3)).toBe(before - 1);
    const next = await checkoutFor(t, c, 1);
    await cancelCheckout(t, c, next.checkoutId);
  });

  it('the drop failed: the checkout is failed with its refund owed and words for the shopper; the order refund_owed, no stock moved', async () => {
    const { c, d } = await paid(3);
    const before = await aisleStock(t, c.serial, 3);
    const { commands } = await moneyAndDrops(t, d.checkoutId);
    expect((await report(t, c, commands[0]!.id, 3, false)).status).toBe(200);
    const after = okData(await getCheckout(t, c, d.checkoutId));
    expect(after).toMatchObject({ status: 'failed', refund: 'owed', detail: expect.stringMatching(/could not drop your product.*refunded/) });
    expect((await checkoutRow(t, d.checkoutId)).status).toBe('failed');
    const { orders } = await moneyAndDrops(t, d.checkoutId);
    expect(orders[0]).toMatchObject({ pay_status: 'refund_owed', vended: 0 });
    expect(await aisleStock(t, c.serial, 3)).toBe(before);
  });

  it('no outcome in time: the decision loop expires the drop, the checkout fails and its order is owed back', async () => {
    const { c, d } = await paid(3);
    t.clock.advance(130_000);
    expect(await t.services.commands.expireOverdue(120_000)).toBeGreaterThanOrEqual(1);
    expect(okData(await getCheckout(t, c, d.checkoutId))).toMatchObject({ status: 'failed', refund: 'owed', detail: expect.stringMatching(/did not confirm/) });
    expect((await moneyAndDrops(t, d.checkoutId)).orders[0]).toMatchObject({ pay_status: 'refund_owed', vended: 0 });
  });

  it('a success reported after the decision loop ruled the drop failed: the ruling stands for the shopper (failed, refund owed), the unit leaves the aisle', async () => {
    const { c, d } = await paid(5);
    const before = await aisleStock(t, c.serial, 5);
    t.clock.advance(130_000);
    await t.services.commands.expireOverdue(120_000);
    const { commands } = await moneyAndDrops(t, d.checkoutId);
    expect((await report(t, c, commands[0]!.id, 5, true)).status).toBe(200);
    expect(okData(await getCheckout(t, c, d.checkoutId))).toMatchObject({ status: 'failed', refund: 'owed' });
    expect((await moneyAndDrops(t, d.checkoutId)).orders[0]).toMatchObject({ pay_status: 'refund_owed' });
    expect(await aisleStock(t, c.serial, 5)).toBe(before - 1);
  });

  it('an order paid at the cabinet (no processor payment) before a failed drop is still refunded at once', async () => {
    const c = await ownedCabinet(t);
    const enq = okData(
      await call<Body<{ commandId: string }>>(t.url, 'POST', `/api/v1/machines/${c.serial}/commands/dispense`, {
        headers: ALICE,
        json: { aisleNo: 2, reason: 'paid at the cabinet' },
      }),
    );
    const db = t.ctx.database.db;
    await db
      .insertInto('orders')
      .values({
        order_number: `T${enq.commandId.slice(-12).toUpperCase()}`,
        machine_id: c.machineId,
        operator_id: 'op_sbx_alice',
        aisle_no: 2,
        quantity: 1,
        pay_status: 'paid',
        paid_cents: 125,
        charged_cents: 125,
        tax_rate: null,
        channel: 'api_drop',
        pay_method: 'card',
        terminal_id: null,
        card_brand: 'visa',
        card_last4: '4242',
        settlement_account: null,
        command_id: enq.commandId,
        dispense_id: null,
        vended: 0,
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .execute();
    expect((await report(t, c, enq.commandId, 2, false)).status).toBe(200);
    const order = await db.selectFrom('orders').select('pay_status').where('command_id', '=', enq.commandId).executeTakeFirstOrThrow();
    expect(order.pay_status).toBe('refunded');
  });
});
