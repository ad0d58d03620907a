import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Dialect } from '../db/database.ts';
import type { LeaseRepo } from './lease.repo.ts';

export type LeaseKind = 'in-process' | 'postgres' | 'redis';

/**
 * Decides which replica runs the background loops. `acquire()` takes the lease or renews it when this
 * replica already holds it; it answers whether this replica is the leader now. Loops call it on every
 * tick, so the leader keeps renewing while it runs and a follower takes over once the lease lapses.
 */
export interface LeaderLease {
  readonly kind: LeaseKind;
  /** This replica's identity in the lease: the pod name plus a random suffix (two contexts in one process differ). */
  readonly holder: string;
  acquire(): Promise<boolean>;
  /** Gives the lease up (on shutdown) so a follower need not wait for it to lapse. Only the holder's lease is removed. */
  release(): Promise<void>;
}

/** SQLite (one process owns the file) or no shared store: this replica is alone, so it always leads. */
export class InProcessLease implements LeaderLease {
  readonly kind = 'in-process';
  constructor(readonly holder: string) {}
  async acquire(): Promise<boolean> {
    return true;
  }
  async release(): Promise<void> {}
}

/**
 * A lease row in the shared PostgreSQL store: one atomic upsert takes the row when it is free or
 * lapsed, or extends it when this replica holds it; otherwise it returns nothing. Expiry is the database
 * server's clock, as the Redis lease's is Redis's: no replica's own clock decides (docs/decisions/outages.md).
 */
export class StoreLease implements LeaderLease {
  readonly kind = 'postgres';
  constructor(
    private readonly leases: LeaseRepo,
    private readonly name: string,
    readonly holder: string,
    private readonly ttlMs: number,
  ) {}

  async acquire(): Promise<boolean> {
    return this.leases.acquire(this.name, this.holder, this.ttlMs);
  }

  async release(): Promise<void> {
    await this.leases.release(this.name, this.holder);
  }
}

/** Extends the key's expiry only while it still names this holder (atomic on the Redis server). */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
/** Deletes the key only while it still names this holder. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** `SET key holder NX PX ttl` takes a free lease; a Lua check-and-extend renews our own. Expiry is Redis's clock. */
export class RedisLease implements LeaderLease {
  readonly kind = 'redis';
  constructor(
    private readonly redis: Redis,
    readonly key: string,
    readonly holder: string,
    private readonly ttlMs: number,
  ) {}

  async acquire(): Promise<boolean> {
    const set = await this.redis.set(this.key, this.holder, 'PX', this.ttlMs, 'NX');
    if (set === 'OK') return true;
    const renewed = await this.redis.eval(RENEW, 1, this.key, this.holder, String(this.ttlMs));
    return Number(renewed) === 1;
  }

  async release(): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.key, this.holder);
  }
}

export interface LeaseDeps {
  dialect: Dialect;
  /** The lease row's repository (PostgreSQL). */
  leases: LeaseRepo;
  redis: Redis | null;
  redisKeyPrefix: string;
  pod: string;
  ttlMs: number;
}

export const LEASE_NAME = 'background-jobs';

/**
 * Redis when configured (replicas share it); else the PostgreSQL store's lease row; else (SQLite,
 * one process) in-process.
 */
export function createLease(d: LeaseDeps): LeaderLease {
  const holder = `${d.pod}:${randomBytes(4).toString('hex')}`;
  if (d.redis) return new RedisLease(d.redis, `${d.redisKeyPrefix}jobs:leader`, holder, d.ttlMs);
  if (d.dialect === 'postgres') return new StoreLease(d.leases, LEASE_NAME, holder, d.ttlMs);
  return new InProcessLease(holder);
}
