import { describeSerialFaults, formatDeviceKey, parseDeviceKey, serialFaults, type EnrolData } from '@vend/protocol';
import { CabinetSettingsRepo } from '../machines/cabinet-settings.repo.ts';
import { GatewayRepo } from '../gateway/gateway.repo.ts';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { DB, DeviceIdentityRow } from '../../db/schema.ts';
import { hashSecret, verifySecret } from '../../crypto/secrets.ts';
import { newId } from '../../crypto/ids.ts';
import { AppError, conflict, machineNotFound } from '../../http/errors.ts';
import { offsetOf, type Page, type Paging } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { DeviceCredentialsRepo, type CredentialForAuth, type MachineRef } from './device-credentials.repo.ts';
import {
  ARM_TTL,
  ENROL_BUDGET,
  type ArmInput,
  type ArmView,
  type BuildInput,
  type BuildPatch,
  type BuildView,
  type FleetData,
  type FleetQuery,
  type ResetInput,
  type RevokeInput,
} from './device-credentials.schemas.ts';
import { mintDeviceKey, secretDigest } from './device-keys.ts';
import {
  VERDICT_MESSAGES,
  decideEnrolment,
  decideRegisterBinding,
  effectiveMode,
  readBinding,
  readMode,
  type CredentialState,
  type EnrolmentMode,
} from './enrolment-rules.ts';
import type { CachedCredential } from './runtime.ts';

type Services = Pick<AppContext, 'database' | 'clock' | 'audit' | 'devices'>;

/** The fleet-wide enrolment mode's name in `gateway_settings`. */
export const FLEET_MODE_SETTING = 'enrolment_mode';
/** Unused rotation candidates kept per machine (a rotation response may be lost, or two in flight). */
export const MAX_ROTATION_CANDIDATES = 3;

export type KeyVerdict = { ok: true; credential: CachedCredential; rotated: string | null } | { ok: false; reason: 'invalid' | 'revoked' | 'retired' };

export type ArmerKind = 'owner' | 'admin' | 'factory';

function credentialState(v: string | null | undefined): CredentialState {
  return v === 'enrolled' || v === 'revoked' ? v : 'fleet-secret';
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

function armView(a: {
  reason: string;
  device_id: string | null;
  created_at: number;
  expires_at: number;
  armed_by_kind: string;
  armed_by_key: string | null;
  armed_by_operator: string | null;
}): ArmView {
  const kind = a.armed_by_kind === 'owner' || a.armed_by_kind === 'factory' ? a.armed_by_kind : 'admin';
  return {
    reason: a.reason,
    deviceId: a.device_id,
    armedAt: formatTimestamp(a.created_at)!,
    expiresAt: formatTimestamp(a.expires_at)!,
    armedBy: { kind, keyId: a.armed_by_key, operatorEmail: a.armed_by_operator },
  };
}

function buildView(b: { machine_no: string; plant: string; built_at: number; qa_passed_at: number | null; shipped_at: number | null }): BuildView {
  return {
    machineNo: b.machine_no,
    plant: b.plant,
    builtAt: formatTimestamp(b.built_at)!,
    qaPassedAt: formatTimestamp(b.qa_passed_at),
    shippedAt: formatTimestamp(b.shipped_at),
  };
}

/**
 * Per-cabinet device credentials (spec 2 §2.1–2.3, §3, §4.3, §5): verifying `x-device-key` on the
 * gateway's hot legs, enrolment, rotation, revocation, identity binding and reset, enrolment arms,
 * the witness token, factory build records and the administrators' views.
 */
export class DeviceCredentialsService {
  constructor(private readonly ctx: Services) {}

  private repo(db: Kysely<DB> = this.ctx.database.db): DeviceCredentialsRepo {
    return new DeviceCredentialsRepo(db, this.ctx.database.dialect);
  }

  private get now(): number {
    return this.ctx.clock.now();
  }

  private tx<T>(fn: (repo: DeviceCredentialsRepo, trx: Kysely<DB>) => Promise<T>): Promise<T> {
    return this.ctx.database.db.transaction().execute((trx) => fn(this.repo(trx), trx));
  }

  // ------------------------------------------------------------------------------------------
  // Gateway side

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
    await this.ctx.devices.syncChanges((since) => this.repo().identitiesChangedSince(since));
    const cache = this.ctx.devices.cache;
    let cred = cache.get(parsed.keyId, digest);
    if (!cred) {
      const ticket = cache.ticket();
      const row = await this.repo().credentialForAuth(parsed.keyId);
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
    const now = this.now;
    const result = await this.tx(async (repo, trx) => {
      await repo.lockIdentity(cred.machineId);
      if (!(await repo.moveCredential(cred.keyId, 'candidate', 'active', now, null))) {
        // Someone activated (or superseded) it first: go by what is stored now.
        const row = await repo.credential(cred.keyId);
        return row?.state === 'active' ? 'active' : null;
      }
      await repo.endCredentials(cred.machineId, ['active', 'candidate'], 'retired', now, 'rotated', cred.keyId);
      await repo.updateIdentity(cred.machineId, { rotation_due_at: null, updated_at: now });
      await this.ctx.audit.record(trx, null, 'device.credential.rotated', `machine:${cred.machineNo} generation:${cred.generation}`);
      return 'active';
    });
    this.ctx.devices.invalidate(cred.machineId);
    return result === 'active' ? { ...cred, state: 'active', rotationDue: false } : null;
  }

  /** Mints the next generation as a candidate; null when the rotation was completed meanwhile. */
  private async mintCandidate(cred: CachedCredential): Promise<string | null> {
    const now = this.now;
    const key = mintDeviceKey();
    const minted = await this.tx(async (repo) => {
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
    if (!minted) this.ctx.devices.invalidate(cred.machineId);
    return minted ? formatDeviceKey(key) : null;
  }

  /** The machine's credential state (`fleet-secret` when it never had an identity row). */
  async credentialStateOf(machineId: string): Promise<CredentialState> {
    return credentialState((await this.repo().identity(machineId))?.cred_state);
  }

  async identityOf(machineId: string): Promise<DeviceIdentityRow | undefined> {
    return this.repo().identity(machineId);
  }

  /** Records (throttled) that an un-enrolled cabinet called on the fleet secret: the fleet view's `onFleetSecret`. */
  async noteFleetSecretUse(machineId: string): Promise<void> {
    const t = this.ctx.devices.fleetSecretSeen;
    if (!t.due(machineId)) return;
    await new GatewayRepo(this.ctx.database.db, this.ctx.database.dialect).markFleetSecretSeen(machineId, this.now);
    t.mark(machineId);
  }

  /**
   * Judges the echoed witness token and mints this response's. A stale echo records a copy
   * suspicion (at most one write per machine per interval) and never refuses the call.
   */
  async witness(machineId: string, keyId: string | null, echo: string | undefined, leg: string): Promise<string> {
    const book = this.ctx.devices.witness;
    if (book.check(machineId, echo) === 'stale') {
      const t = this.ctx.devices.suspicions;
      if (t.due(machineId)) {
        await this.repo().recordSuspicion(machineId, keyId, leg, this.now);
        t.mark(machineId);
      }
    }
    return book.mint(machineId);
  }

  /**
   * Register with the fleet secret: a presented deviceId binds an unbound serial (self-asserted),
   * matches the bound box, or — another box presenting a bound serial — is refused with 409 and the
   * conflict recorded on the machine.
   */
  async bindOnRegister(machine: MachineRef, deviceId: string | null, leg: string): Promise<void> {
    if (deviceId === null) return;
    const now = this.now;
    const outcome = await this.tx(async (repo) => {
      await repo.ensureIdentity(machine.id, now);
      const identity = await repo.lockIdentity(machine.id);
      const binding = readBinding(identity?.binding);
      const decision = decideRegisterBinding(binding, identity?.device_id ?? null, deviceId);
      if (decision === 'bind') await repo.updateIdentity(machine.id, { binding: 'self-asserted', device_id: deviceId, bound_at: now, updated_at: now });
      if (decision === 'conflict') {
        await repo.insertConflict({
          id: newId('idc', now),
          machine_id: machine.id,
          binding,
          bound_device_id: identity?.device_id ?? null,
          presented_device_id: deviceId,
          leg,
          at: now,
          resolved_at: null,
        });
      }
      return decision;
    });
    if (outcome === 'conflict') throw conflict(VERDICT_MESSAGES['identity-conflict']);
  }

  /** Register with a device key from a box other than the one the credential was enrolled to: 403, recorded. */
  async refuseWrongBox(cred: { machineId: string; deviceId: string | null }, presented: string, leg: string): Promise<never> {
    const now = this.now;
    await this.repo().insertConflict({
      id: newId('idc', now),
      machine_id: cred.machineId,
      binding: 'device-id',
      bound_device_id: cred.deviceId,
      presented_device_id: presented,
      leg,
      at: now,
      resolved_at: null,
    });
    throw new AppError('forbidden', 'Register from a device other than the one this credential was enrolled to');
  }

  /**
   * Register with a device key enrolled without a deviceId (an unpinned arm): the first box that
   * registers with it is bound — the credential's live generations and the identity (`device-id`,
   * trusted: only the enrolled box holds the key) — so a later register from another box is 403.
   * A box other than one already bound (by a racing register, or a trusted binding) is refused here.
   */
  async bindKeyOnRegister(cred: { machineId: string; machineNo: string; keyId: string }, deviceId: string, leg: string): Promise<void> {
    const now = this.now;
    const boundTo = await this.tx(async (repo, trx) => {
      await repo.ensureIdentity(cred.machineId, now);
      const identity = await repo.lockIdentity(cred.machineId);
      const row = await repo.credential(cred.keyId);
      if (row?.device_id) return row.device_id;
      if (readBinding(identity?.binding) === 'device-id' && identity?.device_id) {
        if (identity.device_id !== deviceId) return identity.device_id;
      }
      await repo.bindCredentials(cred.machineId, deviceId);
      await repo.updateIdentity(cred.machineId, { binding: 'device-id', device_id: deviceId, bound_at: now, updated_at: now });
      await this.ctx.audit.record(trx, null, 'device.bind', `machine:${cred.machineNo} key:${cred.keyId}`);
      return deviceId;
    });
    this.ctx.devices.invalidate(cred.machineId);
    if (boundTo !== deviceId) await this.refuseWrongBox({ machineId: cred.machineId, deviceId: boundTo }, deviceId, leg);
  }

  /** A serial that breaks the claim rule, presented at a first-contact leg: 400 naming every fault, remembered for admins. */
  async refuseUnclaimable(serial: string, leg: string): Promise<never> {
    const faults = serialFaults(serial);
    await this.repo().recordUnclaimable(serial.slice(0, 128), faults.join('; '), leg, this.now);
    throw new AppError('bad_request', describeSerialFaults(serial) ?? 'machineNo breaks the claim rule');
  }

  /**
   * Fleet-secret enrolment (spec 2 §3): budgeted per serial (429), then decided by the enrolment
   * rules inside one transaction that also spends the arm, mints generation N and binds the box.
   * A refusal that records something (a conflict) commits that record, then answers.
   */
  async enrol(machine: MachineRef, deviceId: string | null): Promise<EnrolData> {
    const now = this.now;
    const repo = this.repo();
    // Count and record the attempt in one transaction under the identity row lock, so concurrent
    // attempts for one serial (on any replica) are counted one after another and never overrun the budget.
    const budget = await this.tx(async (repo) => {
      await repo.ensureIdentity(machine.id, now);
      await repo.lockIdentity(machine.id);
      const { n, oldest } = await repo.attemptsSince(machine.machine_no, now - ENROL_BUDGET.windowMs);
      if (n >= ENROL_BUDGET.attempts) return { ok: false as const, retryAfter: Math.max(1, Math.ceil(((oldest ?? now) + ENROL_BUDGET.windowMs - now) / 1000)) };
      return { ok: true as const, attemptId: await repo.insertAttempt(machine.machine_no, now, 'pending') };
    });
    if (!budget.ok) {
      throw new AppError('rate_limited', `Enrolment budget exceeded for this serial (${ENROL_BUDGET.attempts} per ${ENROL_BUDGET.windowMs / 60_000} minutes)`, {
        headers: { 'Retry-After': String(budget.retryAfter) },
      });
    }
    const attemptId = budget.attemptId;
    const key = mintDeviceKey();
    const secretHash = hashSecret(key.secret);
    const verdict = await this.tx(async (repo, trx) => {
      await repo.ensureIdentity(machine.id, now);
      const identity = await repo.lockIdentity(machine.id);
      const arm = await repo.openArm(machine.id, now);
      const mode = effectiveMode(await repo.gatewaySetting(FLEET_MODE_SETTING), await new CabinetSettingsRepo(trx).machineEnrolmentMode(machine.id));
      const binding = readBinding(identity?.binding);
      const v = decideEnrolment({
        mode,
        credState: credentialState(identity?.cred_state),
        binding,
        boundDeviceId: identity?.device_id ?? null,
        arm: arm ? { deviceId: arm.device_id } : null,
        presentedDeviceId: deviceId,
      });
      if (!v.ok) {
        if (v.reason === 'identity-conflict') {
          await repo.insertConflict({
            id: newId('idc', now),
            machine_id: machine.id,
            binding,
            bound_device_id: identity?.device_id ?? null,
            presented_device_id: deviceId ?? '',
            leg: 'cabinet.enrol',
            at: now,
            resolved_at: null,
          });
        }
        return v;
      }
      if (v.via === 'arm' && arm && !(await repo.spendArm(arm.id, now))) return { ok: false as const, status: 428 as const, reason: 'no-proof' as const };
      const generation = (await repo.maxGeneration(machine.id)) + 1;
      await repo.insertCredential({
        key_id: key.keyId,
        machine_id: machine.id,
        generation,
        secret_hash: secretHash,
        device_id: deviceId,
        state: 'active',
        created_at: now,
        activated_at: now,
        ended_at: null,
        ended_reason: null,
      });
      await repo.updateIdentity(machine.id, {
        cred_state: 'enrolled',
        rotation_due_at: null,
        ...(deviceId !== null ? { binding: 'device-id', device_id: deviceId, bound_at: now } : {}),
        updated_at: now,
      });
      await this.ctx.audit.record(trx, null, 'device.enrol', `machine:${machine.machine_no} via:${v.via} generation:${generation}`);
      return v;
    });
    await repo.setAttemptOutcome(attemptId, verdict.ok ? 'enrolled' : verdict.reason);
    if (!verdict.ok) {
      const code = verdict.status === 403 ? 'forbidden' : verdict.status === 409 ? 'conflict' : 'precondition_required';
      throw new AppError(code, VERDICT_MESSAGES[verdict.reason]);
    }
    this.ctx.devices.invalidate(machine.id);
    this.ctx.devices.witness.forget(machine.id);
    return { keyId: key.keyId, deviceKey: key.secret, machineCode: machine.machine_no };
  }

  // ------------------------------------------------------------------------------------------
  // Administration

  private async machineFor(p: Principal, machineNo: string, allowFactory: boolean): Promise<{ machine: MachineRef; kind: ArmerKind }> {
    const machine = await this.repo().machineByNo(machineNo);
    if (!machine) throw machineNotFound();
    if (p.admin) return { machine, kind: 'admin' };
    if (machine.operator_id !== null && machine.operator_id === p.operatorId) {
      if (!p.scopes.has('machines:write')) throw new AppError('forbidden');
      return { machine, kind: 'owner' };
    }
    if (allowFactory && p.scopes.has('machines:build')) {
      if (machine.operator_id !== null) throw new AppError('forbidden', 'Factory keys may arm only an unowned cabinet');
      const build = await this.repo().buildRecord(machine.machine_no);
      if (!build || p.plant === null || build.plant !== p.plant) throw new AppError('forbidden', "No build record of this key's plant names this cabinet");
      return { machine, kind: 'factory' };
    }
    // The ownership rule: another operator's machine (or a pool machine) does not exist for this caller.
    throw machineNotFound();
  }

  private requireAdmin(p: Principal): void {
    if (!p.admin) throw new AppError('forbidden', 'Admin credential required');
  }

  private notRetired(m: MachineRef): void {
    if (m.retired_at !== null) throw conflict(`Machine ${m.machine_no} is retired`);
  }

  async arm(p: Principal, machineNo: string, input: ArmInput): Promise<{ machineNo: string; enrolmentArmed: ArmView }> {
    const { machine, kind } = await this.machineFor(p, machineNo, true);
    this.notRetired(machine);
    const now = this.now;
    const row = await this.tx(async (repo, trx) => {
      await repo.ensureIdentity(machine.id, now);
      const identity = await repo.lockIdentity(machine.id);
      const state = credentialState(identity?.cred_state);
      if (state === 'enrolled') throw conflict('Cabinet is already enrolled: revoke or reset its identity before arming');
      if (state === 'revoked') throw conflict('Cabinet credential is revoked: reset its identity before arming');
      await repo.closeArms(machine.id, now, 'replaced');
      const arm = {
        id: newId('arm', now),
        machine_id: machine.id,
        reason: input.reason,
        device_id: input.deviceId ?? null,
        armed_by_kind: kind,
        armed_by_key: p.credentialId,
        armed_by_operator: p.operatorEmail,
        created_at: now,
        expires_at: now + input.ttlMinutes * 60_000,
        closed_at: null,
        closed_reason: null,
      };
      await repo.insertArm(arm);
      await this.ctx.audit.record(trx, p, 'device.arm', `machine:${machine.machine_no}`);
      return arm;
    });
    return { machineNo: machine.machine_no, enrolmentArmed: armView(row) };
  }

  async disarm(p: Principal, machineNo: string): Promise<{ machineNo: string; disarmed: boolean }> {
    const { machine } = await this.machineFor(p, machineNo, false);
    const now = this.now;
    const disarmed = await this.tx(async (repo, trx) => {
      const open = await repo.openArm(machine.id, now);
      await repo.closeArms(machine.id, now, 'disarmed');
      await this.ctx.audit.record(trx, p, 'device.disarm', `machine:${machine.machine_no}`);
      return open !== undefined;
    });
    return { machineNo: machine.machine_no, disarmed };
  }

  async rotate(p: Principal, machineNo: string): Promise<{ machineNo: string; rotationDue: boolean; generation: number }> {
    const { machine } = await this.machineFor(p, machineNo, false);
    this.notRetired(machine);
    const now = this.now;
    const generation = await this.tx(async (repo, trx) => {
      const identity = await repo.lockIdentity(machine.id);
      if (credentialState(identity?.cred_state) !== 'enrolled') throw conflict('Cabinet is not enrolled: there is no credential to rotate');
      const [active] = await repo.credentialsOf(machine.id, ['active']);
      if (!active) throw conflict('Cabinet is not enrolled: there is no credential to rotate');
      if (identity?.rotation_due_at === null) await repo.updateIdentity(machine.id, { rotation_due_at: now, updated_at: now });
      await this.ctx.audit.record(trx, p, 'device.credential.rotate', `machine:${machine.machine_no}`);
      return active.generation;
    });
    this.ctx.devices.invalidate(machine.id);
    return { machineNo: machine.machine_no, rotationDue: true, generation };
  }

  async revoke(p: Principal, machineNo: string, input: RevokeInput) {
    this.requireAdmin(p);
    const { machine } = await this.machineFor(p, machineNo, false);
    const now = this.now;
    const revoked = await this.tx(async (repo, trx) => {
      await repo.ensureIdentity(machine.id, now);
      const identity = await repo.lockIdentity(machine.id);
      if (credentialState(identity?.cred_state) === 'revoked') throw conflict('Credential is already revoked');
      const n = await repo.endCredentials(machine.id, ['active', 'candidate', 'retired'], 'revoked', now, 'revoked');
      await repo.updateIdentity(machine.id, {
        cred_state: 'revoked',
        rotation_due_at: null,
        revoked_at: now,
        revoked_by: input.by,
        revoke_reason: input.reason,
        updated_at: now,
      });
      await repo.closeArms(machine.id, now, 'revoked');
      await this.ctx.audit.record(trx, p, 'device.credential.revoke', `machine:${machine.machine_no}`);
      return n;
    });
    this.ctx.devices.invalidate(machine.id);
    this.ctx.devices.witness.forget(machine.id);
    return {
      machineNo: machine.machine_no,
      state: 'revoked' as const,
      revokedAt: formatTimestamp(now)!,
      by: input.by,
      reason: input.reason,
      generationsRevoked: revoked,
    };
  }

  async resetIdentity(p: Principal, machineNo: string, input: ResetInput) {
    this.requireAdmin(p);
    const { machine } = await this.machineFor(p, machineNo, false);
    this.notRetired(machine);
    const now = this.now;
    const arm = await this.tx(async (repo, trx) => {
      await repo.ensureIdentity(machine.id, now);
      await repo.lockIdentity(machine.id);
      await repo.endCredentials(machine.id, ['active', 'candidate', 'retired'], 'revoked', now, 'identity-reset');
      await repo.updateIdentity(machine.id, {
        device_id: null,
        binding: 'unbound',
        bound_at: null,
        cred_state: 'fleet-secret',
        rotation_due_at: null,
        revoked_at: null,
        revoked_by: null,
        revoke_reason: null,
        reset_at: now,
        reset_by: input.signer,
        reset_reason: input.reason,
        updated_at: now,
      });
      await repo.closeArms(machine.id, now, 'reset');
      await repo.resolveConflicts(machine.id, now);
      let armRow = null;
      if (input.arm) {
        armRow = {
          id: newId('arm', now),
          machine_id: machine.id,
          reason: `identity reset: ${input.reason}`.slice(0, 500),
          device_id: input.arm.deviceId ?? null,
          armed_by_kind: 'admin',
          armed_by_key: p.credentialId,
          armed_by_operator: p.operatorEmail,
          created_at: now,
          expires_at: now + input.arm.ttlMinutes * 60_000,
          closed_at: null,
          closed_reason: null,
        };
        await repo.insertArm(armRow);
      }
      await this.ctx.audit.record(trx, p, 'device.identity.reset', `machine:${machine.machine_no} signer:${input.signer}`);
      return armRow;
    });
    this.ctx.devices.invalidate(machine.id);
    this.ctx.devices.witness.forget(machine.id);
    return {
      machineNo: machine.machine_no,
      state: 'fleet-secret' as const,
      enrolmentBinding: 'unbound' as const,
      resetAt: formatTimestamp(now)!,
      signer: input.signer,
      reason: input.reason,
      enrolmentArmed: arm ? armView(arm) : null,
    };
  }

  async fleetMode(): Promise<EnrolmentMode> {
    return readMode(await this.repo().gatewaySetting(FLEET_MODE_SETTING));
  }

  async setFleetMode(p: Principal, mode: EnrolmentMode): Promise<{ mode: EnrolmentMode }> {
    this.requireAdmin(p);
    await this.tx(async (repo, trx) => {
      await repo.setGatewaySetting(FLEET_MODE_SETTING, mode, p.credentialId, this.now);
      await this.ctx.audit.record(trx, p, 'device.enrolment_mode', `fleet mode:${mode}`);
    });
    return { mode };
  }

  async setMachineMode(p: Principal, machineNo: string, mode: EnrolmentMode | null) {
    const { machine } = await this.machineFor(p, machineNo, false);
    const fleet = await this.repo().gatewaySetting(FLEET_MODE_SETTING);
    await this.tx(async (repo, trx) => {
      await new CabinetSettingsRepo(trx).setMachineEnrolmentMode(machine.id, mode, this.now);
      await this.ctx.audit.record(trx, p, 'device.enrolment_mode', `machine:${machine.machine_no} mode:${mode ?? 'fleet'}`);
    });
    return { machineNo: machine.machine_no, mode, effectiveMode: effectiveMode(fleet, mode) };
  }

  /** The credential fleet view of spec 2 §2.8 (admin). Counts are fleet-wide; `machines` is paged. */
  async fleet(p: Principal, q: FleetQuery): Promise<FleetData> {
    this.requireAdmin(p);
    const repo = this.repo();
    const now = this.now;
    const filter = { operatorId: null, state: q.state };
    const [counts, page, mode] = await Promise.all([repo.fleetCounts(filter, now), repo.fleetPage(filter, q.size, offsetOf(q)), this.fleetMode()]);
    const ids = page.rows.map((r) => r.id);
    const [active, arms, suspicions] = await Promise.all([repo.activeCredentials(ids), repo.openArms(ids, now), repo.suspicionCounts(ids)]);
    const activeOf = new Map(active.map((c) => [c.machine_id, c]));
    const armOf = new Map(arms.map((a) => [a.machine_id, a]));
    return {
      onFleetSecret: counts.onFleet,
      armed: counts.armed,
      reachableOnFleetSecret: counts.reachable,
      enrolmentWindow: {
        mode,
        budgetAttempts: ENROL_BUDGET.attempts,
        budgetWindowSeconds: ENROL_BUDGET.windowMs / 1000,
        armDefaultMinutes: ARM_TTL.defaultMinutes,
        armMaxMinutes: ARM_TTL.maxMinutes,
      },
      page: q.page,
      size: q.size,
      total: page.total,
      machines: page.rows.map((r) => {
        const state = credentialState(r.cred_state);
        const cred = state === 'enrolled' ? activeOf.get(r.id) : undefined;
        const arm = armOf.get(r.id);
        return {
          machineNo: r.machine_no,
          state,
          keyId: cred?.key_id ?? null,
          generation: cred?.generation ?? null,
          enrolmentBinding: readBinding(r.binding),
          deviceId: r.device_id ?? null,
          rotationDue: r.rotation_due_at !== null && r.rotation_due_at !== undefined,
          enrolmentArmed: arm ? armView(arm) : null,
          revoked:
            state === 'revoked' && r.revoked_at !== null && r.revoked_at !== undefined
              ? { at: formatTimestamp(r.revoked_at)!, by: r.revoked_by ?? null, reason: r.revoke_reason ?? null }
              : null,
          copySuspicions: suspicions.get(r.id) ?? 0,
        };
      }),
    };
  }

  async conflicts(p: Principal, q: Paging) {
    this.requireAdmin(p);
    const { total, rows } = await this.repo().conflicts(null, q.size, offsetOf(q));
    return {
      page: q.page,
      size: q.size,
      total,
      records: rows.map((r) => ({
        machineNo: r.machine_no,
        binding: r.binding,
        boundDeviceId: r.bound_device_id,
        presentedDeviceId: r.presented_device_id,
        leg: r.leg,
        at: formatTimestamp(r.at)!,
        resolvedAt: formatTimestamp(r.resolved_at),
      })),
    };
  }

  async suspicions(p: Principal, q: Paging) {
    this.requireAdmin(p);
    const { total, rows } = await this.repo().suspicions(null, q.size, offsetOf(q));
    return {
      page: q.page,
      size: q.size,
      total,
      records: rows.map((r) => ({
        machineNo: r.machine_no,
        keyId: r.key_id,
        leg: r.leg,
        count: r.count,
        firstAt: formatTimestamp(r.first_at)!,
        lastAt: formatTimestamp(r.last_at)!,
      })),
    };
  }

  /** Serials that break the claim rule: machine records carrying one, and serials refused at first contact. */
  async unclaimable(p: Principal, q: Paging) {
    this.requireAdmin(p);
    const repo = this.repo();
    const [machines, seen] = await Promise.all([repo.unclaimableMachines(null), repo.unclaimableSeen()]);
    const all = [
      ...machines.map((m) => ({
        serial: m.machine_no,
        faults: serialFaults(m.machine_no),
        source: 'machine' as const,
        leg: null,
        attempts: null,
        firstSeenAt: formatTimestamp(m.created_at),
        lastSeenAt: null,
      })),
      ...seen.map((s) => ({
        serial: s.serial,
        faults: s.faults.split('; ').filter(Boolean),
        source: 'first-contact' as const,
        leg: s.leg,
        attempts: s.attempts,
        firstSeenAt: formatTimestamp(s.first_seen_at),
        lastSeenAt: formatTimestamp(s.last_seen_at),
      })),
    ];
    return { page: q.page, size: q.size, total: all.length, records: all.slice(offsetOf(q), offsetOf(q) + q.size) };
  }

  // ------------------------------------------------------------------------------------------
  // Factory build records

  private plantOf(p: Principal, requested: string | undefined): string {
    if (!p.scopes.has('machines:build')) throw new AppError('forbidden');
    if (p.admin) {
      if (requested === undefined) throw new AppError('bad_request', 'plant is required for admin credentials');
      return requested;
    }
    if (p.plant === null) throw new AppError('forbidden', 'This factory key names no plant');
    return p.plant;
  }

  async createBuild(p: Principal, input: BuildInput): Promise<BuildView> {
    const plant = this.plantOf(p, input.plant);
    const now = this.now;
    const builtAt = input.builtAt !== undefined ? Date.parse(input.builtAt) : now;
    const row = await this.tx(async (repo, trx) => {
      const existing = await repo.buildRecord(input.machineNo);
      if (existing) throw conflict(existing.plant === plant ? `A build record for ${input.machineNo} exists` : `${input.machineNo} was built at another plant`);
      const machine = await repo.machineByNo(input.machineNo);
      // Spec 2 §5 rule 6: a cabinet already registered to an operator is not a factory build.
      if (machine && machine.operator_id !== null) throw conflict(`${input.machineNo} is already registered to an operator`);
      const r = {
        machine_no: input.machineNo,
        plant,
        built_at: builtAt,
        qa_passed_at: null,
        shipped_at: null,
        recorded_by_key: p.credentialId,
        created_at: now,
        updated_at: now,
      };
      await repo.insertBuildRecord(r);
      await this.ctx.audit.record(trx, p, 'factory.build', `machine:${input.machineNo} plant:${plant}`);
      return r;
    });
    return buildView(row);
  }

  async updateBuild(p: Principal, machineNo: string, patch: BuildPatch): Promise<BuildView> {
    if (!p.scopes.has('machines:build')) throw new AppError('forbidden');
    if (!patch.qaPassed && !patch.shipped) throw new AppError('bad_request', 'Send qaPassed: true and/or shipped: true');
    const now = this.now;
    return this.tx(async (repo, trx) => {
      const b = await repo.buildRecord(machineNo);
      if (!b || (!p.admin && b.plant !== p.plant)) throw new AppError('not_found', 'Build record not found');
      const qa = b.qa_passed_at ?? (patch.qaPassed ? now : null);
      if (patch.shipped && qa === null) throw conflict('A cabinet ships only after it passed QA');
      const shipped = b.shipped_at ?? (patch.shipped ? now : null);
      await repo.updateBuildRecord(machineNo, { qa_passed_at: qa, shipped_at: shipped, updated_at: now });
      await this.ctx.audit.record(trx, p, patch.shipped ? 'factory.ship' : 'factory.qa', `machine:${machineNo}`);
      return buildView({ ...b, qa_passed_at: qa, shipped_at: shipped });
    });
  }

  async builds(p: Principal, q: Paging): Promise<Page<BuildView>> {
    if (!p.scopes.has('machines:build')) throw new AppError('forbidden');
    // A build key names its plant; a non-admin holding the scope without one sees no plant's records.
    if (!p.admin && !p.plant) return { page: q.page, size: q.size, total: 0, records: [] };
    const { total, rows } = await this.repo().buildRecords(p.admin ? null : p.plant!, q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, records: rows.map(buildView) };
  }
}
