import { describeSerialFaults, serialFaults, type Clock, type EnrolData } from '@vend/protocol';
import type { AuditLog } from '../../http/audit.ts';
import type { AppStore } from '../../repos.ts';
import { hashSecret } from '../../crypto/secrets.ts';
import { newId } from '../../crypto/ids.ts';
import { AppError, conflict } from '../../http/errors.ts';
import type { MachineRef } from '../machines/machines.repo.ts';
import { credentialState } from './credential-views.ts';
import { FLEET_MODE_SETTING } from './device-credentials.repo.ts';
import { ENROL_BUDGET } from './device-credentials.schemas.ts';
import { mintDeviceKey } from './device-keys.ts';
import { VERDICT_MESSAGES, decideEnrolment, decideRegisterBinding, effectiveMode, readBinding } from './enrolment.rules.ts';
import type { DeviceRuntime } from './runtime.ts';

export interface EnrolmentDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  devices: DeviceRuntime;
}

/** What enrolment needs to know of the machine a cabinet claims to be. */
export type EnrollingMachine = Pick<MachineRef, 'id' | 'machine_no' | 'operator_id' | 'retired_at'>;

/**
 * How a cabinet gets and keeps its identity (spec 2 §3, §5): fleet-secret enrolment under the
 * enrolment rules and budget, binding a box on register, and the refusals that record why
 * (another box, an unclaimable serial).
 */
export class EnrolmentService {
  constructor(private readonly deps: EnrolmentDeps) {}

  /**
   * Register with the fleet secret: a presented deviceId binds an unbound serial (self-asserted),
   * matches the bound box, or — another box presenting a bound serial — is refused with 409 and the
   * conflict recorded on the machine.
   */
  async bindOnRegister(machine: EnrollingMachine, deviceId: string | null, leg: string): Promise<void> {
    if (deviceId === null) return;
    const now = this.deps.clock.now();
    const outcome = await this.deps.store.transaction(async (tx) => {
      const repo = tx.deviceCredentials;
      await repo.ensureIdentity(machine.id, now);
      const identity = await repo.lockIdentity(machine.id);
      const binding = readBinding(identity?.binding);
      const decision = decideRegisterBinding(binding, identity?.device_id ?? null, deviceId);
      if (decision === 'bind') await repo.updateIdentity(machine.id, { binding: 'self-asserted', device_id: deviceId, bound_at: now, updated_at: now });
      if (decision === 'conflict') {
        await tx.identityIncidents.insertConflict({
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
    const now = this.deps.clock.now();
    await this.deps.store.repos.identityIncidents.insertConflict({
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
    const now = this.deps.clock.now();
    const boundTo = await this.deps.store.transaction(async (tx) => {
      const repo = tx.deviceCredentials;
      await repo.ensureIdentity(cred.machineId, now);
      const identity = await repo.lockIdentity(cred.machineId);
      const row = await repo.credential(cred.keyId);
      if (row?.device_id) return row.device_id;
      if (readBinding(identity?.binding) === 'device-id' && identity?.device_id) {
        if (identity.device_id !== deviceId) return identity.device_id;
      }
      await repo.bindCredentials(cred.machineId, deviceId);
      await repo.updateIdentity(cred.machineId, { binding: 'device-id', device_id: deviceId, bound_at: now, updated_at: now });
      await this.deps.audit.record(tx, null, 'device.bind', `machine:${cred.machineNo} key:${cred.keyId}`);
      return deviceId;
    });
    this.deps.devices.invalidate(cred.machineId);
    if (boundTo !== deviceId) await this.refuseWrongBox({ machineId: cred.machineId, deviceId: boundTo }, deviceId, leg);
  }

  /** A serial that breaks the claim rule, presented at a first-contact leg: 400 naming every fault, remembered for admins. */
  async refuseUnclaimable(serial: string, leg: string): Promise<never> {
    const faults = serialFaults(serial);
    await this.deps.store.repos.identityIncidents.recordUnclaimable(serial.slice(0, 128), faults.join('; '), leg, this.deps.clock.now());
    throw new AppError('bad_request', describeSerialFaults(serial) ?? 'machineNo breaks the claim rule');
  }

  /**
   * Fleet-secret enrolment (spec 2 §3): budgeted per serial (429), then decided by the enrolment
   * rules inside one transaction that also spends the arm, mints generation N and binds the box.
   * A refusal that records something (a conflict) commits that record, then answers.
   */
  async enrol(machine: EnrollingMachine, deviceId: string | null): Promise<EnrolData> {
    const now = this.deps.clock.now();
    const { store } = this.deps;
    // Count and record the attempt in one transaction under the identity row lock, so concurrent
    // attempts for one serial (on any replica) are counted one after another and never overrun the budget.
    const budget = await store.transaction(async (tx) => {
      const repo = tx.deviceCredentials;
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
    const verdict = await store.transaction(async (tx) => {
      const repo = tx.deviceCredentials;
      await repo.ensureIdentity(machine.id, now);
      const identity = await repo.lockIdentity(machine.id);
      const arm = await repo.openArm(machine.id, now);
      const mode = effectiveMode(await repo.gatewaySetting(FLEET_MODE_SETTING), await tx.cabinetSettings.machineEnrolmentMode(machine.id));
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
          await tx.identityIncidents.insertConflict({
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
      await this.deps.audit.record(tx, null, 'device.enrol', `machine:${machine.machine_no} via:${v.via} generation:${generation}`);
      return v;
    });
    await store.repos.deviceCredentials.setAttemptOutcome(attemptId, verdict.ok ? 'enrolled' : verdict.reason);
    if (!verdict.ok) {
      const code = verdict.status === 403 ? 'forbidden' : verdict.status === 409 ? 'conflict' : 'precondition_required';
      throw new AppError(code, VERDICT_MESSAGES[verdict.reason]);
    }
    this.deps.devices.invalidate(machine.id);
    this.deps.devices.witness.forget(machine.id);
    return { keyId: key.keyId, deviceKey: key.secret, machineCode: machine.machine_no };
  }
}
