import { Router, type Request } from 'express';
import type { AddressInfo } from 'node:net';
import { sendOk } from '../../http/envelope.ts';
import { principalOf } from '../../http/authenticate.ts';
import type { SandboxService } from './sandbox.service.ts';
import { AuditData, AuditQuery, HealthData, ReadinessQuery, ReadyData, ResetQuery } from './sandbox.schemas.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { renderReadinessPage } from './readiness-page.ts';
import { sendPage } from '../../http/html.ts';

/** The service's own loopback address: self-tests call it, never a client-supplied Host header. */
function selfUrl(req: Request): string {
  const addr = req.socket.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${addr.port}`;
}

export function sandboxRoutes(kit: RouteKit, service: SandboxService): Router {
  const r = Router();

  // Degraded health keeps its data (which store is down) and answers 503 so load balancers notice.
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/health',
      tag: 'sandbox',
      summary: 'Store and cache health: 200, or 503 `degraded` with the same data naming what is down',
      auth: 'none',
      response: HealthData,
      errorData: { 503: HealthData },
    },
    async (_input, _req, res) => {
      const h = await service.health();
      const healthy = h.db === 'ok' && h.redis !== 'error';
      res.status(healthy ? 200 : 503).json({ code: healthy ? 200 : 503, message: healthy ? 'success' : 'degraded', data: h });
    },
  );

  // Readiness of this replica for new work (load balancers, orchestrators): 503 once shutdown began.
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/ready',
      tag: 'sandbox',
      summary: 'Readiness for traffic: 200 ready; 503 draining (shutdown under way) or unavailable (store down)',
      auth: 'none',
      response: ReadyData,
      errorData: { 503: ReadyData },
    },
    async (_input, _req, res) => {
      const ready = await service.ready();
      // the envelope's message is the catalogue's; why it is not ready is data.status
      const code = ready.status === 'ready' ? 200 : 503;
      res.status(code).json({ code, message: code === 200 ? 'success' : ready.status, data: ready });
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/sandbox/readiness',
      tag: 'sandbox',
      summary: 'Readiness report with live self-test (HTML for browsers)',
      auth: 'none',
      query: ReadinessQuery,
      contentType: ['application/json', 'text/html'],
    },
    async ({ query }, req, res) => {
      const report = await service.readiness(selfUrl(req));
      const html = query.format === 'html' || (query.format === undefined && req.accepts(['application/json', 'text/html']) === 'text/html');
      if (html) sendPage(res, 200, renderReadinessPage(report));
      else sendOk(res, report);
    },
  );

  // Loop and store status endpoints are the spec's "liveness endpoints": plain JSON, no envelope.
  defineRoute(
    r,
    kit,
    { method: 'get', path: '/sandbox/persistence', tag: 'sandbox', summary: 'Durable store status', auth: 'none', envelope: false },
    async (_input, _req, res) => {
      res.json(await service.persistence());
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/sandbox/audit',
      tag: 'sandbox',
      summary: 'Audit log of every write, newest first; paged by the page/size query, the total in the X-Total-Count header',
      auth: 'admin',
      query: AuditQuery,
      response: AuditData,
    },
    async ({ query }, _req, res) => {
      const { total, records } = await service.audit(query);
      // spec 1 §4.1: data is the array itself; the total travels beside it (docs/sandbox.md)
      res.set('X-Total-Count', String(total));
      sendOk(res, records);
    },
  );

  defineRoute(
    r,
    kit,
    { method: 'post', path: '/sandbox/reset', tag: 'sandbox', summary: 'Restore the seed fleet', auth: 'admin', query: ResetQuery },
    async ({ query }, req, res) => sendOk(res, await service.reset(principalOf(req), query.wipeMoney)),
  );

  return r;
}
