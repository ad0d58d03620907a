import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';

/**
 * The browser's sign-in session as an API credential (docs/decisions/console.md). The pages keep the
 * session token `/api/v1/auth/mfa/verify` issues in the `vend_session` cookie (HttpOnly, SameSite=Strict);
 * a call to `/api/v1/*` may present that cookie instead of `Authorization`, but only together with the
 * `X-CSRF-Token` header holding the session's CSRF token: HMAC(key, session token), which a page of this
 * service reads from its `<meta name="csrf-token">` and no other site can learn. The cookie alone proves
 * nothing (a cross-site request carries it, or would without SameSite).
 */
export const SESSION_COOKIE = 'vend_session';
/**
 * The person's own sign-in session while the console is switched onto another operator's fleet (`vend_session` then
 * holds the fenced access session): HttpOnly, SameSite=Strict, never read as a credential — only by the switch's steps
 * and by sign-out, which ends both (domains/console/console-switch.ts).
 */
export const HOME_COOKIE = 'vend_home';
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_META = 'csrf-token';

const COOKIE_VALUE = /^[A-Za-z0-9_.-]{16,512}$/;

/** The request's cookies (only well-formed values are ever read; the first of a repeated name wins). */
export function readCookies(req: Request): Map<string, string> {
  const out = new Map<string, string>();
  const header = req.headers.cookie;
  if (typeof header !== 'string' || header.length > 8192) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (COOKIE_VALUE.test(value) && !out.has(name)) out.set(name, value);
  }
  return out;
}

/** The CSRF tokens of page sessions: one per session token, derived from the data key (nothing stored). */
export class SessionCsrf {
  readonly #key: Buffer;

  constructor(dataKey: string) {
    this.#key = createHmac('sha256', dataKey).update('page-session:api-csrf').digest();
  }

  /** The token a page signed in with `sessionToken` sends as `X-CSRF-Token`. */
  tokenFor(sessionToken: string): string {
    return createHmac('sha256', this.#key).update(sessionToken).digest('base64url');
  }

  /** Whether `value` is the CSRF token of `sessionToken` (constant time). */
  matches(sessionToken: string, value: unknown): boolean {
    if (typeof value !== 'string' || value.length > 128) return false;
    const want = Buffer.from(this.tokenFor(sessionToken));
    const got = Buffer.from(value);
    return got.length === want.length && timingSafeEqual(got, want);
  }

  /**
   * The session token of a request that carries the cookie AND the matching header; null otherwise. The
   * token itself is not checked here: the authenticator does that.
   */
  sessionOf(req: Request): string | null {
    const token = readCookies(req).get(SESSION_COOKIE);
    return token && this.matches(token, req.headers[CSRF_HEADER]) ? token : null;
  }
}
