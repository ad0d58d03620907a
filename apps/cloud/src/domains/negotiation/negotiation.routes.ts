import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { DealParams } from '../dfy/deals/dfy.schemas.ts';
import type { NegotiationService } from './negotiation.service.ts';
import { Advice, EnvelopeBody, Graph, Graphs, MandateVersion, Negotiation, OperatorTurnBody, StartBody, StepBody } from './negotiation.schemas.ts';

const P = '/api/v1/dfy';

/**
 * The negotiation of a done-for-you deal (spec 3 §4; docs/decisions/negotiation.md): reads need machines:read,
 * writes machines:write; another operator's deal is 404 on every path.
 */
export function negotiationRoutes(kit: RouteKit, negotiation: NegotiationService): Router {
  const r = Router();
  const tag = 'negotiation';
  const R = { auth: 'operator' as const, scopes: ['machines:read' as const], tag, params: DealParams, errors: [404] };
  const W = { auth: 'operator' as const, scopes: ['machines:write' as const], tag, params: DealParams, errors: [404, 409] };
  const at = (path: string) => `${P}/deals/:dealId/negotiation${path}`;

  defineRoute(
    r,
    kit,
    {
      method: 'put',
      path: at('/envelope'),
      ...W,
      summary: 'Set the mandate (a new version; fixed once the negotiation starts)',
      body: EnvelopeBody,
      response: MandateVersion,
    },
    async ({ params, body }, req, res) => sendOk(res, await negotiation.putEnvelope(principalOf(req), params.dealId, body)),
  );
  defineRoute(
    r,
    kit,
    { method: 'get', path: at(''), ...R, summary: 'The negotiation: mandate, status, turns and the standing offer', response: Negotiation },
    async ({ params }, req, res) => sendOk(res, await negotiation.get(principalOf(req), params.dealId)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: at('/start'),
      ...W,
      summary: 'Confirm gate: start the negotiation inside its mandate (resolves negotiation_target); the engine makes the opening offer',
      body: StartBody,
      response: Negotiation,
    },
    async ({ params, body }, req, res) => sendOk(res, await negotiation.start(principalOf(req), params.dealId, body)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: at('/step'),
      ...W,
      summary: 'Sandbox: the venue persona answers and the engine answers back, until convergence, impasse or the round budget',
      body: StepBody,
      response: Negotiation,
    },
    async ({ params, body }, req, res) => sendOk(res, await negotiation.step(principalOf(req), params.dealId, body)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: at('/advise'),
      ...W,
      summary: 'Suggest the next move (suggest-only: nothing is stored, the standing offer does not move)',
      response: Advice,
    },
    async ({ params }, req, res) => sendOk(res, await negotiation.advise(principalOf(req), params.dealId)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: at('/operator-turn'),
      ...W,
      summary: 'An operator-authored offer: validated but not clamped to the mandate; a move outside it is flagged',
      body: OperatorTurnBody,
      response: Negotiation,
    },
    async ({ params, body }, req, res) => sendOk(res, await negotiation.operatorTurn(principalOf(req), params.dealId, body)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: at('/graph'),
      ...R,
      summary: 'The negotiation graph: parties, term-sheet versions, escalations, outcome, contract',
      response: Graph,
    },
    async ({ params }, req, res) => sendOk(res, await negotiation.graph(principalOf(req), params.dealId)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: `${P}/negotiation/graphs`,
      auth: 'operator',
      scopes: ['machines:read'],
      tag,
      summary: "Per-vertical convergence bands and a per-negotiation rollup of the caller's negotiations",
      response: Graphs,
    },
    async (_i, req, res) => sendOk(res, await negotiation.graphs(principalOf(req))),
  );
  return r;
}
