import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCTION_ENV } from '../../config.test-support.ts';
import { AppError } from '../../http/errors.ts';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import type { WebhookResult } from './ad-purchases.schemas.ts';
import { brief, buy, marketplaceCast, uploadedDraft } from './ad-purchases.test-support.ts';
import { parseStripeForm, signStripeEvent, startFakeStripe, stripeEvent, type FakeStripe } from './fake-stripe.ts';
import { PAYMENT_SUCCEEDED, type IntentRequest } from './processor.ts';
import { NO_PURCHASE, StripeProcessor, idempotencyKeyOf, processorError, type StripeProcessorDeps } from './stripe-processor.ts';
import { AdPaymentWebhookBody } from './test-processor.ts';

const SECRET_KEY = 'sk_test_fake0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_fake0123456789abcdef';
const BASE = 'https://vend.example.test';
const NOW = Date.parse('2026-11-20T12:00:00Z');
const nowS = Math.floor(NOW / 1000);

const intent = (over: Partial<IntentRequest> = {}): IntentRequest => ({
  purchaseId: `adp_${Math.random().toString(36).slice(2, 12)}`,
  amountCents: 26730,
  currency: 'USD',
  description: 'Screen ad for Corner Deli: 2 kiosks, 1 month',
  ...over,
});

/** What a promise rejected with. */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('the Stripe processor against a fake Stripe on 127.0.0.1', () => {
  let fake: FakeStripe;
  let stripe: StripeProcessor;
  const processor = (over: Partial<StripeProcessorDeps> = {}) =>
    new StripeProcessor({ stripe: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, api: fake.api }, publicBaseUrl: BASE, ...over });
  beforeAll(async () => {
    fake = await startFakeStripe(SECRET_KEY);
    stripe = processor();
  });
  afterAll(async () => fake.close());

  describe('createIntent: a Checkout Session', () => {
    it('sends the server’s amount in cents, the currency, the metadata and an Idempotency-Key, form-encoded with the secret key', async () => {
      const req = intent();
      const before = fake.requests.length;
      const created = await stripe.createIntent(req);
      const seen = fake.requests.slice(before);
      expect(seen).toHaveLength(1);
      const r = seen[0]!;
      expect(r).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', authorization: `Bearer ${SECRET_KEY}`, status: 200 });
      expect(r.contentType).toMatch(/^application\/x-www-form-urlencoded/);
      expect(r.idempotencyKey).toBe(idempotencyKeyOf(req));
      expect(r.raw).toContain('&line_items[0][price_data][unit_amount]=26730&');
      expect(r.form).toMatchObject({
        mode: 'payment',
        line_items: [{ quantity: '1', price_data: { currency: 'usd', unit_amount: '26730', product_data: { name: req.description } } }],
        metadata: { purchaseId: req.purchaseId },
        payment_intent_data: { metadata: { purchaseId: req.purchaseId } },
        client_reference_id: req.purchaseId,
        success_url: `${BASE}/pay/return`,
      });
      const session = fake.sessions.get(created.intentId)!;
      expect(created).toEqual({ intentId: session.id, checkoutUrl: session.url });
      expect(created.intentId).toMatch(/^cs_test_/);
      expect(session.amount_total).toBe(26730);
    });

    it('a returnUrl and a webhook path travel to Stripe (success_url, metadata)', async () => {
      const req = intent({ returnUrl: `${BASE}/k/pay/abc`, webhookPath: '/api/v1/kiosk/webhook' });
      const created = await stripe.createIntent(req);
      const form = fake.requests.at(-1)!.form;
      expect(form).toMatchObject({
        success_url: req.returnUrl,
        cancel_url: req.returnUrl,
        metadata: { purchaseId: req.purchaseId, webhookPath: req.webhookPath },
      });
      expect(fake.sessions.get(created.intentId)!.metadata).toEqual({ purchaseId: req.purchaseId, webhookPath: req.webhookPath });
    });

    it('a retry of the same purchase gets the same session: no second one is created', async () => {
      const req = intent();
      const first = await stripe.createIntent(req);
      const sessions = fake.sessions.size;
      const again = await processor().createIntent(req);
      expect(again).toEqual(first);
      expect(fake.sessions.size).toBe(sessions);
      expect(fake.requests.at(-1)!.idempotencyKey).toBe(idempotencyKeyOf(req));
      // another amount for the same purchase is another key (a re-quote), so another session
      const requoted = await stripe.createIntent({ ...req, amountCents: 26731 });
      expect(requoted.intentId).not.toBe(first.intentId);
    });

    it('the fake holds Stripe’s idempotency rule: the same key with other parameters is a 400 idempotency_error (502 here)', async () => {
      const client = new Stripe(SECRET_KEY, { ...fake.api, maxNetworkRetries: 0, telemetry: false });
      const params = (amount: number): Stripe.Checkout.SessionCreateParams => ({
        mode: 'payment',
        line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: amount, product_data: { name: 'x' } } }],
        success_url: `${BASE}/pay/return`,
      });
      await client.checkout.sessions.create(params(100), { idempotencyKey: 'k-same' });
      const err = await rejection(client.checkout.sessions.create(params(200), { idempotencyKey: 'k-same' }));
      expect(err).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
      expect(fake.requests.at(-1)!.status).toBe(400);
      const mapped = processorError(err as Stripe.errors.StripeError);
      expect(mapped).toMatchObject({ status: 502, code: 'upstream' });
      expect(mapped.message).toMatch(/^The payment processor refused the request: /);
    });

    it('a decline (402 card_declined) is a clear 502 "declined", not retried, nothing created', async () => {
      const sessions = fake.sessions.size;
      const before = fake.requests.length;
      fake.failNext('card_declined');
      const err = await rejection(stripe.createIntent(intent()));
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 502, code: 'upstream' });
      expect((err as Error).message).toBe('The payment processor declined: card_declined: Your card was declined.');
      expect(fake.requests.slice(before).map((r) => r.status)).toEqual([402]);
      expect(fake.sessions.size).toBe(sessions);
    });

    it('a transient 500 is retried by the SDK with the same key: one session, answered once', async () => {
      const req = intent();
      const sessions = fake.sessions.size;
      const before = fake.requests.length;
      fake.failNext('server_error');
      const created = await stripe.createIntent(req);
      const seen = fake.requests.slice(before);
      expect(seen.map((r) => r.status)).toEqual([500, 200]);
      expect(new Set(seen.map((r) => r.idempotencyKey))).toEqual(new Set([idempotencyKeyOf(req)]));
      expect(fake.sessions.size).toBe(sessions + 1);
      expect(fake.sessions.get(created.intentId)!.metadata['purchaseId']).toBe(req.purchaseId);
    });

    it('Stripe failing after the retries (500 ×3) is a 503 "unavailable", nothing created', async () => {
      const sessions = fake.sessions.size;
      const before = fake.requests.length;
      fake.failNext('server_error', 3);
      const err = await rejection(stripe.createIntent(intent()));
      expect(err).toMatchObject({ status: 503, code: 'unavailable' });
      expect((err as Error).message).toBe('The payment processor is unavailable: nothing was charged; try again shortly');
      expect(fake.requests.slice(before).map((r) => r.status)).toEqual([500, 500, 500]);
      expect(fake.sessions.size).toBe(sessions);
    });

    it('throttling (429) is a 503 "busy" with Retry-After', async () => {
      fake.failNext('rate_limited');
      const err = await rejection(stripe.createIntent(intent()));
      expect(err).toMatchObject({ status: 503, code: 'unavailable' });
      expect((err as Error).message).toBe('The payment processor is busy: nothing was charged; try again shortly');
      expect((err as AppError).options.headers).toEqual({ 'retry-after': '5' });
    });

    it('Stripe unreachable (connection refused, after the retries) is a 503 "unavailable"', async () => {
      const closed = http.createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((r) => closed.close(() => r()));
      const down = new StripeProcessor({
        stripe: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, api: { host: '127.0.0.1', port, protocol: 'http' } },
        publicBaseUrl: BASE,
        maxNetworkRetries: 1,
      });
      const err = await rejection(down.createIntent(intent()));
      expect(err).toMatchObject({ status: 503, code: 'unavailable' });
      expect((err as Error).message).toBe('The payment processor is unavailable: nothing was charged; try again shortly');
      expect((err as AppError).cause).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    });

    it('a key Stripe refuses is a 503 that says so, and the key is in no message', async () => {
      const wrong = new StripeProcessor({
        stripe: { secretKey: 'sk_test_not_this_one_0000', webhookSecret: WEBHOOK_SECRET, api: fake.api },
        publicBaseUrl: BASE,
      });
      const err = await rejection(wrong.createIntent(intent()));
      expect(err).toMatchObject({ status: 503, code: 'unavailable' });
      expect((err as Error).message).toMatch(/credentials/);
      expect((err as Error).message).not.toContain('sk_test');
    });
  });

  describe('parseWebhook: constructEvent by this service’s clock', () => {
    const completed = async (over: { timestamp?: number; secret?: string } = {}) => {
      const req = intent();
      const created = await stripe.createIntent(req);
      const signed = fake.complete(created.intentId, { secret: over.secret ?? WEBHOOK_SECRET, timestamp: over.timestamp ?? nowS });
      return { req, created, signed };
    };
    const parse = (payload: string, header: string | undefined) =>
      stripe.parseWebhook(Buffer.from(payload), header === undefined ? {} : { 'stripe-signature': header }, NOW);

    it('a signed checkout.session.completed is accepted as payment_intent.succeeded of the session, by the Stripe event id', async () => {
      const { req, created, signed } = await completed();
      const v = parse(signed.payload, signed.header);
      expect(v).toMatchObject({
        ok: true,
        event: { id: signed.id, type: PAYMENT_SUCCEEDED, intentId: created.intentId, purchaseId: req.purchaseId, amountCents: 26730, currency: 'USD' },
      });
      // what the typed route re-reads: the documented webhook body
      if (v.ok) expect(AdPaymentWebhookBody.safeParse(JSON.parse(v.text)).success).toBe(true);
      // a delayed method's later success counts the same
      const later = stripeEvent('checkout.session.async_payment_succeeded', fake.sessions.get(created.intentId), { created: nowS });
      expect(parse(later, signStripeEvent(later, WEBHOOK_SECRET, nowS))).toMatchObject({
        ok: true,
        event: { type: PAYMENT_SUCCEEDED, intentId: created.intentId },
      });
    });

    it('a tampered body, a stale or future timestamp, a wrong secret, no signature: 401', async () => {
      const { signed } = await completed();
      const stale = await completed({ timestamp: nowS - 301 });
      const future = await completed({ timestamp: nowS + 301 });
      const wrong = await completed({ secret: 'whsec_someone_else_entirely' });
      const refusals = [
        parse(signed.payload.replace('26730', '1'), signed.header),
        parse(`${signed.payload} `, signed.header),
        parse(stale.signed.payload, stale.signed.header),
        parse(future.signed.payload, future.signed.header),
        parse(wrong.signed.payload, wrong.signed.header),
        parse(signed.payload, undefined),
        parse(signed.payload, 'garbage'),
      ];
      for (const v of refusals) expect(v).toMatchObject({ ok: false, status: 401 });
      expect(refusals[2]).toMatchObject({ reason: expect.stringMatching(/tolerance/) });
      // just inside the tolerance is fine
      const edge = await completed({ timestamp: nowS - 300 });
      expect(parse(edge.signed.payload, edge.signed.header)).toMatchObject({ ok: true });
    });

    it('an authentic body that is not a readable event: 400', () => {
      const notJson = 'not json';
      expect(parse(notJson, signStripeEvent(notJson, WEBHOOK_SECRET, nowS))).toMatchObject({ ok: false, status: 400 });
      const notEvent = JSON.stringify({ hello: 'world' });
      expect(parse(notEvent, signStripeEvent(notEvent, WEBHOOK_SECRET, nowS))).toMatchObject({ ok: false, status: 400 });
      const noAmount = stripeEvent(
        'checkout.session.completed',
        { id: 'cs_test_x', object: 'checkout.session', amount_total: null, currency: null, payment_status: 'paid', metadata: { purchaseId: 'adp_x' } },
        { created: nowS },
      );
      expect(parse(noAmount, signStripeEvent(noAmount, WEBHOOK_SECRET, nowS))).toMatchObject({ ok: false, status: 400 });
    });

    it('other events are recorded as stripe.<type> and change nothing: payment_intent.succeeded, an unpaid session, a foreign session', async () => {
      const pi = stripeEvent(
        'payment_intent.succeeded',
        { id: 'pi_test_1', object: 'payment_intent', amount: 26730, currency: 'usd', metadata: { purchaseId: 'adp_1' } },
        { id: 'evt_pi', created: nowS },
      );
      expect(parse(pi, signStripeEvent(pi, WEBHOOK_SECRET, nowS))).toMatchObject({
        ok: true,
        event: { id: 'evt_pi', type: 'stripe.payment_intent.succeeded', intentId: 'pi_test_1', purchaseId: 'adp_1', amountCents: 0, currency: 'XXX' },
      });
      const session = {
        id: 'cs_test_2',
        object: 'checkout.session',
        amount_total: 500,
        currency: 'usd',
        payment_status: 'unpaid',
        metadata: { purchaseId: 'adp_2' },
      };
      const unpaid = stripeEvent('checkout.session.completed', session, { created: nowS });
      expect(parse(unpaid, signStripeEvent(unpaid, WEBHOOK_SECRET, nowS))).toMatchObject({
        ok: true,
        event: { type: 'stripe.checkout.session.completed', purchaseId: 'adp_2' },
      });
      const foreign = stripeEvent('checkout.session.completed', { ...session, payment_status: 'paid', metadata: {} }, { created: nowS });
      const v = parse(foreign, signStripeEvent(foreign, WEBHOOK_SECRET, nowS));
      expect(v).toMatchObject({ ok: true, event: { type: 'stripe.checkout.session.completed', purchaseId: NO_PURCHASE } });
      if (v.ok) expect(AdPaymentWebhookBody.safeParse(JSON.parse(v.text)).success).toBe(true);
    });
  });

  it('the fake reads Stripe’s bracket notation back', () => {
    expect(parseStripeForm('a%5Bb%5D%5B0%5D%5Bc%5D=v&a%5Bb%5D%5B1%5D%5Bc%5D=w&m=x')).toEqual({ a: { b: [{ c: 'v' }, { c: 'w' }] }, m: 'x' });
  });
});

describe.each(DIALECTS)('a self-serve ad purchase paid through Stripe (the fake) on %s', (dialect) => {
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

  it('is created with a Stripe checkout, and the signed checkout.session.completed moves it to paid exactly once', async () => {
    const p = await buy(t);
    const session = fake.sessions.get(p.paymentIntentId)!;
    expect(p.checkoutUrl).toBe(session.url);
    expect(p.checkoutUrl.startsWith(`${fake.url}/c/pay/cs_test_`)).toBe(true);
    expect(session).toMatchObject({ amount_total: p.quote.totalCents, currency: p.quote.currency.toLowerCase(), metadata: { purchaseId: p.purchaseId } });
    const db = t.ctx.database.db;
    const row = () =>
      db
        .selectFrom('ad_purchases')
        .select(['status', 'payment_processor', 'payment_intent_id', 'paid_at'])
        .where('id', '=', p.purchaseId)
        .executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ status: 'awaiting_payment', payment_processor: 'stripe', payment_intent_id: session.id, paid_at: null });

    // Stripe sends the buyer back to a buyer page, which links on to the status page (the token is a cookie on /pay)
    expect(session).toMatchObject({ success_url: `${BASE}/pay/return`, cancel_url: `${BASE}/pay/return?cancelled=1` });
    const back = await fetch(`${t.url}/pay/return`);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('href="/pay/status"');
    const follow = (cookie?: string) => fetch(`${t.url}/pay/status`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    const on = await follow(`vend_purchase=${p.statusToken}`);
    expect([on.status, on.headers.get('location')]).toEqual([303, `/advertise/status/${p.statusToken}`]);
    expect((await follow()).status).toBe(404);

    const ts = Math.floor(t.clock.now() / 1000);
    const post = (payload: string, header: string) =>
      call<Body<WebhookResult>>(t.url, 'POST', '/api/v1/ad-purchases/webhook', {
        body: payload,
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
      });
    const send = (payload: string) => post(payload, signStripeEvent(payload, WEBHOOK_SECRET, ts));

    // Stripe's own payment_intent.succeeded (and a session of another product on the account): recorded, nothing moves
    const pi = stripeEvent(
      'payment_intent.succeeded',
      { id: 'pi_test_e2e', object: 'payment_intent', metadata: { purchaseId: p.purchaseId } },
      { id: 'evt_pi_e2e', created: ts },
    );
    expect((await expectStatus<WebhookResult>(send(pi), 200)).body.data).toEqual({
      eventId: 'evt_pi_e2e',
      type: 'stripe.payment_intent.succeeded',
      duplicate: false,
      purchaseId: p.purchaseId,
      status: 'awaiting_payment',
    });
    const foreign = stripeEvent(
      'checkout.session.completed',
      { ...session, id: 'cs_test_other', payment_status: 'paid', metadata: {} },
      { id: 'evt_foreign', created: ts },
    );
    expect((await expectStatus<WebhookResult>(send(foreign), 200)).body.data).toMatchObject({ purchaseId: NO_PURCHASE, status: null, duplicate: false });
    expect((await row()).status).toBe('awaiting_payment');

    const signed = fake.complete(session.id, { secret: WEBHOOK_SECRET, timestamp: ts });
    const deliver = (header: string) => post(signed.payload, header);
    // a tampered signature changes nothing
    expect((await deliver(signed.header.replace(/v1=(.)/, (_m, c: string) => `v1=${c === '0' ? '1' : '0'}`))).status).toBe(401);
    expect((await row()).status).toBe('awaiting_payment');

    const first = await expectStatus<WebhookResult>(deliver(signed.header), 200);
    expect(first.body.data).toEqual({ eventId: signed.id, type: PAYMENT_SUCCEEDED, duplicate: false, purchaseId: p.purchaseId, status: 'pending_approval' });
    const paid = await row();
    expect(paid.status).toBe('pending_approval');
    const lines = await db.selectFrom('ad_purchase_lines').selectAll().where('purchase_id', '=', p.purchaseId).execute();
    expect(lines.length).toBeGreaterThan(0);

    // Stripe delivers the same event again, then another success of the same session: nothing changes
    const again = await expectStatus<WebhookResult>(deliver(signed.header), 200);
    expect(again.body.data).toMatchObject({ eventId: signed.id, duplicate: true, status: 'pending_approval' });
    const late = stripeEvent('checkout.session.async_payment_succeeded', fake.sessions.get(session.id), { id: 'evt_late_e2e', created: ts });
    expect((await expectStatus<WebhookResult>(send(late), 200)).body.data).toMatchObject({
      type: PAYMENT_SUCCEEDED,
      duplicate: true,
      status: 'pending_approval',
    });
    expect(await row()).toEqual(paid);
    expect(await db.selectFrom('ad_purchase_lines').selectAll().where('purchase_id', '=', p.purchaseId).execute()).toEqual(lines);
    const events = await db.selectFrom('ad_payment_events').select(['id', 'type', 'processor', 'intent_id']).where('purchase_id', '=', p.purchaseId).execute();
    expect(events.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(
      [
        { id: 'evt_late_e2e', type: PAYMENT_SUCCEEDED, processor: 'stripe', intent_id: session.id },
        { id: 'evt_pi_e2e', type: 'stripe.payment_intent.succeeded', processor: 'stripe', intent_id: 'pi_test_e2e' },
        { id: signed.id, type: PAYMENT_SUCCEEDED, processor: 'stripe', intent_id: session.id },
      ].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
  });

  it('Stripe down: the purchase answers 503 "unavailable", nothing is recorded, and the same draft buys once Stripe is back', async () => {
    const db = t.ctx.database.db;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('ad_purchases')
            .select((e) => e.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const creative = await uploadedDraft(t);
    const order = { ...brief(), sponsorName: 'Corner Deli', buyer: { name: 'Dana Deli', email: 'dana@deli.example' }, creative };
    const purchases = await count();
    fake.failNext('server_error', 3);
    const down = await call<Body<unknown>>(t.url, 'POST', '/api/v1/marketplace/purchases', { json: order });
    expect(down.status).toBe(503);
    expect(down.body.message).toBe('The payment processor is unavailable: nothing was charged; try again shortly');
    expect(await count()).toBe(purchases);
    // createIntent comes before the purchase's transaction: the draft was not claimed
    const back = await expectStatus<{ purchaseId: string; paymentIntentId: string }>(
      call(t.url, 'POST', '/api/v1/marketplace/purchases', { json: order }),
      200,
    );
    expect(await count()).toBe(purchases + 1);
    expect(fake.sessions.get(back.body.data.paymentIntentId)!.metadata['purchaseId']).toBe(back.body.data.purchaseId);
  });
});

describe('the cloud process in production with Stripe configured', () => {
  it('starts, says its ad payments go through Stripe, and verifies Stripe-signed webhooks', async () => {
    const fake = await startFakeStripe(SECRET_KEY);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-stripe-'));
    const main = fileURLToPath(new URL('../../main.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      cwd: fileURLToPath(new URL('../../../../..', import.meta.url)),
      env: {
        PATH: process.env['PATH'] ?? '',
        ...PRODUCTION_ENV,
        DATA_DIR: dir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        PUBLIC_BASE_URL: BASE,
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: fake.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const end = Date.now() + 20_000;
      while (!/listening on http/.test(out) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(out).toMatch(/vend-cloud production listening on http:\/\/\S+ \(store: .*, payments: stripe\)/);
      expect(out).not.toContain(SECRET_KEY);
      expect(out).not.toContain(WEBHOOK_SECRET);
      const url = /listening on (http:\/\/\S+)/.exec(out)![1]!;
      const webhook = (body: string, headers: Record<string, string>) =>
        fetch(`${url}/api/v1/ad-purchases/webhook`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
      const payload = stripeEvent(
        'payment_intent.succeeded',
        { id: 'pi_test_prod', object: 'payment_intent', metadata: {} },
        { id: 'evt_prod', created: Math.floor(Date.now() / 1000) },
      );
      expect((await webhook(payload, {})).status).toBe(401);
      const ok = await webhook(payload, { 'stripe-signature': signStripeEvent(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000)) });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as Body<WebhookResult>).data).toEqual({
        eventId: 'evt_prod',
        type: 'stripe.payment_intent.succeeded',
        duplicate: false,
        purchaseId: NO_PURCHASE,
        status: null,
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await fake.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
