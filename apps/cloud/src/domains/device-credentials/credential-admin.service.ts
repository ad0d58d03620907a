import type { Clock } from '@vend/protocol';
import type { AuditLog } from '../../http/audit.ts';
import type { AppStore } from '../../repos.ts';
import { newId } from '../../crypto/ids.ts';
import { conflict } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { machineFor, notRetired, requireAdmin } from './credential-access.ts';
import { armView, credentialState } from './credential-views.ts';
import type { ArmInput, ArmView, ResetInput, RevokeInput } from './device-credentials.schemas.ts';
import type { DeviceRuntime } from './runtime.ts';

export interface CredentialAdminDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** A local change takes effect at once: the verified-key cache and witness book forget the machine. */
  devices: DeviceRuntime;
}

/**
 * What owners, admins and factory keys do to one cabinet's credential (spec 2 §4.3): open and close
 * an enrolment arm, mark a rotation due, revoke every generation, reset the identity. Each is one
 * transaction under the identity row lock, with its audit record.
 */
export class CredentialAdminService {
  constructor(private readonly deps: CredentialAdminDeps) {}

  async arm(p: Principal, machineNo: string, input: ArmInput): Promise<{ machineNo: string; enrolmentArmed: ArmView }> {
    const { machine, kind } = await machineFor(this.deps.store.repos, p, machineNo, true);
    notRetired(machine);
    const now = this.deps.clock.now();
    const row = await this.deps.store.transaction(async (tx) => {
      const repo = tx.deviceCredentials;
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
      await this.deps.audit.record(tx, p, 'device.arm', `machine:${machine.machine_no}`);
      return arm;
    });
    return { machineNo: machine.machine_no, enrolmentArmed: armView(row) };
  }

  async disarm(p: Principal, machineNo: string): Promise<{ machineNo: string; disarmed: boolean }> {
    const { machine } = await machineFor(this.deps.store.repos, p, machineNo, false);
    const now = this.deps.clock.now();
    const disarmed = await this.deps.store.transaction(async (tx) => {
      const open = await tx.deviceCredentials.openArm(machine.id, now);
      await tx.deviceCredentials.closeArms(machine.id, now, 'disarmed');
      await this.deps.audit.record(tx, p, 'device.disarm', `machine:${machine.machine_no}`);
      return open !== undefined;
    });
    return { machineNo: machine.machine_no, disarmed };
  }

  async rotate(p: Principal, machineNo: string): Promise<{ machineNo: string; rotationDue: boolean; generation: number }> {
    const { machine } = await machineFor(this.deps.store.repos, p, machineNo, false);
    notRetired(machine);
    const now = this.deps.clock.now();
    const generation = await this.deps.store.transaction(async (tx) => {
      const repo = tx.deviceCredentials;
      const identity = await repo.lockIdentity(machine.id);
      if (credentialState(identity?.cred_state) !== 'enrolled') throw conflict('Cabinet is not enrolled: there is no credential to rotate');
      const [active] = await repo.credentialsOf(machine.id, ['active']);
      if (!active) throw conflict('Cabinet is not enrolled: there is no credential to rotate');
      if (identity?.rotation_due_at === null) await repo.updateIdentity(machine.id, { rotation_due_at: now, updated_at: now });
      await this.deps.audit.record(tx, p, 'device.credential.rotate', `machine:${machine.machine_no}`);
      return active.generation;
    });
    this.deps.devices.invalidate(machine.id);
    return { machineNo: machine.machine_no, rotationDue: true, generation };
  }

  async revoke(p: Principal, machineNo: string, input: RevokeInput) {
    requireAdmin(p);
    const { machine } = await machineFor(this.deps.store.repos, p, machineNo, false);
    const now = this.deps.clock.now();
    const revoked = await this.deps.store.transaction(async (tx) => {
      const repo = tx.deviceCredentials;
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
      await this.deps.audit.record(tx, p, 'device.credential.revoke', `machine:${machine.machine_no}`);
      return n;
    });
    this.deps.devices.invalidate(machine.id);
    this.deps.devices.witness.forget(machine.id);
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
    requireAdmin(p);
    const { machine } = await machineFor(this.deps.store.repos, p, machineNo, false);
    notRetired(machine);
    const now = this.deps.clock.now();
    const arm = await this.deps.store.transaction(async (tx) => {
      const repo = tx.deviceCredentials;
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
      await tx.identityIncidents.resolveConflicts(machine.id, now);
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
      await this.deps.audit.record(tx, p, 'device.identity.reset', `machine:${machine.machine_no} signer:${input.signer}`);
      return armRow;
    });
    this.deps.devices.invalidate(machine.id);
    this.deps.devices.witness.forget(machine.id);
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
}
