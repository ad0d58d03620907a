import express, { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { guard } from '../../http/guard.ts';
import { defineLegacyRoute } from '../../http/route.ts';
import { parseInput } from '../../http/validate.ts';
import { OrdersService } from '../orders/orders.service.ts';
import { PaymentsService } from './payments.service.ts';
import { PaymentsPage, PaymentsQuery, PaymentsSummary, PaymentsSummaryQuery, Terminal, WebhookEvent, WebhookResult } from './payments.schemas.ts';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './webhook-signature.ts';

function serviceOf(ctx: AppContext): PaymentsService {
  return new PaymentsService(ctx.database.db, new OrdersService(ctx.database.db), ctx.audit, ctx.clock, ctx.config.webhookSecret);
}

/** Payment reads (spec 1 §4.5). The spec names no scope; they are sales history, so orders:read. */
export function paymentsRoutes(ctx: AppContext): Router {
  const service = serviceOf(ctx);
  const r = Router();
  const docs = ctx.docs;
  const tag = 'payments';

  defineLegacyRoute(
    r,
    docs,
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
    ...guard(ctx, 'orders:read'),
    async (req, res) => {
      const q = parseInput(PaymentsQuery, req.query, 'query');
      sendOk(res, await service.list(principalOf(req), q));
    },
  );

  defineLegacyRoute(
    r,
    docs,
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
    ...guard(ctx, 'orders:read'),
    async (req, res) => {
      const q = parseInput(PaymentsSummaryQuery, req.query, 'query');
      sendOk(res, await service.summary(principalOf(req), q));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/payments/cashless/terminals',
      tag,
      summary: 'Which reader is on which machine and which account it feeds',
      auth: 'operator',
      scopes: ['orders:read'],
      response: z.array(Terminal),
    },
    ...guard(ctx, 'orders:read'),
    async (req, res) => {
      sendOk(res, await service.terminals(principalOf(req)));
    },
  );

  return r;
}

/**
 * The cashless provider webhook. It authenticates an HMAC over the exact bytes received, so it reads
 * the body itself (`express.raw`, any content type) and must be mounted before the global JSON parser.
 */
export function paymentsWebhookRoutes(ctx: AppContext): Router {
  const service = serviceOf(ctx);
  const r = Router();
  defineLegacyRoute(
    r,
    ctx.docs,
    {
      method: 'post',
      path: '/api/v1/payments/cashless/webhook',
      tag: 'payments',
      summary: 'Cashless provider webhook, signed: X-Vend-Timestamp + X-Vend-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">',
      auth: 'signature',
      body: WebhookEvent,
      response: WebhookResult,
      errors: [400, 401, 409, 422],
    },
    express.raw({ type: () => true, limit: '64kb' }),
    async (req, res) => {
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      sendOk(res, await service.receive({ rawBody, timestamp: req.headers[TIMESTAMP_HEADER], signature: req.headers[SIGNATURE_HEADER] }));
    },
  );
  return r;
}
