import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_TTL_SECONDS, type CheckoutData } from '@vend/protocol';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { kioskRefundsWork } from '../../background-jobs.ts';
import { DIALECTS, call, suiteServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, okData, type Body } from '../../testing/answers.ts';
import { PageClient } from '../marketplace-pages/pages.test-support.ts';
import { startFakeStripe, type FakeStripe } from '../ad-purchases/fake-stripe.ts';
import { StripeProcessor } from '../ad-purchases/stripe-processor.ts';
import type { Order } from '../orders/orders.schemas.ts';
import { REFUND_RETRY_AFTER_MS, refundKey } from './checkout.rules.ts';
import { KioskRefundsService } from './kiosk-refunds.service.ts';
import { ALICE, checkoutFor, checkoutRow, getCheckout, moneyAndDrops, ownedCabinet, payByPhone, type Cabinet } from './kiosk-checkout.test-support.ts';

const SECRET_KEY = 'sk_test_fake0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_fake0123456789abcdef';

/** The cabinet's dispense report of a command (what the agent sends after the board's drop). */
function report(t: TestServer, c: Cabinet, commandId: string, aisleNo: number, success: boolean) {
  return call(t.url, 'POST', '/cabinet/report', {
    headers: c.headers,
    json: { dispenseId: `d-${commandId}`, commandId, aisleNo, success, outcome: success ? 'vended' : 'motor_jam', detail: success ? '' : 'the motor jammed' },
  });
}

/** The page's text without its markup (what a person reads). */
const words = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

const phonePage = (t: TestServer, d: CheckoutData) => new PageClient(t.url).get(new URL(d.payUrl).pathname);
const operatorOrder = async (t: TestServer, orderNumber: string) =>
  okData(await call<Body<Order>>(t.url, 'GET', `/api/v1/orders/${orderNumber}`, { headers: ALICE }));
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The built-in test processor's book of refunds for a checkout's intent. */
async function ledger(t: TestServer, checkoutId: string) {
  const row = await checkoutRow(t, checkoutId);
  return t.ctx.database.db
    .selectFrom('test_refunds')
    .selectAll()
    .where('intent_id', '=', row.intent_id ?? '-')
    .execute();
}

/** A cabinet with a checkout paid through the test processor's page (its drop pending). */
async function paidCheckout(t: TestServer, aisleNo = 3) {
  const c = await ownedCabinet(t);
  const d = await checkoutFor(t, c, aisleNo);
  const done = await payByPhone(t, d);
  expect(done.status, done.text.slice(0, 300)).toBe(303);
  const { commands } = await moneyAndDrops(t, d.checkoutId);
  return { c, d, commandId: commands[0]!.id };
}

/** Subscribes alice to refused refunds (the outbox records an event only for a subscriber). */
async function subscribeRefundFailed(t: TestServer) {
  await expectStatus(
    call(t.url, 'POST', '/api/v1/webhooks', { headers: ALICE, json: { url: 'https://hooks.example.test/vend', eventTypes: ['order.refund_failed'] } }),
    200,
  );
}

const refundFailedEvents = async (t: TestServer, checkoutId: string) =>
  (await t.ctx.database.db.selectFrom('webhook_events').select(['type', 'body']).where('type', '=', 'order.refund_failed').execute())
    .map((e) => JSON.parse(e.body) as { data: Record<string, unknown> })
    .filter((e) => e.data['checkoutId'] === checkoutId);

describe.each(DIALECTS)('kiosk refunds through the test processor on %s', (dialect) => {
  const t = suiteServer(dialect);
  const tick = () => t.services.jobs.kioskRefunds.tick();

  beforeAll(async () => {
    await subscribeRefundFailed(t);
  });

  it('a failed drop is refunded once through the processor, unread: the loop twice makes one refund; the order refunded, the shopper and the operator see it', async () => {
    const { c, d, commandId } = await paidCheckout(t);
    expect((await report(t, c, commandId, 3, false)).status).toBe(200);
    // nobody reads the checkout: the loop settles it and refunds it
    expect((await checkoutRow(t, d.checkoutId)).status).toBe('paid');
    expect(await tick()).toEqual({ leader: true, resolved: 1 });
    expect(await tick()).toEqual({ leader: true, resolved: 0 });

    const book = await ledger(t, d.checkoutId);
    expect(book).toHaveLength(1);
    expect(book[0]).toMatchObject({ amount_cents: d.amountCents, currency: 'USD', idempotency_key: refundKey(d.checkoutId, 0) });
    const row = await checkoutRow(t, d.checkoutId);
    expect(row).toMatchObject({ status: 'failed', refund: 'issued', refund_id: book[0]!.id, refund_failure: null, refund_attempts: 0 });

    const cabinet = okData(await getCheckout(t, c, d.checkoutId));
    expect(cabinet).toMatchObject({
      status: 'failed',
      refund: 'issued',
      refundState: { status: 'issued', amountCents: d.amountCents, refundId: book[0]!.id, reason: null, at: expect.any(String), attempts: 0 },
    });
    const order = await operatorOrder(t, cabinet.orderNumber!);
    expect(order).toMatchObject({
      payStatus: 'refunded',
      refund: { status: 'issued', amountCents: d.amountCents, refundId: book[0]!.id, reason: null, at: expect.any(String) },
    });
    const list = okData(await call<Body<{ records: Order[] }>>(t.url, 'GET', `/api/v1/orders?machineNo=${c.serial}`, { headers: ALICE }));
    expect(list.records.find((o) => o.orderNumber === cabinet.orderNumber)?.refund).toMatchObject({ status: 'issued' });

    const page = await phonePage(t, d);
    expect(words(page.text)).toContain('Could not vend: your payment was refunded');
    expect(words(page.text)).toContain(`Refunded ${dollars(d.amountCents)} to the card you paid with`);
    expect(page.text).toContain('data-final="true"');
  });

  it('while the refund is owed the phone page says it is on its way and keeps following it', async () => {
    const { c, d, commandId } = await paidCheckout(t);
    expect((await report(t, c, commandId, 3, false)).status).toBe(200);
    const page = await phonePage(t, d);
    expect(words(page.text)).toContain('Could not vend: your refund is on its way');
    expect(page.text).toContain('data-final="false"');
    expect(page.text).toContain('data-state="failed:owed:');
    await tick();
    expect((await checkoutRow(t, d.checkoutId)).refund).toBe('issued');
  });

  it('no outcome in time: the decision loop rules the drop failed, the refund loop refunds it', async () => {
    const { d } = await paidCheckout(t, 2);
    t.clock.advance(130_000);
    await t.services.jobs.dispenseDecision.tick();
    await tick();
    expect(await ledger(t, d.checkoutId)).toHaveLength(1);
    expect(await checkoutRow(t, d.checkoutId)).toMatchObject({ status: 'failed', refund: 'issued' });
  });

  it('a payment after the checkout expired is refunded: the order refund_owed → refunded', async () => {
    const c = await ownedCabinet(t);
    const d = await checkoutFor(t, c, 4);
    await payByPhone(t, d, async () => {
      t.clock.advance(CHECKOUT_TTL_SECONDS * 1000 + 5_000);
    });
    const before = okData(await getCheckout(t, c, d.checkoutId));
    expect(before).toMatchObject({ status: 'expired', refund: 'owed', refundState: { status: 'owed', refundId: null, at: null } });
    expect((await operatorOrder(t, before.orderNumber!)).refund).toMatchObject({ status: 'owed', refundId: null });
    expect((await tick()).resolved).toBe(1);
    expect(await ledger(t, d.checkoutId)).toHaveLength(1);
    expect(okData(await getCheckout(t, c, d.checkoutId))).toMatchObject({ status: 'expired', refund: 'issued' });
    expect(await operatorOrder(t, before.orderNumber!)).toMatchObject({ payStatus: 'refunded', refund: { status: 'issued' } });
    expect(words((await phonePage(t, d)).text)).toMatch(/This code expired.*nothing was dropped\. Refunded \$\d+\.\d\d to the card you paid with/);
  });

  it('a vended drop is never refunded, whatever the loop sees', async () => {
    const { c, d, commandId } = await paidCheckout(t, 5);
    expect((await report(t, c, commandId, 5, true)).status).toBe(200);
    await tick();
    await tick();
    expect(await ledger(t, d.checkoutId)).toEqual([]);
    const row = await checkoutRow(t, d.checkoutId);
    expect(row).toMatchObject({ status: 'vended', refund: null });
    const order = await operatorOrder(t, row.order_number!);
    expect(order).toMatchObject({ payStatus: 'shipped', refund: null });
  });

  it('the processor refuses (already refunded by hand there): failed with its reason, the operator told, retried with a new key only after the wait', async () => {
    const { c, d, commandId } = await paidCheckout(t, 2);
    const row = await checkoutRow(t, d.checkoutId);
    // someone refunded the whole payment at the processor by hand: the processor refuses another refund
    await t.ctx.database.db
      .insertInto('test_refunds')
      .values({
        id: `re_hand_${d.checkoutId}`,
        intent_id: row.intent_id!,
        amount_cents: d.amountCents,
        currency: 'USD',
        reason: 'by hand',
        idempotency_key: `hand-${d.checkoutId}`,
        created_at: t.clock.now(),
      })
      .execute();
    expect((await report(t, c, commandId, 2, false)).status).toBe(200);
    expect((await tick()).resolved).toBe(1);

    const failed = await checkoutRow(t, d.checkoutId);
    expect(failed).toMatchObject({
      refund: 'failed',
      refund_attempts: 1,
      refund_failure: expect.stringMatching(/refused the refund: charge_already_refunded/),
    });
    const order = await operatorOrder(t, failed.order_number!);
    expect(order).toMatchObject({
      payStatus: 'refund_owed',
      refund: { status: 'failed', amountCents: d.amountCents, reason: failed.refund_failure, refundId: null, at: expect.any(String) },
    });
    expect(okData(await getCheckout(t, c, d.checkoutId))).toMatchObject({ refund: 'owed', refundState: { status: 'failed', attempts: 1 } });
    const page = words((await phonePage(t, d)).text);
    expect(page).toContain('Could not vend: we could not refund you automatically');
    expect(page).toContain(`We could not refund ${dollars(d.amountCents)} automatically: The payment processor refused the refund: charge_already_refunded`);
    expect(page).toContain('The operator has been told.');
    const told = await refundFailedEvents(t, d.checkoutId);
    expect(told).toHaveLength(1);
    expect(told[0]!.data).toMatchObject({ orderNumber: failed.order_number, amountCents: d.amountCents, currency: 'USD', attempts: 1, retries: 2 });

    // not again before the wait; after it, a second attempt (a new key), refused again and told again
    await tick();
    expect((await checkoutRow(t, d.checkoutId)).refund_attempts).toBe(1);
    t.clock.advance(REFUND_RETRY_AFTER_MS[0]);
    expect((await tick()).resolved).toBe(1);
    expect((await checkoutRow(t, d.checkoutId)).refund_attempts).toBe(2);
    expect((await refundFailedEvents(t, d.checkoutId)).map((e) => e.data['attempts'])).toEqual([1, 2]);
    // the hand refund is the only one in the processor's book
    expect((await ledger(t, d.checkoutId)).map((r) => r.id)).toEqual([`re_hand_${d.checkoutId}`]);
    // after the third refusal the loop gives up: the operator refunds by hand
    t.clock.advance(REFUND_RETRY_AFTER_MS[1]);
    await tick();
    t.clock.advance(24 * 60 * 60_000);
    await tick();
    expect((await checkoutRow(t, d.checkoutId)).refund_attempts).toBe(3);
    expect((await refundFailedEvents(t, d.checkoutId)).map((e) => e.data['retries'])).toEqual([2, 1, 0]);
  });
});

/**
 * A hop in front of the fake Stripe that loses answers: the next `lostRefunds` `POST /v1/refunds` reach Stripe (the
 * refund is made) and the connection is cut before the answer comes back, as a network failure would.
 */
async function lossyHop(upstream: string): Promise<{ server: Server; port: number; lostRefunds: number }> {
  const hop = { server: null as unknown as Server, port: 0, lostRefunds: 0 };
  hop.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection'));
      request(`${upstream}${req.url}`, {
        method: req.method as 'GET' | 'POST',
        headers: headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      })
        .then(async (up) => {
          const body = Buffer.from(await up.body.arrayBuffer());
          if (req.method === 'POST' && req.url === '/v1/refunds' && hop.lostRefunds > 0) {
            hop.lostRefunds--;
            res.socket?.destroy();
            return;
          }
          const pass = Object.fromEntries(Object.entries(up.headers).filter(([k]) => k !== 'transfer-encoding' && k !== 'connection'));
          res.writeHead(up.statusCode, pass as Record<string, string>).end(body);
        })
        .catch(() => res.socket?.destroy());
    });
  });
  await new Promise<void>((r) => hop.server.listen(0, '127.0.0.1', r));
  hop.port = (hop.server.address() as AddressInfo).port;
  return hop;
}

describe.each(DIALECTS)('kiosk refunds through Stripe (the fake) on %s', (dialect) => {
  const t = suiteServer(dialect);
  let fake: FakeStripe;
  let hop: Awaited<ReturnType<typeof lossyHop>>;
  let refunds: KioskRefundsService;
  beforeAll(async () => {
    fake = await startFakeStripe(SECRET_KEY);
    hop = await lossyHop(fake.url);
    const stripe = new StripeProcessor({
      stripe: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, api: { host: '127.0.0.1', port: hop.port, protocol: 'http' } },
      publicBaseUrl: 'https://vend.example.test',
      maxNetworkRetries: 0,
    });
    const s = t.services;
    refunds = new KioskRefundsService({ store: s.store, clock: t.clock, audit: t.ctx.audit, processors: [stripe], sales: s.sales, events: s.events });
    await subscribeRefundFailed(t);
  });
  afterAll(async () => {
    await new Promise((r) => hop.server.close(r));
    await fake.close();
  });

  /** A failed drop of a checkout paid on Stripe's hosted page (the session completed at the fake). */
  async function failedOnStripe(aisleNo: number) {
    const { c, d, commandId } = await paidCheckout(t, aisleNo);
    // until Stripe's events are routed to kiosk checkouts, the checkout is made Stripe's by hand: its session, paid
    const stripe = new StripeProcessor({ stripe: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, api: fake.api }, publicBaseUrl: 'https://x.test' });
    const session = await stripe.createIntent({ purchaseId: d.checkoutId, amountCents: d.amountCents, currency: 'USD', description: 'kiosk' });
    fake.complete(session.intentId, { secret: WEBHOOK_SECRET, timestamp: Math.floor(t.clock.now() / 1000) });
    await t.ctx.database.db.updateTable('kiosk_checkouts').set({ processor: 'stripe', intent_id: session.intentId }).where('id', '=', d.checkoutId).execute();
    expect((await report(t, c, commandId, aisleNo, false)).status).toBe(200);
    return { c, d, session: session.intentId };
  }

  const refundCalls = (checkoutId: string) =>
    fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds' && r.idempotencyKey?.startsWith(`vend-checkout-refund-${checkoutId}-`));

  it('Stripe refuses: failed with its reason on the order and the phone; the retry after the wait is a new request (new key) and issues it', async () => {
    const { d, session } = await failedOnStripe(3);
    fake.failNext('refund_refused');
    expect(await refunds.sweep()).toMatchObject({ settled: 1, issued: 0, failed: 1, unknown: 0 });
    const row = await checkoutRow(t, d.checkoutId);
    expect(row).toMatchObject({ refund: 'failed', refund_attempts: 1, refund_failure: expect.stringContaining('charge_already_refunded') });
    expect(await operatorOrder(t, row.order_number!)).toMatchObject({
      refund: { status: 'failed', reason: expect.stringContaining('charge_already_refunded') },
    });
    expect(words((await phonePage(t, d)).text)).toMatch(
      /We could not refund \$\d+\.\d\d automatically: .*charge_already_refunded.*The operator has been told\./,
    );
    expect(await refundFailedEvents(t, d.checkoutId)).toHaveLength(1);

    t.clock.advance(REFUND_RETRY_AFTER_MS[0]);
    expect(await refunds.sweep()).toMatchObject({ issued: 1, failed: 0 });
    expect(refundCalls(d.checkoutId).map((r) => r.idempotencyKey)).toEqual([refundKey(d.checkoutId, 0), refundKey(d.checkoutId, 1)]);
    const made = [...fake.refunds.values()].filter((r) => r.payment_intent === fake.sessions.get(session)!.payment_intent);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ amount: d.amountCents });
    expect(await checkoutRow(t, d.checkoutId)).toMatchObject({ refund: 'issued', refund_id: made[0]!.id, refund_failure: null });
    expect(await operatorOrder(t, row.order_number!)).toMatchObject({
      payStatus: 'refunded',
      refund: { status: 'issued', refundId: made[0]!.id, reason: null },
    });
    expect(words((await phonePage(t, d)).text)).toContain('Refunded');
    // nothing more to do
    expect(await refunds.sweep()).toMatchObject({ issued: 0, failed: 0, unknown: 0 });
    expect(refundCalls(d.checkoutId)).toHaveLength(2);
  });

  it("Stripe's answer lost (503: unknown): the refund stays owed, the next sweep asks again with the SAME key and Stripe answers the refund it made", async () => {
    const { d, session } = await failedOnStripe(2);
    // more than the SDK's own retries (each with the same key): the sweep never hears an answer
    hop.lostRefunds = 5;
    const lost = await refunds.sweep();
    hop.lostRefunds = 0;
    expect(lost).toMatchObject({ issued: 0, failed: 0, unknown: 1 });
    expect((lost.firstError as Error).message).toMatch(/unavailable/);
    const pi = fake.sessions.get(session)!.payment_intent;
    const made = () => [...fake.refunds.values()].filter((r) => r.payment_intent === pi);
    expect(made()).toHaveLength(1);
    expect(await checkoutRow(t, d.checkoutId)).toMatchObject({ refund: 'owed', refund_attempts: 0, refund_failure: null, refund_id: null });
    expect(await refundFailedEvents(t, d.checkoutId)).toEqual([]);
    // no wait for an unknown outcome: the next sweep asks again with the same key, and Stripe answers the same refund
    expect(await refunds.sweep()).toMatchObject({ issued: 1, unknown: 0 });
    const keys = refundCalls(d.checkoutId).map((r) => r.idempotencyKey);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys)).toEqual(new Set([refundKey(d.checkoutId, 0)]));
    expect(made()).toHaveLength(1);
    expect(await checkoutRow(t, d.checkoutId)).toMatchObject({ refund: 'issued', refund_id: made()[0]!.id, refund_attempts: 0 });
  });

  it("the loop's tick fails while the processor does not answer, so the loop's status says why", async () => {
    const { d } = await failedOnStripe(4);
    fake.failNext('server_error');
    await expect(kioskRefundsWork({ kioskRefunds: refunds })()).rejects.toThrow(
      /1 kiosk refund\(s\) unanswered by the payment processor, retried with the same key next tick/,
    );
    expect(await checkoutRow(t, d.checkoutId)).toMatchObject({ refund: 'owed' });
    expect(await kioskRefundsWork({ kioskRefunds: refunds })()).toBe(1);
  });
});
