import { Router } from 'express';
import { sendOk } from '../../http/envelope.ts';
import { principalOf } from '../../http/authenticate.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { PagingQuery } from '../../http/paging.ts';
import type { CredentialAdminService } from './credential-admin.service.ts';
import type { CredentialFleetService } from './credential-fleet.service.ts';
import type { EnrolmentModesService } from './enrolment-modes.service.ts';
import {
  ArmBody,
  ArmData,
  ConflictView,
  DisarmData,
  FleetData,
  FleetQuery,
  MachineModeBody,
  MachineModeData,
  MachineNoParams,
  ModeBody,
  ModeData,
  ResetBody,
  ResetData,
  RevokeBody,
  RevokeData,
  RotateData,
  SuspicionView,
  UnclaimableView,
  pageOf,
} from './device-credentials.schemas.ts';

/**
 * Administration of per-cabinet device credentials (spec 2 §4.3).
 * The scope each route's doc names is checked before anything else (403); which machine the caller
 * may act on is decided in the service (owner, admin, or a factory key for an unowned cabinet of its plant).
 */
export function deviceCredentialsRoutes(kit: RouteKit, admin: CredentialAdminService, modes: EnrolmentModesService, fleet: CredentialFleetService): Router {
  const r = Router();
  const tag = 'device credentials';
  const machinePath = (suffix: string) => `/api/v1/machines/:machineNo/${suffix}`;

  // Fleet-wide routes first: `/api/v1/machines/device-credentials/...` must never be read as a machine number.
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/device-credentials/fleet',
      tag,
      summary: 'Credential fleet view',
      auth: 'admin',
      query: FleetQuery,
      response: FleetData,
    },
    async ({ query }, req, res) => sendOk(res, await fleet.fleet(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/device-credentials/suspicions',
      tag,
      summary: 'Copy suspicions: cabinets that echoed a stale x-device-witness token',
      auth: 'admin',
      query: PagingQuery,
      response: pageOf(SuspicionView),
    },
    async ({ query }, req, res) => sendOk(res, await fleet.suspicions(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: '/api/v1/machines/device-credentials/mode',
      tag,
      summary: 'Fleet-wide enrolment mode (open, armed, closed)',
      auth: 'admin',
      body: ModeBody,
      response: ModeData,
    },
    async ({ body }, req, res) => sendOk(res, await modes.setFleetMode(principalOf(req), body.mode)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/identity/conflicts',
      tag,
      summary: 'Serials claimed by two boxes',
      auth: 'admin',
      query: PagingQuery,
      response: pageOf(ConflictView),
    },
    async ({ query }, req, res) => sendOk(res, await fleet.conflicts(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/serials/unclaimable',
      tag,
      summary: 'Registered or presented serials that break the claim rule',
      auth: 'admin',
      query: PagingQuery,
      response: pageOf(UnclaimableView),
    },
    async ({ query }, req, res) => sendOk(res, await fleet.unclaimable(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: machinePath('device-credential/arm'),
      tag,
      summary: 'Open an enrolment arm (owner, admin, or factory key for an unowned cabinet of its plant)',
      description: 'A factory key (machines:build) may also arm an unowned cabinet that a build record of its plant names.',
      auth: 'operator',
      groupSessions: true,
      // spec 2 §4.3: the owner (machines:write), an admin, or a factory key (machines:build) for an unowned cabinet
      scopeAlternatives: [['machines:write'], ['machines:build']],
      params: MachineNoParams,
      body: ArmBody,
      response: ArmData,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    async ({ params, body }, req, res) => sendOk(res, await admin.arm(principalOf(req), params.machineNo, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: machinePath('device-credential/disarm'),
      tag,
      summary: 'Close the enrolment arm (owner or admin)',
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:write'],
      params: MachineNoParams,
      response: DisarmData,
      errors: [401, 403, 404, 429],
    },
    async ({ params }, req, res) => sendOk(res, await admin.disarm(principalOf(req), params.machineNo)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: machinePath('device-credential/rotate'),
      tag,
      summary: 'Mark the credential due for rotation; the next authenticated gateway response carries generation N+1 in x-device-credential',
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:write'],
      params: MachineNoParams,
      response: RotateData,
      errors: [401, 403, 404, 409, 429],
    },
    async ({ params }, req, res) => sendOk(res, await admin.rotate(principalOf(req), params.machineNo)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: machinePath('device-credential/revoke'),
      tag,
      summary: 'Revoke every generation at once (admin; by and reason mandatory)',
      auth: 'admin',
      params: MachineNoParams,
      body: RevokeBody,
      response: RevokeData,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    async ({ params, body }, req, res) => sendOk(res, await admin.revoke(principalOf(req), params.machineNo, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: machinePath('device-credential/mode'),
      tag,
      summary: "A machine's own enrolment mode (owner or admin); the stricter of it and the fleet mode applies",
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:write'],
      params: MachineNoParams,
      body: MachineModeBody,
      response: MachineModeData,
      errors: [400, 401, 403, 404, 422, 429],
    },
    async ({ params, body }, req, res) => sendOk(res, await modes.setMachineMode(principalOf(req), params.machineNo, body.mode)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: machinePath('identity/reset'),
      tag,
      summary: 'Identity reset: clears credentials, binding and arms (admin; signer and reason mandatory; may open an arm)',
      auth: 'admin',
      params: MachineNoParams,
      body: ResetBody,
      response: ResetData,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    async ({ params, body }, req, res) => sendOk(res, await admin.resetIdentity(principalOf(req), params.machineNo, body)),
  );

  return r;
}
