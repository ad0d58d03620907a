import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { RestockService } from './restock.service.ts';
import { CancelBody, CompleteBody, FleetPickList, PickListQuery, PlanBody, RestockRun, RestockRunPage, RunListQuery, RunParams } from './restock.schemas.ts';

/** Restock runs (spec 1 §4.9; docs/decisions/restock.md): reads need inventory:read, writes inventory:write. */
export function restockRoutes(kit: RouteKit, restock: RestockService): Router {
  const r = Router();
  const tag = 'restock';

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/restock',
      tag,
      summary:
        "Plan a restock run of a machine in a crew's fleet (the given crew, else the caller's oldest crew over it); the pick list comes from par levels. 409 when the machine already has an open run",
      auth: 'operator',
      scopes: ['inventory:write'],
      body: PlanBody,
      response: RestockRun,
      errors: [404, 409],
      errorExamples: { 404: 'Machine not found', 409: 'Machine SBX-ALICE-0001 already has an open restock run: rst_… (planned)' },
    },
    async ({ body }, req, res) => sendOk(res, await restock.plan(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/restock',
      tag,
      summary: "Restock runs of the caller's crews, newest first",
      auth: 'operator',
      scopes: ['inventory:read'],
      query: RunListQuery,
      response: RestockRunPage,
    },
    async ({ query }, req, res) => sendOk(res, await restock.list(principalOf(req), query)),
  );

  // before /:runId, which would read "pick-list" as a run id
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/restock/pick-list',
      tag,
      summary:
        "What to load on the truck across the caller's machines: per product the units to bring (par-level picks, faulted aisles excluded) and each machine's aisles; machineNo narrows it to one machine",
      auth: 'operator',
      groupSessions: true,
      scopes: ['inventory:read'],
      query: PickListQuery,
      response: FleetPickList,
      errors: [404],
      errorExamples: { 404: 'Machine not found' },
    },
    async ({ query }, req, res) => sendOk(res, await restock.pickList(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/restock/:runId',
      tag,
      summary: "One restock run (members of the run's crew only; anyone else 404)",
      auth: 'operator',
      scopes: ['inventory:read'],
      params: RunParams,
      response: RestockRun,
      errors: [404],
      errorExamples: { 404: 'Restock run not found' },
    },
    async ({ params }, req, res) => sendOk(res, await restock.get(principalOf(req), params.runId)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/restock/:runId/start',
      tag,
      summary: 'Start a planned run (any member of its crew); 409 from any other status',
      auth: 'operator',
      scopes: ['inventory:write'],
      params: RunParams,
      response: RestockRun,
      errors: [404, 409],
      errorExamples: { 404: 'Restock run not found', 409: 'Cannot start a restock run that is done' },
    },
    async ({ params }, req, res) => sendOk(res, await restock.start(principalOf(req), params.runId)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/restock/:runId/complete',
      tag,
      summary:
        'Complete a planned or started run (any member): each listed aisle takes what was filled, clamped at maxStock, exactly once; aisles not listed keep their stock. 409 when already done or cancelled',
      auth: 'operator',
      scopes: ['inventory:write'],
      params: RunParams,
      body: CompleteBody,
      response: RestockRun,
      errors: [404, 409],
      errorExamples: { 404: 'Restock run not found', 409: 'Cannot complete a restock run that is done' },
    },
    async ({ params, body }, req, res) => sendOk(res, await restock.complete(principalOf(req), params.runId, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/restock/:runId/cancel',
      tag,
      summary: "Cancel a planned or started run (its creator or the crew's owners and admins; other members 403)",
      auth: 'operator',
      scopes: ['inventory:write'],
      params: RunParams,
      body: CancelBody,
      response: RestockRun,
      errors: [403, 404, 409],
      errorExamples: { 404: 'Restock run not found', 409: 'Cannot cancel a restock run that is done' },
    },
    async ({ params, body }, req, res) => sendOk(res, await restock.cancel(principalOf(req), params.runId, body)),
  );
  return r;
}
