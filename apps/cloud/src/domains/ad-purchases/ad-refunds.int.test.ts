import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import type { AdPurchase, PurchaseCreated, WebhookResult } from './ad-purchases.schemas.ts';
import { ADMIN, ALICE, BOB, buy, marketplaceCast, paidPurchase, statusOf } from './ad-purchases.test-support.ts';
import { startFakeStripe, type FakeStripe } from './fake-stripe.ts';
import { AppError } from '../../http/errors.ts';
import { StripeProcessor } from './stripe-processor.ts';

const SECRET_KEY = 'sk_test_fake0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_fake0123456789abcdef';
const BASE = 'https://vend.example.test';
const ALICE_OPERATOR = 'Alice Vending Co';

/** The refund of a rejected line, issued by one operator call (issue 34, "refunds that happen"). */
const refund = (t: TestServer, id: string, headers: Record<string, string>, json: Record<string, unknown> = {}) =>
  call<Body<AdPurchase>>(t.url, 'POST', `/api/v1/ad-purchases/${id}/refund`, { headers, json });
const rejectAlice = (t: TestServer, id: string) =>
  expectStatus<AdPurchase>(call(t.url, 'POST', `/api/v1/ad-purchases/${id}/reject`, { headers: ALICE, json: { reason: 'Not for this venue' } }), 200);
const aliceLine = async (t: TestServer, id: string) =>
  (await expectStatus<AdPurchase>(call(t.url, 'GET', `/api/v1/ad-purchases/${id}`, { headers: ALICE }), 200)).body.data.lines[0]!;
const buyerLine = async (t: TestServer, p: PurchaseCreated) => (await statusOf(t, p.statusToken)).lines.find((l) => l.operatorName === ALICE_OPERATOR)!;

describe('StripeProcessor.refund against the fake', () => {
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe(SECRET_KEY);
  });
  afterAll(async () => fake.close());

  it('refuses a session never paid (502) without a refund call; refunds a paid one by its PaymentIntent, idempotent on the key', async () => {
    const stripe = new StripeProcessor({
      stripe: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, api: fake.api },
      publicBaseUrl: BASE,
      maxNetworkRetries: 0,
    });
    const { intentId } = await stripe.createIntent({ purchaseId: 'adp_unit', amountCents: 5000, currency: 'USD', description: 'ad' });
    const req = { intentId, amountCents: 2000, currency: 'USD', reason: 'rejected', idempotencyKey: 'vend-refund-unit-0' };
    const unpaid = await stripe.refund(req).catch((e: unknown) => e);
    expect(unpaid).toBeInstanceOf(AppError);
    expect(unpaid).toMatchObject({ status: 502, message: expect.stringContaining('has no payment') as unknown });
    expect(fake.refunds.size).toBe(0);

    fake.complete(intentId, { secret: WEBHOOK_SECRET, timestamp: 0 });
    const a = await stripe.refund(req);
    const b = await stripe.refund(req);
    expect(a).toEqual({ refundId: expect.stringMatching(/^re_/) as unknown, status: 'succeeded' });
    expect(b).toEqual(a);
    expect(fake.refunds.size).toBe(1);
    // more than is left: Stripe's refusal, 502 with its code
    const tooMuch = await stripe.refund({ ...req, amountCents: 4000, idempotencyKey: 'vend-refund-unit-1' }).catch((e: unknown) => e);
    expect(tooMuch).toMatchObject({ status: 502, message: expect.stringContaining('amount_too_large') as unknown });
  });
});

describe.each(DIALECTS)('refunding a rejected ad purchase line through Stripe (the fake) on %s', (dialect) => {
  let t: TestServer;
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe(SECRET_KEY);
    t = await startTestServer(dialect, {
      env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url, PUBLIC_BASE_URL: BASE },
    });
    await marketplaceCast(t);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** Bought and paid on Stripe's hosted page, its signed checkout.session.completed delivered. */
  const paidOnStripe = async (): Promise<PurchaseCreated> => {
    const p = await buy(t);
    const signed = fake.complete(p.paymentIntentId, { secret: WEBHOOK_SECRET, timestamp: Math.floor(t.clock.now() / 1000) });
    const paid = await expectStatus<WebhookResult>(
      call(t.url, 'POST', '/api/v1/ad-purchases/webhook', {
        body: signed.payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
      }),
      200,
    );
    expect(paid.body.data.status).toBe('pending_approval');
    return p;
  };
  const refundCalls = () => fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds');

  it('owed → down (503, nothing recorded) → refused (502, failed with Stripe’s reason) → retried and issued once; the buyer sees each state', async () => {
    const p = await paidOnStripe();
    const session = fake.sessions.get(p.paymentIntentId)!;

    // nothing is owed before a rejection
    const early = await refund(t, p.purchaseId, ALICE);
    expect(early.status).toBe(409);

    await rejectAlice(t, p.purchaseId);
    const owed = await aliceLine(t, p.purchaseId);
    expect(owed.refund).toEqual({ status: 'owed', amountCents: owed.amountCents, reason: null, refundId: null, at: null });
    expect((await buyerLine(t, p)).refund).toMatchObject({ status: 'owed', amountCents: owed.amountCents });

    // another operator's purchase is not bob's (404); carol's line is still pending (nothing owed by carol: 409 — tested via admin below)
    expect((await refund(t, p.purchaseId, BOB)).status).toBe(404);
    expect((await refund(t, p.purchaseId, ALICE, { operatorEmail: 'x@example.test' })).status).toBe(403);

    // Stripe down (every attempt of the SDK fails): 503, the line still owed, no refund at Stripe
    fake.failNext('server_error', 3);
    const down = await refund(t, p.purchaseId, ALICE);
    expect(down.status).toBe(503);
    expect(down.body.message).toMatch(/unavailable/);
    expect((await aliceLine(t, p.purchaseId)).refund).toMatchObject({ status: 'owed', refundId: null });
    expect(fake.refunds.size).toBe(0);

    // Stripe refuses the refund: recorded failed with its reason, answered 502
    fake.failNext('refund_refused');
    const refused = await refund(t, p.purchaseId, ALICE);
    expect(refused.status).toBe(502);
    expect(refused.body.message).toContain('charge_already_refunded');
    const failed = await aliceLine(t, p.purchaseId);
    expect(failed.refund).toMatchObject({ status: 'failed', refundId: null, reason: expect.stringContaining('charge_already_refunded') as unknown });
    expect(failed.refund!.at).not.toBeNull();
    expect((await buyerLine(t, p)).refund).toMatchObject({ status: 'failed', reason: expect.stringContaining('charge_already_refunded') as unknown });
    expect(refundCalls().map((r) => r.idempotencyKey)).toEqual([expect.stringMatching(/^vend-refund-apl_.*-0$/)]);

    // the retry is a new attempt (its own key: Stripe keeps the refused one's answer) and succeeds
    const issued = await expectStatus<AdPurchase>(refund(t, p.purchaseId, ALICE), 200);
    const line = issued.body.data.lines[0]!;
    expect(fake.refunds.size).toBe(1);
    const stripeRefund = [...fake.refunds.values()][0]!;
    expect(stripeRefund).toMatchObject({ amount: owed.amountCents, currency: 'usd', payment_intent: session.payment_intent, status: 'succeeded' });
    expect(line.refund).toMatchObject({ status: 'issued', amountCents: owed.amountCents, refundId: stripeRefund.id, reason: null });
    expect(refundCalls().map((r) => r.idempotencyKey)).toEqual([expect.stringMatching(/-0$/), expect.stringMatching(/-1$/)]);
    expect(refundCalls()[1]!.form).toMatchObject({ payment_intent: session.payment_intent, amount: String(owed.amountCents) });
    expect((await buyerLine(t, p)).refund).toMatchObject({ status: 'issued', refundId: stripeRefund.id });

    // issued once: calling again answers the same refund without calling Stripe
    const before = fake.requests.length;
    const again = await expectStatus<AdPurchase>(refund(t, p.purchaseId, ALICE), 200);
    expect(again.body.data.lines[0]!.refund).toEqual(line.refund);
    expect(fake.requests.length).toBe(before);
    expect(fake.refunds.size).toBe(1);

    // carol's line is still pending: the admin naming carol finds nothing owed
    const admin = await refund(t, p.purchaseId, ADMIN, {
      operatorEmail: (await adminLines(p.purchaseId)).find((l) => l.operatorName !== ALICE_OPERATOR)!.operatorEmail,
    });
    expect(admin.status).toBe(409);
  });

  const adminLines = async (id: string) =>
    (await expectStatus<AdPurchase>(call(t.url, 'GET', `/api/v1/ad-purchases/${id}`, { headers: ADMIN }), 200)).body.data.lines;

  it('a lost answer: the same attempt’s key gets Stripe’s same refund, recorded once', async () => {
    const p = await paidOnStripe();
    await rejectAlice(t, p.purchaseId);
    const first = await expectStatus<AdPurchase>(refund(t, p.purchaseId, ALICE), 200);
    const line = first.body.data.lines[0]!;
    // as if the answer had been lost: the line forgets it was issued, the call is repeated with the same key
    await t.ctx.database.db
      .updateTable('ad_purchase_lines')
      .set({ refund_status: 'owed', refund_id: null, refund_at: null })
      .where('purchase_id', '=', p.purchaseId)
      .where('refund_owed_cents', '>', 0)
      .execute();
    const again = await expectStatus<AdPurchase>(refund(t, p.purchaseId, ALICE), 200);
    expect(again.body.data.lines[0]!.refund!.refundId).toBe(line.refund!.refundId);
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === fake.sessions.get(p.paymentIntentId)!.payment_intent)).toHaveLength(1);
  });
});

describe.each(DIALECTS)('refunding a rejected ad purchase line through the sandbox’s test processor on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect);
    await marketplaceCast(t);
  });
  afterAll(async () => t.close());

  it('issued once, in the test processor’s own book; its refusal is recorded failed with its reason, then a retry succeeds', async () => {
    const p = await paidPurchase(t);
    await rejectAlice(t, p.purchaseId);
    const db = t.ctx.database.db;
    const owed = await aliceLine(t, p.purchaseId);

    // the intent already refunded in full elsewhere: the test processor refuses
    const intent = await db.selectFrom('test_payment_intents').selectAll().where('id', '=', p.paymentIntentId).executeTakeFirstOrThrow();
    await db
      .insertInto('test_refunds')
      .values({
        id: 're_elsewhere',
        intent_id: intent.id,
        amount_cents: Number(intent.amount_cents),
        currency: intent.currency,
        reason: 'by hand',
        idempotency_key: 'elsewhere',
        created_at: 0,
      })
      .execute();
    const refused = await refund(t, p.purchaseId, ALICE);
    expect(refused.status).toBe(502);
    expect(refused.body.message).toContain('charge_already_refunded');
    expect((await buyerLine(t, p)).refund).toMatchObject({ status: 'failed', reason: expect.stringContaining('charge_already_refunded') as unknown });

    await db.deleteFrom('test_refunds').where('id', '=', 're_elsewhere').execute();
    const issued = await expectStatus<AdPurchase>(refund(t, p.purchaseId, ALICE), 200);
    const r = issued.body.data.lines[0]!.refund!;
    expect(r).toMatchObject({ status: 'issued', amountCents: owed.amountCents, reason: null });
    const again = await expectStatus<AdPurchase>(refund(t, p.purchaseId, ALICE), 200);
    expect(again.body.data.lines[0]!.refund).toEqual(r);
    const book = await db.selectFrom('test_refunds').selectAll().where('intent_id', '=', p.paymentIntentId).execute();
    expect(book.map((b) => [b.id, Number(b.amount_cents), b.currency])).toEqual([[r.refundId, owed.amountCents, intent.currency]]);
    expect(book[0]!.idempotency_key).toMatch(/^vend-refund-apl_.*-1$/);
    expect((await buyerLine(t, p)).refund).toMatchObject({ status: 'issued', refundId: r.refundId });
    const audit = await db.selectFrom('audit_log').select('action').where('resource', 'like', `ad_purchase:${p.purchaseId}%`).execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['ad_purchases.refund_failed', 'ad_purchases.refund']));
  });
});
