import { request } from 'undici';
import { z } from 'zod';
import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import { newId } from '../../crypto/ids.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { refusalOf } from '../../http/validate.ts';
import type { AppStore } from '../../repos.ts';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signWebhook, verifyWebhook } from '../../http/webhook-signature.ts';
import {
  PAYMENT_SUCCEEDED,
  type CreatedIntent,
  type IntentRequest,
  type IssuedRefund,
  type PaymentProcessor,
  type RefundRequest,
  type WebhookHeaders,
  type WebhookVerdict,
} from './processor.ts';

/** Where the ad-payment webhook is served (the test processor delivers there). */
export const AD_PAYMENTS_WEBHOOK_PATH = '/api/v1/ad-purchases/webhook';
/** The test processor's hosted checkout page: `/pay/test/{intentId}` (rendered by the buyer pages). */
export const TEST_CHECKOUT_PATH = '/pay/test';
/** How long one webhook delivery may take. */
const DELIVERY_TIMEOUT_MS = 10_000;

const Id = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must be 1–128 letters, digits or _ . : -');

/** The test processor's webhook body (docs/ad-payments-webhook.md), read strictly. */
export const AdPaymentWebhookBody = z.strictObject({
  id: Id.describe('The event id: applied at most once'),
  type: z.string().min(1).max(64).describe('payment_intent.succeeded (other types are recorded and change nothing)'),
  data: z.strictObject({
    intentId: Id,
    purchaseId: Id,
    amountCents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).describe('Integer cents: must equal the purchase quote'),
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code'),
  }),
});
export type AdPaymentWebhookBody = z.infer<typeof AdPaymentWebhookBody>;

/** A test intent as its checkout page shows it. */
export interface TestIntent {
  intentId: string;
  purchaseId: string;
  amountCents: number;
  currency: string;
  description: string;
  status: 'requires_payment' | 'succeeded';
  createdAt: string;
  succeededAt: string | null;
  /** Where the buyer goes once paid (the intent's `returnUrl`); null: the checkout page says paid. */
  returnUrl: string | null;
}

/** What `complete` did: the intent, and the answer of this service's webhook to the delivery. */
export interface TestCompletion {
  intent: TestIntent;
  delivery: { url: string; status: number | null; answer: unknown; error: string | null };
}

export interface TestProcessorDeps {
  store: AppStore;
  clock: Clock;
  config: Pick<Config, 'publicBaseUrl' | 'adPaymentsWebhookSecret'>;
}

const header = (h: WebhookHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The built-in test processor (sandbox): keeps its own book of intents (`test_payment_intents`), as
 * an outside processor would; its checkout page is `/pay/test/{intentId}`; `complete` plays the
 * buyer paying there and the processor then telling this service, by a webhook signed exactly as
 * docs/ad-payments-webhook.md says and sent over real HTTP.
 */
export class TestProcessor implements PaymentProcessor {
  readonly name = 'test';

  constructor(private readonly deps: TestProcessorDeps) {}

  async createIntent(req: IntentRequest): Promise<CreatedIntent> {
    const now = this.deps.clock.now();
    const intentId = newId('pi', now);
    await this.deps.store.repos.testPayments.insert({
      id: intentId,
      purchase_id: req.purchaseId,
      amount_cents: req.amountCents,
      currency: req.currency,
      description: req.description,
      status: 'requires_payment',
      created_at: now,
      webhook_path: req.webhookPath ?? null,
      return_url: req.returnUrl ?? null,
    });
    return { intentId, checkoutUrl: `${this.deps.config.publicBaseUrl ?? ''}${TEST_CHECKOUT_PATH}/${intentId}` };
  }

  parseWebhook(rawBody: Buffer, headers: WebhookHeaders, now: number): WebhookVerdict {
    const verdict = verifyWebhook({
      secret: this.deps.config.adPaymentsWebhookSecret,
      timestamp: header(headers, TIMESTAMP_HEADER),
      signature: header(headers, SIGNATURE_HEADER),
      rawBody,
      nowMs: now,
    });
    if (!verdict.ok) return { ok: false, status: 401, reason: verdict.reason };
    const text = rawBody.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { ok: false, status: 400, reason: 'body is not valid JSON' };
    }
    const parsed = AdPaymentWebhookBody.safeParse(json, { reportInput: true });
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      return {
        ok: false,
        status: refusalOf(parsed.error) === 'validation' ? 422 : 400,
        reason: `body${i.path.map((p) => `.${String(p)}`).join('')}: ${i.message}`,
      };
    }
    const { id, type, data } = parsed.data;
    return { ok: true, text, event: { id, type, ...data } };
  }

  /**
   * A refund in its own book (`test_refunds`), as an outside processor would: the same idempotency key answers the
   * same refund; it refuses (502, its reason) an intent unknown or not paid, another currency, and more than the
   * intent paid less what was refunded already. Refunds succeed at once.
   */
  async refund(req: RefundRequest): Promise<IssuedRefund> {
    const repo = this.deps.store.repos.testPayments;
    const prior = await repo.refundByKey(req.idempotencyKey);
    if (prior) return { refundId: prior.id, status: 'succeeded' };
    const refuse = (why: string) => new AppError('upstream', `The payment processor refused the refund: ${why}`);
    const intent = await repo.intent(req.intentId);
    if (!intent) throw refuse(`no such payment intent ${req.intentId}`);
    if (intent.status !== 'succeeded') throw refuse(`payment intent ${req.intentId} was not paid`);
    if (intent.currency !== req.currency) throw refuse(`the intent was paid in ${intent.currency}, not ${req.currency}`);
    const left = Number(intent.amount_cents) - (await repo.refundedCents(req.intentId));
    if (!Number.isInteger(req.amountCents) || req.amountCents <= 0 || req.amountCents > left) {
      throw refuse(`charge_already_refunded: ${req.amountCents} exceeds the ${left} left to refund`);
    }
    const now = this.deps.clock.now();
    const id = newId('re', now);
    const row = {
      id,
      intent_id: req.intentId,
      amount_cents: req.amountCents,
      currency: req.currency,
      reason: req.reason,
      idempotency_key: req.idempotencyKey,
      created_at: now,
    };
    if (!(await repo.insertRefund(row))) return { refundId: (await repo.refundByKey(req.idempotencyKey))!.id, status: 'succeeded' };
    return { refundId: id, status: 'succeeded' };
  }

  /** An intent as its checkout page shows it; 404 when unknown. */
  async intent(intentId: string): Promise<TestIntent> {
    const row = await this.deps.store.repos.testPayments.intent(intentId);
    if (!row) throw notFound('Payment intent');
    return {
      intentId: row.id,
      purchaseId: row.purchase_id,
      amountCents: Number(row.amount_cents),
      currency: row.currency,
      description: row.description,
      status: row.status === 'succeeded' ? 'succeeded' : 'requires_payment',
      createdAt: formatTimestamp(row.created_at)!,
      succeededAt: formatTimestamp(row.succeeded_at),
      returnUrl: row.return_url,
    };
  }

  /**
   * The buyer pays: the intent succeeds (once) and the signed `payment_intent.succeeded` webhook is
   * delivered to `<PUBLIC_BASE_URL or origin>` + the intent's webhook path (`/api/v1/ad-purchases/webhook`
   * unless the intent named another). Calling it again
   * delivers the same event again (a processor's retry: the service answers it as a duplicate).
   * `origin`: the calling request's, used when PUBLIC_BASE_URL is unset.
   */
  async complete(intentId: string, origin: string): Promise<TestCompletion> {
    const repo = this.deps.store.repos.testPayments;
    const now = this.deps.clock.now();
    await this.intent(intentId);
    await repo.markSucceeded(intentId, now);
    const intent = await this.intent(intentId);
    const body = JSON.stringify({
      id: `evt_${intentId}`,
      type: PAYMENT_SUCCEEDED,
      data: { intentId, purchaseId: intent.purchaseId, amountCents: intent.amountCents, currency: intent.currency },
    } satisfies AdPaymentWebhookBody);
    const timestamp = Math.floor(now / 1000);
    const path = (await repo.intent(intentId))?.webhook_path ?? AD_PAYMENTS_WEBHOOK_PATH;
    const url = `${this.deps.config.publicBaseUrl ?? origin}${path}`;
    let delivery: TestCompletion['delivery'];
    try {
      const res = await request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: signWebhook(this.deps.config.adPaymentsWebhookSecret, timestamp, body),
        },
        body,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      });
      const text = await res.body.text();
      let answer: unknown = text;
      try {
        answer = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      delivery = { url, status: res.statusCode, answer, error: null };
    } catch (err) {
      delivery = { url, status: null, answer: null, error: (err as Error).message };
    }
    await repo.recordDelivery(intentId, delivery.status, this.deps.clock.now());
    return { intent: await this.intent(intentId), delivery };
  }
}
