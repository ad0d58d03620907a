import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { OrdersService } from './orders.service.ts';
import { Order, OrderParams, OrdersPage, OrdersQuery, OrdersSummary, SummaryQuery } from './orders.schemas.ts';

/** Orders (spec 1 §4.5), all under orders:read. Operators cannot create sales; cabinets and the payment webhook do. */
export function ordersRoutes(kit: RouteKit, service: OrdersService): Router {
  const r = Router();
  const tag = 'orders';

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/orders',
      tag,
      summary: 'Orders, newest first, paged',
      auth: 'operator',
      groupSessions: true,
      scopes: ['orders:read'],
      query: OrdersQuery,
      response: OrdersPage,
      errors: [400, 401, 403, 404, 422, 429],
    },
    async ({ query }, req, res) => sendOk(res, await service.list(principalOf(req), query)),
  );

  // Registered before /:orderNumber so "summary" is never read as an order number.
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/orders/summary',
      tag,
      summary: 'Revenue rollup: count, gross, refunded, tax, net; by channel, pay status and machine',
      auth: 'operator',
      groupSessions: true,
      scopes: ['orders:read'],
      query: SummaryQuery,
      response: OrdersSummary,
      errors: [400, 401, 403, 404, 422, 429],
    },
    async ({ query }, req, res) => sendOk(res, await service.summary(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/orders/:orderNumber',
      tag,
      summary: 'One order',
      auth: 'operator',
      groupSessions: true,
      scopes: ['orders:read'],
      params: OrderParams,
      response: Order,
      errors: [400, 401, 403, 404, 429],
    },
    async ({ params }, req, res) => sendOk(res, await service.get(principalOf(req), params.orderNumber)),
  );

  return r;
}
