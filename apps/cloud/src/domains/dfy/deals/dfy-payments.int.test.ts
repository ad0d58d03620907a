import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../../testing/harness.ts';
import { expectRefused, okData, type Body } from '../../../testing/answers.ts';
import { newOperator } from '../../machines/machines.factories.ts';
import { signStripeEvent, startFakeStripe, stripeEvent, type FakeStripe } from '../../ad-purchases/fake-stripe.ts';
import type { RoutedPaymentEvent } from '../../ad-purchases/payment-event-router.ts';
import { AD_PAYMENTS_WEBHOOK_PATH } from '../../ad-purchases/test-processor.ts';
import type { DealState } from './deal-model.ts';
import { DFY_PAYMENTS_WEBHOOK_PATH } from './deal-payments.ts';

const SECRET_KEY = 'sk_test_fake0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_fake0123456789abcdef';
const BASE = 'https://vend.example.test';
const VENUE = { name: 'Harbor Gym', address: '12 Pier St', lat: 40.7033, lng: -74.017 };
const ENVELOPE = { revenueShareTargetPct: 10, revenueShareMaxPct: 15, termMinMonths: 12, termTargetMonths: 24, termMaxMonths: 36 };

type H = Record<string, string>;
type Person = { id: string; headers: H };
type Awaiting = {
  id: string;
  kind: string;
  status: string;
  amountUsd: number;
  currency: string;
  processor: string;
  paymentIntentId: string;
  checkoutUrl: string;
};
type Deal = DealState & { payment?: Awaiting };
type Refund = { status: string; refundId: string | null; reason: string | null; at: string | null };
type Money = {
  dealId: string;
  payment: Awaiting | null;
  payments: { id: string; kind: string; amountUsd: number; currency: string; processor: string | null; refundedAt: string | null; refund: Refund | null }[];
};
type WebhookResult = { eventId: string; paymentId: string; dealId: string | null; duplicate: boolean; status: string | null; refundOwed: boolean };

/**
 * Done-for-you pre-orders and checkouts through a real payment processor (issue 34; docs/decisions/dfy.md "Pre-order
 * and checkout through Stripe"): the fake Stripe on 127.0.0.1 behind the StripeProcessor, over real HTTP.
 */
describe.each(DIALECTS)('DFY pre-orders, checkouts and refunds through Stripe (the fake) on %s', (dialect) => {
  let t: TestServer;
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe(SECRET_KEY);
    t = await startTestServer(dialect, {
      env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url, PUBLIC_BASE_URL: BASE },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const db = () => t.ctx.database.db;
  const api = <T = unknown>(method: string, path: string, who: { headers: H }, json?: unknown) =>
    call<Body<T>>(t.url, method, `/api/v1/dfy${path}`, { headers: who.headers, ...(json !== undefined ? { json } : {}) });
  const person = (): Promise<Person> => newOperator(db(), t.clock.now());
  const money = async (who: Person, id: string) => okData(await api<Money>('GET', `/deals/${id}/money`, who));
  const deal = async (who: Person, id: string) => okData(await api<Deal>('GET', `/deals/${id}`, who));
  const seconds = () => Math.floor(t.clock.now() / 1000);
  /** Stripe's delivery of a signed body to `path` (DFY's own webhook by default). */
  const post = (payload: string, path = DFY_PAYMENTS_WEBHOOK_PATH) =>
    call<Body<WebhookResult & RoutedPaymentEvent>>(t.url, 'POST', path, {
      body: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': signStripeEvent(payload, WEBHOOK_SECRET, seconds()) },
    });
  /** The operator pays on Stripe's hosted page: the signed checkout.session.completed. */
  const paid = (sessionId: string, eventId?: string) =>
    fake.complete(sessionId, { secret: WEBHOOK_SECRET, timestamp: seconds(), ...(eventId ? { eventId } : {}) });
  /** A paid session's event for another amount than the one asked. */
  const paidWithAmount = (sessionId: string, amount: number) =>
    stripeEvent(
      'checkout.session.completed',
      { ...fake.sessions.get(sessionId)!, amount_total: amount, payment_status: 'paid', status: 'complete', payment_intent: 'pi_test_other' },
      { created: seconds() },
    );
  /** Everything the DFY tables hold of an operator's deals (what "nothing recorded / nothing moved" compares). */
  const rows = async (operatorId: string) =>
    JSON.stringify([
      await db().selectFrom('dfy_deals').selectAll().where('operator_id', '=', operatorId).orderBy('id').execute(),
      await db().selectFrom('dfy_payments').selectAll().where('operator_id', '=', operatorId).orderBy('id').execute(),
      await db().selectFrom('dfy_payment_intents').selectAll().where('operator_id', '=', operatorId).orderBy('id').execute(),
      await db().selectFrom('dfy_checkpoints').selectAll().where('operator_id', '=', operatorId).orderBy('id').execute(),
    ]);
  const eventRows = async (id: string) => (await db().selectFrom('dfy_payment_events').select('id').where('id', '=', id).execute()).length;
  const sessionCalls = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').length;
  const refundCalls = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');

  /** A pre-order asked through Stripe: awaiting its payment. */
  const preorder = async (who: Person, tier = 'pro') => {
    const d = okData(await api<Deal>('POST', '/preorder', who, { tier, hardwareVariant: 'agent', confirm: true, amountUsd: 1 }));
    expect(d.payment).toBeDefined();
    return d;
  };
  /** A requested deal walked to signed (its money checkpoint open). */
  const toSigned = async (who: Person) => {
    const d = okData(await api<Deal>('POST', '/deals', who, { tier: 'pro', hardwareVariant: 'agent' }));
    okData(await api('POST', `/deals/${d.id}/scout/accept`, who, { venue: VENUE }));
    okData(await api('POST', `/deals/${d.id}/negotiation/start`, who, { confirm: true, envelope: ENVELOPE }));
    okData(await api('POST', `/deals/${d.id}/negotiation/terms`, who, { revenueSharePct: 10, termMonths: 24, rounds: 3 }));
    okData(await api('POST', `/deals/${d.id}/negotiation/review`, who));
    okData(await api('POST', `/deals/${d.id}/lease/send`, who, { confirm: true }));
    const signed = okData(await api<Deal>('POST', `/deals/${d.id}/lease/signature`, who));
    expect(signed).toMatchObject({ stage: 'signed', openCheckpoints: [{ kind: 'money' }] });
    return signed;
  };

  it('a pre-order awaits its payment at the catalog amount; its event moves the deal to pre_ordered once; a wrong amount is 400 with nothing moved', async () => {
    const me = await person();
    const d = await preorder(me);
    // the deal waits at shortlisting, nothing paid; the operator is sent to Stripe's page for the catalog amount
    expect(d).toMatchObject({ stage: 'shortlisting', origin: 'preorder', priceUsd: 5000, money: { preorderPaidUsd: 0, paymentIds: [] } });
    const session = fake.sessions.get(d.payment!.paymentIntentId)!;
    expect(d.payment).toMatchObject({
      kind: 'preorder',
      status: 'awaiting_payment',
      amountUsd: 5000,
      currency: 'USD',
      processor: 'stripe',
      checkoutUrl: session.url,
    });
    expect(session).toMatchObject({ amount_total: 500_000, currency: 'usd', metadata: { purchaseId: d.payment!.id, webhookPath: DFY_PAYMENTS_WEBHOOK_PATH } });
    // paid or not, Stripe's page sends the operator back to the console's placements page, where the deal is
    expect(session).toMatchObject({ success_url: `${BASE}/console/placements`, cancel_url: `${BASE}/console/placements` });
    expect((await deal(me, d.id)).payment).toEqual(d.payment);
    expect(await money(me, d.id)).toEqual({ dealId: d.id, payment: d.payment, payments: [] });
    // another operator sees none of it
    expect((await api('GET', `/deals/${d.id}/money`, await person())).status).toBe(404);

    // an event for another amount than the one asked: 400, nothing recorded (not even the event), nothing moved
    const before = await rows(me.id);
    const wrong = paidWithAmount(session.id, 1_000);
    const refused = await post(wrong);
    expect(refused.status, refused.text).toBe(400);
    expect(refused.text).toContain('does not match');
    expect(await rows(me.id)).toBe(before);
    expect(await eventRows((JSON.parse(wrong) as { id: string }).id)).toBe(0);

    // paid: pre_ordered, the payment recorded as Stripe's
    const signed = paid(session.id);
    const ok = okData(await post(signed.payload));
    expect(ok).toMatchObject({ eventId: signed.id, paymentId: d.payment!.id, dealId: d.id, duplicate: false, status: 'paid', refundOwed: false });
    const after = await deal(me, d.id);
    expect(after).toMatchObject({ stage: 'pre_ordered', money: { preorderPaidUsd: 5000, paymentIds: [d.payment!.id] } });
    expect(after.payment).toBeUndefined();
    expect((await money(me, d.id)).payments).toEqual([
      {
        id: d.payment!.id,
        kind: 'preorder',
        amountUsd: 5000,
        currency: 'USD',
        processor: 'stripe',
        paidAt: expect.any(String) as unknown,
        refundedAt: null,
        refund: null,
      },
    ]);
    const replay = okData(await api<{ matchesStored: boolean }>('GET', `/deals/${d.id}/replay`, me));
    expect(replay.matchesStored).toBe(true);

    // the same event again, and another event of the same paid session: nothing changes
    const settled = await rows(me.id);
    expect(okData(await post(signed.payload))).toMatchObject({ duplicate: true, status: 'paid' });
    expect(okData(await post(paid(session.id).payload))).toMatchObject({ duplicate: true, status: 'paid' });
    expect(await rows(me.id)).toBe(settled);
    // paid already: asking again is the table's refusal, without a call to Stripe
    const calls = sessionCalls();
    expectRefused(await api('POST', `/deals/${d.id}/preorder`, me, { confirm: true }), 409, /pre_ordered/);
    expect(sessionCalls()).toBe(calls);
  });

  it('declined at Stripe (402) is 502, Stripe down is 503: nothing recorded, for a pre-order, a requested deal’s pre-order and a checkout', async () => {
    const me = await person();
    const requested = okData(await api<Deal>('POST', '/deals', me, { tier: 'entry', hardwareVariant: 'agent' }));
    const signed = await toSigned(me);
    const attempts = [
      () => api('POST', '/preorder', me, { tier: 'pro', hardwareVariant: 'agent', confirm: true }),
      () => api('POST', `/deals/${requested.id}/preorder`, me, { confirm: true }),
      () => api('POST', `/deals/${signed.id}/order/checkout`, me, { confirm: true }),
    ];
    for (const attempt of attempts) {
      const before = await rows(me.id);
      fake.failNext('card_declined');
      expectRefused(await attempt(), 502, /declined/);
      expect(await rows(me.id)).toBe(before);
      fake.failNext('server_error', 3);
      expectRefused(await attempt(), 503, /unavailable/);
      expect(await rows(me.id)).toBe(before);
    }
    // a refusal of the deal's own tables comes before any call to Stripe
    const calls = sessionCalls();
    expectRefused(await api('POST', `/deals/${requested.id}/order/checkout`, me, { confirm: true }), 409, /^Deal is shortlisting/);
    expect(sessionCalls()).toBe(calls);
  });

  it('a requested deal’s pre-order: asking again is the same payment; its event through the registered endpoint is routed here', async () => {
    const me = await person();
    const d = okData(await api<Deal>('POST', '/deals', me, { tier: 'entry', hardwareVariant: 'agent' }));
    const asked = okData(await api<Deal>('POST', `/deals/${d.id}/preorder`, me, { confirm: true }));
    expect(asked).toMatchObject({ stage: 'shortlisting', payment: { kind: 'preorder', amountUsd: 3000, status: 'awaiting_payment' } });
    const calls = sessionCalls();
    const again = okData(await api<Deal>('POST', `/deals/${d.id}/preorder`, me, { confirm: true }));
    expect(again.payment).toEqual(asked.payment);
    expect(sessionCalls()).toBe(calls);

    // Stripe's page expired unpaid: nothing awaits any more, and asking again is a new payment on a new page
    const first = fake.sessions.get(asked.payment!.paymentIntentId)!;
    const expired = stripeEvent('checkout.session.expired', { ...first, status: 'expired' }, { created: seconds() });
    expect(okData(await post(expired))).toMatchObject({ paymentId: asked.payment!.id, status: 'expired', duplicate: false });
    expect((await deal(me, d.id)).payment).toBeUndefined();
    const renewed = okData(await api<Deal>('POST', `/deals/${d.id}/preorder`, me, { confirm: true }));
    expect(renewed.payment!.id).not.toBe(asked.payment!.id);
    expect(renewed.payment!.paymentIntentId).not.toBe(first.id);

    const signed = paid(renewed.payment!.paymentIntentId);
    const r = okData(await post(signed.payload, AD_PAYMENTS_WEBHOOK_PATH));
    expect(r).toMatchObject({ eventId: signed.id, routedTo: DFY_PAYMENTS_WEBHOOK_PATH, result: { dealId: d.id, status: 'paid', duplicate: false } });
    expect(await deal(me, d.id)).toMatchObject({ stage: 'pre_ordered', money: { preorderPaidUsd: 3000, paymentIds: [renewed.payment!.id] } });
  });

  it('a checkout awaits its payment; its event resolves money and moves the deal to ready_to_ship with its fleet pin, once', async () => {
    const me = await person();
    const s = await toSigned(me);
    const asked = okData(await api<Deal>('POST', `/deals/${s.id}/order/checkout`, me, { confirm: true, amountUsd: 0.01 }));
    expect(asked).toMatchObject({ stage: 'signed', machineNo: null, openCheckpoints: [{ kind: 'money' }] });
    expect(asked.payment).toMatchObject({ kind: 'checkout', amountUsd: 5000, status: 'awaiting_payment' });
    const session = fake.sessions.get(asked.payment!.paymentIntentId)!;
    expect(session.amount_total).toBe(500_000);

    const before = await rows(me.id);
    expect((await post(paidWithAmount(session.id, 499_999))).status).toBe(400);
    expect(await rows(me.id)).toBe(before);

    const signed = paid(session.id);
    expect(okData(await post(signed.payload))).toMatchObject({ duplicate: false, status: 'paid', dealId: s.id });
    const done = await deal(me, s.id);
    expect(done).toMatchObject({ stage: 'ready_to_ship', money: { machinePaidUsd: 5000 }, openCheckpoints: [] });
    expect(done.machineNo).toMatch(/^DFY-/);
    expect(done.payment).toBeUndefined();
    const settled = await rows(me.id);
    expect(okData(await post(signed.payload))).toMatchObject({ duplicate: true });
    expect(await rows(me.id)).toBe(settled);
    expect((await money(me, s.id)).payments).toMatchObject([{ kind: 'checkout', amountUsd: 5000, processor: 'stripe', refund: null }]);
  });

  it('a refund before shipping: Stripe down (503, owed) → refused (502, failed with its reason) → retried and issued once through Stripe', async () => {
    const me = await person();
    const d = await preorder(me);
    const session = fake.sessions.get(d.payment!.paymentIntentId)!;
    okData(await post(paid(session.id).payload));
    const firstRefund = refundCalls().length;

    fake.failNext('server_error', 3);
    expectRefused(await api('POST', `/deals/${d.id}/refund`, me, { confirm: true, reason: 'changed my mind' }), 503, /unavailable/);
    // the deal is cancelled, the money owed back
    expect(await deal(me, d.id)).toMatchObject({ stage: 'cancelled', money: { refundedUsd: 5000 } });
    const owed = (await money(me, d.id)).payments[0]!;
    expect(owed.refund).toEqual({ status: 'owed', refundId: null, reason: null, at: null });
    expect(owed.refundedAt).not.toBeNull();
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === session.payment_intent)).toHaveLength(0);

    fake.failNext('refund_refused');
    const refused = await api('POST', `/deals/${d.id}/refund`, me, { confirm: true, reason: 'changed my mind' });
    expectRefused(refused, 502, /charge_already_refunded/);
    expect((await money(me, d.id)).payments[0]!.refund).toMatchObject({
      status: 'failed',
      refundId: null,
      reason: expect.stringContaining('charge_already_refunded') as unknown,
    });

    const issued = okData(await api<Deal>('POST', `/deals/${d.id}/refund`, me, { confirm: true, reason: 'changed my mind' }));
    expect(issued).toMatchObject({ stage: 'cancelled', money: { refundedUsd: 5000 } });
    const atStripe = [...fake.refunds.values()].filter((r) => r.payment_intent === session.payment_intent);
    expect(atStripe).toHaveLength(1);
    expect(atStripe[0]).toMatchObject({ amount: 500_000, currency: 'usd', status: 'succeeded' });
    expect((await money(me, d.id)).payments[0]!.refund).toMatchObject({ status: 'issued', refundId: atStripe[0]!.id, reason: null });
    // Stripe down failed before a refund call; the refused attempt and its retry each had their own key
    expect(
      refundCalls()
        .slice(firstRefund)
        .map((r) => r.idempotencyKey),
    ).toEqual([`vend-dfy-refund-${d.payment!.id}-0`, `vend-dfy-refund-${d.payment!.id}-1`]);

    // never twice: nothing is left to refund, Stripe is not called
    const calls = refundCalls().length;
    expectRefused(await api('POST', `/deals/${d.id}/refund`, me, { confirm: true, reason: 'again' }), 409, /cancelled/);
    expect(refundCalls().length).toBe(calls);
    expect(fake.refunds.size).toBeGreaterThanOrEqual(1);
  });

  it('paid after the deal was cancelled: the deal keeps its stage, the money is recorded and refunded through Stripe at once', async () => {
    const me = await person();
    const d = await preorder(me);
    okData(await api('POST', `/deals/${d.id}/cancel`, me, { reason: 'found another machine' }));
    expect((await money(me, d.id)).payment).toBeNull();
    const session = fake.sessions.get(d.payment!.paymentIntentId)!;
    const r = okData(await post(paid(session.id).payload));
    expect(r).toMatchObject({ duplicate: false, status: 'paid', refundOwed: true });
    expect(await deal(me, d.id)).toMatchObject({ stage: 'cancelled', money: { preorderPaidUsd: 0 } });
    const atStripe = [...fake.refunds.values()].filter((x) => x.payment_intent === session.payment_intent);
    expect(atStripe).toHaveLength(1);
    expect((await money(me, d.id)).payments).toMatchObject([
      { kind: 'preorder', processor: 'stripe', refund: { status: 'issued', refundId: atStripe[0]!.id } },
    ]);
  });
});

describe.each(DIALECTS)('DFY pre-orders in the sandbox (its test processor is not used: paid at once, as before) on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect);
  });
  afterAll(async () => t.close());

  it('a sandbox pre-order is paid at once, with no payment awaiting and no processor on its money; its refund needs none', async () => {
    const me = await newOperator(t.ctx.database.db, t.clock.now());
    const api = <T>(method: string, path: string, json?: unknown) =>
      call<Body<T>>(t.url, method, `/api/v1/dfy${path}`, { headers: me.headers, ...(json !== undefined ? { json } : {}) });
    const d = okData(await api<Deal>('POST', '/preorder', { tier: 'entry', hardwareVariant: 'agent', confirm: true }));
    expect(d).toMatchObject({ stage: 'pre_ordered', money: { preorderPaidUsd: 3000 } });
    expect('payment' in d).toBe(false);
    const m = okData(await api<Money>('GET', `/deals/${d.id}/money`));
    expect(m.payment).toBeNull();
    expect(m.payments).toMatchObject([{ kind: 'preorder', amountUsd: 3000, processor: null, refund: null, refundedAt: null }]);
    expect(await t.ctx.database.db.selectFrom('dfy_payment_intents').selectAll().execute()).toEqual([]);
    okData(await api('POST', `/deals/${d.id}/refund`, { confirm: true, reason: 'changed my mind' }));
    const after = okData(await api<Money>('GET', `/deals/${d.id}/money`));
    expect(after.payments).toMatchObject([{ processor: null, refund: null, refundedAt: expect.any(String) as unknown }]);
  });
});
