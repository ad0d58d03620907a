import type { Logger } from 'pino';
import type { AppContext } from './context.ts';
import type { RunningServer } from './server.ts';
import type { Services } from './services.ts';
import { closeContext } from './context.ts';
import { stopJobs } from './background-jobs.ts';

export interface ShutdownOptions {
  /** Keep accepting (readiness already says draining) this long, so a load balancer stops routing here first. */
  delayMs: number;
  /** Requests in flight get this long to finish once the listener is closed; then their sockets are cut. */
  graceMs: number;
}

export interface ShutdownReport {
  /** Requests still unanswered when the grace ran out (their connections were closed). */
  cutRequests: number;
  ms: number;
}

/**
 * A graceful stop (SIGTERM): readiness turns "draining" at once; held long polls are answered now (with
 * what the store holds) and no new one is held; the background loops stop and the leader lease is
 * released so a follower takes over on its next tick; after `delayMs` the listener closes (idle keep-alive
 * sockets with it; answers in flight carry `Connection: close`); in-flight requests get `graceMs` to
 * finish; then the store and Redis close. The caller exits.
 */
export async function gracefulShutdown(
  ctx: AppContext,
  services: Services,
  server: RunningServer,
  o: ShutdownOptions,
  logger: Logger,
): Promise<ShutdownReport> {
  const started = Date.now();
  ctx.lifecycle.startDraining();
  services.runtime.releaseHeld();
  const jobsStopped = stopJobs(services).catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'stopping the background loops failed'));
  if (o.delayMs > 0) await new Promise((r) => setTimeout(r, o.delayMs));
  const drained = new Promise<boolean>((resolve) => server.server.close(() => resolve(true)));
  // a keep-alive socket whose request was already in flight when draining began goes idle after its answer
  const idleCloser = setInterval(() => server.server.closeIdleConnections(), 50);
  server.server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([drained, new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), o.graceMs)))]);
  clearTimeout(timer);
  clearInterval(idleCloser);
  const cutRequests = inTime ? 0 : ctx.lifecycle.inFlight;
  if (!inTime) {
    logger.warn({ inFlight: cutRequests, graceMs: o.graceMs }, 'requests still in flight after the shutdown grace: closing their connections');
    server.server.closeAllConnections();
  }
  await jobsStopped;
  await services.runtime.disconnect();
  await closeContext(ctx);
  return { cutRequests, ms: Date.now() - started };
}
