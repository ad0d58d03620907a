import { Router, type RequestHandler } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { PagingQuery } from '../../http/paging.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { InventoryService } from './inventory.service.ts';
import {
  AisleParams,
  AislePatchBody,
  LotsPage,
  LotsQuery,
  MachineInventory,
  MachineParams,
  PurchaseBody,
  PurchaseOrder,
  PurchasesPage,
  RestockBody,
  RestockResult,
  UpdatedAisle,
} from './inventory.schemas.ts';
import { z } from 'zod';

/** Inventory (spec 1 §4.4). Reads need inventory:read, writes inventory:write. */
export function inventoryRoutes(kit: RouteKit, service: InventoryService): Router {
  const r = Router();
  const tag = 'inventory';

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/inventory',
      tag,
      summary: "Aisles of all the caller's machines, grouped per machine",
      auth: 'operator',
      groupSessions: true,
      scopes: ['inventory:read'],
      response: z.array(MachineInventory),
    },
    async (_input, req, res) => sendOk(res, await service.all(principalOf(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/inventory/lots',
      tag,
      summary: 'FIFO cost layers, oldest first',
      auth: 'operator',
      scopes: ['inventory:read'],
      query: LotsQuery,
      response: LotsPage,
    },
    async ({ query }, req, res) => sendOk(res, await service.lots(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/inventory/machines/:machineNo',
      tag,
      summary: 'Aisles of one machine',
      auth: 'operator',
      groupSessions: true,
      scopes: ['inventory:read'],
      params: MachineParams,
      response: MachineInventory,
      errors: [401, 403, 404, 429],
    },
    async ({ params }, req, res) => sendOk(res, await service.machine(principalOf(req), params.machineNo)),
  );

  // The body is optional: none at all restocks every aisle. A body the JSON parser did not read
  // (another content type) must not be mistaken for none.
  const jsonBodyOnly: RequestHandler[] = [
    (req, _res, next) => {
      if (req.body === undefined && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0))
        throw badRequest(undefined, [{ path: 'body', message: 'send the restock body as JSON (Content-Type: application/json)' }]);
      next();
    },
  ];
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/inventory/machines/:machineNo/restock',
      tag,
      summary: 'Set currentStock = maxStock for every aisle, or only the listed ones',
      auth: 'operator',
      groupSessions: true,
      scopes: ['inventory:write'],
      params: MachineParams,
      body: RestockBody,
      response: RestockResult,
      errors: [400, 401, 403, 404, 422, 429],
    },
    jsonBodyOnly,
    async ({ params, body }, req, res) => sendOk(res, await service.restock(principalOf(req), params.machineNo, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: '/api/v1/inventory/machines/:machineNo/aisles/:aisleNo',
      tag,
      summary: 'Change an aisle: only the sent fields change',
      auth: 'operator',
      groupSessions: true,
      scopes: ['inventory:write'],
      params: AisleParams,
      body: AislePatchBody,
      response: UpdatedAisle,
      errors: [400, 401, 403, 404, 422, 429],
    },
    async ({ params, body }, req, res) => sendOk(res, await service.updateAisle(principalOf(req), params.machineNo, params.aisleNo, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/purchases',
      tag,
      summary: "Receive a purchase order: one FIFO cost layer per line, for the caller's operator",
      description:
        'FIFO cost is zero until a purchase order is received. `unitCostUsd` has at most two decimals. A `poRef` the operator already received is 409, nothing written.',
      auth: 'operator',
      scopes: ['inventory:write'],
      body: PurchaseBody,
      response: PurchaseOrder,
      errors: [400, 401, 403, 409, 422, 429],
    },
    async ({ body }, req, res) => sendOk(res, await service.receivePurchase(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/purchases',
      tag,
      summary: 'Received purchase orders, newest first, each with its layers',
      auth: 'operator',
      scopes: ['inventory:read'],
      query: PagingQuery,
      response: PurchasesPage,
    },
    async ({ query }, req, res) => sendOk(res, await service.purchases(principalOf(req), query)),
  );

  return r;
}
