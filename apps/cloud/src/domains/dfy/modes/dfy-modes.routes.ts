import { Router } from 'express';
import { principalOf } from '../../../http/authenticate.ts';
import { sendOk } from '../../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../../http/route.ts';
import type { DfyModesService } from './dfy-modes.service.ts';
import { ConciergeBody, Mode, ModeBody, ModeParams } from './dfy-modes.schemas.ts';

const P = '/api/v1/dfy/mode/:kind/:id';

/** Operating modes and concierge (spec 3 key rules 4, 5, 9): the caller's own deals and machines only (404 otherwise). */
export function dfyModesRoutes(kit: RouteKit, modes: DfyModesService): Router {
  const r = Router();
  const tag = 'done-for-you';
  const R = { auth: 'operator' as const, scopes: ['machines:read' as const], tag };
  const W = { auth: 'operator' as const, scopes: ['machines:write' as const], tag };

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: P,
      ...R,
      summary: 'The effective mode of a deal or machine: each capability, the level that decided it, the concierge and its fee',
      params: ModeParams,
      response: Mode,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await modes.mode(principalOf(req), params.kind, params.id)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: P,
      ...W,
      summary: 'Capability toggles of a deal or machine: true/false sets, null clears (follow the lower levels), absent keeps',
      params: ModeParams,
      body: ModeBody,
      response: Mode,
      errors: [404],
    },
    async ({ params, body }, req, res) => sendOk(res, await modes.setToggles(principalOf(req), params.kind, params.id, body)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/concierge`,
      ...W,
      summary: 'Confirmed concierge enrolment (Auto with the ops/install team, 99 USD/month prorated by day) or takeback',
      params: ModeParams,
      body: ConciergeBody,
      response: Mode,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await modes.concierge(principalOf(req), params.kind, params.id, body)),
  );
  return r;
}
