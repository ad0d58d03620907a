import { Router, type Request, type RequestHandler, type Response } from 'express';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiDocs, type RouteDoc } from './api-docs.ts';
import { AppError } from './errors.ts';
import { accessChain, type GuardDeps } from './guard.ts';
import { SessionCsrf } from './page-session-auth.ts';
import type { Principal } from './principal.ts';
import { defineRoute, type RouteKit } from './route.ts';
import type { Scope } from './scopes.ts';

/** A caller resolved from `x-api-key: <scopes, space-separated>[ admin]`; `x-api-key: spent` has no budget left. */
const deps: GuardDeps = {
  auth: {
    fromApiKey: async (raw) => {
      const words = raw.split(' ').filter((w) => w !== '-');
      return {
        operatorId: 'op_1',
        operatorEmail: 'a@x.test',
        admin: words.includes('admin'),
        scopes: new Set(words.filter((w) => w.includes(':')) as Scope[]),
        authMethod: 'api_key',
        credentialId: raw,
        rateLimit: words.includes('spent') ? 0 : 100,
        plant: null,
        fence: null,
      } satisfies Principal;
    },
    fromBearer: async () => null,
  },
  sessionCsrf: new SessionCsrf('route-test-data-key-0123456789abcdef'),
  rateLimiter: {
    middleware: (): RequestHandler => (req, _res, next) => {
      if (req.principal?.rateLimit === 0) throw new AppError('rate_limited');
      next();
    },
  },
};

const kit = (): RouteKit => ({
  docs: new ApiDocs(),
  access: (doc) => accessChain(deps, doc),
});

const Params = z.object({ no: z.string().regex(/^M-\d+$/) });

/** Sends one request through the router: the status of the error it met, 200 when the handler answered. */
async function status(router: Router, key: string | null, path = '/things/M-1'): Promise<number> {
  const req = { method: 'GET', url: path, headers: key === null ? {} : { 'x-api-key': key }, query: {} } as unknown as Request;
  return new Promise((resolve) => {
    const res = { locals: {}, end: () => resolve(200) } as unknown as Response;
    const done = (err?: unknown) => resolve(err instanceof AppError ? err.status : err ? 500 : 404);
    (router as unknown as (q: Request, s: Response, n: (e?: unknown) => void) => void)(req, res, done);
  });
}

function routerFor(doc: Partial<RouteDoc>, use: RequestHandler[] = []): Router {
  const r = Router();
  defineRoute(
    r,
    kit(),
    { method: 'get', path: '/things/:no', tag: 'machines', summary: 'A thing', auth: 'operator', params: Params, ...doc },
    use,
    (_in, _req, res) => void res.end(),
  );
  return r;
}

describe('defineRoute: the access a doc declares is the access enforced', () => {
  it('answers an operator route 401 → 429 → 403 → 400/422, in that order', async () => {
    const r = routerFor({ scopes: ['machines:read', 'machines:write'] });
    expect(await status(r, null, '/things/bad')).toBe(401);
    expect(await status(r, 'spent', '/things/bad')).toBe(429); // the budget before the scope
    expect(await status(r, 'machines:read', '/things/bad')).toBe(403); // the scope before the input
    expect(await status(r, 'machines:read machines:write', '/things/bad')).toBe(400);
    expect(await status(r, 'machines:read machines:write')).toBe(200);
  });

  it('admits any one of the scope alternatives, before the route’s own middleware narrows it', async () => {
    const seen: string[] = [];
    const r = routerFor({ scopeAlternatives: [['machines:read'], ['commands:write']] }, [
      (req, _res, next) => {
        seen.push(req.principal!.credentialId);
        next();
      },
    ]);
    expect(await status(r, 'orders:read')).toBe(403);
    expect(await status(r, 'commands:write')).toBe(200);
    expect(await status(r, 'machines:read')).toBe(200);
    expect(seen).toEqual(['commands:write', 'machines:read']);
  });

  it('admits any credential where the doc names no scope, and only admins where it says admin', async () => {
    expect(await status(routerFor({}), '-')).toBe(200);
    expect(await status(routerFor({ auth: 'admin' }), null)).toBe(401);
    expect(await status(routerFor({ auth: 'admin' }), 'machines:read machines:write accounts:admin')).toBe(403);
    expect(await status(routerFor({ auth: 'admin' }), 'admin')).toBe(200);
  });

  it('leaves public routes open and refuses a device, signature or token route that names no check of its own', () => {
    expect(() => routerFor({ auth: 'none' })).not.toThrow();
    for (const auth of ['device', 'signature', 'oauth-client'] as const) {
      expect(() => defineRoute(Router(), kit(), { method: 'get', path: '/x', tag: 't', summary: 's', auth }, () => {})).toThrow(/names its credential check/);
    }
  });
});
