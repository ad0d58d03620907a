import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { sendOk } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { guard } from '../../http/guard.ts';
import { principalOf } from '../../http/authenticate.ts';
import { parseInput } from '../../http/validate.ts';
import { defineRoute } from '../../http/route.ts';
import { MachinesService } from './machines.service.ts';
import { ListQuery, Machine, MachineNoParams, MachinePage, RegisterBody, RetryGeocodeBody, UpdateBody } from './machines.schemas.ts';

/** Machines API (spec 1 §4.3): parse, authorise, hand to the service. */
export function machinesRoutes(ctx: AppContext): Router {
  const service = new MachinesService(ctx);
  const r = Router();
  const docs = ctx.docs;
  const tag = 'machines';

  defineRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/api/v1/machines/register',
      tag,
      summary: 'Register a machine by serial, or claim an unclaimed one',
      auth: 'operator',
      scopes: ['machines:write'],
      body: RegisterBody,
      response: Machine,
      errors: [400, 401, 403, 409, 422, 429],
    },
    ...guard(ctx, 'machines:write'),
    async (req, res) => {
      const body = parseInput(RegisterBody, req.body, 'body');
      sendOk(res, await service.register(principalOf(req), body));
    },
  );

  defineRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines',
      tag,
      summary: 'List machines (operators: their own; admin: all, filterable by operatorEmail)',
      auth: 'operator',
      scopes: ['machines:read'],
      query: ListQuery,
      response: MachinePage,
    },
    ...guard(ctx, 'machines:read'),
    async (req, res) => {
      const q = parseInput(ListQuery, req.query, 'query');
      sendOk(res, await service.list(principalOf(req), q));
    },
  );

  defineRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo',
      tag,
      summary: 'One machine, with lastSeen',
      auth: 'operator',
      scopes: ['machines:read'],
      params: MachineNoParams,
      response: Machine,
      errors: [401, 403, 404, 429],
    },
    ...guard(ctx, 'machines:read'),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.get(principalOf(req), machineNo));
    },
  );

  for (const method of ['patch', 'put'] as const) {
    defineRoute(
      r,
      docs,
      {
        method,
        path: '/api/v1/machines/:machineNo',
        tag,
        summary: method === 'patch' ? 'Edit a machine: only sent fields change (placement rules 1–6)' : 'Alias of PATCH',
        auth: 'operator',
        scopes: ['machines:write'],
        params: MachineNoParams,
        body: UpdateBody,
        response: Machine,
        errors: [400, 401, 403, 404, 422, 429],
      },
      ...guard(ctx, 'machines:write'),
      async (req, res) => {
        const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
        const body = parseInput(UpdateBody, req.body, 'body');
        sendOk(res, await service.update(principalOf(req), machineNo, body));
      },
    );
  }

  defineRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/api/v1/machines/:machineNo/geocode/retry',
      tag,
      summary: 'Geocode the stored address again, or a corrected one',
      auth: 'operator',
      scopes: ['machines:write'],
      params: MachineNoParams,
      body: RetryGeocodeBody,
      response: Machine,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    ...guard(ctx, 'machines:write'),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      // The body is optional: no body (or an empty one) re-geocodes the stored address. A body the
      // JSON parser did not read (another content type) must not be mistaken for none, or a corrected
      // address sent as text/plain would be dropped and the stored one geocoded again.
      if (req.body === undefined && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0))
        throw badRequest(undefined, [{ path: 'body', message: 'send the retry body as JSON (Content-Type: application/json)' }]);
      const body = parseInput(RetryGeocodeBody, req.body ?? {}, 'body');
      sendOk(res, await service.retryGeocode(principalOf(req), machineNo, body));
    },
  );

  return r;
}
