import type { RequestHandler } from 'express';
import type { RouteDoc } from './api-docs.ts';
import { authenticate, requireAdmin, requireAnyScopes } from './authenticate.ts';
import type { SessionCsrf } from './page-session-auth.ts';
import type { Authenticator } from './principal.ts';
import type { RateLimiter } from './rate-limit.ts';

/** What the guard chains need: who is calling, and their hourly budget. */
export interface GuardDeps {
  auth: Authenticator;
  /** The pages' session cookie + `X-CSRF-Token` as a credential (docs/decisions/console.md). */
  sessionCsrf: SessionCsrf;
  rateLimiter: Pick<RateLimiter, 'middleware'>;
}

/**
 * The access chain a route's document calls for (issue 31: the scope is declared once, in the doc):
 * - `operator`: who is calling (401), their hourly budget (429), then the documented scopes (403): every
 *   one of `scopes`, or every one of ONE of `scopeAlternatives` (a route whose scope depends on the body
 *   narrows it further in its own middleware, after this);
 * - `admin`: who is calling (401), their budget (429), an admin credential (403 'Admin credential required');
 * - anything else (`none`, `device`, `signature`, `oauth-client`): nothing here; the route's own middleware checks it.
 */
export function accessChain(deps: GuardDeps, doc: Pick<RouteDoc, 'auth' | 'scopes' | 'scopeAlternatives'>): RequestHandler[] {
  switch (doc.auth) {
    case 'operator': {
      const sets = doc.scopeAlternatives?.length ? doc.scopeAlternatives : [doc.scopes ?? []];
      const chain = [authenticate(deps.auth, deps.sessionCsrf), deps.rateLimiter.middleware()];
      // an empty set admits any credential: no scope check at all
      if (sets.every((s) => s.length > 0)) chain.push(requireAnyScopes(sets));
      return chain;
    }
    case 'admin':
      return [authenticate(deps.auth, deps.sessionCsrf), deps.rateLimiter.middleware(), requireAdmin];
    case 'none':
    case 'device':
    case 'signature':
    case 'oauth-client':
      return [];
  }
}
