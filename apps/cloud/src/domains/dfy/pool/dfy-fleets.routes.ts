import { Router } from 'express';
import { z } from 'zod';
import { principalOf } from '../../../http/authenticate.ts';
import { sendOk } from '../../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../../http/route.ts';
import { PAYMENT_WEBHOOK_ROUTING, PAYMENT_WEBHOOK_SIGNATURES, paymentEventOf, signedPaymentEvent } from '../../ad-purchases/ad-purchases.routes.ts';
import { RoutedPaymentEvent, type PaymentEventRouter } from '../../ad-purchases/payment-event-router.ts';
import { AdPaymentWebhookBody } from '../../ad-purchases/test-processor.ts';
import { FleetPool, FleetWebhookResult, InvestBody, Investment } from './dfy-fleets.schemas.ts';
import { DFY_POOL_WEBHOOK_PATH, type DfyFleetsService } from './dfy-fleets.service.ts';

const P = '/api/v1/dfy/fleets';

/** The managed investment pool (spec 3 key rule 7): the caller's own pool only. */
export function dfyFleetsRoutes(kit: RouteKit, fleets: DfyFleetsService): Router {
  const r = Router();
  const tag = 'done-for-you';

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: P,
      auth: 'operator',
      scopes: ['machines:write'],
      tag,
      summary: 'Confirmed investment into your managed pool (50–250,000 USD), charged through the payment processor',
      description:
        'Answers the investment awaiting payment and the checkoutUrl where it is paid. Once the processor reports the payment, the capital lands in your pool and, whenever the balance covers the target model price, a fully managed deal is funded and the price deducted; the remainder waits.',
      body: InvestBody,
      response: Investment,
      errors: [503],
    },
    async ({ body }, req, res) => sendOk(res, await fleets.invest(principalOf(req), body)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: P,
      auth: 'operator',
      scopes: ['machines:read'],
      tag,
      summary: 'Your pool: balance, total invested, machines funded, fee percentage and the history of investments and allocations',
      response: FleetPool,
    },
    async (_i, req, res) => sendOk(res, await fleets.pool(principalOf(req))),
  );
  return r;
}

/**
 * The payment processor's webhook for pool investments (docs/dfy.md): the ad payments webhook's scheme and key
 * (the same processor). It reads the raw body itself, so it is mounted before the global JSON parser. With Stripe
 * the pool's events arrive at the ad payments webhook and are routed here by their webhook path (`router`).
 */
export function dfyFleetsWebhookRoutes(kit: RouteKit, fleets: DfyFleetsService, router: PaymentEventRouter): Router {
  const r = Router();
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: DFY_POOL_WEBHOOK_PATH,
      tag: 'done-for-you',
      summary: `Payment processor webhook for pool investments, ${PAYMENT_WEBHOOK_SIGNATURES}`,
      description: `Idempotent on the event id. \`payment_intent.succeeded\` (data.purchaseId: the investment id) pays the investment, credits the pool and funds deals while the balance covers the target price; other types are recorded only. ${PAYMENT_WEBHOOK_ROUTING}`,
      auth: 'signature',
      body: AdPaymentWebhookBody,
      response: z.union([FleetWebhookResult, RoutedPaymentEvent]),
      errors: [503],
    },
    signedPaymentEvent((raw, headers) => fleets.verifyWebhook(raw, headers), { path: DFY_POOL_WEBHOOK_PATH, router }),
    async (_input, _req, res) => sendOk(res, await fleets.receivePayment(...paymentEventOf(res))),
  );
  return r;
}
