import express, { Router, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { PaymentEvent, WebhookHeaders } from './processor.ts';
import {
  AdPurchase,
  AdPurchaseListQuery,
  AdPurchasePage,
  AdPurchaseParams,
  ApproveBody,
  RefundBody,
  RejectBody,
  WebhookResult,
} from './ad-purchases.schemas.ts';
import type { AdPurchasesService } from './ad-purchases.service.ts';
import { RoutedPaymentEvent, type PaymentEventRouter } from './payment-event-router.ts';
import { AD_PAYMENTS_WEBHOOK_PATH, AdPaymentWebhookBody } from './test-processor.ts';

/** Operators' approvals of self-serve purchases (spec 1 §4.7): ads:read to list, ads:write to decide; another operator's purchase is a 404. */
export function adPurchasesRoutes(kit: RouteKit, purchases: AdPurchasesService): Router {
  const r = Router();
  const tag = 'ad marketplace';
  const read = { tag, auth: 'operator' as const, scopes: ['ads:read' as const] };
  const write = { tag, auth: 'operator' as const, scopes: ['ads:write' as const] };

  defineRoute(
    r,
    kit,
    {
      ...read,
      method: 'get',
      path: '/api/v1/ad-purchases',
      summary:
        'Paid purchases with a line of yours (admins: every purchase), newest first, each with your line; the approvals queue is lineStatus=pending_approval',
      query: AdPurchaseListQuery,
      response: AdPurchasePage,
    },
    async ({ query }, req, res) => sendOk(res, await purchases.list(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      ...read,
      method: 'get',
      path: '/api/v1/ad-purchases/:id',
      summary: 'One purchase, with your line',
      params: AdPurchaseParams,
      response: AdPurchase,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await purchases.get(principalOf(req), params.id)),
  );

  defineRoute(
    r,
    kit,
    {
      ...write,
      method: 'post',
      path: '/api/v1/ad-purchases/:id/approve',
      summary: 'Approve your line: its campaign goes on air at once while other operators still review (admins: every pending line, or operatorEmail’s)',
      params: AdPurchaseParams,
      body: ApproveBody,
      response: AdPurchase,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await purchases.approve(principalOf(req), params.id, body)),
  );

  defineRoute(
    r,
    kit,
    {
      ...write,
      method: 'post',
      path: '/api/v1/ad-purchases/:id/reject',
      summary: 'Reject your line with a reason the buyer sees: its draft campaign is removed and its amount is owed back (no money moves until POST …/refund)',
      params: AdPurchaseParams,
      body: RejectBody,
      response: AdPurchase,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await purchases.reject(principalOf(req), params.id, body)),
  );

  defineRoute(
    r,
    kit,
    {
      ...write,
      method: 'post',
      path: '/api/v1/ad-purchases/:id/refund',
      summary: 'Refund your rejected line’s amount to the buyer through the payment processor, once (admins: operatorEmail’s line, or every line owing one)',
      description:
        'Idempotent: a line already refunded is answered as it is, with no second refund. The processor’s refusal is recorded on the line (`refund.status` failed, with its reason) and answered 502; calling again retries. 503: the processor is unreachable or not configured — nothing is recorded, calling again is safe. 409: no refund is owed, or the purchase was paid through another processor.',
      params: AdPurchaseParams,
      body: RefundBody,
      response: AdPurchase,
      errors: [404, 409, 502, 503],
    },
    async ({ params, body }, req, res) => sendOk(res, await purchases.refund(principalOf(req), params.id, body)),
  );

  return r;
}

/**
 * What the three payment webhooks say of their signatures: the test processor's headers, or Stripe's. Stripe
 * deployments register one endpoint (this one, the ad payments webhook) and its events reach their place by the
 * intent's webhook path (payment-event-router.ts).
 */
export const PAYMENT_WEBHOOK_SIGNATURES =
  'signed: Stripe-Signature (a Stripe deployment: the SDK verifies it) or, with the built-in test processor, X-Vend-Timestamp + X-Vend-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">';
/** What the three payment webhooks say of events that are another place's. */
export const PAYMENT_WEBHOOK_ROUTING =
  "A Stripe event is applied by the place its intent's metadata.webhookPath names (none: the ad payments), whichever of the payment webhooks receives it, and answered with `routedTo` and that place's own answer; a path no place has is acknowledged (200, routedTo null), recorded in the audit log, and changes nothing.";

/**
 * The payment processor's webhook (spec 1 §6, docs/ad-payments-webhook.md). It authenticates an
 * HMAC over the exact bytes received, so it reads the body itself (`express.raw`, any content type)
 * and must be mounted before the global JSON parser. The processor judges signature (401) and body
 * (400) in the guard chain; the typed route then documents and re-reads the same body. It is the endpoint a
 * Stripe deployment registers: another place's events go on to their owner (`router`).
 */
export function adPaymentsWebhookRoutes(kit: RouteKit, purchases: AdPurchasesService, router: PaymentEventRouter): Router {
  const r = Router();
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: AD_PAYMENTS_WEBHOOK_PATH,
      tag: 'ad marketplace',
      summary: `Payment processor webhook (the endpoint a Stripe deployment registers), ${PAYMENT_WEBHOOK_SIGNATURES}`,
      description: `Idempotent on the event id. \`payment_intent.succeeded\` (Stripe: checkout.session.completed, paid) moves the purchase to pending_approval and drafts one campaign per operator; other types are recorded only. ${PAYMENT_WEBHOOK_ROUTING}`,
      auth: 'signature',
      body: AdPaymentWebhookBody,
      response: z.union([WebhookResult, RoutedPaymentEvent]),
      errors: [503],
    },
    signedPaymentEvent((raw, headers) => purchases.verifyWebhook(raw, headers), { path: AD_PAYMENTS_WEBHOOK_PATH, router }),
    async (_input, _req, res) => sendOk(res, await purchases.receivePayment(...paymentEventOf(res))),
  );
  return r;
}

/**
 * The guards of a payment processor webhook: the raw body read (any content type), then authenticated and
 * read by `verify` (401/400) before anything else; the typed route then documents and re-reads the same body.
 * An event whose webhook path names another place (`at.router`) is applied by that place and answered here.
 */
export function signedPaymentEvent(
  verify: (rawBody: Buffer, headers: WebhookHeaders) => { event: PaymentEvent; json: unknown },
  at: { path: string; router: PaymentEventRouter },
): RequestHandler[] {
  const signed: RequestHandler = async (req, res, next) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const { event, json } = verify(rawBody, req.headers);
    const text = rawBody.toString('utf8');
    if (at.router.ownerPath(event, at.path) !== at.path) {
      sendOk(res, await at.router.deliver(event, text, at.path));
      return;
    }
    res.locals['paymentEvent'] = event;
    res.locals['paymentText'] = text;
    req.body = json;
    next();
  };
  return [express.raw({ type: () => true, limit: '64kb' }), signed];
}

/** The verified event and its exact text, as `signedPaymentEvent` left them. */
export function paymentEventOf(res: Response): [PaymentEvent, string] {
  return [res.locals['paymentEvent'] as PaymentEvent, res.locals['paymentText'] as string];
}
