import { Router, type RequestHandler } from 'express';
import { sendOk } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { principalOf } from '../../http/authenticate.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { MachinesService } from './machines.service.ts';
import { ScreenBody } from './screen.schemas.ts';
import { ListQuery, Machine, MachineNoParams, MachinePage, RegisterBody, RetryGeocodeBody, UpdateBody, UpdatedMachine } from './machines.schemas.ts';

/** Machines API (spec 1 §4.3): authorise, hand the typed input to the service. */
export function machinesRoutes(kit: RouteKit, machines: MachinesService): Router {
  const r = Router();
  const tag = 'machines';

  defineRoute(
    r,
    kit,
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
    async ({ body }, req, res) => sendOk(res, await machines.register(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines',
      tag,
      summary: 'List machines (operators: their own; admin: all, filterable by operatorEmail)',
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:read'],
      query: ListQuery,
      response: MachinePage,
    },
    async ({ query }, req, res) => sendOk(res, await machines.list(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo',
      tag,
      summary: 'One machine, with lastSeen',
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:read'],
      params: MachineNoParams,
      response: Machine,
      errors: [401, 403, 404, 429],
    },
    async ({ params }, req, res) => sendOk(res, await machines.get(principalOf(req), params.machineNo)),
  );

  for (const method of ['patch', 'put'] as const) {
    defineRoute(
      r,
      kit,
      {
        method,
        path: '/api/v1/machines/:machineNo',
        tag,
        summary:
          method === 'patch'
            ? 'Edit a machine: only sent fields change (placement rules 1–6); changing salesTaxRate restates its un-remitted orders (taxRestatement)'
            : 'Alias of PATCH',
        auth: 'operator',
        groupSessions: true,
        scopes: ['machines:write'],
        params: MachineNoParams,
        body: UpdateBody,
        response: UpdatedMachine,
        errors: [400, 401, 403, 404, 422, 429],
      },
      async ({ params, body }, req, res) => sendOk(res, await machines.update(principalOf(req), params.machineNo, body)),
    );
  }

  // The body is optional: none (or an empty one) re-geocodes the stored address. A body the JSON
  // parser did not read (another content type) must not be mistaken for none, or a corrected address
  // sent as text/plain would be dropped and the stored one geocoded again.
  const jsonBodyOnly: RequestHandler[] = [
    (req, _res, next) => {
      if (req.body === undefined && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0))
        throw badRequest(undefined, [{ path: 'body', message: 'send the retry body as JSON (Content-Type: application/json)' }]);
      next();
    },
  ];
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/machines/:machineNo/geocode/retry',
      tag,
      summary: 'Geocode the stored address again, or a corrected one',
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:write'],
      params: MachineNoParams,
      body: RetryGeocodeBody,
      response: Machine,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    jsonBodyOnly,
    async ({ params, body }, req, res) => sendOk(res, await machines.retryGeocode(principalOf(req), params.machineNo, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: '/api/v1/machines/:machineNo/screen',
      tag,
      summary: 'Set the advertising screen block (replaces the stored one)',
      description:
        'Panel, resolution, venue, address, geo, operating hours, loop shape (default 8 × 15 s), impressions per play (default 1) and the OpenOOH 1.1 venue type (`GET /api/v1/dooh/venue-types`). The machine then appears in the DOOH inventory export.',
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:write'],
      params: MachineNoParams,
      body: ScreenBody,
      response: Machine,
      errors: [400, 401, 403, 404, 422, 429],
    },
    async ({ params, body }, req, res) => sendOk(res, await machines.setScreen(principalOf(req), params.machineNo, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'delete',
      path: '/api/v1/machines/:machineNo/screen',
      tag,
      summary: 'Clear the advertising screen block: the machine leaves the DOOH inventory (idempotent)',
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:write'],
      params: MachineNoParams,
      response: Machine,
      errors: [401, 403, 404, 429],
    },
    async ({ params }, req, res) => sendOk(res, await machines.clearScreen(principalOf(req), params.machineNo)),
  );

  return r;
}
