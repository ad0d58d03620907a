import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import type { Clock } from '@vend/protocol';
import type { Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { AuditLog } from './http/audit.ts';
import { ApiDocs } from './http/api-docs.ts';
import { RateLimiter } from './http/rate-limit.ts';
import { Sealer } from './crypto/secrets.ts';
import type { Geocoder } from './domains/machines/geocoder.ts';
import { NominatimGeocoder } from './domains/machines/nominatim.ts';
import { DeviceRuntime } from './domains/device-credentials/runtime.ts';
import { PendingNotifier } from './domains/commands/pending-notifier.ts';
import { CommandsRepo } from './domains/commands/commands.repo.ts';
import { Lifecycle } from './http/lifecycle.ts';
import { openBroadcast, type Broadcast } from './db/broadcast.ts';

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
  /** Address geocoder for machine placement; null without GEOCODER_URL (every geocode is `skipped`). */
  geocoder: Geocoder | null;
  /** Per-process state of the cabinet gateway: verified device-key cache, witness tokens, write throttles. */
  devices: DeviceRuntime;
  /** Long-polling `GET /cabinet/pending` calls held by this process, woken when a command is enqueued here. */
  pendingNotifier: PendingNotifier;
  /** Cross-replica push of enqueued commands (Redis pub/sub or PostgreSQL LISTEN/NOTIFY); null on SQLite or with PENDING_PUSH=false. */
  broadcast: Broadcast | null;
  /** Cross-replica push of device-credential changes (revocation, rotation, reset), same transport; null on SQLite without Redis. */
  credentialPush: Broadcast | null;
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
  /** A stand-in geocoder (tests); otherwise built from the config. */
  geocoder?: Geocoder | null;
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
  // One process per SQLite file: every enqueue is signalled in-process, so held calls need no look at the
  // store. Replicas share PostgreSQL: every 2 s one query probes all machines held here for commands
  // another replica enqueued.
  const commandsRepo = new CommandsRepo(database.db);
  const pendingNotifier = new PendingNotifier(
    opts.clock,
    database.dialect === 'postgres'
      ? {
          probe: (ids) => commandsRepo.machinesWithPending(ids),
          onProbeError: (err) => opts.logger.warn({ err: (err as Error).message }, 'pending probe failed'),
          onPublishError: (err) => opts.logger.warn({ err: (err as Error).message }, 'pending wake publish failed'),
        }
      : {},
  );
  // Replicas sharing a store tell each other at once (docs/decisions/scale-out.md); Redis pub/sub, else
  // LISTEN/NOTIFY, else (SQLite: one process) nothing. Each push has a slower safety net for a message lost
  // while a listener reconnects: the pending probe above, the credential change feed.
  const shared = redis || database.dialect === 'postgres';
  const push = (channel: string, what: string, onMessage: (machineId: string) => void) =>
    openBroadcast(
      { database, redis, redisKeyPrefix: config.redisKeyPrefix },
      { channel, onMessage, onError: (err, doing) => opts.logger.warn({ err: (err as Error).message }, `${what}: ${doing}`) },
    );
  const broadcast = config.pendingPush && shared ? await push('vend_pending_wake', 'pending wake', (machineId) => pendingNotifier.wake(machineId)) : null;
  if (broadcast) pendingNotifier.connect({ publish: (machineId) => broadcast.publish(machineId) });
  const devices = new DeviceRuntime(opts.clock);
  const credentialPush = shared ? await push('vend_credential_change', 'credential push', (machineId) => devices.forgetMachine(machineId)) : null;
  if (credentialPush) {
    devices.connect({
      publish: (machineId) => credentialPush.publish(machineId),
      onError: (err) => opts.logger.warn({ err: (err as Error).message }, 'credential push: publish failed'),
    });
  }
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
    geocoder: opts.geocoder !== undefined ? opts.geocoder : config.geocoder ? new NominatimGeocoder(config.geocoder) : null,
    devices,
    pendingNotifier,
    broadcast,
    credentialPush,
    lifecycle: new Lifecycle(),
  };
}

/** Closes the context; `jobs`, the composition root's background loops when services were built on it, stop before the store goes. */
export async function closeContext(ctx: AppContext, jobs?: { stop(): Promise<void> }): Promise<void> {
  // held pending calls answer with what they have and none starts, before the store goes
  ctx.pendingNotifier.close();
  await jobs?.stop();
  await ctx.broadcast?.close();
  await ctx.credentialPush?.close();
  await ctx.database.close();
  if (ctx.redis) ctx.redis.disconnect();
}
