import type { Request, RequestHandler } from 'express';
import { AppError } from './errors.ts';
import type { SessionCsrf } from './page-session-auth.ts';
import type { AuthMethod, Authenticator, Principal } from './principal.ts';
import type { Scope } from './scopes.ts';

function bearerOf(req: Request): string | null {
  const h = req.headers.authorization;
  if (typeof h !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m?.[1] ?? null;
}

/** What a browser's session cookie may hold: a sign-in session or an access-group session, never a key or an OAuth token. */
const COOKIE_KINDS: ReadonlySet<AuthMethod> = new Set(['session', 'access']);

/**
 * Resolves the caller from `X-API-Key`, `Authorization: Bearer`, or — with neither — the pages' session
 * cookie together with its `X-CSRF-Token` header (docs/decisions/console.md: the same principal as that
 * token as a Bearer; the cookie without the matching header is nobody); anything missing or wrong is 401.
 * An access-group session is 403 on every route not opened to it: closed unless opened (docs/decisions/access.md).
 */
export function authenticate(auth: Authenticator, csrf: SessionCsrf): RequestHandler {
  return async (req, res, next) => {
    const key = req.headers['x-api-key'];
    const bearer = bearerOf(req);
    let principal: Principal | null = null;
    if (typeof key === 'string' && key.length > 0 && key.length <= 512) principal = await auth.fromApiKey(key);
    else if (bearer && bearer.length <= 8192) principal = await auth.fromBearer(bearer);
    else if (key === undefined && req.headers.authorization === undefined) {
      const token = csrf.sessionOf(req);
      const p = token ? await auth.fromBearer(token) : null;
      if (p && COOKIE_KINDS.has(p.authMethod)) principal = p;
    }
    if (!principal) throw new AppError('unauthorized');
    if (principal.fence && res.locals['groupSessions'] !== true) throw new AppError('forbidden', 'Not available to an access-group session');
    req.principal = principal;
    next();
  };
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw new AppError('unauthorized');
  return req.principal;
}

/** 403 'Insufficient scope' unless the credential holds every scope of at least one of `sets` (a route's documented scopes). */
export function requireAnyScopes(sets: readonly (readonly Scope[])[]): RequestHandler {
  return (req, _res, next) => {
    const p = principalOf(req);
    if (!sets.some((scopes) => scopes.every((s) => p.scopes.has(s)))) throw new AppError('forbidden');
    next();
  };
}

/** Marks the route open to access-group sessions (`RouteDoc.groupSessions`); `authenticate` refuses them everywhere else. */
export const openToGroupSessions: RequestHandler = (_req, res, next) => {
  res.locals['groupSessions'] = true;
  next();
};

export const requireAdmin: RequestHandler = (req, _res, next) => {
  if (!principalOf(req).admin) throw new AppError('forbidden', 'Admin credential required');
  next();
};

/** Operators see only their own records; admins see everyone's (the ownership rule): the owner a list is filtered by. */
export function ownerFilter(p: Principal): string | null {
  return p.admin ? null : p.operatorId;
}

/** The ownership rule for one record owned by `ownerId` (null: no operator's): admins see every one, operators their own. */
export function canSeeOwned(p: Principal, ownerId: string | null): boolean {
  const owner = ownerFilter(p);
  return owner === null || (ownerId !== null && ownerId === owner);
}

/**
 * The one access check on a record a caller names by id (as immich's `requireAccess`): the record, when it
 * exists and the ownership rule lets the caller see it; otherwise `missing()`, its 404 — a missing record and
 * another operator's answer alike. Machines add the access-group fence: `requireMachineAccess` (machines/ownership.ts).
 */
export function requireOwned<R extends { operator_id: string | null }>(p: Principal, row: R | null | undefined, missing: () => AppError): R {
  if (!row || !canSeeOwned(p, row.operator_id)) throw missing();
  return row;
}
