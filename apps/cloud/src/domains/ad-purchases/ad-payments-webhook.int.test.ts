import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '@vend/protocol';
import { SANDBOX_SECRETS } from '../../config.ts';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import { signWebhook } from '../../http/webhook-signature.ts';
import type { WebhookResult } from './ad-purchases.schemas.ts';
import { buy, marketplaceCast, statusOf } from './ad-purchases.test-support.ts';

const SECRET: string = SANDBOX_SECRETS.AD_PAYMENTS_WEBHOOK_SECRET;
const PATH = '/api/v1/ad-purchases/webhook';

describe.each(DIALECTS)('the ad payment webhook on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect);
    await marketplaceCast(t);
  });
  afterAll(async () => t.close());

  const nowS = () => Math.floor(t.clock.now() / 1000);
  const event = (p: { purchaseId: string; paymentIntentId: string }, over: Record<string, unknown> = {}, id = `evt_${p.paymentIntentId}`) =>
    JSON.stringify({
      id,
      type: 'payment_intent.succeeded',
      data: { intentId: p.paymentIntentId, purchaseId: p.purchaseId, amountCents: 26730, currency: 'USD', ...over },
    });
  const send = (body: string, headers: Record<string, string>) =>
    call<Body<WebhookResult>>(t.url, 'POST', PATH, { body, headers: { 'content-type': 'application/json', ...headers } });
  const signed = (body: string, ts = nowS(), secret = SECRET) =>
    send(body, { 'x-vend-timestamp': String(ts), 'x-vend-signature': signWebhook(secret, ts, body) });
  const snapshot = async (purchaseId: string) => {
    const db = t.ctx.database.db;
    const [purchase, lines, campaigns, events] = await Promise.all([
      db.selectFrom('ad_purchases').select(['status', 'paid_at', 'updated_at']).where('id', '=', purchaseId).executeTakeFirstOrThrow(),
      db.selectFrom('ad_purchase_lines').selectAll().where('purchase_id', '=', purchaseId).orderBy('id').execute(),
      db.selectFrom('campaigns').select(['id', 'status']).where('ad_purchase_id', '=', purchaseId).orderBy('id').execute(),
      db.selectFrom('ad_payment_events').select('id').where('purchase_id', '=', purchaseId).execute(),
    ]);
    return { purchase, lines, campaigns, events };
  };

  it('refuses unsigned, badly signed and stale deliveries with 401 in the envelope, changing nothing', async () => {
    const p = await buy(t);
    const body = event(p);
    const before = await snapshot(p.purchaseId);
    const refusals = [
      await send(body, {}),
      await send(body, { 'x-vend-timestamp': String(nowS()) }),
      await signed(body, nowS(), 'not-the-secret-at-all'),
      await send(body, { 'x-vend-timestamp': String(nowS()), 'x-vend-signature': signWebhook(SECRET, nowS(), `${body} `) }),
      await signed(body, nowS() - 301),
      await signed(body, nowS() + 301),
      await signed(body, nowS(), SANDBOX_SECRETS.WEBHOOK_SECRET), // the cashless provider's key is not this processor's
    ];
    for (const r of refusals) {
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ code: 401, data: null });
      expect(r.body.message).toMatch(/^Invalid API key: /);
    }
    expect(await snapshot(p.purchaseId)).toEqual(before);
    expect(before.purchase.status).toBe('awaiting_payment');
  });

  it('an amount (or currency) that is not the quote’s is a 400 and nothing changes; the right one then applies', async () => {
    const p = await buy(t);
    const before = await snapshot(p.purchaseId);
    for (const over of [{ amountCents: 1 }, { amountCents: 26731 }, { currency: 'EUR' }, { intentId: 'pi_someone_else' }]) {
      const r = await signed(event(p, over));
      expect(r.status, JSON.stringify(over)).toBe(400);
      expect(r.body.message).toMatch(/^Bad request — invalid or missing parameters: /);
    }
    expect(await snapshot(p.purchaseId)).toEqual(before);
    const ok = await expectStatus<WebhookResult>(signed(event(p)), 200);
    expect(ok.body.data).toMatchObject({ duplicate: false, status: 'pending_approval' });
  });

  it('is idempotent on the event id: a replay answers 200 and changes nothing, nor does a second event for a paid intent', async () => {
    const p = await buy(t);
    await expectStatus(signed(event(p)), 200);
    const after = await snapshot(p.purchaseId);
    expect(after.purchase.status).toBe('pending_approval');
    expect(after.campaigns).toHaveLength(2);
    (t.clock as ManualClock).advance(60_000);
    for (const body of [event(p), event(p, {}, 'evt_another_delivery')]) {
      const r = await expectStatus<WebhookResult>(signed(body), 200);
      expect(r.body.data).toMatchObject({ duplicate: true, purchaseId: p.purchaseId, status: 'pending_approval' });
    }
    const again = await snapshot(p.purchaseId);
    expect({ ...again, events: again.events.length }).toEqual({ ...after, events: 2 });
  });

  it('reads the body only once it is authentic: malformed bodies are 400s after the signature, 401s before', async () => {
    const bad = '{"id":"evt_x","type":"payment_intent.succeeded"';
    expect((await send(bad, {})).status).toBe(401);
    expect((await signed(bad)).status).toBe(400);
    expect(
      (
        await signed(
          JSON.stringify({ id: 'evt_y', type: 'payment_intent.succeeded', data: { intentId: 'pi', purchaseId: 'adp', amountCents: -1, currency: 'USD' } }),
        )
      ).status,
    ).toBe(400);
    expect((await signed(JSON.stringify({ id: 'evt_z', type: 'x', data: {}, extra: 1 }))).status).toBe(400);
    const unknown = await signed(
      JSON.stringify({ id: 'evt_u', type: 'payment_intent.succeeded', data: { intentId: 'pi_x', purchaseId: 'adp_x', amountCents: 1, currency: 'USD' } }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('unknown purchase adp_x');
  });

  it('records other event types once and changes nothing', async () => {
    const p = await buy(t);
    const r = await expectStatus<WebhookResult>(
      signed(
        JSON.stringify({
          id: 'evt_failed_1',
          type: 'payment_intent.payment_failed',
          data: { intentId: p.paymentIntentId, purchaseId: p.purchaseId, amountCents: 26730, currency: 'USD' },
        }),
      ),
      200,
    );
    expect(r.body.data).toMatchObject({ duplicate: false, status: 'awaiting_payment' });
    expect((await statusOf(t, p.statusToken)).status).toBe('awaiting_payment');
  });
});

describe('the worked example of docs/ad-payments-webhook.md', () => {
  const doc = readFileSync(fileURLToPath(new URL('../../../../../docs/ad-payments-webhook.md', import.meta.url)), 'utf8');
  const pick = (re: RegExp) => {
    const m = re.exec(doc);
    if (!m?.[1]) throw new Error(`not in the doc: ${re}`);
    return m[1];
  };
  const secret = pick(/^Secret: `([^`]+)`$/m);
  const timestamp = pick(/^X-Vend-Timestamp: (\d+)$/m);
  const body = pick(/^Body \(exact bytes, one line\):\n\n```json\n(.+)\n```$/m);
  const signature = pick(/^X-Vend-Signature: (v1=[0-9a-f]{64})$/m);

  it('signs to the documented signature with the sandbox secret', () => {
    expect(secret).toBe(SANDBOX_SECRETS.AD_PAYMENTS_WEBHOOK_SECRET);
    expect(signWebhook(secret, timestamp, body)).toBe(signature);
  });

  it('is accepted as authentic by a sandbox at that instant (then refused as naming no purchase of that store)', async () => {
    const t = await startTestServer(DIALECTS[0]!, { seed: false });
    try {
      (t.clock as ManualClock).advance(Number(timestamp) * 1000 - t.clock.now());
      const r = await call<Body>(t.url, 'POST', PATH, { body, headers: { 'x-vend-timestamp': timestamp, 'x-vend-signature': signature } });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('unknown purchase');
      const tampered = await call(t.url, 'POST', PATH, {
        body: body.replace('26730', '2673'),
        headers: { 'x-vend-timestamp': timestamp, 'x-vend-signature': signature },
      });
      expect(tampered.status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
