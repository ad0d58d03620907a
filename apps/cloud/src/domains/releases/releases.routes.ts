import { Router } from 'express';
import { ReleaseManifest } from '@vend/protocol';
import { sendOk } from '../../http/envelope.ts';
import { principalOf } from '../../http/authenticate.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { AgentFleetService } from './agent-fleet.service.ts';
import type { ReleaseRegistryService } from './release-registry.service.ts';
import type { RolloutService } from './rollout.service.ts';
import type { UpgradeOffersService } from './upgrade-offers.service.ts';
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
 * which operators may read for their own cabinets. Routes authorise and hand the typed input to
 * the services (and the pure releases.rules.ts / offer.ts).
 */
export function releasesRoutes(
  kit: RouteKit,
  registry: ReleaseRegistryService,
  rollouts: RolloutService,
  offers: UpgradeOffersService,
  fleet: AgentFleetService,
): Router {
  const r = Router();
  const tag = 'agent releases';
  const adminErrors = [400, 401, 403, 404, 409, 422, 429];

  defineRoute(
    r,
    kit,
    { method: 'get', path: '/api/v1/agent/releases', tag, summary: 'The release registry, in publish order', auth: 'admin', response: ReleaseList },
    async (_input, _req, res) => sendOk(res, await registry.list()),
  );

  defineRoute(
    r,
    kit,
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
    async ({ body }, req, res) => sendOk(res, await registry.publish(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    { method: 'get', path: '/api/v1/agent/rollout', tag, summary: 'The fleet-wide rollout (null when none)', auth: 'admin', response: RolloutData.nullable() },
    async (_input, _req, res) => sendOk(res, await rollouts.rollout()),
  );

  defineRoute(
    r,
    kit,
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
    async ({ body }, req, res) => sendOk(res, await rollouts.putRollout(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
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
    async ({ body }, req, res) => sendOk(res, await rollouts.hold(principalOf(req), body.reason)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/agent/rollout/resume',
      tag,
      summary: 'Resume a held rollout (409 with none in flight)',
      auth: 'admin',
      response: RolloutData,
      errors: [401, 403, 409, 429],
    },
    async (_input, req, res) => sendOk(res, await rollouts.resume(principalOf(req))),
  );

  defineRoute(
    r,
    kit,
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
    async ({ query }, req, res) => sendOk(res, await fleet.fleet(principalOf(req), query.page, query.size)),
  );

  defineRoute(
    r,
    kit,
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
    async ({ query }, req, res) => sendOk(res, await fleet.rollouts(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/agent',
      tag,
      summary: "A cabinet's agent: version, pin, the offer it gets now (and why), deferral and blocked blocks",
      auth: 'admin',
      params: MachineNoParams,
      response: MachineAgentData,
      errors: [404],
    },
    async ({ params }, _req, res) => sendOk(res, await offers.machineAgent(params.machineNo)),
  );

  defineRoute(
    r,
    kit,
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
    async ({ params, body }, req, res) => sendOk(res, await rollouts.pin(principalOf(req), params.machineNo, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'delete',
      path: '/api/v1/machines/:machineNo/agent/pin',
      tag,
      summary: "Remove a cabinet's pin (removed: false when it had none)",
      auth: 'admin',
      params: MachineNoParams,
      response: UnpinData,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await rollouts.unpin(principalOf(req), params.machineNo)),
  );

  return r;
}
