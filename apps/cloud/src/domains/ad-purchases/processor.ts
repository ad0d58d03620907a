/**
 * The payment-processor adapter (spec 1 §4.7, §6): payment intents and signed webhooks, the shape a
 * Stripe-style processor fits. Self-serve ad purchases and the DFY investment pool (spec 3 key rule 7) pay
 * through it; `purchaseId` is what the intent pays for (a purchase, an investment). The built-in test processor
 * (test-processor.ts) is the sandbox's; Stripe (stripe-processor.ts, issue 34) is the other implementation. Kiosk checkouts (pay
 * by phone on the cabinet's screen, issue 32) pay through it too.
 */
import { AppError, badRequest } from '../../http/errors.ts';

export interface IntentRequest {
  purchaseId: string;
  /** Integer cents: what the server quoted, never what a client sent. */
  amountCents: number;
  currency: string;
  description: string;
  /**
   * Where the processor delivers this intent's events, a path on this service (what the intent pays for
   * decides it: the DFY investment pool has its own webhook). Absent: the ad payments webhook.
   */
  webhookPath?: string;
  /**
   * Where the processor sends the buyer once paid (Stripe's `success_url`): an absolute URL of this service, or a path on
   * it (`/console/placements`: resolved against PUBLIC_BASE_URL). Absent: the processor's page says paid (the ad
   * marketplace follows the purchase by its own status link).
   */
  returnUrl?: string;
}

export interface CreatedIntent {
  intentId: string;
  /** Where the buyer pays (the processor's hosted page). */
  checkoutUrl: string;
}

/** A refund of (part of) a paid intent. */
export interface RefundRequest {
  /** The intent that was paid (what `createIntent` answered). */
  intentId: string;
  /** Integer cents, at most what the intent paid less what was refunded already. */
  amountCents: number;
  currency: string;
  /** Why (kept with the refund at the processor: its metadata). */
  reason: string;
  /** The same key answers the same refund, never a second one. */
  idempotencyKey: string;
}

export interface IssuedRefund {
  refundId: string;
  /** `pending`: accepted, the money is on its way (Stripe, some payment methods); `failed`: the processor gave up. */
  status: 'succeeded' | 'pending' | 'failed';
  failureReason?: string;
}

/** A verified webhook event in this service's terms, whatever the processor's wire format. */
export interface PaymentEvent {
  /** The processor's event id: applied at most once. */
  id: string;
  /** `payment_intent.succeeded` moves a purchase on; other types are recorded and change nothing. */
  type: string;
  intentId: string;
  /** The purchase the intent was created for, as the processor echoes it (its metadata). */
  purchaseId: string;
  amountCents: number;
  currency: string;
  /**
   * The webhook path of the place that applies this event, when the processor delivers every event of the account to
   * one endpoint (Stripe: the intent's `metadata.webhookPath`, else the ad payments webhook). Absent: the webhook it was
   * delivered to applies it (the test processor delivers each intent's events to its own path).
   */
  webhookPath?: string;
}

export const PAYMENT_SUCCEEDED = 'payment_intent.succeeded';

/** What a payment was asked for: the intent made for it, its amount and currency. */
export interface AskedPayment {
  id: string;
  intentId: string | null;
  amountCents: number;
  currency: string;
}

/**
 * Refuses a payment event that does not pay exactly what was asked — an unknown `what`, another intent, another
 * amount or currency — with 400 on `body.data`, so its transaction records nothing and a corrected delivery may follow.
 */
export function refuseUnlessAsked<T>(event: PaymentEvent, what: string, row: T | undefined, askedOf: (row: T) => AskedPayment): asserts row is T {
  const refuse = (message: string) => badRequest(undefined, [{ path: 'body.data', message }]);
  if (row === undefined) throw refuse(`unknown ${what} ${event.purchaseId}`);
  const asked = askedOf(row);
  if (asked.intentId !== event.intentId) throw refuse(`intent ${event.intentId} is not ${what} ${asked.id}'s`);
  if (asked.amountCents !== event.amountCents || asked.currency !== event.currency) {
    throw refuse(`amount ${event.amountCents} ${event.currency} does not match the ${what}'s ${asked.amountCents} ${asked.currency}`);
  }
}
/**
 * The intent can no longer be paid (Stripe: `checkout.session.expired`). A kiosk checkout still awaiting its payment
 * ends (`expired`); elsewhere it is recorded only. After a payment it changes nothing.
 */
export const PAYMENT_EXPIRED = 'payment_intent.expired';

/**
 * What a webhook delivery is: a verified event, or why it is refused (401: not authentic; 400: authentic but unreadable).
 * `text`: the event in the documented webhook body shape (docs/ad-payments-webhook.md) the typed route re-reads — the
 * test processor's own bytes; another processor's event rendered into it (Stripe: stripe-processor.ts).
 */
export type WebhookVerdict = { ok: true; event: PaymentEvent; text: string } | { ok: false; status: 401 | 400 | 422; reason: string };

export type WebhookHeaders = Record<string, string | string[] | undefined>;

export interface PaymentProcessor {
  /** Recorded with each purchase and event (`test`, `stripe`, …). */
  readonly name: string;
  /** Creates a payment intent for the amount; the buyer pays at `checkoutUrl`. */
  createIntent(req: IntentRequest): Promise<CreatedIntent>;
  /**
   * Authenticates the exact bytes of a webhook delivery (signature and freshness, constant time)
   * BEFORE reading them, then reads the event. Never throws.
   */
  parseWebhook(rawBody: Buffer, headers: WebhookHeaders, now: number): WebhookVerdict;
  /**
   * Refunds (part of) a paid intent, idempotent on `idempotencyKey`. A refusal is an AppError like `createIntent`'s:
   * 502 `upstream` with the processor's reason (nothing refunded), 503 `unavailable` (unknown: retry with the same key).
   */
  refund(req: RefundRequest): Promise<IssuedRefund>;
}

/**
 * A webhook delivery verified by `processor` (401: not authentic; 400: authentic but unreadable) before
 * anything else reads it; 503 when this deployment has no processor. The ad payments and the DFY investment
 * pool webhooks both take their events through here.
 */
export function verifiedEvent(
  processor: PaymentProcessor | null,
  rawBody: Buffer,
  headers: WebhookHeaders,
  now: number,
): { event: PaymentEvent; json: unknown } {
  if (!processor) throw new AppError('unavailable', 'Payments are not configured on this deployment');
  const v = processor.parseWebhook(rawBody, headers, now);
  if (!v.ok) {
    const issues = [{ path: '', message: v.reason }];
    if (v.status === 401) throw new AppError('unauthorized', undefined, { issues });
    // a field of the wrong JSON type is a malformed body (spec 1 §7: 422), another unreadable body a bad one (400)
    throw v.status === 422 ? new AppError('validation', undefined, { issues }) : badRequest(undefined, issues);
  }
  return { event: v.event, json: JSON.parse(v.text) as unknown };
}
