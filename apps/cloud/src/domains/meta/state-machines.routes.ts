import { Router } from 'express';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { describeGraph } from '../dfy/deals/deal-graph.ts';
import { StateMachine, StateMachineParams } from '../dfy/deals/dfy.schemas.ts';

/**
 * The live state machines, generated from the tables the API enforces (never written twice):
 * `dfy_deal` (spec 3 §3) from domains/dfy/deal-graph.ts. Public, like the API document.
 */
export function stateMachinesRoutes(kit: RouteKit): Router {
  const r = Router();
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/meta/state-machines/:name',
      tag: 'meta',
      auth: 'none',
      summary: 'A state machine as the API enforces it: states, transitions, triggers, actions and checkpoints',
      params: StateMachineParams,
      response: StateMachine,
    },
    (_input, _req, res) => sendOk(res, describeGraph()),
  );
  return r;
}
