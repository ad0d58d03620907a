import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import type { Clock } from '@vend/protocol';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { AuditLog } from './http/audit.ts';
import { ApiDocs } from './http/api-docs.ts';
import { RateLimiter } from './http/rate-limit.ts';
import { Sealer } from './crypto/secrets.ts';
import { Lifecycle } from './http/lifecycle.ts';

/** Everything a request handler may need, built once in the composition root and passed in. */
export interface AppContext {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  redis: Redis | null;
  sealer: Sealer;
  audit: AuditLog;
  rateLimiter: RateLimiter;
  startedAt: number;
  /** Counters the persistence status reports. */
  metrics: { writeFailures: number };
  /** Route declarations, rendered as /openapi.json. */
  docs: ApiDocs;
  /** Serving or draining (shutdown under way): readiness, `Connection: close`, requests in flight. */
  lifecycle: Lifecycle;
}

/** A WAL checkpoint at least this long is logged (the disk was slow). */
const SLOW_CHECKPOINT_MS = 100;

export interface ContextOptions {
  clock: Clock;
  logger: Logger;
  /** An already-open database (tests); otherwise opened from the config. */
  database?: Database;
}

export async function createContext(config: Config, opts: ContextOptions): Promise<AppContext> {
  const database =
    opts.database ??
    (await openDatabase(
      config.databaseUrl
        ? { url: config.databaseUrl, onConnectionError: (err) => opts.logger.warn({ err: err.message }, 'database connection lost') }
        : {
            sqliteFile: `${config.dataDir}/vend-${config.mode}.sqlite`,
            onCheckpoint: ({ ms, frames }) => {
              // off the event loop now, but a slow one still tells of a slow disk
              if (ms >= SLOW_CHECKPOINT_MS) opts.logger.warn({ ms: Math.round(ms), frames }, 'sqlite checkpoint slow');
            },
            onCheckpointError: (message) => opts.logger.error({ err: message }, 'sqlite checkpointer failed; SQLite checkpoints on commit again'),
          },
    ));
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true }) : null;
  redis?.on('error', (err) => opts.logger.warn({ err: err.message }, 'redis error'));
  const sealer = new Sealer(config.dataKey);
  const audit = new AuditLog(opts.clock);
  return {
    config,
    database,
    clock: opts.clock,
    logger: opts.logger,
    redis,
    sealer,
    audit,
    rateLimiter: new RateLimiter(redis, config.redisKeyPrefix, { logger: opts.logger }),
    startedAt: opts.clock.now(),
    metrics: { writeFailures: 0 },
    docs: new ApiDocs(),
    lifecycle: new Lifecycle(),
  };
}

/** Closes the store and Redis: last, after the composition root's services stopped (`closeServices`). */
export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.database.close();
  if (ctx.redis) ctx.redis.disconnect();
}
