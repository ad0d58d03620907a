import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type {} from 'pino-http';
import { ZodError } from 'zod';
import { AppError, ERROR_TABLE, type ErrorCode } from './errors.ts';
import { sendError } from './envelope.ts';
import { storeUnavailable, type UnavailableReason } from '../db/unavailable.ts';

/**
 * A request the store could not serve (down, restarting, full, busy): 503 with when to try again. Every write is one
 * transaction, so nothing of it stayed behind; the client's retry is safe (docs/decisions/outages.md).
 */
export const STORE_UNAVAILABLE: Record<UnavailableReason, { message: string; retryAfterSeconds: number }> = {
  unreachable: { message: 'the database is not reachable; nothing was changed, try again shortly', retryAfterSeconds: 2 },
  busy: { message: 'the database is busy; nothing was changed, try again shortly', retryAfterSeconds: 1 },
  full: { message: "the store's disk is full; nothing was changed", retryAfterSeconds: 30 },
  io: { message: 'the store could not use its disk; nothing was changed', retryAfterSeconds: 30 },
};

/** How much of a request's faults an error message shows: enough to fix the request, never a copy of it. */
export const MESSAGE_BOUNDS = {
  /** Issues listed; the rest are counted ("… and 49990 more"). */
  issues: 10,
  /** Characters of one issue (path and message): an unknown key or an echoed value can be any length. */
  issueChars: 200,
  /** Characters of the whole message, whatever produced it. */
  messageChars: 4096,
} as const;

/** `s` cut to at most `max` characters, ending in '…' when cut (never half a surrogate pair). */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  let cut = s.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** The first few issues, each cut to a bounded length, then how many more there are. */
export function describeIssues(issues: readonly { path: string; message: string }[]): string {
  const shown = issues.slice(0, MESSAGE_BOUNDS.issues).map((i) => truncate(i.path ? `${i.path}: ${i.message}` : i.message, MESSAGE_BOUNDS.issueChars));
  const more = issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')}; … and ${more} more` : shown.join('; ');
}

/** Every error message goes out through here: the catalogue text first, bounded in length. */
function sendBounded(res: Parameters<typeof sendError>[0], status: number, message: string, headers?: Record<string, string>): void {
  sendError(res, status, truncate(message, MESSAGE_BOUNDS.messageChars), headers);
}

/** Unknown routes answer 404 in the envelope. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendBounded(res, 404, `No route for ${req.method} ${truncate(req.path, MESSAGE_BOUNDS.issueChars)}`);
};

/**
 * The one place errors become responses. AppErrors render with their status; body-parser failures
 * (malformed JSON, oversized bodies) become 400/413; anything else is a 500 whose cause is logged,
 * never shown.
 */
/**
 * Spec 1 §7 fixes the text of a 400 and a 401; a specific reason follows it ("<catalogue text>: <reason>")
 * so a client can match the status's message and a person still reads why. One rule for every domain.
 */
const CATALOGUED = new Set<ErrorCode>(['bad_request', 'unauthorized']);
function catalogued(err: AppError): string {
  const text = ERROR_TABLE[err.code].message;
  if (!CATALOGUED.has(err.code) || err.message.startsWith(text)) return err.message;
  return `${text}: ${err.message}`;
}

export function errorHandler(logger: Logger, metrics: { writeFailures: number }): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      req.log?.error({ err }, 'error after headers were sent');
      res.end();
      return;
    }
    if (err instanceof AppError) {
      const message = catalogued(err);
      const detail = err.options.issues?.length ? `${message}: ${describeIssues(err.options.issues)}` : message;
      sendBounded(res, err.status, detail, err.options.headers);
      return;
    }
    if (err instanceof URIError) {
      // a path parameter that is not valid percent-encoding (`/api/v1/machines/%zz`)
      sendError(res, 400, `${ERROR_TABLE.bad_request.message}: the path is not valid percent-encoding`);
      return;
    }
    if (err instanceof ZodError) {
      const issues = err.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      sendBounded(res, 422, `${ERROR_TABLE.validation.message}: ${describeIssues(issues)}`);
      return;
    }
    const e = err as { type?: string; status?: number; statusCode?: number; expose?: boolean };
    if (e && typeof e === 'object' && (typeof e.type === 'string' || e.expose === true)) {
      // body-parser errors carry a type and a 4xx status; a body that fails to decompress carries
      // only `expose` and its status (http-errors), and is the client's fault just the same
      const status = e.status ?? e.statusCode ?? 400;
      if (status >= 400 && status < 500) {
        const message =
          e.type === 'entity.parse.failed'
            ? `${ERROR_TABLE.bad_request.message}: body is not valid JSON`
            : e.type === 'entity.too.large'
              ? 'Request body too large'
              : e.type === 'encoding.unsupported' || e.type === 'charset.unsupported'
                ? `${ERROR_TABLE.bad_request.message}: unsupported body encoding`
                : // another exposed client error (say the static file sender's 404) keeps its own status's text
                  (Object.values(ERROR_TABLE).find((t) => t.status === status)?.message ?? ERROR_TABLE.bad_request.message);
        sendError(res, status, message);
        return;
      }
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') metrics.writeFailures++;
    const reason = storeUnavailable(err);
    if (reason) {
      const { message, retryAfterSeconds } = STORE_UNAVAILABLE[reason];
      // the outage is logged once per request, without a stack: it is the store's state, not a fault in the code
      (req.log ?? logger).warn({ reason, err: (err as Error).message }, 'store unavailable');
      sendError(res, 503, `${ERROR_TABLE.unavailable.message}: ${message}`, { 'Retry-After': String(retryAfterSeconds) });
      return;
    }
    (req.log ?? logger).error({ err }, 'unhandled error');
    sendError(res, 500, ERROR_TABLE.internal.message);
  };
}
