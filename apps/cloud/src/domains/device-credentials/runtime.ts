import type { Clock } from '@vend/protocol';
import { CredentialCache } from './credential-cache.ts';
import { WitnessBook } from './witness.ts';
import { WriteThrottle } from './write-throttle.ts';

/** A verified device key as the cache holds it: enough to answer a gateway call without the store. */
export interface CachedCredential {
  machineId: string;
  machineNo: string;
  operatorId: string | null;
  retired: boolean;
  keyId: string;
  generation: number;
  deviceId: string | null;
  /** The credential's own state: `candidate`, `active`, `retired`, `revoked`. */
  state: string;
  /** The machine's credential state: `fleet-secret`, `enrolled`, `revoked`. */
  credState: string;
  rotationDue: boolean;
}

/**
 * Tunables of the device-credential hot path, in one place (docs/decisions/gateway-and-credentials.md).
 * - `syncIntervalMs`: at most this often a gateway call asks the store which machines' credential
 *   state changed (one indexed-by-time query per replica, not per call) and drops their cached
 *   verifications: the bound on how late a revocation, rotation or reset made by another replica
 *   takes effect here when its push (`connect`) was lost. Local changes take effect at once. `syncSkewMs` re-reads that much of the
 *   past each time, so replicas whose clocks disagree by less than it miss nothing.
 * - `cacheTtlMs`: a verified key is re-read from the store at least this often even without a change
 *   signal: the bound for what the change feed does not carry (a machine retired by the machines domain).
 * - `presenceIntervalMs`: `last_seen` is written at most this often per machine.
 * - `softwareIntervalMs`: an unchanged heartbeat report (versions, deferral, blocked) is rewritten at most this often.
 *   "Unchanged" is judged against the fingerprint stored with the report (`cabinet_status.report_fp`), not
 *   against what this replica last wrote, so a report written by another replica is never skipped as stale.
 * - `reportRecallMs`: a deferral or blocked block that cleared and comes back (same version, same floor)
 *   within this long keeps its `firstReportedAt`: the agent keeps its reports in memory and, after a
 *   restart, reports the block again only at its next upgrade check. One check interval (spec 2 §8: 21,600 s).
 */
export const DEVICE_RUNTIME_DEFAULTS = Object.freeze({
  cacheMax: 50_000,
  cacheTtlMs: 60_000,
  syncIntervalMs: 1_000,
  syncSkewMs: 5_000,
  /** The agent runs up to five gateway legs at once (heartbeat, poll, config, spool, upgrade), each echoing the same token. */
  witnessKeep: 6,
  witnessMachines: 50_000,
  presenceIntervalMs: 60_000,
  presenceMax: 100_000,
  softwareIntervalMs: 600_000,
  reportRecallMs: 21_600_000,
  suspicionIntervalMs: 10_000,
});

export type DeviceRuntimeOptions = typeof DEVICE_RUNTIME_DEFAULTS;

/** Tells every replica (this one included) that a machine's credential state changed: see `DeviceRuntime.connect`. */
export interface CredentialChangePublisher {
  publish(machineId: string): Promise<void>;
  /** A lost publish is only logged: the other replicas' change feed still finds the change within `syncIntervalMs`. */
  onError(err: unknown): void;
}

/**
 * The per-process state of the device gateway: the verified-key cache, the witness book and the
 * write throttles. Built once in the composition root (context.ts) and shared by the gateway,
 * family-A and credential-administration routers, so a local revocation invalidates what the
 * gateway serves from.
 */
export class DeviceRuntime {
  readonly cache: CredentialCache<CachedCredential>;
  readonly witness: WitnessBook;
  /** `last_seen`/online writes per machine. */
  readonly presence: WriteThrottle;
  /** Copy-suspicion writes per machine (a copied key answering every 3 s must not write every 3 s). */
  readonly suspicions: WriteThrottle;
  /** Fleet-secret contact writes per machine. */
  readonly fleetSecretSeen: WriteThrottle;
  /** The store's credential changes are known up to this instant (this replica's clock). */
  private syncedThrough: number;
  private lastSyncAt = Number.NEGATIVE_INFINITY;
  private syncing = false;
  private publisher: CredentialChangePublisher | null = null;

  constructor(
    private readonly clock: Clock,
    readonly options: DeviceRuntimeOptions = DEVICE_RUNTIME_DEFAULTS,
  ) {
    this.syncedThrough = clock.now();
    this.cache = new CredentialCache(clock, { max: options.cacheMax, ttlMs: options.cacheTtlMs });
    this.witness = new WitnessBook({ keep: options.witnessKeep, maxMachines: options.witnessMachines });
    this.presence = new WriteThrottle(clock, { intervalMs: options.presenceIntervalMs, max: options.presenceMax });
    this.suspicions = new WriteThrottle(clock, { intervalMs: options.suspicionIntervalMs, max: options.presenceMax });
    this.fleetSecretSeen = new WriteThrottle(clock, { intervalMs: options.presenceIntervalMs, max: options.presenceMax });
  }

  /**
   * Drops cached verifications of every machine whose credential state changed in the store since
   * the last look (another replica's enrolment, rotation, revocation or reset). Runs at most once per
   * `syncIntervalMs`, from whichever gateway call comes first; concurrent calls do not wait for it.
   */
  async syncChanges(changedSince: (since: number) => Promise<string[]>): Promise<void> {
    const now = this.clock.now();
    if (this.syncing || now - this.lastSyncAt < this.options.syncIntervalMs) return;
    this.syncing = true;
    this.lastSyncAt = now;
    try {
      for (const machineId of await changedSince(this.syncedThrough - this.options.syncSkewMs)) this.forgetMachine(machineId);
      this.syncedThrough = now;
    } finally {
      this.syncing = false;
    }
  }

  /**
   * Cross-replica push (docs/decisions/scale-out.md): from now on `invalidate` also tells every other
   * replica, whose subscriber calls `forgetMachine`, so a revocation made here is refused there as soon as
   * the message lands rather than at their next change-feed look. The feed stays as the safety net.
   */
  connect(publisher: CredentialChangePublisher): void {
    this.publisher = publisher;
  }

  /** After any credential-state change of a machine committed here: nothing cached about it is served again, on any replica. */
  invalidate(machineId: string): void {
    this.forgetMachine(machineId);
    const p = this.publisher;
    p?.publish(machineId).catch((err: unknown) => p.onError(err));
  }

  /** Drops this process's cached verifications of the machine (a local change, or a message from another replica). */
  forgetMachine(machineId: string): void {
    this.cache.invalidateMachine(machineId);
  }
}
