import type pg from 'pg';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { Database } from './database.ts';

/**
 * A message to every replica at once, each delivered to the subscriber of every process sharing the
 * store (the sender's own included). Best effort: a message sent while a replica is disconnected is not
 * replayed, so users keep a slower safety net (the pending long poll keeps its store probe).
 */
export interface Broadcast {
  readonly kind: 'postgres' | 'redis';
  /** Whether the listening side is connected now (a disconnected one reconnects with backoff). */
  readonly listening: boolean;
  publish(message: string): Promise<void>;
  close(): Promise<void>;
}

export interface BroadcastOptions {
  /** A short name; the store's schema (PostgreSQL) or the key prefix (Redis) is added to it. */
  channel: string;
  onMessage(message: string): void;
  onError(err: unknown, what: string): void;
  /** First reconnection delay; doubles up to 30 s. */
  retryMs?: number;
}

const MAX_RETRY_MS = 30_000;

/**
 * PostgreSQL LISTEN/NOTIFY: one dedicated connection per process listens (outside the pool, which would
 * hand the session to other queries); `pg_notify` goes through the pool. Channel names are per database,
 * so the schema is part of the name (test schemas share a database).
 */
export class PgBroadcast implements Broadcast {
  readonly kind = 'postgres';
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs: number;
  private timer: NodeJS.Timeout | null = null;
  readonly channel: string;

  constructor(
    private readonly database: Pick<Database, 'db' | 'dedicated'> & { dedicated: NonNullable<Database['dedicated']> },
    private readonly opts: BroadcastOptions,
  ) {
    // NOTIFY channels are identifiers: at most 63 bytes
    this.channel = `${opts.channel}:${database.dedicated.scope}`.slice(0, 63);
    this.retryMs = opts.retryMs ?? 500;
  }

  get listening(): boolean {
    return this.client !== null;
  }

  /** Connects and LISTENs; on failure keeps retrying in the background (resolves either way). */
  async start(): Promise<void> {
    if (this.closed) return;
    let client: pg.Client | null = null;
    try {
      client = await this.database.dedicated.connect();
      client.on('notification', (m) => {
        if (m.channel === this.channel && m.payload !== undefined) this.opts.onMessage(m.payload);
      });
      const lost = (err?: unknown) => {
        if (this.client !== client) return;
        this.client = null;
        client?.removeAllListeners('end');
        void client?.end().catch(() => {});
        if (!this.closed) {
          this.opts.onError(err ?? new Error('connection ended'), 'listen connection lost');
          this.retry();
        }
      };
      client.on('error', lost);
      client.on('end', () => lost());
      await client.query(`LISTEN "${this.channel.replaceAll('"', '""')}"`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
      this.retryMs = this.opts.retryMs ?? 500;
    } catch (err) {
      await client?.end().catch(() => {});
      if (this.closed) return;
      this.opts.onError(err, 'listen failed');
      this.retry();
    }
  }

  private retry(): void {
    if (this.closed || this.timer) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.start();
    }, wait);
    this.timer.unref();
  }

  async publish(message: string): Promise<void> {
    await sql`select pg_notify(${this.channel}, ${message})`.execute(this.database.db);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const c = this.client;
    this.client = null;
    if (c) {
      c.removeAllListeners('end');
      await c.end().catch(() => {});
    }
  }
}

/** Redis pub/sub: a duplicate connection subscribes (a subscribed connection can do nothing else); publish on the shared one. */
export class RedisBroadcast implements Broadcast {
  readonly kind = 'redis';
  private readonly sub: Redis;
  private subscribed = false;
  readonly channel: string;

  constructor(
    private readonly redis: Redis,
    keyPrefix: string,
    private readonly opts: BroadcastOptions,
  ) {
    this.channel = `${keyPrefix}${opts.channel}`;
    this.sub = redis.duplicate();
    this.sub.on('error', (err) => opts.onError(err, 'redis subscriber'));
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === this.channel) opts.onMessage(message);
    });
    // ioredis re-subscribes by itself after a reconnect
    this.sub.on('ready', () => (this.subscribed = true));
    this.sub.on('close', () => (this.subscribed = false));
  }

  get listening(): boolean {
    return this.subscribed;
  }

  async start(): Promise<void> {
    try {
      await this.sub.subscribe(this.channel);
      this.subscribed = true;
    } catch (err) {
      this.opts.onError(err, 'subscribe failed');
    }
  }

  async publish(message: string): Promise<void> {
    await this.redis.publish(this.channel, message);
  }

  async close(): Promise<void> {
    this.subscribed = false;
    this.sub.disconnect();
  }
}

/**
 * Redis pub/sub when Redis is configured, else LISTEN/NOTIFY on a PostgreSQL store, else nothing (SQLite:
 * one process owns the file, so there is no other replica to tell). Started: listening, or retrying.
 */
export async function openBroadcast(
  d: { database: Pick<Database, 'db' | 'dedicated'>; redis: Redis | null; redisKeyPrefix: string },
  opts: BroadcastOptions,
): Promise<Broadcast | null> {
  if (d.redis) {
    const b = new RedisBroadcast(d.redis, d.redisKeyPrefix, opts);
    await b.start();
    return b;
  }
  if (d.database.dedicated) {
    const b = new PgBroadcast({ db: d.database.db, dedicated: d.database.dedicated }, opts);
    await b.start();
    return b;
  }
  return null;
}
