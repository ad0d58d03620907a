import express, { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { PaymentsService } from './payments.service.ts';
import { PaymentsPage, PaymentsQuery, PaymentsSummary, PaymentsSummaryQuery, Terminal, WebhookEvent, WebhookResult } from './payments.schemas.ts';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../http/webhook-signature.ts';

/** Payment reads (spec 1 §4.5). The spec names no scope; they are sales history, so orders:read. */
export function paymentsRoutes(kit: RouteKit, service: PaymentsService): Router {
  const r = Router();
  const tag = 'payments';

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/payments',
      tag,
      summary: 'Every cashless transaction with terminal, card brand, last four and settlement account; newest first',
      auth: 'operator',
      scopes: ['orders:read'],
      query: PaymentsQuery,
      response: PaymentsPage,
      errors: [400, 401, 403, 404, 422, 429],
    },
    async ({ query }, req, res) => sendOk(res, await service.list(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/payments/summary',
      tag,
      summary: 'Cashless totals grouped by settlement account',
      auth: 'operator',
      scopes: ['orders:read'],
      query: PaymentsSummaryQuery,
      response: PaymentsSummary,
      errors: [400, 401, 403, 404, 422, 429],
    },
    async ({ query }, req, res) => sendOk(res, await service.summary(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/payments/cashless/terminals',
      tag,
      summary: 'Which reader is on which machine and which account it feeds',
      auth: 'operator',
      scopes: ['orders:read'],
      response: z.array(Terminal),
    },
    async (_input, req, res) => sendOk(res, await service.terminals(principalOf(req))),
  );

  return r;
}

/**
 * The cashless provider webhook. It authenticates an HMAC over the exact bytes received, so it reads
 * the body itself (`express.raw`, any content type) and must be mounted before the global JSON parser.
 * The signature is judged (401) and the bytes read as JSON (400) in the guard chain, before the typed
 * route parses the event (400 / 422).
 */
export function paymentsWebhookRoutes(kit: RouteKit, service: PaymentsService): Router {
  const r = Router();
  const signed: RequestHandler = (req, res, next) => {
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const payload = service.verifyWebhook({ rawBody, timestamp: req.headers[TIMESTAMP_HEADER], signature: req.headers[SIGNATURE_HEADER] });
    res.locals['webhookText'] = payload.text;
    req.body = payload.json;
    next();
  };
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/payments/cashless/webhook',
      tag: 'payments',
      summary: 'Cashless provider webhook, signed: X-Vend-Timestamp + X-Vend-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">',
      auth: 'signature',
      body: WebhookEvent,
      response: WebhookResult,
      errors: [400, 401, 404, 409, 422],
    },
    [express.raw({ type: () => true, limit: '64kb' }), signed],
    async ({ body }, _req, res) => sendOk(res, await service.receive(body, res.locals['webhookText'] as string)),
  );
  return r;
}
