import { isScope, type Scope } from '../../http/scopes.ts';

/**
 * The OAuth 2.0 pieces of the token endpoint that need no I/O: the RFC 6749 §5.2 error, client
 * authentication parsing (§2.3.1) and scope narrowing (§3.3).
 */

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

/** An error of the token endpoint, rendered as `{error, error_description}` (never in the envelope). */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401 | 413 | 415 | 429,
    readonly error: OAuthErrorCode | 'rate_limited',
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

/** `WWW-Authenticate` answer when the client tried HTTP Basic (RFC 6749 §5.2). */
export const BASIC_CHALLENGE = 'Basic realm="vend", charset="UTF-8"';

const invalidClient = (basic: boolean, description = 'Client authentication failed') =>
  new OAuthError(401, 'invalid_client', description, basic ? { 'WWW-Authenticate': BASIC_CHALLENGE } : {});

/**
 * RFC 6749 Appendix A.1: `client-id = *VSCHAR` (%x20-7E). Anything else (a NUL, a control character,
 * non-ASCII) cannot name a client of ours and is refused before the lookup: PostgreSQL text cannot even
 * hold a NUL, so such an id must never reach the store.
 */
const CLIENT_ID = /^[\x20-\x7E]+$/;

/** application/x-www-form-urlencoded decoding of one value: `+` is a space, percent escapes are UTF-8. Null when malformed. */
export function formDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * Parses `Authorization: Basic base64(urlencode(client_id) ":" urlencode(client_secret))`
 * (RFC 6749 §2.3.1). Null when the header is not Basic at all; throws invalid_client when it is
 * Basic but malformed.
 */
export function parseBasicCredentials(header: string): { clientId: string; clientSecret: string } | null {
  const m = /^Basic(?:\s+(.*))?$/i.exec(header.trim());
  if (!m) return null;
  const b64 = (m[1] ?? '').trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) throw invalidClient(true, 'Malformed Basic credentials');
  const decoded = Buffer.from(b64, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidClient(true, 'Malformed Basic credentials');
  const clientId = formDecode(decoded.slice(0, colon));
  const clientSecret = formDecode(decoded.slice(colon + 1));
  if (!clientId || clientSecret === null) throw invalidClient(true, 'Malformed Basic credentials');
  // `:` separates the id from the secret in Basic, so it cannot be part of an id (RFC 7617 §2).
  if (!CLIENT_ID.test(clientId) || clientId.includes(':')) throw invalidClient(true, 'Malformed client_id');
  return { clientId, clientSecret };
}

export interface TokenRequest {
  grantType: 'client_credentials';
  clientId: string;
  clientSecret: string;
  /** Requested scopes; null when the `scope` parameter was absent or empty (the client's full set). */
  scope: string[] | null;
  /** The client authenticated with HTTP Basic (so a 401 carries `WWW-Authenticate: Basic`). */
  basic: boolean;
}

const PARAMS = ['grant_type', 'client_id', 'client_secret', 'scope'] as const;
/** RFC 6749 §3.3 scope-token: visible ASCII except `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const MAX_PARAM = 1024;

/**
 * Reads a client-credentials token request from the parsed form body and the Authorization
 * header, in the order a client can act on: malformed request (400 invalid_request), grant type
 * (400 unsupported_grant_type), client authentication present and well-formed (401
 * invalid_client). Whether the client and its secret are real is the service's question.
 */
export function readTokenRequest(body: unknown, authorization: string | undefined): TokenRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OAuthError(400, 'invalid_request', 'The body must be application/x-www-form-urlencoded');
  }
  const form = body as Record<string, unknown>;
  const fields: Partial<Record<(typeof PARAMS)[number], string>> = {};
  for (const name of PARAMS) {
    if (!Object.hasOwn(form, name)) continue;
    const v = form[name];
    // RFC 6749 §3.2: parameters must not be included more than once.
    if (typeof v !== 'string') throw new OAuthError(400, 'invalid_request', `Parameter ${name} must be sent exactly once`);
    if (v.length > MAX_PARAM) throw new OAuthError(400, 'invalid_request', `Parameter ${name} is too long`);
    fields[name] = v;
  }

  if (!fields.grant_type) throw new OAuthError(400, 'invalid_request', 'Missing grant_type');
  if (fields.grant_type !== 'client_credentials') {
    throw new OAuthError(400, 'unsupported_grant_type', 'Only the client_credentials grant is supported');
  }

  let scope: string[] | null = null;
  if (fields.scope !== undefined && fields.scope.trim() !== '') {
    const words = fields.scope.split(' ');
    if (words.some((w) => !SCOPE_TOKEN.test(w))) throw new OAuthError(400, 'invalid_scope', 'Malformed scope');
    scope = [...new Set(words)];
  }

  const header = authorization?.trim() ? authorization : undefined;
  if (header !== undefined) {
    const basic = parseBasicCredentials(header);
    if (!basic) throw invalidClient(true, 'Unsupported client authentication scheme; use Basic');
    if (fields.client_secret !== undefined) {
      throw new OAuthError(400, 'invalid_request', 'Client credentials sent both in the Authorization header and in the body');
    }
    if (fields.client_id !== undefined && fields.client_id !== basic.clientId) {
      throw new OAuthError(400, 'invalid_request', 'client_id in the body differs from the Authorization header');
    }
    return { grantType: 'client_credentials', clientId: basic.clientId, clientSecret: basic.clientSecret, scope, basic: true };
  }
  if (!fields.client_id || fields.client_secret === undefined) throw invalidClient(false, 'Missing client credentials');
  if (!CLIENT_ID.test(fields.client_id)) throw invalidClient(false, 'Malformed client_id');
  return { grantType: 'client_credentials', clientId: fields.client_id, clientSecret: fields.client_secret, scope, basic: false };
}

/**
 * The scopes a token gets: the client's whole set when none were requested, else exactly the
 * requested ones, which may only narrow it. Anything unknown or not held is invalid_scope.
 */
export function narrowScopes(held: readonly Scope[], requested: string[] | null): Scope[] {
  if (requested === null) return [...held];
  for (const s of requested) {
    if (!isScope(s) || !held.includes(s)) throw new OAuthError(400, 'invalid_scope', `Scope not available to this client: ${s}`);
  }
  return requested as Scope[];
}
