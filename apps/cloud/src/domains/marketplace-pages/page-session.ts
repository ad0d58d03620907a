import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import type { Authenticator, Principal } from '../../http/principal.ts';
import { SESSION_COOKIE, readCookies, type SessionCsrf } from '../../http/page-session-auth.ts';

export { SESSION_COOKIE, readCookies };

/**
 * Cookies and CSRF for the server-rendered pages (docs/decisions/marketplace.md, "Buyer pages").
 *
 * - `vend_session`: the operator's sign-in session token (the one `/api/v1/auth/mfa/verify` issues),
 *   `HttpOnly; SameSite=Strict; Path=/`, `Secure` except over plain HTTP to a loopback host in the sandbox.
 * - `vend_signin`: the five-minute sign-in ticket between the password step and the TOTP step.
 * - `vend_csrf`: a random value; every POST form carries `_csrf` = HMAC(key, cookie | session token), and a
 *   POST whose field does not match its cookie (and its session) is refused with 403 — a signed
 *   double-submit token, bound to the session once there is one.
 */
export const TICKET_COOKIE = 'vend_signin';
export const CSRF_COOKIE = 'vend_csrf';
export const CSRF_FIELD = '_csrf';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie. Absent: a browser-session cookie. */
  maxAgeSeconds?: number;
  path?: string;
}

export interface PageSessionDeps {
  config: Pick<Config, 'mode' | 'dataKey'>;
  auth: Authenticator;
  sessionCsrf: SessionCsrf;
  /** The signed-in operator's hourly budget: the same counter as the session token's API calls. */
  rateLimiter: Pick<RateLimiter, 'consume'>;
}

/** The pages' cookies, CSRF tokens and signed-in operator. */
export class PageSession {
  readonly #csrfKey: Buffer;

  constructor(private readonly deps: PageSessionDeps) {
    this.#csrfKey = createHmac('sha256', deps.config.dataKey).update('marketplace-pages:csrf').digest();
  }

  /**
   * `Secure` everywhere but plain HTTP to a loopback address in the sandbox (a browser on the same host
   * as a sandbox run without TLS); production always marks its cookies Secure.
   */
  secure(req: Request): boolean {
    return !(this.deps.config.mode === 'sandbox' && req.protocol === 'http' && LOOPBACK.has(req.hostname));
  }

  setCookie(req: Request, res: Response, name: string, value: string, opts: CookieOptions = {}): void {
    const parts = [`${name}=${value}`, `Path=${opts.path ?? '/'}`, 'HttpOnly', 'SameSite=Strict'];
    if (opts.maxAgeSeconds !== undefined) parts.push(`Max-Age=${opts.maxAgeSeconds}`);
    if (this.secure(req)) parts.push('Secure');
    res.append('Set-Cookie', parts.join('; '));
  }

  clearCookie(req: Request, res: Response, name: string, path = '/'): void {
    this.setCookie(req, res, name, '', { maxAgeSeconds: 0, path });
  }

  /** The session token of the request's cookie, if any (not yet checked). */
  sessionToken(req: Request): string | null {
    return readCookies(req).get(SESSION_COOKIE) ?? null;
  }

  /**
   * The operator signed in on this browser: a live sign-in session (never an API key or OAuth token), else
   * null. Each call spends one request of the session's hourly budget — the counter its API calls share
   * (429 over budget).
   */
  async principal(req: Request): Promise<Principal | null> {
    const token = this.sessionToken(req);
    if (!token) return null;
    const p = await this.deps.auth.fromBearer(token);
    if (!p || p.authMethod !== 'session') return null;
    if (!(await this.deps.rateLimiter.consume(`${p.authMethod}:${p.credentialId}`, p.rateLimit))) {
      throw new AppError('rate_limited', undefined, { headers: { 'Retry-After': '3600' } });
    }
    return p;
  }

  private mac(csrfCookie: string, session: string | null): string {
    return createHmac('sha256', this.#csrfKey)
      .update(`${csrfCookie}|${session ?? ''}`)
      .digest('base64url');
  }

  /** The `_csrf` value of the forms on the page being rendered (sets the CSRF cookie when the browser has none). */
  csrfToken(req: Request, res: Response): string {
    let cookie = readCookies(req).get(CSRF_COOKIE);
    if (!cookie) {
      cookie = randomBytes(24).toString('base64url');
      this.setCookie(req, res, CSRF_COOKIE, cookie);
      // a page rendered in the same response as a sign-in reads the new cookie back
      req.headers.cookie = `${req.headers.cookie ? `${req.headers.cookie}; ` : ''}${CSRF_COOKIE}=${cookie}`;
    }
    return this.mac(cookie, this.sessionToken(req));
  }

  /**
   * Whether `field` is the session's own CSRF token (the console page's `<meta name="csrf-token">`): a form
   * the console renders (sign-out) carries that one, having no `vend_csrf` pair of its own.
   */
  sessionCsrfOk(req: Request, field: unknown): boolean {
    const token = this.sessionToken(req);
    return token !== null && this.deps.sessionCsrf.matches(token, field);
  }

  /** Whether a POST's `_csrf` field matches its cookie and session (constant time). */
  csrfOk(req: Request, field: unknown): boolean {
    const cookie = readCookies(req).get(CSRF_COOKIE);
    if (!cookie || typeof field !== 'string' || field.length > 128) return false;
    const want = Buffer.from(this.mac(cookie, this.sessionToken(req)));
    const got = Buffer.from(field);
    return got.length === want.length && timingSafeEqual(got, want);
  }
}
