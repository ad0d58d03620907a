import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { ScreensaversService } from './screensavers.service.ts';
import { CreateScreensaverBody, Screensaver, ScreensaverListQuery, ScreensaverPage, ScreensaverParams } from './screensavers.schemas.ts';

/** The operator's own attract-loop content: uploaded pending, on air once approved, off air when retired. */
export function screensaversRoutes(kit: RouteKit, service: ScreensaversService): Router {
  const r = Router();
  const tag = 'screen advertising';

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/screensavers',
      tag,
      summary: "Upload a screensaver (same media rules as creatives); pending until approved; on the named machines or all of the operator's",
      auth: 'operator',
      scopes: ['ads:write'],
      body: CreateScreensaverBody,
      response: Screensaver,
    },
    async ({ body }, req, res) => sendOk(res, await service.create(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/screensavers',
      tag,
      summary: 'Screensavers, newest first',
      auth: 'operator',
      scopes: ['ads:read'],
      query: ScreensaverListQuery,
      response: ScreensaverPage,
    },
    async ({ query }, req, res) => sendOk(res, await service.list(principalOf(req), query)),
  );

  const summaries = { approve: 'pending → approved: the loop shows it from the next poll', retire: 'pending or approved → retired (final)' } as const;
  for (const action of ['approve', 'retire'] as const) {
    defineRoute(
      r,
      kit,
      {
        method: 'post',
        path: `/api/v1/screensavers/:id/${action}`,
        tag,
        summary: summaries[action],
        auth: 'operator',
        scopes: ['ads:write'],
        params: ScreensaverParams,
        response: Screensaver,
        errors: [404, 409],
      },
      async ({ params }, req, res) => sendOk(res, await service.review(principalOf(req), params.id, action)),
    );
  }
  return r;
}
