import { Router, type Request } from 'express';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../../context.ts';
import { sendOk } from '../../http/envelope.ts';
import { adminGuard } from '../../http/guard.ts';
import { principalOf } from '../../http/authenticate.ts';
import { parseInput } from '../../http/validate.ts';
import { offsetOf } from '../../http/paging.ts';
import { SandboxService } from './sandbox.service.ts';
import { AuditData, AuditQuery, HealthData, ReadinessQuery, ResetQuery } from './sandbox.schemas.ts';
import { defineLegacyRoute } from '../../http/route.ts';
import { renderReadinessPage } from './readiness-page.ts';

/** The service's own loopback address: self-tests call it, never a client-supplied Host header. */
function selfUrl(req: Request): string {
  const addr = req.socket.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${addr.port}`;
}

export function sandboxRoutes(ctx: AppContext): Router {
  const service = new SandboxService(ctx);
  const r = Router();

  // Degraded health keeps its data (which store is down) and answers 503 so load balancers notice.
  const docs = ctx.docs;
  defineLegacyRoute(
    r,
    docs,
    { method: 'get', path: '/health', tag: 'sandbox', summary: 'Store and cache health', auth: 'none', response: HealthData },
    async (_req, res) => {
      const h = await service.health();
      const healthy = h.db === 'ok' && h.redis !== 'error';
      res.status(healthy ? 200 : 503).json({ code: healthy ? 200 : 503, message: healthy ? 'success' : 'degraded', data: h });
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/sandbox/readiness',
      tag: 'sandbox',
      summary: 'Readiness report with live self-test (HTML for browsers)',
      auth: 'none',
      query: ReadinessQuery,
    },
    async (req, res) => {
      const q = parseInput(ReadinessQuery, req.query, 'query');
      const report = await service.readiness(selfUrl(req));
      const html = q.format === 'html' || (q.format === undefined && req.accepts(['application/json', 'text/html']) === 'text/html');
      if (html) res.type('html').send(renderReadinessPage(report));
      else sendOk(res, report);
    },
  );

  // Loop and store status endpoints are the spec's "liveness endpoints": plain JSON, no envelope.
  defineLegacyRoute(
    r,
    docs,
    { method: 'get', path: '/sandbox/persistence', tag: 'sandbox', summary: 'Durable store status', auth: 'none', envelope: false },
    async (_req, res) => {
      res.json(await service.persistence());
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/sandbox/audit',
      tag: 'sandbox',
      summary: 'Audit log of every write, newest first; paged by the page/size query, the total in the X-Total-Count header',
      auth: 'admin',
      query: AuditQuery,
      response: AuditData,
    },
    ...adminGuard(ctx),
    async (req, res) => {
      const q = parseInput(AuditQuery, req.query, 'query');
      const { total, records } = await ctx.audit.list(ctx.database.db, q.size, offsetOf(q));
      // spec 1 §4.1: data is the array itself; the total travels beside it (docs/sandbox.md)
      res.set('X-Total-Count', String(total));
      sendOk(res, records);
    },
  );

  defineLegacyRoute(
    r,
    docs,
    { method: 'post', path: '/sandbox/reset', tag: 'sandbox', summary: 'Restore the seed fleet', auth: 'admin', query: ResetQuery },
    ...adminGuard(ctx),
    async (req, res) => {
      const q = parseInput(ResetQuery, req.query, 'query');
      sendOk(res, await service.reset(principalOf(req), q.wipeMoney));
    },
  );

  return r;
}
