import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { sendOk } from '../../http/envelope.ts';
import { adminGuard, guard } from '../../http/guard.ts';
import { principalOf } from '../../http/authenticate.ts';
import { parseInput } from '../../http/validate.ts';
import { defineLegacyRoute } from '../../http/route.ts';
import { PagingQuery } from '../../http/paging.ts';
import { DeviceCredentialsService } from './device-credentials.service.ts';
import {
  ArmBody,
  ArmData,
  BuildBody,
  BuildPatchBody,
  BuildView,
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
 * Administration of per-cabinet device credentials (spec 2 §4.3) and factory build records.
 * Who may call what is decided in the service (owner, admin, or a factory key for an unowned
 * cabinet of its plant); the routes authenticate, budget and parse.
 */
export function deviceCredentialsRoutes(ctx: AppContext): Router {
  const service = new DeviceCredentialsService(ctx);
  const r = Router();
  const docs = ctx.docs;
  const tag = 'device credentials';
  const machinePath = (suffix: string) => `/api/v1/machines/:machineNo/${suffix}`;

  // Fleet-wide routes first: `/api/v1/machines/device-credentials/...` must never be read as a machine number.
  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines/device-credentials/fleet',
      tag,
      summary: 'Credential fleet view',
      auth: 'admin',
      query: FleetQuery,
      response: FleetData,
    },
    ...adminGuard(ctx),
    async (req, res) => {
      sendOk(res, await service.fleet(principalOf(req), parseInput(FleetQuery, req.query, 'query')));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines/device-credentials/suspicions',
      tag,
      summary: 'Copy suspicions: cabinets that echoed a stale x-device-witness token',
      auth: 'admin',
      query: PagingQuery,
      response: pageOf(SuspicionView),
    },
    ...adminGuard(ctx),
    async (req, res) => {
      sendOk(res, await service.suspicions(principalOf(req), parseInput(PagingQuery, req.query, 'query')));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'put',
      path: '/api/v1/machines/device-credentials/mode',
      tag,
      summary: 'Fleet-wide enrolment mode (open, armed, closed)',
      auth: 'admin',
      body: ModeBody,
      response: ModeData,
    },
    ...adminGuard(ctx),
    async (req, res) => {
      sendOk(res, await service.setFleetMode(principalOf(req), parseInput(ModeBody, req.body, 'body').mode));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines/identity/conflicts',
      tag,
      summary: 'Serials claimed by two boxes',
      auth: 'admin',
      query: PagingQuery,
      response: pageOf(ConflictView),
    },
    ...adminGuard(ctx),
    async (req, res) => {
      sendOk(res, await service.conflicts(principalOf(req), parseInput(PagingQuery, req.query, 'query')));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines/serials/unclaimable',
      tag,
      summary: 'Registered or presented serials that break the claim rule',
      auth: 'admin',
      query: PagingQuery,
      response: pageOf(UnclaimableView),
    },
    ...adminGuard(ctx),
    async (req, res) => {
      sendOk(res, await service.unclaimable(principalOf(req), parseInput(PagingQuery, req.query, 'query')));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: machinePath('device-credential/arm'),
      tag,
      summary: 'Open an enrolment arm (owner, admin, or factory key for an unowned cabinet of its plant)',
      auth: 'operator',
      params: MachineNoParams,
      body: ArmBody,
      response: ArmData,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    ...guard(ctx),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.arm(principalOf(req), machineNo, parseInput(ArmBody, req.body ?? {}, 'body')));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: machinePath('device-credential/disarm'),
      tag,
      summary: 'Close the enrolment arm (owner or admin)',
      auth: 'operator',
      params: MachineNoParams,
      response: DisarmData,
      errors: [401, 403, 404, 429],
    },
    ...guard(ctx),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.disarm(principalOf(req), machineNo));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: machinePath('device-credential/rotate'),
      tag,
      summary: 'Mark the credential due for rotation; the next authenticated gateway response carries generation N+1 in x-device-credential',
      auth: 'operator',
      params: MachineNoParams,
      response: RotateData,
      errors: [401, 403, 404, 409, 429],
    },
    ...guard(ctx),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.rotate(principalOf(req), machineNo));
    },
  );

  defineLegacyRoute(
    r,
    docs,
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
    ...adminGuard(ctx),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.revoke(principalOf(req), machineNo, parseInput(RevokeBody, req.body ?? {}, 'body')));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'put',
      path: machinePath('device-credential/mode'),
      tag,
      summary: "A machine's own enrolment mode (owner or admin); the stricter of it and the fleet mode applies",
      auth: 'operator',
      params: MachineNoParams,
      body: MachineModeBody,
      response: MachineModeData,
      errors: [400, 401, 403, 404, 422, 429],
    },
    ...guard(ctx),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.setMachineMode(principalOf(req), machineNo, parseInput(MachineModeBody, req.body ?? {}, 'body').mode));
    },
  );

  defineLegacyRoute(
    r,
    docs,
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
    ...adminGuard(ctx),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.resetIdentity(principalOf(req), machineNo, parseInput(ResetBody, req.body ?? {}, 'body')));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/api/v1/factory/builds',
      tag: 'factory',
      summary: "Record a cabinet built at the key's plant (machines:build)",
      auth: 'operator',
      scopes: ['machines:build'],
      body: BuildBody,
      response: BuildView,
      errors: [400, 401, 403, 409, 422, 429],
    },
    ...guard(ctx, 'machines:build'),
    async (req, res) => {
      sendOk(res, await service.createBuild(principalOf(req), parseInput(BuildBody, req.body ?? {}, 'body')));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'patch',
      path: '/api/v1/factory/builds/:machineNo',
      tag: 'factory',
      summary: 'Record QA sign-off and shipping of a build (machines:build)',
      auth: 'operator',
      scopes: ['machines:build'],
      params: MachineNoParams,
      body: BuildPatchBody,
      response: BuildView,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    ...guard(ctx, 'machines:build'),
    async (req, res) => {
      const { machineNo } = parseInput(MachineNoParams, req.params, 'params');
      sendOk(res, await service.updateBuild(principalOf(req), machineNo, parseInput(BuildPatchBody, req.body ?? {}, 'body')));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/factory/builds',
      tag: 'factory',
      summary: "Build records of the key's plant (admin: every plant)",
      auth: 'operator',
      scopes: ['machines:build'],
      query: PagingQuery,
      response: pageOf(BuildView),
    },
    ...guard(ctx, 'machines:build'),
    async (req, res) => {
      sendOk(res, await service.builds(principalOf(req), parseInput(PagingQuery, req.query, 'query')));
    },
  );

  return r;
}
