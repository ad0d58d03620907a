import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SECRETS } from '../../config.ts';
import { PRODUCTION_ENV } from '../../config.test-support.ts';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { okData, type Body } from '../../testing/answers.ts';
import { newOperator } from '../machines/machines.factories.ts';
import { DFY_POOL_WEBHOOK_PATH } from '../dfy/pool/dfy-fleets.service.ts';
import { KIOSK_CHECKOUT_WEBHOOK_PATH } from '../kiosk-checkout/kiosk-checkout.service.ts';
import { ALICE, checkoutFor, checkoutRow, getCheckout, moneyAndDrops, ownedCabinet } from '../kiosk-checkout/kiosk-checkout.test-support.ts';
import { buy, marketplaceCast } from './ad-purchases.test-support.ts';
import { signStripeEvent, startFakeStripe, stripeEvent, type FakeStripe } from './fake-stripe.ts';
import type { RoutedPaymentEvent } from './payment-event-router.ts';
import { PAYMENT_EXPIRED, PAYMENT_SUCCEEDED } from './processor.ts';
import { AD_PAYMENTS_WEBHOOK_PATH } from './test-processor.ts';

const SECRET_KEY = 'sk_test_fake0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_fake0123456789abcdef';
const BASE = 'https://vend.example.test';
const STRIPE_ENV = { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PUBLIC_BASE_URL: BASE };

type Investment = { id: string; status: string; investUsd: number; paymentIntentId: string; checkoutUrl: string; processor: string };
type Pool = { balanceUsd: number; totalInvestedUsd: number };

/** Stripe's delivery of a signed event to one of this service's payment webhooks (the registered one by default). */
function stripePost(t: TestServer, payload: string, path = AD_PAYMENTS_WEBHOOK_PATH) {
  const ts = Math.floor(t.clock.now() / 1000);
  return call<Body<Record<string, unknown>>>(t.url, 'POST', path, {
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signStripeEvent(payload, WEBHOOK_SECRET, ts) },
  });
}

/** What the webhook answered, as a routed event (200 required). */
const routed = (r: { status: number; text: string; body: Body<Record<string, unknown>> }) => okData(r) as unknown as RoutedPaymentEvent;

/** The rows each place keeps of processor events, by event id: which place applied (or recorded) an event. */
async function eventRows(t: TestServer, eventId: string) {
  const db = t.ctx.database.db;
  const ids = async (table: 'ad_payment_events' | 'dfy_pool_events' | 'kiosk_checkout_events') =>
    (await db.selectFrom(table).select('id').where('id', '=', eventId).execute()).length;
  return { ads: await ids('ad_payment_events'), pool: await ids('dfy_pool_events'), kiosk: await ids('kiosk_checkout_events') };
}

/**
 * Stripe for every place that takes money (issue 34): one Stripe endpoint, each event applied by the place its
 * intent's webhook path names (payment-event-router.ts), against the fake Stripe on 127.0.0.1 over real HTTP.
 */
describe.each(DIALECTS)('Stripe events routed to the pool, kiosk checkouts and ad purchases on %s', (dialect) => {
  let t: TestServer;
  let fake: FakeStripe;
  const complete = (sessionId: string, eventId?: string) =>
    fake.complete(sessionId, { secret: WEBHOOK_SECRET, timestamp: Math.floor(t.clock.now() / 1000), ...(eventId ? { eventId } : {}) });
  const deliverSigned = (signed: { payload: string }, path?: string) => stripePost(t, signed.payload, path);
  const expiredOf = (sessionId: string, id: string) =>
    stripeEvent('checkout.session.expired', { ...fake.sessions.get(sessionId)!, status: 'expired' }, { id, created: Math.floor(t.clock.now() / 1000) });

  beforeAll(async () => {
    fake = await startFakeStripe(SECRET_KEY);
    t = await startTestServer(dialect, { env: { ...STRIPE_ENV, STRIPE_API_BASE: fake.url } });
    await marketplaceCast(t);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const poolRows = async (operatorId: string) => {
    const db = t.ctx.database.db;
    return JSON.stringify([
      await db.selectFrom('dfy_pools').selectAll().where('operator_id', '=', operatorId).execute(),
      await db.selectFrom('dfy_pool_investments').selectAll().where('operator_id', '=', operatorId).execute(),
      await db.selectFrom('dfy_pool_allocations').selectAll().where('operator_id', '=', operatorId).execute(),
    ]);
  };
  const invest = async (who: { headers: Record<string, string> }, investUsd: number) =>
    okData(await call<Body<Investment>>(t.url, 'POST', '/api/v1/dfy/fleets', { headers: who.headers, json: { confirm: true, investUsd } }));
  const poolOf = async (who: { headers: Record<string, string> }) =>
    okData(await call<Body<Pool>>(t.url, 'GET', '/api/v1/dfy/fleets', { headers: who.headers }));

  it('a pool investment paid through Stripe lands in the pool once, by the registered endpoint; a duplicate changes nothing', async () => {
    const op = await newOperator(t.ctx.database.db, t.clock.now());
    const inv = await invest(op, 500);
    const session = fake.sessions.get(inv.paymentIntentId)!;
    expect(inv).toMatchObject({ status: 'awaiting_payment', processor: 'stripe', checkoutUrl: session.url });
    expect(session).toMatchObject({ amount_total: 50000, currency: 'usd', metadata: { purchaseId: inv.id, webhookPath: DFY_POOL_WEBHOOK_PATH } });
    // the investor comes back to the console's placements page (not the ad buyer's /pay/return, which knows no investment)
    expect(session).toMatchObject({ success_url: `${BASE}/console/placements`, cancel_url: `${BASE}/console/placements` });

    const signed = complete(session.id);
    const first = routed(await deliverSigned(signed));
    expect(first).toEqual({
      eventId: signed.id,
      type: PAYMENT_SUCCEEDED,
      routedTo: DFY_POOL_WEBHOOK_PATH,
      result: { eventId: signed.id, type: PAYMENT_SUCCEEDED, duplicate: false, investmentId: inv.id, status: 'paid', dealsFunded: [] },
    });
    expect(await poolOf(op)).toMatchObject({ balanceUsd: 500, totalInvestedUsd: 500 });
    const after = await poolRows(op.id);

    // Stripe retries the same event (and a late async success of the same session): nothing changes
    expect(routed(await deliverSigned(signed)).result).toMatchObject({ duplicate: true, status: 'paid' });
    const late = stripeEvent('checkout.session.async_payment_succeeded', fake.sessions.get(session.id), {
      id: `evt_late_${inv.id}`,
      created: Math.floor(t.clock.now() / 1000),
    });
    expect(routed(await stripePost(t, late)).result).toMatchObject({ duplicate: true, status: 'paid' });
    // the session's expiry after its payment: recorded, nothing changes
    expect(routed(await stripePost(t, expiredOf(session.id, `evt_exp_${inv.id}`))).result).toMatchObject({
      type: PAYMENT_EXPIRED,
      duplicate: false,
      status: 'paid',
    });
    expect(await poolRows(op.id)).toBe(after);
    expect(await poolOf(op)).toMatchObject({ balanceUsd: 500, totalInvestedUsd: 500 });
    // applied by the pool alone, never recorded as an ad payment
    expect(await eventRows(t, signed.id)).toEqual({ ads: 0, pool: 1, kiosk: 0 });
  });

  it('a kiosk checkout paid through Stripe makes its order and drop once; Stripe returns the shopper to the phone page', async () => {
    const c = await ownedCabinet(t, ALICE);
    const d = await checkoutFor(t, c, 3);
    const row = await checkoutRow(t, d.checkoutId);
    const session = fake.sessions.get(row.intent_id!)!;
    expect(row).toMatchObject({ processor: 'stripe', checkout_url: session.url });
    expect(d.payUrl).toBe(`${BASE}/buy/${d.checkoutId}`);
    expect(session).toMatchObject({
      amount_total: d.amountCents,
      success_url: d.payUrl,
      cancel_url: d.payUrl,
      metadata: { purchaseId: d.checkoutId, webhookPath: KIOSK_CHECKOUT_WEBHOOK_PATH },
    });

    const signed = complete(session.id);
    const first = routed(await deliverSigned(signed));
    expect(first).toMatchObject({
      eventId: signed.id,
      routedTo: KIOSK_CHECKOUT_WEBHOOK_PATH,
      result: {
        type: PAYMENT_SUCCEEDED,
        duplicate: false,
        checkoutId: d.checkoutId,
        status: 'paid',
        orderNumber: expect.any(String),
        commandId: expect.any(String),
      },
    });
    const paid = await moneyAndDrops(t, d.checkoutId);
    expect(paid.orders).toHaveLength(1);
    expect(paid.commands).toHaveLength(1);
    expect(paid.commands[0]).toMatchObject({ aisle_no: 3, status: 'pending', external_ref: d.checkoutId });
    expect(okData(await getCheckout(t, c, d.checkoutId))).toMatchObject({ status: 'paid' });

    // a replay, then the session's expiry coming after its payment (out of order): nothing changes
    expect(routed(await deliverSigned(signed)).result).toMatchObject({ duplicate: true, status: 'paid' });
    const expired = routed(await stripePost(t, expiredOf(session.id, `evt_exp_${d.checkoutId}`)));
    expect(expired).toMatchObject({ type: PAYMENT_EXPIRED, routedTo: KIOSK_CHECKOUT_WEBHOOK_PATH, result: { duplicate: false, status: 'paid', refund: null } });
    expect(await moneyAndDrops(t, d.checkoutId)).toEqual(paid);
    expect(await eventRows(t, signed.id)).toEqual({ ads: 0, pool: 0, kiosk: 1 });
  });

  it('checkout.session.expired ends a kiosk checkout still awaiting payment (the cabinet is free); for a pool investment it is recorded only', async () => {
    const c = await ownedCabinet(t, ALICE);
    const d = await checkoutFor(t, c, 2);
    const row = await checkoutRow(t, d.checkoutId);
    const answer = routed(await stripePost(t, expiredOf(row.intent_id!, `evt_exp_open_${d.checkoutId}`)));
    expect(answer).toMatchObject({ routedTo: KIOSK_CHECKOUT_WEBHOOK_PATH, result: { type: PAYMENT_EXPIRED, status: 'expired' } });
    expect(okData(await getCheckout(t, c, d.checkoutId))).toMatchObject({ status: 'expired', refund: null });
    expect((await moneyAndDrops(t, d.checkoutId)).commands).toHaveLength(0);
    // the cabinet may start another checkout at once
    const next = await checkoutFor(t, c, 2);
    expect(next.status).toBe('awaiting_payment');

    const op = await newOperator(t.ctx.database.db, t.clock.now());
    const inv = await invest(op, 60);
    const before = await poolRows(op.id);
    const recorded = routed(await stripePost(t, expiredOf(inv.paymentIntentId, `evt_exp_${inv.id}`)));
    expect(recorded).toMatchObject({ routedTo: DFY_POOL_WEBHOOK_PATH, result: { type: PAYMENT_EXPIRED, duplicate: false, status: 'awaiting_payment' } });
    expect(await poolRows(op.id)).toBe(before);
    expect(await eventRows(t, `evt_exp_${inv.id}`)).toEqual({ ads: 0, pool: 1, kiosk: 0 });
  });

  it('an event is applied by its owner whichever payment webhook receives it, never by another', async () => {
    // a kiosk payment delivered to the pool's webhook: the kiosk applies it
    const c = await ownedCabinet(t, ALICE);
    const d = await checkoutFor(t, c, 4);
    const kiosk = complete((await checkoutRow(t, d.checkoutId)).intent_id!);
    expect(routed(await deliverSigned(kiosk, DFY_POOL_WEBHOOK_PATH))).toMatchObject({
      routedTo: KIOSK_CHECKOUT_WEBHOOK_PATH,
      result: { checkoutId: d.checkoutId, status: 'paid', duplicate: false },
    });
    expect(await eventRows(t, kiosk.id)).toEqual({ ads: 0, pool: 0, kiosk: 1 });
    expect((await moneyAndDrops(t, d.checkoutId)).commands).toHaveLength(1);

    // a pool payment delivered to the kiosk's webhook: the pool applies it
    const op = await newOperator(t.ctx.database.db, t.clock.now());
    const inv = await invest(op, 75);
    const pool = complete(inv.paymentIntentId);
    expect(routed(await deliverSigned(pool, KIOSK_CHECKOUT_WEBHOOK_PATH))).toMatchObject({
      routedTo: DFY_POOL_WEBHOOK_PATH,
      result: { investmentId: inv.id, status: 'paid' },
    });
    expect(await eventRows(t, pool.id)).toEqual({ ads: 0, pool: 1, kiosk: 0 });
    expect(await poolOf(op)).toMatchObject({ balanceUsd: 75 });

    // an ad purchase (its session names no webhook path) delivered to the kiosk's webhook: the ad payments apply it
    const p = await buy(t);
    expect(fake.sessions.get(p.paymentIntentId)!.metadata).toEqual({ purchaseId: p.purchaseId });
    const ad = complete(p.paymentIntentId);
    expect(routed(await deliverSigned(ad, KIOSK_CHECKOUT_WEBHOOK_PATH))).toMatchObject({
      routedTo: AD_PAYMENTS_WEBHOOK_PATH,
      result: { purchaseId: p.purchaseId, status: 'pending_approval', duplicate: false },
    });
    expect(await eventRows(t, ad.id)).toEqual({ ads: 1, pool: 0, kiosk: 0 });

    // the pool's own webhook applies its own event itself, answered in its own shape
    const inv2 = await invest(op, 80);
    const own = complete(inv2.paymentIntentId);
    expect(okData(await deliverSigned(own, DFY_POOL_WEBHOOK_PATH))).toMatchObject({ eventId: own.id, investmentId: inv2.id, status: 'paid' });
    expect(await poolOf(op)).toMatchObject({ balanceUsd: 155 });
  });

  it('an event naming a webhook path no place has is acknowledged (200), recorded in the audit log, and changes nothing', async () => {
    const c = await ownedCabinet(t, ALICE);
    const d = await checkoutFor(t, c, 5);
    const row = await checkoutRow(t, d.checkoutId);
    const session = fake.sessions.get(row.intent_id!)!;
    // a paid session for a real checkout, but naming a place this service does not have
    session.metadata = { purchaseId: d.checkoutId, webhookPath: '/api/v1/nowhere/webhook' };
    const signed = complete(session.id, 'evt_unrouted_1');
    for (const path of [AD_PAYMENTS_WEBHOOK_PATH, DFY_POOL_WEBHOOK_PATH, KIOSK_CHECKOUT_WEBHOOK_PATH]) {
      expect(routed(await deliverSigned(signed, path))).toEqual({ eventId: 'evt_unrouted_1', type: PAYMENT_SUCCEEDED, routedTo: null, result: null });
    }
    expect(await eventRows(t, 'evt_unrouted_1')).toEqual({ ads: 0, pool: 0, kiosk: 0 });
    expect(await checkoutRow(t, d.checkoutId)).toEqual(row);
    expect(await moneyAndDrops(t, d.checkoutId)).toMatchObject({ orders: [], commands: [] });
    const audit = await t.ctx.database.db.selectFrom('audit_log').select(['action', 'resource']).where('action', '=', 'payments.event_unrouted').execute();
    expect(audit.filter((a) => a.resource.startsWith('event:evt_unrouted_1 '))).toHaveLength(3);
    expect(audit[0]!.resource).toContain('/api/v1/nowhere/webhook');

    // a Stripe-signed event is still authenticated first: tampered, it is a 401 wherever it is delivered
    const tampered = await call(t.url, 'POST', DFY_POOL_WEBHOOK_PATH, {
      body: signed.payload,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signStripeEvent(signed.payload, 'whsec_someone_else', Math.floor(t.clock.now() / 1000)),
      },
    });
    expect(tampered.status).toBe(401);
  });
});

describe.each(DIALECTS)('a production server with Stripe configured on %s', (dialect) => {
  // the test cabinets register and enrol over the sandbox's fleet secret (gateway.test-support.ts)
  const CABINETS = { FLEET_SECRET: SANDBOX_SECRETS.FLEET_SECRET };
  it('answers the pool investment and the kiosk checkout through Stripe instead of 503', async () => {
    const fake = await startFakeStripe(SECRET_KEY);
    const t = await startTestServer(dialect, { seed: false, env: { ...PRODUCTION_ENV, ...CABINETS, ...STRIPE_ENV, STRIPE_API_BASE: fake.url } });
    try {
      expect(t.ctx.config.mode).toBe('production');
      expect(t.services.testProcessor).toBeNull();
      // production seeds nothing: the sandbox's people and cabinets, written here for the test
      await t.services.store.transaction((tx) => tx.sandbox.seed(t.clock.now(), t.ctx.sealer, t.services.seedSteps));
      const op = await newOperator(t.ctx.database.db, t.clock.now());
      const inv = okData(await call<Body<Investment>>(t.url, 'POST', '/api/v1/dfy/fleets', { headers: op.headers, json: { confirm: true, investUsd: 100 } }));
      expect(inv).toMatchObject({ processor: 'stripe', status: 'awaiting_payment', checkoutUrl: fake.sessions.get(inv.paymentIntentId)!.url });

      const c = await ownedCabinet(t, ALICE);
      const d = await checkoutFor(t, c, 1);
      const row = await checkoutRow(t, d.checkoutId);
      expect(row).toMatchObject({ processor: 'stripe', checkout_url: fake.sessions.get(row.intent_id!)!.url });

      // and their Stripe events are applied through the registered endpoint
      const ts = Math.floor(t.clock.now() / 1000);
      const paid = fake.complete(row.intent_id!, { secret: WEBHOOK_SECRET, timestamp: ts });
      expect(routed(await stripePost(t, paid.payload))).toMatchObject({ routedTo: KIOSK_CHECKOUT_WEBHOOK_PATH, result: { status: 'paid' } });
    } finally {
      await t.close();
      await fake.close();
    }
  });

  it('without Stripe, production has no processor: the pool and kiosk checkouts answer 503', async () => {
    const t = await startTestServer(dialect, { seed: false, env: { ...PRODUCTION_ENV, ...CABINETS } });
    try {
      await t.services.store.transaction((tx) => tx.sandbox.seed(t.clock.now(), t.ctx.sealer, t.services.seedSteps));
      const op = await newOperator(t.ctx.database.db, t.clock.now());
      expect((await call(t.url, 'POST', '/api/v1/dfy/fleets', { headers: op.headers, json: { confirm: true, investUsd: 100 } })).status).toBe(503);
      const c = await ownedCabinet(t, ALICE);
      expect((await call(t.url, 'POST', '/cabinet/checkouts', { headers: c.headers, json: { aisleNo: 1 } })).status).toBe(503);
    } finally {
      await t.close();
    }
  });
});
