import type { Clock } from '@vend/protocol';
import { sameDigest } from './device-keys.ts';

export interface CacheOptions {
  /** Entries kept; the least recently used goes first. */
  max: number;
  /** How long a verified result is trusted without asking the store: the bound on how late another replica's revocation takes effect here. */
  ttlMs: number;
}

interface Entry<V> {
  digest: Buffer;
  value: V;
  loadedAt: number;
}

/**
 * Verified device-key results, keyed by keyId and holding the SHA-256 of the secret that verified.
 * A hit requires the presented secret's digest to match in constant time, so a wrong secret for a
 * cached keyId is never accepted from the cache. Bounded (LRU) and short-lived (TTL); a local
 * rotation, revocation or reset invalidates every entry of the machine at once.
 *
 * Loads race with invalidation: a caller takes a `ticket()` before reading the store and passes it
 * to `set`; an invalidation of that machine after the ticket makes `set` a no-op, so a result read
 * before a revocation committed is never cached after it.
 */
export class CredentialCache<V extends { machineId: string }> {
  private readonly entries = new Map<string, Entry<V>>();
  /** keyIds cached per machine, so invalidating one machine never walks the whole cache. */
  private readonly byMachine = new Map<string, Set<string>>();
  private readonly invalidatedAt = new Map<string, number>();
  private counter = 0;

  constructor(
    private readonly clock: Clock,
    private readonly opts: CacheOptions,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  ticket(): number {
    return this.counter;
  }

  /** The cached value when `digest` matches the verified one and the entry is fresh; otherwise undefined. */
  get(keyId: string, digest: Buffer): V | undefined {
    const e = this.entries.get(keyId);
    if (!e) return undefined;
    if (this.clock.now() - e.loadedAt >= this.opts.ttlMs) {
      this.remove(keyId);
      return undefined;
    }
    if (!sameDigest(e.digest, digest)) return undefined;
    // LRU: most recently used moves to the end of the insertion order.
    this.entries.delete(keyId);
    this.entries.set(keyId, e);
    return e.value;
  }

  set(keyId: string, digest: Buffer, value: V, ticket: number): void {
    const invalidated = this.invalidatedAt.get(value.machineId);
    if (invalidated !== undefined && invalidated > ticket) return;
    this.remove(keyId);
    this.entries.set(keyId, { digest, value, loadedAt: this.clock.now() });
    let keys = this.byMachine.get(value.machineId);
    if (!keys) this.byMachine.set(value.machineId, (keys = new Set()));
    keys.add(keyId);
    while (this.entries.size > this.opts.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
  }

  private remove(keyId: string): void {
    const e = this.entries.get(keyId);
    if (!e) return;
    this.entries.delete(keyId);
    const keys = this.byMachine.get(e.value.machineId);
    keys?.delete(keyId);
    if (keys?.size === 0) this.byMachine.delete(e.value.machineId);
  }

  /** Drops every entry of a machine and refuses loads that started before now. */
  invalidateMachine(machineId: string): void {
    this.counter++;
    this.invalidatedAt.delete(machineId);
    this.invalidatedAt.set(machineId, this.counter);
    for (const k of [...(this.byMachine.get(machineId) ?? [])]) this.remove(k);
    // The refusal only matters for loads in flight; keep the map from growing without bound.
    if (this.invalidatedAt.size > this.opts.max) {
      const oldest = this.invalidatedAt.keys().next().value;
      if (oldest !== undefined) this.invalidatedAt.delete(oldest);
    }
  }
}
