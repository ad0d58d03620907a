import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTION_ENV } from '../../config.test-support.ts';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Answer } from '../../testing/answers.ts';
import type { Campaign } from '../campaigns/campaigns.schemas.ts';
import type { LoopEntry } from '../campaigns/campaigns.test-support.ts';
import { freshSerial, newOperator } from '../machines/machines.factories.ts';
import { screenBody } from '../machines/screen.test-support.ts';
import type { AdPurchase, PurchaseCreated, PurchaseStatusView, QuoteView, WebhookResult } from './ad-purchases.schemas.ts';
import { brief, uploadedDraft } from './ad-purchases.test-support.ts';
import { startFakeStripe, type FakeStripe } from './fake-stripe.ts';
import { PAYMENT_SUCCEEDED } from './processor.ts';
import { idempotencyKeyOf } from './stripe-processor.ts';

const SECRET_KEY = 'sk_test_fake0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_fake0123456789abcdef';
const BASE = 'https://vend.example.test';
const BUYER = { name: 'Dana Deli', email: 'dana@deli.example', phone: '+1 212 555 0100' };
const NEW_YORK = { line1: '1 Test Plaza', city: 'New York', region: 'NY', postalCode: '10001', country: 'US' };

interface Received {
  to: string[];
  raw: string;
}

/** The text part of a message nodemailer sent base64-encoded (the receipt's body). */
function bodyOf(raw: string): string {
  const body = raw.slice(raw.search(/\r?\n\r?\n/));
  return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
}

/**
 * Issue 34: "`VEND_MODE=production` with Stripe configured starts and takes a purchase end to end". A production
 * server seeds nothing, so the operator, its kiosk and its opt-in are made as a real operator would have them; the
 * buyer's whole journey then runs over real HTTP against the fake Stripe on 127.0.0.1, its receipt over SMTP to a
 * local SMTP server, and the approved ad reaches the kiosk's loop over the fleet secret a real cabinet holds.
 */
describe.each(DIALECTS)('a production server with Stripe configured takes an ad purchase end to end on %s', (dialect) => {
  let t: TestServer;
  let fake: FakeStripe;
  const mails: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        done();
      });
    },
  });
  let operator: Awaited<ReturnType<typeof newOperator>>;
  const kiosk = freshSerial('PROD');
  /** Every answer this server gave the test: none may carry a secret. */
  const answers: string[] = [];

  async function api<T>(method: string, path: string, opts: Parameters<typeof call>[3] = {}): Promise<Answer<T>> {
    const r = await call<Answer<T>['body']>(t.url, method, path, opts);
    answers.push(r.text);
    r.headers.forEach((value, name) => answers.push(`${name}: ${value}`));
    return r;
  }
  const ok = async <T>(p: Promise<Answer<T>>) => (await expectStatus(p, 200)).body.data;
  const cabinet = { secret: PRODUCTION_ENV.FLEET_SECRET, equipmentNo: kiosk };
  const loop = async () => (await ok(api<{ entries: LoopEntry[] }>('GET', '/apk/getAd', { headers: cabinet }))).entries;
  const purchaseAsOperator = (id: string) => ok(api<AdPurchase>('GET', `/api/v1/ad-purchases/${id}`, { headers: operator.headers }));
  const statusOf = (statusToken: string) => ok(api<PurchaseStatusView>('POST', '/api/v1/marketplace/purchases/lookup', { json: { statusToken } }));

  /** The buyer's order: quote, a draft with their creative, the purchase (Stripe's checkout page in the answer). */
  async function order(): Promise<{ quoted: QuoteView; p: PurchaseCreated }> {
    const quoted = await ok(api<QuoteView>('POST', '/api/v1/marketplace/quote', { json: brief() }));
    const creative = await uploadedDraft(t);
    const p = await ok(
      api<PurchaseCreated>('POST', '/api/v1/marketplace/purchases', { json: { ...brief(), sponsorName: 'Corner Deli', buyer: BUYER, creative } }),
    );
    return { quoted, p };
  }

  /** The buyer pays on Stripe's hosted page; Stripe delivers the signed event to the registered endpoint. */
  async function payOnStripe(p: PurchaseCreated): Promise<WebhookResult> {
    const signed = fake.complete(p.paymentIntentId, { secret: WEBHOOK_SECRET, timestamp: Math.floor(t.clock.now() / 1000) });
    return ok(
      api<WebhookResult>('POST', '/api/v1/ad-purchases/webhook', {
        body: signed.payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': signed.header },
      }),
    );
  }

  beforeAll(async () => {
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    fake = await startFakeStripe(SECRET_KEY);
    t = await startTestServer(dialect, {
      seed: false,
      env: {
        ...PRODUCTION_ENV,
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: fake.url,
        PUBLIC_BASE_URL: BASE,
        SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
        MAIL_FROM: 'receipts@vend.example.test',
      },
    });
    // an operator who sells screen time: its account (no admin exists to create it over the API), a kiosk with a screen
    operator = await newOperator(t.ctx.database.db, t.clock.now());
    // no operation sets the marketplace opt-in yet (marketplaceCast does the same)
    await t.ctx.database.db.updateTable('operators').set({ marketplace_opt_in: 1 }).where('id', '=', operator.id).execute();
    await ok(api('POST', '/api/v1/machines/register', { headers: operator.headers, json: { machineNo: kiosk, name: 'Deli corner kiosk' } }));
    await ok(api('PUT', `/api/v1/machines/${kiosk}/screen`, { headers: operator.headers, json: screenBody({ address: NEW_YORK }) }));
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  it('is a production server with Stripe as its processor and nothing seeded', async () => {
    expect(t.ctx.config.mode).toBe('production');
    expect(t.services.testProcessor).toBeNull();
    expect(t.services.mail.kind).toBe('smtp');
    // no sandbox cast: the only operator is the one made here
    const operators = await t.ctx.database.db.selectFrom('operators').select('id').execute();
    expect(operators.map((o) => o.id)).toEqual([operator.id]);
    // the sandbox's test-payment page does not exist
    expect((await api('POST', '/api/v1/marketplace/test-payments/anything/complete')).status).toBe(404);
  });

  it('quote → purchase on Stripe → paid by the signed webhook → receipt over SMTP → approved → on the kiosk’s loop', async () => {
    const { quoted, p } = await order();
    expect(quoted).toMatchObject({ machines: 1, currency: 'USD', operators: [{ operatorName: expect.any(String) as unknown, machineNos: [kiosk] }] });
    expect(quoted.totalCents).toBeGreaterThan(0);
    expect(p.quote.totalCents).toBe(quoted.totalCents);

    // the purchase answers Stripe's hosted page: a session with the server's amount, its idempotency key, our return URL
    const session = fake.sessions.get(p.paymentIntentId)!;
    expect(p).toMatchObject({ status: 'awaiting_payment', checkoutUrl: session.url });
    expect(p.checkoutUrl.startsWith(`${fake.url}/c/pay/cs_test_`)).toBe(true);
    expect(p.statusUrl.startsWith(`${BASE}/`)).toBe(true);
    expect(session).toMatchObject({
      amount_total: quoted.totalCents,
      currency: 'usd',
      metadata: { purchaseId: p.purchaseId },
      client_reference_id: p.purchaseId,
      success_url: `${BASE}/pay/return`,
      cancel_url: `${BASE}/pay/return?cancelled=1`,
    });
    const created = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      authorization: `Bearer ${SECRET_KEY}`,
      idempotencyKey: idempotencyKeyOf({ purchaseId: p.purchaseId, amountCents: quoted.totalCents, currency: 'USD' }),
      status: 200,
    });
    expect((await statusOf(p.statusToken)).status).toBe('awaiting_payment');
    // the operator sees nothing to approve before payment
    expect((await api('POST', `/api/v1/ad-purchases/${p.purchaseId}/approve`, { headers: operator.headers, json: {} })).status).toBe(404);

    // the buyer pays: Stripe's checkout.session.completed reaches the registered endpoint
    const paid = await payOnStripe(p);
    expect(paid).toEqual({
      eventId: expect.any(String) as unknown,
      type: PAYMENT_SUCCEEDED,
      duplicate: false,
      purchaseId: p.purchaseId,
      status: 'pending_approval',
    });
    const pending = await purchaseAsOperator(p.purchaseId);
    expect(pending).toMatchObject({ status: 'pending_approval', buyer: BUYER });
    expect(pending.lines).toMatchObject([{ status: 'pending_approval', machineNos: [kiosk], amountCents: quoted.totalCents, refund: null }]);
    expect((await statusOf(p.statusToken)).status).toBe('pending_approval');

    // the receipt reaches the buyer over SMTP (sent right after the payment's commit)
    const until = Date.now() + 5000;
    while (!mails.some((m) => m.to.includes(BUYER.email)) && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    const receipts = mails.filter((m) => m.to.includes(BUYER.email));
    expect(receipts).toHaveLength(1);
    const text = bodyOf(receipts[0]!.raw);
    expect(text).toContain(`Purchase: ${p.purchaseId}`);
    expect(text).toContain(`Payment reference: ${session.id}`);
    expect(text).toContain(`${BASE}/advertise/status/${p.statusToken}`);
    expect(text).toContain(kiosk);
    const row = await t.ctx.database.db
      .selectFrom('ad_purchases')
      .select(['receipt_status', 'payment_processor'])
      .where('id', '=', p.purchaseId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ receipt_status: 'sent', payment_processor: 'stripe' });

    // nothing airs before the operator approves
    expect((await loop()).some((e) => e.campaignId === pending.lines[0]!.campaignId)).toBe(false);

    const approved = await ok(api<AdPurchase>('POST', `/api/v1/ad-purchases/${p.purchaseId}/approve`, { headers: operator.headers, json: {} }));
    expect(approved.status).toBe('approved');
    const campaignId = approved.lines[0]!.campaignId!;
    const campaign = await ok(api<Campaign>('GET', `/api/v1/campaigns/${campaignId}`, { headers: operator.headers }));
    expect(campaign).toMatchObject({ status: 'active', adPurchaseId: p.purchaseId, sponsorName: 'Corner Deli' });
    expect((await loop()).filter((e) => e.campaignId === campaignId)).toHaveLength(1);
    expect((await statusOf(p.statusToken)).status).toBe('approved');
    // the buyer paid once: no refund was made
    expect(fake.refunds.size).toBe(0);
  });

  it('a rejected purchase is refunded through Stripe once: the right PaymentIntent, the line’s amount', async () => {
    const { p } = await order();
    await payOnStripe(p);
    const session = fake.sessions.get(p.paymentIntentId)!;
    expect(session.payment_intent).toMatch(/^pi_test_/);
    const draftCampaign = (await purchaseAsOperator(p.purchaseId)).lines[0]!.campaignId!;
    expect(draftCampaign).toEqual(expect.any(String));

    const rejected = await ok(
      api<AdPurchase>('POST', `/api/v1/ad-purchases/${p.purchaseId}/reject`, { headers: operator.headers, json: { reason: 'Not for this venue' } }),
    );
    expect(rejected.status).toBe('rejected');
    const owed = rejected.lines[0]!;
    expect(owed.refund).toEqual({ status: 'owed', amountCents: session.amount_total, reason: null, refundId: null, at: null });
    expect(fake.refunds.size).toBe(0);

    const refunded = await ok(api<AdPurchase>('POST', `/api/v1/ad-purchases/${p.purchaseId}/refund`, { headers: operator.headers, json: {} }));
    expect(fake.refunds.size).toBe(1);
    const stripeRefund = [...fake.refunds.values()][0]!;
    expect(stripeRefund).toMatchObject({ amount: session.amount_total, currency: 'usd', payment_intent: session.payment_intent, status: 'succeeded' });
    expect(refunded.lines[0]!.refund).toMatchObject({ status: 'issued', amountCents: session.amount_total, refundId: stripeRefund.id, reason: null });
    expect((await statusOf(p.statusToken)).lines[0]!.refund).toMatchObject({ status: 'issued', refundId: stripeRefund.id });

    // asked again: the same refund, no second one at Stripe
    const again = await ok(api<AdPurchase>('POST', `/api/v1/ad-purchases/${p.purchaseId}/refund`, { headers: operator.headers, json: {} }));
    expect(again.lines[0]!.refund).toEqual(refunded.lines[0]!.refund);
    expect(fake.refunds.size).toBe(1);
    expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/refunds')).toHaveLength(1);
    // the rejected ad never airs
    expect((await loop()).some((e) => e.campaignId === draftCampaign)).toBe(false);
  });

  it('no answer carried the Stripe secret key or the webhook secret', () => {
    expect(answers.length).toBeGreaterThan(20);
    for (const a of answers) {
      expect(a).not.toContain(SECRET_KEY);
      expect(a).not.toContain(WEBHOOK_SECRET);
    }
    for (const m of mails) {
      expect(m.raw).not.toContain(SECRET_KEY);
      expect(bodyOf(m.raw)).not.toContain(SECRET_KEY);
    }
  });
});
