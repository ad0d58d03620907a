import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { ProofOfPlayService } from './proof-of-play.service.ts';
import { PlayPage, ProofOfPlayQuery } from './proof-of-play.schemas.ts';

/** `GET /api/v1/dooh/proof-of-play`: the play ledger of the caller's machines. */
export function proofOfPlayRoutes(kit: RouteKit, service: ProofOfPlayService): Router {
  const r = Router();
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/dooh/proof-of-play',
      tag: 'screen advertising',
      summary: "The play ledger of the caller's machines, newest first: one row per creative per machine per showing",
      auth: 'operator',
      scopes: ['ads:read'],
      query: ProofOfPlayQuery,
      response: PlayPage,
      errors: [404],
    },
    async ({ query }, req, res) => sendOk(res, await service.list(principalOf(req), query)),
  );
  return r;
}
