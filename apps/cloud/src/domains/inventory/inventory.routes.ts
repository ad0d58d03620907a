import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { guard } from '../../http/guard.ts';
import { defineLegacyRoute } from '../../http/route.ts';
import { parseInput } from '../../http/validate.ts';
import { InventoryService } from './inventory.service.ts';
import {
  AisleParams,
  AislePatchBody,
  LotsPage,
  LotsQuery,
  MachineInventory,
  MachineParams,
  RestockBody,
  RestockResult,
  UpdatedAisle,
} from './inventory.schemas.ts';
import { z } from 'zod';

/** Inventory (spec 1 §4.4). Reads need inventory:read, writes inventory:write. */
export function inventoryRoutes(ctx: AppContext): Router {
  const service = new InventoryService(ctx.database.db, ctx.database.dialect, ctx.audit);
  const r = Router();
  const docs = ctx.docs;
  const tag = 'inventory';

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/inventory',
      tag,
      summary: "Aisles of all the caller's machines, grouped per machine",
      auth: 'operator',
      scopes: ['inventory:read'],
      response: z.array(MachineInventory),
    },
    ...guard(ctx, 'inventory:read'),
    async (req, res) => {
      sendOk(res, await service.all(principalOf(req)));
    },
  );

  defineLegacyRoute(
    r,
    docs,
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
    ...guard(ctx, 'inventory:read'),
    async (req, res) => {
      const q = parseInput(LotsQuery, req.query, 'query');
      sendOk(res, await service.lots(principalOf(req), q));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/inventory/machines/:machineNo',
      tag,
      summary: 'Aisles of one machine',
      auth: 'operator',
      scopes: ['inventory:read'],
      params: MachineParams,
      response: MachineInventory,
      errors: [401, 403, 404, 429],
    },
    ...guard(ctx, 'inventory:read'),
    async (req, res) => {
      const { machineNo } = parseInput(MachineParams, req.params, 'params');
      sendOk(res, await service.machine(principalOf(req), machineNo));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/api/v1/inventory/machines/:machineNo/restock',
      tag,
      summary: 'Set currentStock = maxStock for every aisle, or only the listed ones',
      auth: 'operator',
      scopes: ['inventory:write'],
      params: MachineParams,
      body: RestockBody,
      response: RestockResult,
      errors: [400, 401, 403, 404, 422, 429],
    },
    ...guard(ctx, 'inventory:write'),
    async (req, res) => {
      const { machineNo } = parseInput(MachineParams, req.params, 'params');
      // The body is optional: none at all restocks every aisle. A body the JSON parser did not read
      // (another content type) must not be mistaken for none.
      if (req.body === undefined && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0))
        throw badRequest(undefined, [{ path: 'body', message: 'send the restock body as JSON (Content-Type: application/json)' }]);
      const body = parseInput(RestockBody, req.body ?? {}, 'body');
      sendOk(res, await service.restock(principalOf(req), machineNo, body));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'put',
      path: '/api/v1/inventory/machines/:machineNo/aisles/:aisleNo',
      tag,
      summary: 'Change an aisle: only the sent fields change',
      auth: 'operator',
      scopes: ['inventory:write'],
      params: AisleParams,
      body: AislePatchBody,
      response: UpdatedAisle,
      errors: [400, 401, 403, 404, 422, 429],
    },
    ...guard(ctx, 'inventory:write'),
    async (req, res) => {
      const { machineNo, aisleNo } = parseInput(AisleParams, req.params, 'params');
      const patch = parseInput(AislePatchBody, req.body, 'body');
      sendOk(res, await service.updateAisle(principalOf(req), machineNo, aisleNo, patch));
    },
  );

  return r;
}
