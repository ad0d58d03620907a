import type { CheckoutData } from '@vend/protocol';
import { call, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Answer } from '../../testing/answers.ts';
import { signWebhook } from '../../http/webhook-signature.ts';
import { SANDBOX_SECRETS } from '../../config.ts';
import { ALICE, enrolled, keyHeader } from '../gateway/gateway.test-support.ts';
import { PageClient } from '../marketplace-pages/pages.test-support.ts';
import type { KioskWebhookResult } from './kiosk-checkout.schemas.ts';
import { KIOSK_CHECKOUT_WEBHOOK_PATH } from './kiosk-checkout.service.ts';

export { ALICE, keyHeader } from '../gateway/gateway.test-support.ts';

/** A cabinet of alice's (USD), enrolled: its serial, machine id and device-key headers. */
export interface Cabinet {
  serial: string;
  machineId: string;
  headers: Record<string, string>;
}

/** An enrolled cabinet claimed into an operator's fleet (alice's unless `operator` says otherwise). */
export async function ownedCabinet(t: TestServer, operator: Record<string, string> = ALICE): Promise<Cabinet> {
  const e = await enrolled(t);
  await expectStatus(call(t.url, 'POST', '/api/v1/machines/register', { headers: operator, json: { machineNo: e.serial, name: `Kiosk ${e.serial}` } }), 200);
  const m = await t.ctx.database.db.selectFrom('machines').select('id').where('machine_no', '=', e.serial).executeTakeFirstOrThrow();
  return { serial: e.serial, machineId: m.id, headers: keyHeader(e.key) };
}

export function createCheckout(t: TestServer, c: Cabinet, body: unknown = { aisleNo: 1 }): Promise<Answer<CheckoutData>> {
  return call(t.url, 'POST', '/cabinet/checkouts', { headers: c.headers, json: body });
}

/** A checkout created (201) for the aisle. */
export async function checkoutFor(t: TestServer, c: Cabinet, aisleNo = 1): Promise<CheckoutData> {
  const r = await createCheckout(t, c, { aisleNo });
  if (r.status !== 201) throw new Error(`create answered ${r.status}: ${r.text}`);
  return r.body.data;
}

export function getCheckout(t: TestServer, c: Cabinet, id: string): Promise<Answer<CheckoutData>> {
  return call(t.url, 'GET', `/cabinet/checkouts/${id}`, { headers: c.headers });
}

export function cancelCheckout(t: TestServer, c: Cabinet, id: string): Promise<Answer<CheckoutData>> {
  return call(t.url, 'POST', `/cabinet/checkouts/${id}/cancel`, { headers: c.headers, json: {} });
}

/** The checkout's row as stored. */
export function checkoutRow(t: TestServer, id: string) {
  return t.ctx.database.db.selectFrom('kiosk_checkouts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Every order and command a checkout made (by its intent's payment id, and by its id as the command's externalRef). */
export async function moneyAndDrops(t: TestServer, checkoutId: string) {
  const db = t.ctx.database.db;
  const row = await checkoutRow(t, checkoutId);
  const orders = await db
    .selectFrom('orders')
    .selectAll()
    .where('payment_ref', '=', row.intent_id ?? '-')
    .execute();
  const commands = await db.selectFrom('dispense_commands').selectAll().where('external_ref', '=', checkoutId).execute();
  return { row, orders, commands };
}

/**
 * The shopper's phone: opens the QR's page, follows its Pay button to the test processor's checkout, pays there
 * (after `meanwhile`: the shopper dawdles on the processor's page while the checkout expires or is cancelled).
 * Answers the processor page's answer to "Pay now" (a 303 back to the phone page when the service confirmed it).
 */
export async function payByPhone(t: TestServer, checkout: CheckoutData, meanwhile?: () => Promise<void>) {
  const phone = new PageClient(t.url);
  const page = await phone.get(new URL(checkout.payUrl).pathname);
  const pay = /<a class="button" href="([^"]+)">Pay /.exec(page.text)?.[1];
  if (!pay) throw new Error(`no Pay button on the phone page: ${page.status}`);
  const processorPage = new URL(pay.replace(/&amp;/g, '&'), t.url).pathname;
  await phone.get(processorPage);
  await meanwhile?.();
  return phone.post(processorPage, {});
}

const nowS = (t: TestServer) => Math.floor(t.clock.now() / 1000);

/** The processor's `payment_intent.succeeded` for a checkout, as its exact text (`over` changes data fields). */
export function succeeded(
  row: { id: string; intent_id: string | null; amount_cents: number; currency: string },
  over: Record<string, unknown> = {},
  id?: string,
) {
  return JSON.stringify({
    id: id ?? `evt_${row.intent_id ?? 'none'}`,
    type: 'payment_intent.succeeded',
    data: { intentId: row.intent_id, purchaseId: row.id, amountCents: Number(row.amount_cents), currency: row.currency, ...over },
  });
}

/** Delivers a webhook body signed with the processor's key, as the processor would. */
export function deliver(t: TestServer, body: string): Promise<Answer<KioskWebhookResult>> {
  const ts = nowS(t);
  return call(t.url, 'POST', KIOSK_CHECKOUT_WEBHOOK_PATH, {
    body,
    headers: {
      'content-type': 'application/json',
      'x-vend-timestamp': String(ts),
      'x-vend-signature': signWebhook(SANDBOX_SECRETS.AD_PAYMENTS_WEBHOOK_SECRET, ts, body),
    },
  });
}
