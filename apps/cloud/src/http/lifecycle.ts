import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * The process's serving state: `serving` from the start, `draining` from the moment shutdown begins
 * (SIGTERM). Readiness (`GET /ready`) answers 503 "draining" from then on so a load balancer stops
 * sending work; while draining every response carries `Connection: close`, so a keep-alive client
 * opens its next request elsewhere instead of reusing a socket about to go. Liveness (`/health`) is
 * not affected: a draining process is alive.
 */
const TRACKED = Symbol('counted in flight by');
type Tracked = ServerResponse & { [TRACKED]?: Lifecycle };

/** A tracked response's `finish` or `close`, whichever comes first: one function for every response (no closure per request). */
function untrack(this: Tracked): void {
  const lifecycle = this[TRACKED];
  if (lifecycle === undefined) return;
  this[TRACKED] = undefined;
  lifecycle.inFlight--;
}

export class Lifecycle {
  private state: 'serving' | 'draining' = 'serving';
  /** Requests received and not yet answered (or abandoned by their client). */
  inFlight = 0;

  get draining(): boolean {
    return this.state === 'draining';
  }

  startDraining(): void {
    this.state = 'draining';
  }

  /** First in the stack: counts requests in flight and closes keep-alive sockets while draining. */
  middleware(): RequestHandler {
    return (_req, res, next) => {
      this.track(res);
      next();
    };
  }

  /** Counts one request in flight (once, however often it is tracked) until its response finishes or closes; `Connection: close` while draining. */
  track(res: ServerResponse): void {
    if ((res as Tracked)[TRACKED] === this) return;
    this.inFlight++;
    (res as Tracked)[TRACKED] = this;
    res.on('finish', untrack);
    res.on('close', untrack);
    if (this.state === 'draining') res.setHeader('connection', 'close');
  }
}
