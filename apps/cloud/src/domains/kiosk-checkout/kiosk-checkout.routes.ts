import { Router, type Request } from 'express';
import { z } from 'zod';
import { CheckoutData, CheckoutRequest } from '@vend/protocol';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { AdPaymentWebhookBody } from '../ad-purchases/test-processor.ts';
import { PAYMENT_WEBHOOK_ROUTING, PAYMENT_WEBHOOK_SIGNATURES, paymentEventOf, signedPaymentEvent } from '../ad-purchases/ad-purchases.routes.ts';
import { RoutedPaymentEvent, type PaymentEventRouter } from '../ad-purchases/payment-event-router.ts';
import { cabinetOf, type CabinetGuard, type LegPolicy } from '../gateway/device-auth.ts';
import { CancelBody, CheckoutParams, CheckoutQuery, KioskWebhookResult } from './kiosk-checkout.schemas.ts';
import { KIOSK_CHECKOUT_WEBHOOK_PATH, type KioskCheckoutService } from './kiosk-checkout.service.ts';
import type { KioskPaymentsService } from './kiosk-payments.service.ts';

/** The checkout legs' body may name the serial only as `equipmentNo` (their bodies are strict). */
const SERIAL_FIELDS = ['equipmentNo'] as const;

/** The request's own origin: the phone page's address when PUBLIC_BASE_URL is unset. */
function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}

/**
 * Pay by phone, the cabinet's legs (issue 32; docs/kiosk-screen.md "Cloud: checkouts"): device-key only (a checkout
 * makes money move and a drop, so the fleet secret is not enough), the machine from the credential, a retired
 * machine 410 — the gateway's own credential check, as on every `/cabinet` leg.
 */
export function kioskCheckoutRoutes(kit: RouteKit, cabinet: CabinetGuard, checkouts: KioskCheckoutService): Router {
  const r = Router();
  const tag = 'cabinet gateway';
  const auth = (policy: Omit<LegPolicy, 'bodySerialFields' | 'fleetSecret'>) => [cabinet({ ...policy, fleetSecret: false, bodySerialFields: SERIAL_FIELDS })];

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/cabinet/checkouts',
      tag,
      summary: "Pay by phone: a checkout for the aisle at the server's price, paid through the payment processor on the shopper's phone",
      description:
        "201 with the checkout; `payUrl` is the phone page the cabinet shows as a QR. The name and price come from the server's planogram, the currency is the operator's. One open checkout per cabinet: a second one answers 409 (busy) until the first is paid and dropped, expired or cancelled. 409 also for an aisle sold out, faulted or without a price; 400 for an aisle the machine does not have; 503 when this deployment has no payment processor.",
      auth: 'device',
      body: CheckoutRequest,
      response: CheckoutData,
      status: 201,
      errors: [400, 401, 403, 404, 409, 410, 422, 502, 503],
    },
    auth({ leg: 'cabinet.checkouts', body: CheckoutRequest }),
    async ({ body }, req, res) => sendOk(res, await checkouts.create(cabinetOf(req), body, originOf(req)), 201),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/cabinet/checkouts/:checkoutId',
      tag,
      summary:
        "One of this cabinet's checkouts, as it stands: unpaid past its expiry it answers expired; paid, it follows its drop (vended, or failed with the refund owed)",
      auth: 'device',
      params: CheckoutParams,
      query: CheckoutQuery,
      response: CheckoutData,
      errors: [400, 401, 403, 404, 410, 422, 503],
    },
    auth({ leg: 'cabinet.checkouts.get', query: CheckoutQuery }),
    async ({ params }, req, res) => sendOk(res, await checkouts.get(cabinetOf(req), params.checkoutId)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/cabinet/checkouts/:checkoutId/cancel',
      tag,
      summary:
        'The shopper gave up: a checkout awaiting payment is cancelled (a payment that still arrives is owed back); any other is answered as it stands (a paid one goes on to its drop)',
      auth: 'device',
      params: CheckoutParams,
      body: CancelBody,
      response: CheckoutData,
      errors: [400, 401, 403, 404, 410, 422, 503],
    },
    auth({ leg: 'cabinet.checkouts.cancel', body: CancelBody }),
    async ({ params }, req, res) => sendOk(res, await checkouts.cancel(cabinetOf(req), params.checkoutId)),
  );

  return r;
}

/**
 * The payment processor's webhook for kiosk checkouts (signed as docs/ad-payments-webhook.md says): it reads the
 * raw body itself, so it is mounted before the JSON parser, as the ad payments' and the investment pool's are. With
 * Stripe the checkouts' events arrive at the ad payments webhook and are routed here by their webhook path (`router`).
 */
export function kioskPaymentsWebhookRoutes(kit: RouteKit, payments: KioskPaymentsService, router: PaymentEventRouter): Router {
  const r = Router();
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: KIOSK_CHECKOUT_WEBHOOK_PATH,
      tag: 'payments',
      summary: `Payment processor webhook for kiosk checkouts (pay by phone), ${PAYMENT_WEBHOOK_SIGNATURES}`,
      description: `Idempotent on the event id. \`payment_intent.succeeded\` for a checkout awaiting payment, with its amount and currency: the checkout is paid, an order is written paid with its payment and a pending remote dispense command for the aisle is enqueued (externalRef = the checkout id). A payment after the checkout expired or was cancelled is recorded as owed back (an order refund_owed, no command). \`payment_intent.expired\` (Stripe: checkout.session.expired) of the checkout's own intent ends a checkout still awaiting payment (expired); after a payment it changes nothing. Other types are recorded only. ${PAYMENT_WEBHOOK_ROUTING}`,
      auth: 'signature',
      body: AdPaymentWebhookBody,
      response: z.union([KioskWebhookResult, RoutedPaymentEvent]),
      errors: [503],
    },
    signedPaymentEvent((raw, headers) => payments.verifyWebhook(raw, headers), { path: KIOSK_CHECKOUT_WEBHOOK_PATH, router }),
    async (_input, _req, res) => sendOk(res, await payments.receivePayment(...paymentEventOf(res))),
  );
  return r;
}
