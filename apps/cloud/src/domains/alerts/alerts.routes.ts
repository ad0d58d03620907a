import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { AlertsService } from './alerts.service.ts';
import { Alert, AlertPage, AlertParams, AlertsQuery, CreateRuleBody, Rule, RuleList, RuleParams } from './alerts.schemas.ts';

/** Alert rules and alerts (docs/alerts.md): reads need machines:read, writes machines:write. */
export function alertsRoutes(kit: RouteKit, alerts: AlertsService): Router {
  const r = Router();
  const tag = 'alerts';
  const read = { auth: 'operator' as const, scopes: ['machines:read' as const] };
  const write = { auth: 'operator' as const, scopes: ['machines:write' as const] };

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/alert-rules',
      tag,
      summary: 'Create an alert rule: event types, the fleet / one machine / an access group, quiet hours, webhook and e-mail delivery',
      ...write,
      body: CreateRuleBody,
      response: Rule,
      errors: [404],
    },
    async ({ body }, req, res) => sendOk(res, await alerts.createRule(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    { method: 'get', path: '/api/v1/alert-rules', tag, summary: "The operator's alert rules, oldest first", ...read, response: RuleList },
    async (_input, req, res) => sendOk(res, await alerts.rules(principalOf(req))),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'delete',
      path: '/api/v1/alert-rules/:id',
      tag,
      summary: 'Delete an alert rule with its alerts; answers it as it was',
      ...write,
      params: RuleParams,
      response: Rule,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await alerts.deleteRule(principalOf(req), params.id)),
  );

  defineRoute(
    r,
    kit,
    { method: 'get', path: '/api/v1/alerts', tag, summary: "The operator's alerts, newest first, by state", ...read, query: AlertsQuery, response: AlertPage },
    async ({ query }, req, res) => sendOk(res, await alerts.alerts(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/alerts/:id/resolve',
      tag,
      summary: 'Close a live alert by hand (409 once closed)',
      ...write,
      params: AlertParams,
      response: Alert,
      errors: [404, 409],
    },
    async ({ params }, req, res) => sendOk(res, await alerts.resolve(principalOf(req), params.id)),
  );

  return r;
}
