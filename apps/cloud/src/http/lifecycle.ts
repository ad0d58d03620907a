import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/**
 * The process's serving state: `serving` from the start, `draining` from the moment shutdown begins
 * (SIGTERM). Readiness (`GET /ready`) answers 503 "draining" from then on so a load balancer stops
 * sending work; while draining every response carries `Connection: close`, so a keep-alive client
 * opens its next request elsewhere instead of reusing a socket about to go. Liveness (`/health`) is
 * not affected: a draining process is alive.
 */
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

  /** Counts one request in flight until its response finishes or closes; `Connection: close` while draining. */
  track(res: ServerResponse): void {
    this.inFlight++;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      this.inFlight--;
    };
    res.once('finish', end);
    res.once('close', end);
    if (this.state === 'draining') res.setHeader('connection', 'close');
  }
}
