import { Router } from 'express';
import { principalOf } from '../../../http/authenticate.ts';
import { sendOk } from '../../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../../http/route.ts';
import type { DfyInventoryService } from './dfy-inventory.service.ts';
import { ApproveBody, InventoryTick, OrderParams, ReceiveBody, Suggestions, SuggestionsQuery, SupplierOrder } from './dfy-inventory.schemas.ts';

const P = '/api/v1/dfy/inventory';

/** DFY inventory automation (spec 3 key rule 6): the caller's own machines and supplier orders only (404 otherwise). */
export function dfyInventoryRoutes(kit: RouteKit, inventory: DfyInventoryService): Router {
  const r = Router();
  const tag = 'done-for-you';
  const R = { auth: 'operator' as const, scopes: ['machines:read' as const], tag };
  const W = { auth: 'operator' as const, scopes: ['machines:write' as const], tag };

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/tick`,
      ...W,
      summary: 'Order refills for live DFY machines: aisles at or below 25% of max become a supplier order and a dfy_refill work order',
      response: InventoryTick,
    },
    async (_i, req, res) => sendOk(res, await inventory.tick(principalOf(req))),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: `${P}/suggestions`,
      ...R,
      summary: 'What a refill of one machine would order (suggestions only: nothing is written)',
      query: SuggestionsQuery,
      response: Suggestions,
      errors: [404, 409],
    },
    async ({ query }, req, res) => sendOk(res, await inventory.suggestions(principalOf(req), query.machineNo)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/orders/:id/approve`,
      ...W,
      summary: 'Confirmed approval of a supplier order over the monthly cap (resolves inventory_cap)',
      params: OrderParams,
      body: ApproveBody,
      response: SupplierOrder,
      errors: [404, 409],
    },
    async ({ params }, req, res) => sendOk(res, await inventory.approve(principalOf(req), params.id)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/orders/:id/receive`,
      ...W,
      summary: 'Receive a supplier order: restocks the aisles, completes the refill work order, settles the estimate to actual cost',
      params: OrderParams,
      body: ReceiveBody,
      response: SupplierOrder,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await inventory.receive(principalOf(req), params.id, body)),
  );
  return r;
}
