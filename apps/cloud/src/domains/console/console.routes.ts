import { Router, type Request, type Response } from 'express';
import { AppError } from '../../http/errors.ts';
import { html, layout, sendPage } from '../../http/html.ts';
import { SESSION_COOKIE, readCookies, type SessionCsrf } from '../../http/page-session-auth.ts';
import type { AuthMethod, Authenticator } from '../../http/principal.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { ConsoleFiles } from './console-files.ts';
import { consoleSwitchRoutes, type ConsoleSwitchDeps } from './console-switch.ts';

export interface ConsoleRoutesDeps {
  /** The console's built files (config CONSOLE_DIR). */
  consoleDir: string;
  auth: Authenticator;
  sessionCsrf: SessionCsrf;
  /** The session's hourly budget: loading the page spends one request of it, as every page does. */
  rateLimiter: Pick<RateLimiter, 'consume'>;
  /** The access-group switch's services (console-switch.ts). */
  access: ConsoleSwitchDeps['access'];
  signIn: ConsoleSwitchDeps['signIn'];
  config: ConsoleSwitchDeps['config'];
}

/** The console's own policy: its bundle and the API of this origin only; no inline script or style. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "base-uri 'none'",
].join('; ');

const SESSION_KINDS: ReadonlySet<AuthMethod> = new Set(['session', 'access']);

function notBuiltPage() {
  return layout({
    title: 'The console is not built',
    body: html`<h1>The console is not built</h1>
      <div class="notice warn">
        <p>
          This server has no build of the operator console to serve. Run <code>bash scripts/setup</code> (it builds the console), or point
          <code>CONSOLE_DIR</code> at a build, then reload this page.
        </p>
      </div>
      <p>The API works meanwhile: <a href="/docs">the API reference</a>.</p>`,
  });
}

/** The path and query a browser asked for, as the sign-in's `next` (the sign-in refuses anything not a plain path of this service). */
function asked(req: Request): string {
  return req.originalUrl.length <= 512 ? req.originalUrl : '/console/';
}

/**
 * The operator console (docs/decisions/console.md), a client of the public API:
 * - `GET /console` → 301 `/console/`;
 * - `GET /console/assets/<name>`: an allow-listed file of the build, with an ETag, `no-cache` and `nosniff`;
 * - any other `GET /console/…`: the build's index.html (the console routes itself) with the session's CSRF
 *   token in `<meta name="csrf-token">`, under a strict policy; no live session → 303 `/signin?next=<path>`;
 * - no build at all → 503 naming `bash scripts/setup` (after the sign-in: the QR's address works the same either way);
 * - `POST /console/access/{switch,back,signout}`: the access-group switch (console-switch.ts).
 */
export function consoleRoutes(deps: ConsoleRoutesDeps): Router {
  const r = Router();
  const files = new ConsoleFiles(deps.consoleDir);
  r.use(consoleSwitchRoutes(deps));

  r.get('/console', (req, res, next) => {
    if (req.path !== '/console') return next();
    res.redirect(301, '/console/');
  });

  r.get('/console/assets/:name', async (req, res) => {
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' });
    const file = await files.asset(req.params.name);
    if (!file) {
      if (!(await files.built())) return sendPage(res, 503, notBuiltPage());
      return res.status(404).type('text/plain').send('Not found');
    }
    res.set({ ETag: file.etag, 'Content-Type': file.contentType });
    if (req.headers['if-none-match'] === file.etag) return res.status(304).end();
    res.status(200).send(file.bytes);
  });

  r.get('/console/{*rest}', async (req, res) => {
    // a nested name under assets/ is no asset and no page
    if (req.path.startsWith('/console/assets/')) return res.status(404).set('X-Content-Type-Options', 'nosniff').type('text/plain').send('Not found');
    const token = readCookies(req).get(SESSION_COOKIE);
    const p = token ? await deps.auth.fromBearer(token) : null;
    if (!token || !p || !SESSION_KINDS.has(p.authMethod)) return signIn(req, res);
    if (!(await deps.rateLimiter.consume(`${p.authMethod}:${p.credentialId}`, p.rateLimit))) {
      throw new AppError('rate_limited', undefined, { headers: { 'Retry-After': '3600' } });
    }
    if (!(await files.built())) return sendPage(res, 503, notBuiltPage());
    const page = await files.index(deps.sessionCsrf.tokenFor(token));
    if (page === null) return sendPage(res, 503, notBuiltPage());
    res.set({
      'Content-Security-Policy': CONSOLE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
      'Cache-Control': 'no-store',
    });
    res.status(200).type('html').send(page);
  });

  return r;
}

function signIn(req: Request, res: Response): void {
  res.set('Cache-Control', 'no-store').redirect(303, `/signin?next=${encodeURIComponent(asked(req))}`);
}
