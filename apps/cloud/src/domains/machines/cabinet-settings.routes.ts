import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { CabinetSettingsService } from './cabinet-settings.service.ts';
import { MachineNoParams, ServiceCodeBody, ServiceCodeData, SettingsBody, SettingsData } from './cabinet-settings.schemas.ts';

/** Operator API: the per-machine configuration the cabinet receives (owner or admin). */
export function cabinetSettingsRoutes(kit: RouteKit, settings: CabinetSettingsService): Router {
  const r = Router();
  const tag = 'cabinet gateway';

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/cabinet-settings',
      tag,
      summary: "A cabinet's stored settings and the configuration block it receives (owner or admin)",
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:read'],
      params: MachineNoParams,
      response: SettingsData,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await settings.get(principalOf(req), params.machineNo)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: '/api/v1/machines/:machineNo/cabinet-settings',
      tag,
      summary: 'Change configuration and per-machine feature settings (only sent fields; null restores the default)',
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:write'],
      params: MachineNoParams,
      body: SettingsBody,
      response: SettingsData,
      errors: [404],
    },
    async ({ params, body }, req, res) => sendOk(res, await settings.put(principalOf(req), params.machineNo, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/service-code',
      tag,
      summary: "Whether a cabinet's service code is set (never the code), its lock and the attempts the cabinet reported (owner or admin)",
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:read'],
      params: MachineNoParams,
      response: ServiceCodeData,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await settings.getServiceCode(principalOf(req), params.machineNo)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: '/api/v1/machines/:machineNo/service-code',
      tag,
      summary: "Set or rotate a cabinet's service code (6–12 digits; stored and delivered to the cabinet as a hash only)",
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:write'],
      params: MachineNoParams,
      body: ServiceCodeBody,
      response: ServiceCodeData,
      errors: [404],
    },
    async ({ params, body }, req, res) => sendOk(res, await settings.setServiceCode(principalOf(req), params.machineNo, body.code)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'delete',
      path: '/api/v1/machines/:machineNo/service-code',
      tag,
      summary: "Remove a cabinet's service code (its service functions then answer only to a locally configured code)",
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:write'],
      params: MachineNoParams,
      response: ServiceCodeData,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await settings.setServiceCode(principalOf(req), params.machineNo, null)),
  );

  return r;
}
