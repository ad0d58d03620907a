import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { WebhooksService } from './webhooks.service.ts';
import { CreateEndpointBody, DeliveriesQuery, Delivery, DeliveryPage, Endpoint, EndpointList, EndpointParams, EndpointWithSecret } from './webhooks.schemas.ts';

/** Outbound webhook subscriptions (docs/webhooks-outbound.md): reads need machines:read, writes machines:write. */
export function webhooksRoutes(kit: RouteKit, webhooks: WebhooksService): Router {
  const r = Router();
  const tag = 'webhooks';
  const read = { auth: 'operator' as const, scopes: ['machines:read' as const] };
  const write = { auth: 'operator' as const, scopes: ['machines:write' as const] };

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/webhooks',
      tag,
      summary: 'Subscribe an endpoint to event types; answers its signing secret once (at most 10 endpoints per operator)',
      ...write,
      body: CreateEndpointBody,
      response: EndpointWithSecret,
    },
    async ({ body }, req, res) => sendOk(res, await webhooks.create(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    { method: 'get', path: '/api/v1/webhooks', tag, summary: "The operator's webhook endpoints, oldest first", ...read, response: EndpointList },
    async (_input, req, res) => sendOk(res, await webhooks.list(principalOf(req))),
  );

  defineRoute(
    r,
    kit,
    { method: 'get', path: '/api/v1/webhooks/:id', tag, summary: 'One webhook endpoint', ...read, params: EndpointParams, response: Endpoint, errors: [404] },
    async ({ params }, req, res) => sendOk(res, await webhooks.get(principalOf(req), params.id)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'delete',
      path: '/api/v1/webhooks/:id',
      tag,
      summary: 'Delete an endpoint with its pending deliveries and delivery log; answers it as it was',
      ...write,
      params: EndpointParams,
      response: Endpoint,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await webhooks.remove(principalOf(req), params.id)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/webhooks/:id/rotate-secret',
      tag,
      summary: 'Replace the signing secret at once; answers the new one once',
      ...write,
      params: EndpointParams,
      response: EndpointWithSecret,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await webhooks.rotateSecret(principalOf(req), params.id)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/webhooks/:id/enable',
      tag,
      summary: 'Turn an endpoint disabled after consecutive failures back on; its pending deliveries resume in order',
      ...write,
      params: EndpointParams,
      response: Endpoint,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await webhooks.enable(principalOf(req), params.id)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/webhooks/:id/test',
      tag,
      summary: 'Send a signed webhook.test event to the endpoint now; answers the delivery after its first attempt (retried like any other if it failed)',
      ...write,
      params: EndpointParams,
      response: Delivery,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await webhooks.sendTest(principalOf(req), params.id)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/webhooks/:id/deliveries',
      tag,
      summary: "The endpoint's deliveries, newest first, with status, attempts and the last response code",
      ...read,
      params: EndpointParams,
      query: DeliveriesQuery,
      response: DeliveryPage,
      errors: [404],
    },
    async ({ params, query }, req, res) => sendOk(res, await webhooks.deliveries(principalOf(req), params.id, query)),
  );

  return r;
}
