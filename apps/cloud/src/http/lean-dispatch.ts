import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type {} from 'pino-http';
import { redactUrl } from '../logger.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Metrics } from './metrics.ts';

/** The request id of a call: the client's `x-request-id` when it is a sane token, else a fresh UUID; echoed in the response. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

/** One route the lean dispatch answers: exactly this method and path (no trailing slash, case as written). */
export interface LeanRoute {
  method: 'GET' | 'POST';
  path: string;
  /**
   * Answers the call; what it throws is rendered by the application's error handler. Taken from the server, the
   * request and response are Node's, typed as Express's: what Node gives (headers, `setHeader`, `end`), the
   * parsed `query` and `body`, and `sendOk`; anything of Express's own API only after `ensureExpress`.
   */
  handle(req: Request, res: Response): Promise<void>;
  /** Whether an answer that took `ms` is worth a log line (default: over one second). */
  slow?(req: Request, ms: number): boolean;
}

export interface LeanDispatchDeps {
  lifecycle: Lifecycle;
  metrics: Metrics;
  logger: Logger;
  /** The application's error handler: the same envelope for every failure. */
  errors: ErrorRequestHandler;
}

const SLOW_MS = 1000;

function slowByDefault(_req: Request, ms: number): boolean {
  return ms > SLOW_MS;
}

function logLine(id: string, req: Request): { id: string; method: string; url: string } {
  return { id, method: req.method, url: redactUrl(req.url) };
}

/**
 * The cabinets' hot legs answered before the rest of the stack (docs/decisions/gateway-and-credentials.md):
 * first in the application, it matches method and path exactly and answers with what the full stack would
 * do for that call — counted in flight and in `/metrics` by its route pattern, the request id echoed, errors
 * in the envelope — but without the per-request log line (only failures, 4xx and slow answers are logged,
 * or everything at debug) and without walking every other router. Anything else, including the same leg
 * spelled otherwise (`/Cabinet/heartbeat/`, `HEAD`), goes on to the full stack, which still serves it.
 */
export function leanDispatch(routes: readonly LeanRoute[], deps: LeanDispatchDeps): LeanDispatch {
  const table = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
  const { lifecycle, metrics, logger, errors } = deps;
  const match = (req: IncomingMessage, url: string, q: number): LeanRoute | undefined => table.get(`${req.method} ${q < 0 ? url : url.slice(0, q)}`);
  const serve = (route: LeanRoute, req: Request, res: Response): void => {
    const started = process.hrtime.bigint();
    lifecycle.track(res);
    const id = requestId(req, res);
    res.on('finish', () => {
      const status = res.statusCode;
      metrics.observe(route.path, req.method, status, started);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // a 503 (draining, the store down) is a state, not a fault
      const level = status === 503 ? 'warn' : status >= 500 ? 'error' : status >= 400 || (route.slow ?? slowByDefault)(req, ms) ? 'info' : 'debug';
      if (!logger.isLevelEnabled(level)) return;
      logger[level]({ req: logLine(id, req), res: { statusCode: status }, responseTime: Math.round(ms) }, 'request completed');
    });
    route.handle(req, res).catch((err: unknown) => {
      ensureExpress(res);
      // the error handler logs an unexpected failure on the request's logger, with its id
      req.log ??= logger.child({ req: logLine(id, req) });
      errors(err, req, res, () => undefined);
    });
  };
  const handler: RequestHandler = (req, res, next) => {
    const url = req.url;
    const route = match(req, url, url.indexOf('?'));
    if (route === undefined) {
      next();
      return;
    }
    // Express 5 parses the query string again on every read of `req.query`: parsed once here, as Express 4's query middleware did
    Object.defineProperty(req, 'query', { value: req.query, writable: true, configurable: true, enumerable: true });
    serve(route, req, res);
  };
  return Object.assign(handler, {
    listener: (app: Express): RequestListener => {
      // the app's query parser ("query parser" setting), as Express's `req.query` getter calls it
      const parseQuery = app.get('query parser fn') as ((query: string | null) => unknown) | undefined;
      return (req, res) => {
        const url = req.url ?? '';
        const q = url.indexOf('?');
        const route = match(req, url, q);
        if (route === undefined) {
          app(req, res);
          return;
        }
        // Node's request and response as they come, with what Express would add on the way to a route: its header, and the
        // query parsed once (what the getter answers: the parser given parseurl's query, null without a `?`; a matched url is
        // a plain path, so what follows its `?` is what parseurl returns). Express's prototypes are given only when its own
        // API is needed (`ensureExpress`): V8 gives an object whose prototype was switched a map of its own for every
        // property added later, so each call's request and response would be new shapes to every property access in Node's
        // HTTP code and ours (megamorphic inline caches missing on every call: the largest cost left on these legs).
        if (app.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
        (req as Request).query = (parseQuery === undefined ? {} : parseQuery(q < 0 ? null : url.slice(q + 1))) as Request['query'];
        (res as Lean)[EXPRESS_APP] = app;
        serve(route, req as Request, res as Response);
      };
    },
  });
}

const EXPRESS_APP = Symbol('the app a lean call belongs to');
type Lean = ServerResponse & { [EXPRESS_APP]?: Express | undefined };

/**
 * Gives a call the lean dispatch took from the server what `app.handle` gives every other (Express's request and
 * response prototypes, `req.res`, `res.locals`, `originalUrl`, `baseUrl`), before anything uses Express's own API on
 * it: the error handler, `res.send`. Once; nothing for a response Express set up itself.
 */
export function ensureExpress(res: ServerResponse): void {
  const app = (res as Lean)[EXPRESS_APP];
  if (app === undefined) return;
  (res as Lean)[EXPRESS_APP] = undefined;
  const s = res as Response;
  const r = res.req as Request;
  r.res = s;
  s.req = r;
  Object.setPrototypeOf(r, app.request);
  Object.setPrototypeOf(s, app.response);
  s.locals ??= Object.create(null) as Record<string, unknown>;
  r.originalUrl ??= r.url;
  r.baseUrl = '';
}

/**
 * The dispatch as the application's first middleware, and as the server's listener: the lean routes taken
 * straight from the server (Node's request and response, given Express's setup only when its API is needed:
 * `ensureExpress`), everything else handed to the app, where the middleware passes it on.
 */
export type LeanDispatch = RequestHandler & { listener(app: Express): RequestListener };

/** Runs Express body parsers in order, as the stack would before a route; a call without a body skips them, as they would. */
export async function parseBodies(parsers: readonly RequestHandler[], req: Request, res: Response): Promise<void> {
  // body-parser's own test (type-is `hasBody`): a body is announced by Transfer-Encoding or a Content-Length
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (length === undefined || Number.isNaN(Number(length)))) {
    if (!('body' in (req as object))) req.body = undefined;
    return;
  }
  for (const parse of parsers) {
    await new Promise<void>((resolve, reject) => {
      void parse(req, res, (err?: unknown) => (err === undefined || err === null ? resolve() : reject(err as Error)));
    });
  }
}
