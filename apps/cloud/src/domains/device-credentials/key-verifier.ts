import { formatDeviceKey, parseDeviceKey, type Clock } from '@vend/protocol';
import type { AuditLog } from '../../http/audit.ts';
import type { AppStore } from '../../repos.ts';
import { hashSecret, verifySecret } from '../../crypto/secrets.ts';
import type { CredentialForAuth } from './device-credentials.repo.ts';
import { credentialState } from './credential-views.ts';
import { mintDeviceKey, secretDigest } from './device-keys.ts';
import type { CredentialState } from './enrolment.rules.ts';
import type { CachedCredential, DeviceRuntime } from './runtime.ts';

/** Unused rotation candidates kept per machine (a rotation response may be lost, or two in flight). */
export const MAX_ROTATION_CANDIDATES = 3;

export type KeyVerdict = { ok: true; credential: CachedCredential; rotated: string | null } | { ok: false; reason: 'invalid' | 'revoked' | 'retired' };

export interface DeviceKeyVerifierDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** This process's verified-key cache, witness book and write throttles. */
  devices: DeviceRuntime;
}

function toCached(row: CredentialForAuth): CachedCredential {
  return {
    machineId: row.machine_id,
    machineNo: row.machine_no,
    operatorId: row.operator_id,
    retired: row.retired_at !== null,
    keyId: row.key_id,
    generation: row.generation,
    deviceId: row.device_id,
    state: row.state,
    credState: row.cred_state,
    rotationDue: row.rotation_due_at !== null,
  };
}

/**
 * The gateway's per-request side of device credentials (spec 2 §2.1–2.3): verifying `x-device-key`
 * (with the rotation it may complete or start), the witness token, and the fleet-secret contact note.
 */
export class DeviceKeyVerifier {
  constructor(private readonly deps: DeviceKeyVerifierDeps) {}

  /**
   * Verifies an `x-device-key` value. A cached verification is reused when the presented secret's
   * digest matches it in constant time; otherwise the store is read and the salted hash compared in
   * constant time. A candidate generation's first use activates it (retiring the one before); an
   * active generation with a rotation due gets the next generation minted for `x-device-credential`.
   */
  async verifyKey(raw: string): Promise<KeyVerdict> {
    const parsed = parseDeviceKey(raw);
    if (!parsed) return { ok: false, reason: 'invalid' };
    const digest = secretDigest(parsed.secret);
    const { devices, store } = this.deps;
    await devices.syncChanges((since) => store.repos.deviceCredentials.identitiesChangedSince(since));
    const cache = devices.cache;
    let cred = cache.get(parsed.keyId, digest);
    if (!cred) {
      const ticket = cache.ticket();
      const row = await store.repos.deviceCredentials.credentialForAuth(parsed.keyId);
      if (!row || !verifySecret(parsed.secret, row.secret_hash)) return { ok: false, reason: 'invalid' };
      cred = toCached(row);
      cache.set(parsed.keyId, digest, cred, ticket);
    }
    if (cred.state === 'revoked' || cred.credState === 'revoked') return { ok: false, reason: 'revoked' };
    if (cred.state === 'retired') return { ok: false, reason: 'retired' };
    if (cred.state === 'candidate') {
      const activated = await this.activateCandidate(cred);
      if (!activated) return { ok: false, reason: 'retired' };
      cred = activated;
    }
    if (cred.state !== 'active') return { ok: false, reason: 'invalid' };
    const rotated = cred.rotationDue ? await this.mintCandidate(cred) : null;
    return { ok: true, credential: cred, rotated };
  }

  /** First use of generation N+1: it becomes active and every other generation retires (one transaction). */
  private async activateCandidate(cred: CachedCredential): Promise<CachedCredential | null> {
    const now = this.deps.clock.now();
    const result = await this.deps.store.transaction(async (tx) => {
      const repo = tx.deviceCredentials;
      await repo.lockIdentity(cred.machineId);
      if (!(await repo.moveCredential(cred.keyId, 'candidate', 'active', now, null))) {
        // Someone activated (or superseded) it first: go by what is stored now.
        const row = await repo.credential(cred.keyId);
        return row?.state === 'active' ? 'active' : null;
      }
      await repo.endCredentials(cred.machineId, ['active', 'candidate'], 'retired', now, 'rotated', cred.keyId);
      await repo.updateIdentity(cred.machineId, { rotation_due_at: null, updated_at: now });
      await this.deps.audit.record(tx, null, 'device.credential.rotated', `machine:${cred.machineNo} generation:${cred.generation}`);
      return 'active';
    });
    this.deps.devices.invalidate(cred.machineId);
    return result === 'active' ? { ...cred, state: 'active', rotationDue: false } : null;
  }

  /** Mints the next generation as a candidate; null when the rotation was completed meanwhile. */
  private async mintCandidate(cred: CachedCredential): Promise<string | null> {
    const now = this.deps.clock.now();
    const key = mintDeviceKey();
    const minted = await this.deps.store.transaction(async (tx) => {
      const repo = tx.deviceCredentials;
      const identity = await repo.lockIdentity(cred.machineId);
      if (!identity || identity.rotation_due_at === null) return false;
      const current = await repo.credential(cred.keyId);
      if (current?.state !== 'active') return false;
      const candidates = await repo.credentialsOf(cred.machineId, ['candidate']);
      for (const old of candidates.slice(0, Math.max(0, candidates.length - (MAX_ROTATION_CANDIDATES - 1)))) {
        await repo.moveCredential(old.key_id, 'candidate', 'retired', now, 'superseded');
      }
      await repo.insertCredential({
        key_id: key.keyId,
        machine_id: cred.machineId,
        generation: cred.generation + 1,
        secret_hash: hashSecret(key.secret),
        device_id: cred.deviceId,
        state: 'candidate',
        created_at: now,
        activated_at: null,
        ended_at: null,
        ended_reason: null,
      });
      return true;
    });
    if (!minted) this.deps.devices.invalidate(cred.machineId);
    return minted ? formatDeviceKey(key) : null;
  }

  /** The machine's credential state (`fleet-secret` when it never had an identity row). */
  async credentialStateOf(machineId: string): Promise<CredentialState> {
    return credentialState((await this.deps.store.repos.deviceCredentials.identity(machineId))?.cred_state);
  }

  /** Records (throttled) that an un-enrolled cabinet called on the fleet secret: the fleet view's `onFleetSecret`. */
  async noteFleetSecretUse(machineId: string): Promise<void> {
    const t = this.deps.devices.fleetSecretSeen;
    if (!t.due(machineId)) return;
    await this.deps.store.repos.gateway.markFleetSecretSeen(machineId, this.deps.clock.now());
    t.mark(machineId);
  }

  /**
   * Judges the echoed witness token and mints this response's. A stale echo records a copy
   * suspicion (at most one write per machine per interval) and never refuses the call.
   */
  async witness(machineId: string, keyId: string | null, echo: string | undefined, leg: string): Promise<string> {
    const book = this.deps.devices.witness;
    if (book.check(machineId, echo) === 'stale') {
      const t = this.deps.devices.suspicions;
      if (t.due(machineId)) {
        await this.deps.store.repos.identityIncidents.recordSuspicion(machineId, keyId, leg, this.deps.clock.now());
        t.mark(machineId);
      }
    }
    return book.mint(machineId);
  }
}
