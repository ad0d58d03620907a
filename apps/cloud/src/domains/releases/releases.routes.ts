import { Router } from 'express';
import { ReleaseManifest } from '@vend/protocol';
import type { AppContext } from '../../context.ts';
import { sendOk } from '../../http/envelope.ts';
import { adminGuard, guard } from '../../http/guard.ts';
import { principalOf } from '../../http/authenticate.ts';
import { parseInput } from '../../http/validate.ts';
import { defineLegacyRoute } from '../../http/route.ts';
import { ReleasesService } from './releases.service.ts';
import {
  FleetData,
  FleetQuery,
  HoldBody,
  MachineAgentData,
  MachineNoParams,
  PinBody,
  PublishData,
  ReleaseList,
  RolloutBody,
  RolloutData,
  RolloutsData,
  RolloutsQuery,
  UnpinData,
} from './releases.schemas.ts';

/**
 * Agent releases, the rollout and pins (spec 2 §4.3, §4.5). Admin only, except the agent fleet view,
 * which operators may read for their own cabinets. Routes parse and authorise; rules live in
 * ReleasesService (and the pure releases.rules.ts / offer.ts).
 */
export function releasesRoutes(ctx: AppContext): Router {
  const service = new ReleasesService(ctx);
  const r = Router();
  const docs = ctx.docs;
  const tag = 'agent releases';
  const adminErrors = [400, 401, 403, 404, 409, 422, 429];

  defineLegacyRoute(
    r,
    docs,
    { method: 'get', path: '/api/v1/agent/releases', tag, summary: 'The release registry, in publish order', auth: 'admin', response: ReleaseList },
    ...adminGuard(ctx),
    async (_req, res) => {
      sendOk(res, await service.list());
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/api/v1/agent/releases',
      tag,
      summary:
        'Publish a signed release manifest (full admin). The same version with the same signed bytes answers the existing record (created: false); publishing offers it to nobody until a rollout or pin names it',
      auth: 'admin',
      body: ReleaseManifest,
      response: PublishData,
      errors: adminErrors,
    },
    ...adminGuard(ctx),
    async (req, res) => {
      const manifest = parseInput(ReleaseManifest, req.body, 'body');
      sendOk(res, await service.publish(principalOf(req), manifest));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    { method: 'get', path: '/api/v1/agent/rollout', tag, summary: 'The fleet-wide rollout (null when none)', auth: 'admin', response: RolloutData.nullable() },
    ...adminGuard(ctx),
    async (_req, res) => {
      sendOk(res, await service.rollout());
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'put',
      path: '/api/v1/agent/rollout',
      tag,
      summary: 'Set the one fleet-wide rollout: a published target, phase, canary machine codes, percent of the rest, allowDowngrade (rollback), note',
      auth: 'admin',
      body: RolloutBody,
      response: RolloutData,
      errors: adminErrors,
    },
    ...adminGuard(ctx),
    async (req, res) => {
      sendOk(res, await service.putRollout(principalOf(req), parseInput(RolloutBody, req.body, 'body')));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/api/v1/agent/rollout/hold',
      tag,
      summary: 'Hold the rollout: upgraded cabinets keep the version, nobody else is offered it (409 with none in flight)',
      auth: 'admin',
      body: HoldBody,
      response: RolloutData,
      errors: adminErrors,
    },
    ...adminGuard(ctx),
    async (req, res) => {
      const { reason } = parseInput(HoldBody, req.body, 'body');
      sendOk(res, await service.hold(principalOf(req), reason));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/api/v1/agent/rollout/resume',
      tag,
      summary: 'Resume a held rollout (409 with none in flight)',
      auth: 'admin',
      response: RolloutData,
      errors: [401, 403, 409, 429],
    },
    ...adminGuard(ctx),
    async (req, res) => {
      sendOk(res, await service.resume(principalOf(req)));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/agent/fleet',
      tag,
      summary: 'The agent fleet view: target, counts, versions, and one page of machines (operators: their own cabinets)',
      auth: 'operator',
      scopes: ['machines:read'],
      query: FleetQuery,
      response: FleetData,
    },
    ...guard(ctx, 'machines:read'),
    async (req, res) => {
      const q = parseInput(FleetQuery, req.query, 'query');
      sendOk(res, await service.fleet(principalOf(req), q.page, q.size));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/rollouts',
      tag,
      summary:
        "On-machine app rollouts: the rollout in flight with its progress counted now over your cabinets (admins: the fleet), and for admins the rollout sweep's fleet-wide progress snapshots, newest first, paged",
      auth: 'operator',
      scopes: ['machines:read'],
      query: RolloutsQuery,
      response: RolloutsData,
    },
    ...guard(ctx, 'machines:read'),
    async (req, res) => {
      const q = parseInput(RolloutsQuery, req.query, 'query');
      sendOk(res, await service.rollouts(principalOf(req), q));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/agent',
      tag,
      summary: "A cabinet's agent: version, pin, the offer it gets now (and why), deferral and blocked blocks",
      auth: 'admin',
      params: MachineNoParams,
      response: MachineAgentData,
    },
    ...adminGuard(ctx),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.machineAgent(machineNo));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/api/v1/machines/:machineNo/agent/pin',
      tag,
      summary: 'Pin a cabinet to a published version (outranks the rollout both ways); reason of 4+ characters',
      auth: 'admin',
      params: MachineNoParams,
      body: PinBody,
      response: MachineAgentData,
      errors: [400, 401, 403, 404, 410, 422, 429],
    },
    ...adminGuard(ctx),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      const body = parseInput(PinBody, req.body, 'body');
      sendOk(res, await service.pin(principalOf(req), machineNo, body));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'delete',
      path: '/api/v1/machines/:machineNo/agent/pin',
      tag,
      summary: "Remove a cabinet's pin (removed: false when it had none)",
      auth: 'admin',
      params: MachineNoParams,
      response: UnpinData,
    },
    ...adminGuard(ctx),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.unpin(principalOf(req), machineNo));
    },
  );

  return r;
}
