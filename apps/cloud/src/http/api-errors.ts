import { ERROR_TABLE } from './errors.ts';
import type { Scope } from './scopes.ts';

/**
 * The error side of the API document: the named error responses (spec 1 §7), the token endpoint's RFC 6749
 * errors, and which statuses a route answers by what its declaration says, before anything route-specific.
 */

export type RouteAuth = 'none' | 'operator' | 'admin' | 'device' | 'signature' | 'oauth-client';

/** What a route's declaration says that decides its error answers (a `RouteDoc` has it all). */
export interface ErrorFacts {
  path: string;
  auth: RouteAuth;
  params?: unknown;
  query?: unknown;
  body?: unknown;
  scopes?: Scope[];
  scopeAlternatives?: Scope[][];
  groupSessions?: true;
}

/** Body limits of the parsers every request passes through (app.ts); the 413 responses quote them. */
const BODY_LIMITS = 'JSON bodies up to 1 MB, form bodies up to 64 kB (the payment webhook: 64 kB)';

/** One error response: the status, what it means (spec 1 §7 where the spec has it), its example message. */
export interface ErrorKind {
  description: string;
  example: string;
  /** The message starts with the catalogue text (spec 1 §7 fixes the 400 and 401 texts); a reason may follow after ': '. */
  prefix?: string;
  headers?: Record<string, unknown>;
}

const BAD_REQUEST = ERROR_TABLE.bad_request.message;
const UNAUTHORIZED = ERROR_TABLE.unauthorized.message;

/** Named error responses; the document's `components.responses` holds the ones its operations use. */
export const ERROR_KINDS = {
  BadRequest: {
    description:
      'Bad body or parameters: missing or out-of-rule values, or a body that is not valid JSON — read before routing, whatever the operation (spec 1 §7). The message is the catalogue text, then the reasons.',
    example: BAD_REQUEST,
    prefix: BAD_REQUEST,
  },
  Unauthorized: { description: 'Missing or invalid credentials (spec 1 §7).', example: UNAUTHORIZED, prefix: UNAUTHORIZED },
  DeviceUnauthorized: {
    description: 'Missing or invalid cabinet credentials: device key, or the fleet secret where the leg accepts it.',
    example: `${UNAUTHORIZED}: Invalid device key`,
    prefix: UNAUTHORIZED,
  },
  SignatureUnauthorized: { description: 'Unsigned call, or a signature that does not verify (spec 1 §6).', example: UNAUTHORIZED, prefix: UNAUTHORIZED },
  Forbidden: { description: 'The credential lacks a scope the operation needs (spec 1 §5, §7).', example: ERROR_TABLE.forbidden.message },
  AdminRequired: { description: 'The operation needs an admin credential.', example: 'Admin credential required' },
  DeviceForbidden: { description: 'The cabinet credential may not do this (wrong machine, revoked or blocked).', example: ERROR_TABLE.forbidden.message },
  NotFound: { description: 'The resource is missing or owned by another operator (spec 1 §7).', example: ERROR_TABLE.not_found.message },
  MachineNotFound: { description: 'The machine is missing or owned by another operator (spec 1 §7).', example: ERROR_TABLE.machine_not_found.message },
  Conflict: { description: 'The request conflicts with the current state (spec 1 §7).', example: ERROR_TABLE.conflict.message },
  Gone: { description: 'The resource existed and is gone for good (a retired credential, a superseded offer).', example: ERROR_TABLE.gone.message },
  PayloadTooLarge: {
    description: `The body is larger than the parser accepts: ${BODY_LIMITS}. Any request that carries a body is read before routing.`,
    example: 'Request body too large',
  },
  UnsupportedEncoding: {
    description:
      'The body has a charset other than UTF-8 or a Content-Encoding other than identity, gzip, deflate or br. Any request that carries a body is read before routing.',
    example: `${BAD_REQUEST}: unsupported body encoding`,
    prefix: BAD_REQUEST,
  },
  Validation: {
    description: 'Malformed path, query or body types (spec 1 §7). The message is the catalogue text, then the reasons.',
    example: ERROR_TABLE.validation.message,
  },
  PreconditionRequired: { description: 'A precondition the operation needs is missing.', example: ERROR_TABLE.precondition_required.message },
  RateLimited: {
    description: 'Hourly limit exceeded: 1,000 requests per hour per credential (spec 1 §8).',
    example: ERROR_TABLE.rate_limited.message,
    headers: { 'Retry-After': { description: 'Seconds until the budget renews (3600)', schema: { type: 'integer', minimum: 0 }, example: 3600 } },
  },
  Upstream: { description: 'An upstream service failed; its error is returned verbatim (spec 1 §7).', example: ERROR_TABLE.upstream.message },
  Unavailable: {
    description:
      'The service cannot answer now: its store is unreachable, busy or full, or this replica is draining. Nothing of the request was written; retry after the given seconds (docs/decisions/outages.md).',
    example: ERROR_TABLE.unavailable.message,
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 }, example: 2 } },
  },
} satisfies Record<string, ErrorKind>;

export type ErrorKindName = keyof typeof ERROR_KINDS;

/** RFC 6749 §5.2 errors of the token endpoint (never the envelope). */
export const OAUTH_ERRORS: Record<number, { description: string; error: string; error_description: string }> = {
  400: {
    description: 'RFC 6749 §5.2 `invalid_request`, `invalid_grant`, `unsupported_grant_type` or `invalid_scope`.',
    error: 'invalid_request',
    error_description: 'Malformed request body',
  },
  401: {
    description: 'RFC 6749 §5.2 `invalid_client`: unknown client or wrong secret.',
    error: 'invalid_client',
    error_description: 'Client authentication failed',
  },
  413: { description: `The body is larger than the parser accepts: ${BODY_LIMITS}.`, error: 'invalid_request', error_description: 'Request body too large' },
  415: {
    description: 'The body has a charset other than UTF-8 or an unsupported Content-Encoding.',
    error: 'invalid_request',
    error_description: 'Malformed request body',
  },
  429: { description: 'Too many attempts for this client.', error: 'invalid_request', error_description: 'Too many requests' },
};

/** Which named response a status gets on a route. */
export function errorKindOf(r: ErrorFacts, status: number): ErrorKindName | null {
  switch (status) {
    case 400:
      return 'BadRequest';
    case 401:
      return r.auth === 'device' ? 'DeviceUnauthorized' : r.auth === 'signature' ? 'SignatureUnauthorized' : 'Unauthorized';
    case 403:
      return r.auth === 'admin' ? 'AdminRequired' : r.auth === 'device' ? 'DeviceForbidden' : 'Forbidden';
    case 404:
      return /:machineNo\b/.test(r.path) ? 'MachineNotFound' : 'NotFound';
    case 409:
      return 'Conflict';
    case 410:
      return 'Gone';
    case 413:
      return 'PayloadTooLarge';
    case 415:
      return 'UnsupportedEncoding';
    case 422:
      return 'Validation';
    case 428:
      return 'PreconditionRequired';
    case 429:
      return 'RateLimited';
    case 502:
      return 'Upstream';
    case 503:
      return 'Unavailable';
    default:
      return null;
  }
}

/**
 * The error statuses a route answers by what its doc says, before anything route-specific:
 * - the body parsers read any body a request carries (app.ts), before routing, whatever the method:
 *   400 (not valid JSON), 413 (too large) and 415 (charset or encoding) everywhere; 503 (the store unavailable) everywhere;
 * - params, query or body parsed with a schema: 400 (missing or out of rule) and 422 (wrong types);
 * - the auth kind: operator and admin 401 → 429 → 403 (403 where a scope or admin is needed, or where an
 *   access-group session is refused: every operator route not opened to one),
 *   device 401/403, signature 401, the OAuth token endpoint 400/401.
 */
export function derivedErrors(r: ErrorFacts): number[] {
  // 503: any route may meet its store's outage (docs/decisions/outages.md)
  const e = new Set<number>([400, 413, 415, 503]);
  if (r.params || r.query || r.body) e.add(422);
  switch (r.auth) {
    case 'operator':
      e.add(401).add(429);
      // 403: a scope the credential lacks, or an access-group session on a route not opened to one
      if (requiredScopeSets(r).some((s) => s.length > 0) || !r.groupSessions) e.add(403);
      break;
    case 'admin':
      e.add(401).add(429).add(403);
      break;
    case 'device':
      e.add(401).add(403);
      break;
    case 'signature':
      e.add(401);
      break;
    case 'oauth-client':
      e.add(400).add(401).add(429);
      e.delete(422); // the token endpoint answers RFC 6749 errors: a malformed form is `invalid_request` (400)
      break;
    case 'none':
      break;
  }
  return [...e];
}

/** The scope sets a credential may satisfy (any one, every scope of it): `scopeAlternatives`, else `[scopes]`. */
export function requiredScopeSets(r: Pick<ErrorFacts, 'scopes' | 'scopeAlternatives'>): Scope[][] {
  return r.scopeAlternatives?.length ? r.scopeAlternatives : [r.scopes ?? []];
}
