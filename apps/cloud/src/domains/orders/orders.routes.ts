import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { guard } from '../../http/guard.ts';
import { defineLegacyRoute } from '../../http/route.ts';
import { parseInput } from '../../http/validate.ts';
import { OrdersService } from './orders.service.ts';
import { Order, OrderParams, OrdersPage, OrdersQuery, OrdersSummary, SummaryQuery } from './orders.schemas.ts';

/** Orders (spec 1 §4.5), all under orders:read. Operators cannot create sales; cabinets and the payment webhook do. */
export function ordersRoutes(ctx: AppContext): Router {
  const service = new OrdersService(ctx.database.db);
  const r = Router();
  const docs = ctx.docs;
  const tag = 'orders';

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/orders',
      tag,
      summary: 'Orders, newest first, paged',
      auth: 'operator',
      scopes: ['orders:read'],
      query: OrdersQuery,
      response: OrdersPage,
      errors: [400, 401, 403, 404, 422, 429],
    },
    ...guard(ctx, 'orders:read'),
    async (req, res) => {
      const q = parseInput(OrdersQuery, req.query, 'query');
      sendOk(res, await service.list(principalOf(req), q));
    },
  );

  // Registered before /:orderNumber so "summary" is never read as an order number.
  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/orders/summary',
      tag,
      summary: 'Revenue rollup: count, gross, refunded, tax, net; by channel, pay status and machine',
      auth: 'operator',
      scopes: ['orders:read'],
      query: SummaryQuery,
      response: OrdersSummary,
      errors: [400, 401, 403, 404, 422, 429],
    },
    ...guard(ctx, 'orders:read'),
    async (req, res) => {
      const q = parseInput(SummaryQuery, req.query, 'query');
      sendOk(res, await service.summary(principalOf(req), q));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/orders/:orderNumber',
      tag,
      summary: 'One order',
      auth: 'operator',
      scopes: ['orders:read'],
      params: OrderParams,
      response: Order,
      errors: [400, 401, 403, 404, 429],
    },
    ...guard(ctx, 'orders:read'),
    async (req, res) => {
      const { orderNumber } = parseInput(OrderParams, req.params, 'params');
      sendOk(res, await service.get(principalOf(req), orderNumber));
    },
  );

  return r;
}
