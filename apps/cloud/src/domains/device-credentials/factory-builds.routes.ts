import { Router } from 'express';
import { sendOk } from '../../http/envelope.ts';
import { principalOf } from '../../http/authenticate.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { PagingQuery } from '../../http/paging.ts';
import type { FactoryBuildsService } from './factory-builds.service.ts';
import { BuildBody, BuildPatchBody, BuildView, MachineNoParams, pageOf } from './device-credentials.schemas.ts';

/** Factory build records (spec 2 §5): keys holding `machines:build` record their plant's cabinets; admins see every plant. */
export function factoryBuildsRoutes(kit: RouteKit, builds: FactoryBuildsService): Router {
  const r = Router();
  const tag = 'factory';

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/factory/builds',
      tag,
      summary: "Record a cabinet built at the key's plant (machines:build)",
      auth: 'operator',
      scopes: ['machines:build'],
      body: BuildBody,
      response: BuildView,
      errors: [400, 401, 403, 409, 422, 429],
    },
    async ({ body }, req, res) => sendOk(res, await builds.createBuild(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'patch',
      path: '/api/v1/factory/builds/:machineNo',
      tag,
      summary: 'Record QA sign-off and shipping of a build (machines:build)',
      auth: 'operator',
      scopes: ['machines:build'],
      params: MachineNoParams,
      body: BuildPatchBody,
      response: BuildView,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    async ({ params, body }, req, res) => sendOk(res, await builds.updateBuild(principalOf(req), params.machineNo, body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/factory/builds',
      tag,
      summary: "Build records of the key's plant (admin: every plant)",
      auth: 'operator',
      scopes: ['machines:build'],
      query: PagingQuery,
      response: pageOf(BuildView),
    },
    async ({ query }, req, res) => sendOk(res, await builds.builds(principalOf(req), query)),
  );

  return r;
}
