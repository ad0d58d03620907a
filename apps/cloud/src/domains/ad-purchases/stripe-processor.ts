import Stripe from 'stripe';
import { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import {
  PAYMENT_EXPIRED,
  PAYMENT_SUCCEEDED,
  type CreatedIntent,
  type IntentRequest,
  type IssuedRefund,
  type PaymentEvent,
  type PaymentProcessor,
  type RefundRequest,
  type WebhookHeaders,
  type WebhookVerdict,
} from './processor.ts';
import { AD_PAYMENTS_WEBHOOK_PATH } from './test-processor.ts';

/** How Stripe is reached: the account's secret key, the webhook endpoint's signing secret, and (tests only) another API host. */
export interface StripeSettings {
  /** `sk_test_…` / `sk_live_…` (or a restricted `rk_…`): never logged, never answered. */
  secretKey: string;
  /** The webhook endpoint's signing secret, `whsec_…`. */
  webhookSecret: string;
  /** Tests only (STRIPE_API_BASE): the SDK's host/port/protocol, e.g. a fake Stripe on 127.0.0.1. */
  api?: { host: string; port: number; protocol: 'http' | 'https' } | undefined;
}

export interface StripeProcessorDeps {
  stripe: StripeSettings;
  /** The absolute address of this service (PUBLIC_BASE_URL): Stripe sends the buyer back there. */
  publicBaseUrl: string;
  /** Retries of a transient failure (connection, 409, 5xx) by the SDK, with the same Idempotency-Key (default 2). */
  maxNetworkRetries?: number;
  /** One HTTP attempt's limit (default 15 s: a buyer is waiting). */
  timeoutMs?: number;
}

/** Where Stripe's hosted page sends the buyer (paid or not) when the intent names no `returnUrl`: a buyer page. */
export const PROCESSOR_RETURN_PATH = '/pay/return';
/** The buyer page that follows on to the purchase's status page (the status token is a cookie on /pay). */
export const PROCESSOR_STATUS_PATH = '/pay/status';
/** Seconds a signed webhook stays acceptable either side of now (Stripe's own default tolerance). */
export const STRIPE_WEBHOOK_TOLERANCE_S = 300;
/** What a Stripe event that carries no purchase of this service is recorded with (`purchaseId`, `currency`). */
export const NO_PURCHASE = 'none';
const NO_CURRENCY = 'XXX';

/** The Stripe event types that mean "this purchase is paid" (`payment_intent.succeeded` in this service's terms). */
const COMPLETIONS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);
/** The Stripe event type that means "this session can no longer be paid" (`payment_intent.expired` here). */
const SESSION_EXPIRED = 'checkout.session.expired';
const PURCHASE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** The fields of a Checkout Session this service reads from an event (everything else Stripe sends is ignored). */
const SessionObject = z.object({
  id: z.string().min(1).max(255),
  object: z.literal('checkout.session'),
  amount_total: z.number().int().min(0).nullable(),
  currency: z.string().nullable(),
  payment_status: z.string(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});

const EventEnvelope = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.object({ id: z.string().min(1).max(255).optional() }).loose() }),
});

const header = (h: WebhookHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * Stripe behind the payment-processor adapter (issue 34), with the official SDK. An intent is a Stripe Checkout
 * Session (mode `payment`, one line item of the server's integer cents): `intentId` is the session id (`cs_…`), known
 * at creation, and the payment is the session's `checkout.session.completed` (or `…async_payment_succeeded`)
 * event — the PaymentIntent (`pi_…`) exists only once the buyer pays, so it is not what a purchase records.
 * Webhooks are verified by the SDK's `constructEvent` against this service's clock. docs/decisions/marketplace.md
 * ("Stripe (issue 34)").
 */
export class StripeProcessor implements PaymentProcessor {
  readonly name = 'stripe';
  private readonly client: Stripe;

  constructor(private readonly deps: StripeProcessorDeps) {
    const { api } = deps.stripe;
    this.client = new Stripe(deps.stripe.secretKey, {
      maxNetworkRetries: deps.maxNetworkRetries ?? 2,
      timeout: deps.timeoutMs ?? 15_000,
      telemetry: false,
      appInfo: { name: 'vend-cloud' },
      ...(api ? { host: api.host, port: api.port, protocol: api.protocol } : {}),
    });
  }

  /**
   * A Checkout Session for the server's amount. The Idempotency-Key is derived from what is paid for and how
   * much (`vend-intent-<purchaseId>-<amount><currency>`): the SDK's retries and any retry of the same purchase get
   * the same session, never a second one. Stripe's refusals become AppErrors (`processorError`); a decline or a failure
   * leaves no session at Stripe, so the caller records nothing either.
   */
  async createIntent(req: IntentRequest): Promise<CreatedIntent> {
    const metadata: Record<string, string> = { purchaseId: req.purchaseId };
    if (req.webhookPath) metadata['webhookPath'] = req.webhookPath;
    const asked = req.returnUrl === undefined ? undefined : new URL(req.returnUrl, this.deps.publicBaseUrl).href;
    const returnUrl = asked ?? `${this.deps.publicBaseUrl}${PROCESSOR_RETURN_PATH}`;
    let session: Stripe.Checkout.Session;
    try {
      session = await this.client.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: { currency: req.currency.toLowerCase(), unit_amount: req.amountCents, product_data: { name: req.description.slice(0, 250) } },
            },
          ],
          client_reference_id: req.purchaseId,
          metadata,
          payment_intent_data: { metadata, description: req.description.slice(0, 1000) },
          success_url: returnUrl,
          cancel_url: asked ?? `${returnUrl}?cancelled=1`,
        },
        { idempotencyKey: idempotencyKeyOf(req) },
      );
    } catch (err) {
      throw err instanceof Stripe.errors.StripeError ? processorError(err) : err;
    }
    if (!session.url) throw new AppError('upstream', 'The payment processor answered a checkout without a payment page');
    return { intentId: session.id, checkoutUrl: session.url };
  }

  /**
   * A refund of a paid Checkout Session: the session is read for its PaymentIntent (`pi_…`, made when the buyer paid),
   * then `refunds.create({ payment_intent, amount })` with the caller's Idempotency-Key (the SDK's retries and any
   * repeat of the key answer the same refund). Stripe's refusal (e.g. `charge_already_refunded`) is 502 with its
   * reason, Stripe unreachable 503 (`processorError`); a session never paid is refused (502) without a refund call.
   */
  async refund(req: RefundRequest): Promise<IssuedRefund> {
    try {
      const session = await this.client.checkout.sessions.retrieve(req.intentId);
      const pi = session.payment_intent;
      const paymentIntent = typeof pi === 'string' ? pi : (pi?.id ?? null);
      if (!paymentIntent) throw new AppError('upstream', `The payment processor refused the refund: checkout session ${req.intentId} has no payment`);
      const refund = await this.client.refunds.create(
        {
          payment_intent: paymentIntent,
          amount: req.amountCents,
          reason: 'requested_by_customer',
          metadata: { reason: req.reason.slice(0, 500), intentId: req.intentId },
        },
        { idempotencyKey: req.idempotencyKey },
      );
      const status = refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending';
      return status === 'failed'
        ? { refundId: refund.id, status, failureReason: `${refund.status}: ${refund.failure_reason ?? 'unknown'}` }
        : { refundId: refund.id, status };
    } catch (err) {
      throw err instanceof Stripe.errors.StripeError ? processorError(err) : err;
    }
  }

  /**
   * The SDK authenticates the exact bytes (`Stripe-Signature`, HMAC over `<t>.<body>`, at most 300 s old by this
   * service's clock; a timestamp more than 300 s ahead is refused too) before anything reads them: 401. An
   * authentic body that is not a Stripe event: 400. A completed, paid session carrying a purchase id becomes
   * `payment_intent.succeeded` here; every other Stripe event is recorded as `stripe.<its type>` and changes
   * nothing (so no Stripe type can pass for this service's). `text` is the event in the documented webhook
   * body shape (docs/ad-payments-webhook.md), what the typed route re-reads.
   */
  parseWebhook(rawBody: Buffer, headers: WebhookHeaders, now: number): WebhookVerdict {
    const signature = header(headers, 'stripe-signature');
    let raw: unknown;
    try {
      raw = Stripe.webhooks.constructEvent(rawBody, signature ?? '', this.deps.stripe.webhookSecret, STRIPE_WEBHOOK_TOLERANCE_S, undefined, now);
    } catch (err) {
      // the SDK's first line (the rest is a how-to for developers)
      if (err instanceof Stripe.errors.StripeSignatureVerificationError) return { ok: false, status: 401, reason: err.message.split('\n')[0]!.trim() };
      // verified, then not JSON (or not a snapshot event)
      return { ok: false, status: 400, reason: `body is not a Stripe event: ${(err as Error).message}` };
    }
    const t = /(?:^|,)t=(\d+)/.exec(signature ?? '');
    if (t && Number(t[1]) > Math.floor(now / 1000) + STRIPE_WEBHOOK_TOLERANCE_S) {
      return { ok: false, status: 401, reason: 'Timestamp outside the tolerance zone (in the future)' };
    }
    const envelope = EventEnvelope.safeParse(raw);
    if (!envelope.success) return { ok: false, status: 400, reason: `body is not a Stripe event: ${envelope.error.issues[0]!.message}` };
    const event = eventOf(envelope.data, raw);
    if (!event.ok) return event;
    // the webhook path routes the event (payment-event-router.ts); the documented body carries none
    const { id, type, webhookPath: _routed, ...data } = event.event;
    return { ok: true, event: event.event, text: JSON.stringify({ id, type, data }) };
  }
}

/** The Idempotency-Key of an intent's creation: what is paid for and how much (Stripe keeps a key 24 h). */
export function idempotencyKeyOf(req: Pick<IntentRequest, 'purchaseId' | 'amountCents' | 'currency'>): string {
  return `vend-intent-${req.purchaseId}-${req.amountCents}${req.currency.toUpperCase()}`;
}

/**
 * Which place of this service an event belongs to, by the metadata `createIntent` gave its session: the purchase id and
 * the webhook path (none: an ad purchase, which names none). An object without a purchase of ours belongs nowhere:
 * the webhook it was delivered to records it.
 */
function ownerOf(object: unknown): { purchaseId: string; webhookPath: string } | null {
  const metadata = (object as { metadata?: Record<string, unknown> | null } | null)?.metadata;
  const purchaseId = metadata?.['purchaseId'];
  if (typeof purchaseId !== 'string' || !PURCHASE_ID.test(purchaseId)) return null;
  const path = metadata?.['webhookPath'];
  // a path of another shape is kept as it is: the router acknowledges it as nobody's
  return { purchaseId, webhookPath: typeof path === 'string' && path.length > 0 ? path.slice(0, 255) : AD_PAYMENTS_WEBHOOK_PATH };
}

function eventOf(envelope: z.infer<typeof EventEnvelope>, raw: unknown): { ok: true; event: PaymentEvent } | { ok: false; status: 400; reason: string } {
  const object = (raw as { data: { object: unknown } }).data.object;
  const ignored: PaymentEvent = {
    id: envelope.id,
    type: `stripe.${envelope.type}`.slice(0, 64),
    intentId: envelope.data.object.id ?? envelope.id,
    purchaseId: NO_PURCHASE,
    amountCents: 0,
    currency: NO_CURRENCY,
  };
  const owner = ownerOf(object);
  if (!COMPLETIONS.has(envelope.type)) {
    if (!owner) return { ok: true, event: ignored };
    // a session of ours that expired unpaid: in this service's terms (its amount and currency are not needed)
    const type = envelope.type === SESSION_EXPIRED && (object as { object?: unknown }).object === 'checkout.session' ? PAYMENT_EXPIRED : ignored.type;
    return { ok: true, event: { ...ignored, ...owner, type } };
  }
  const s = SessionObject.safeParse(object);
  if (!s.success) {
    const i = s.error.issues[0]!;
    return { ok: false, status: 400, reason: `data.object${i.path.map((p) => `.${String(p)}`).join('')}: ${i.message}` };
  }
  const session = s.data;
  // a session this service did not create (another product on the same account), or one not paid yet (a delayed
  // method: its `async_payment_succeeded` follows): recorded only
  if (!owner || session.payment_status !== 'paid') return { ok: true, event: { ...ignored, ...owner } };
  if (session.amount_total === null || !session.currency)
    return { ok: false, status: 400, reason: 'data.object: a paid session without amount_total or currency' };
  return {
    ok: true,
    event: {
      id: envelope.id,
      type: PAYMENT_SUCCEEDED,
      intentId: session.id,
      ...owner,
      amountCents: session.amount_total,
      currency: session.currency.toUpperCase(),
    },
  };
}

/**
 * Stripe's refusal as this service answers it. A decline (402 `card_error`) or a request Stripe refuses (400,
 * idempotency mismatch): 502 `upstream`, "the payment processor declined", with Stripe's message — the buyer's retry
 * would not change it. Stripe unreachable, rate limiting (429) or failing (5xx) after the SDK's retries, or refusing
 * this deployment's key: 503 `unavailable`, "the payment processor is unavailable", nothing charged or recorded.
 */
export function processorError(err: Stripe.errors.StripeError): AppError {
  // Stripe's own message (the SDK's `message` prefixes the request id, kept in the cause)
  const raw = (err.raw as { message?: unknown } | undefined)?.message;
  const message = typeof raw === 'string' ? raw : err.message;
  const why = err.code ? `${err.code}: ${message}` : message;
  if (err instanceof Stripe.errors.StripeCardError) return new AppError('upstream', `The payment processor declined: ${why}`, { cause: err });
  if (err instanceof Stripe.errors.StripeInvalidRequestError || err instanceof Stripe.errors.StripeIdempotencyError) {
    return new AppError('upstream', `The payment processor refused the request: ${why}`, { cause: err });
  }
  if (err instanceof Stripe.errors.StripeRateLimitError) {
    return new AppError('unavailable', 'The payment processor is busy: nothing was charged; try again shortly', {
      cause: err,
      headers: { 'retry-after': '5' },
    });
  }
  if (err instanceof Stripe.errors.StripeAuthenticationError || err instanceof Stripe.errors.StripePermissionError) {
    return new AppError('unavailable', 'The payment processor refused this deployment’s credentials: payments are unavailable', { cause: err });
  }
  return new AppError('unavailable', 'The payment processor is unavailable: nothing was charged; try again shortly', { cause: err });
}
