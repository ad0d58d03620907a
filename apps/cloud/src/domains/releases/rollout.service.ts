import type { Clock } from '@vend/protocol';
import type { AgentRolloutRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { AppError, badRequest, conflict, machineNotFound, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { versionKey } from './releases.rules.ts';
import { toRolloutData } from './release-views.ts';
import type { MachineAgentData, RolloutBody, RolloutData } from './releases.schemas.ts';
import type { UpgradeOffersService } from './upgrade-offers.service.ts';

export interface RolloutDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** A pin answers the cabinet's agent view as it stands after the pin. */
  offers: UpgradeOffersService;
}

/**
 * The fleet-wide rollout (set, hold, resume) and per-cabinet pins (spec 2 §4.3–§4.4). Every write is
 * one transaction with its audit record.
 */
export class RolloutService {
  constructor(private readonly deps: RolloutDeps) {}

  async rollout(): Promise<RolloutData | null> {
    const r = await this.deps.store.repos.releases.rollout();
    return r ? toRolloutData(r) : null;
  }

  /** Sets the one fleet-wide rollout (replacing any other). The target must be published (404); canary codes must name machines (400). */
  async putRollout(by: Principal, body: RolloutBody): Promise<RolloutData> {
    return this.deps.store.transaction(async (tx) => {
      const repo = tx.releases;
      const release = await repo.releaseByKey(versionKey(body.targetVersion));
      if (!release) throw notFound(`Release ${body.targetVersion}`);
      const canary = [...new Set(body.canary)];
      const known = await repo.existingMachineNos(canary);
      const unknown = canary.filter((c) => !known.has(c));
      if (unknown.length)
        throw badRequest(`canary names unknown machines: ${unknown.slice(0, 20).join(', ')}${unknown.length > 20 ? ` (and ${unknown.length - 20} more)` : ''}`);
      const now = this.deps.clock.now();
      const held = body.phase === 'held';
      const row: AgentRolloutRow = {
        id: 'fleet',
        target_version: release.version,
        phase: body.phase,
        canary_json: JSON.stringify(canary),
        percent: body.percent,
        allow_downgrade: body.allowDowngrade ? 1 : 0,
        note: body.note,
        hold_reason: null,
        held_at: held ? now : null,
        held_by: held ? by.operatorEmail : null,
        set_by: by.operatorEmail,
        created_at: now,
        updated_at: now,
      };
      const { id: _id, ...values } = row;
      await repo.putRollout(values);
      await this.deps.audit.record(tx, by, 'agent.rollout.set', `rollout:${release.version}`);
      return toRolloutData(row);
    });
  }

  /** rolling → held. A second hold changes nothing; with no rollout, or a complete one, 409. */
  async hold(by: Principal, reason: string): Promise<RolloutData> {
    return this.deps.store.transaction(async (tx) => {
      const repo = tx.releases;
      const r = await repo.rollout();
      if (!r || r.phase === 'complete') throw conflict('No rollout in flight to hold');
      if (r.phase === 'held') return toRolloutData(r);
      const now = this.deps.clock.now();
      const set = { hold_reason: reason, held_at: now, held_by: by.operatorEmail, updated_at: now };
      await repo.setPhase('held', set);
      await this.deps.audit.record(tx, by, 'agent.rollout.hold', `rollout:${r.target_version}`);
      return toRolloutData({ ...r, ...set, phase: 'held' });
    });
  }

  /** held → rolling. Resuming a rolling rollout changes nothing; with no rollout, or a complete one, 409. */
  async resume(by: Principal): Promise<RolloutData> {
    return this.deps.store.transaction(async (tx) => {
      const repo = tx.releases;
      const r = await repo.rollout();
      if (!r || r.phase === 'complete') throw conflict('No rollout in flight to resume');
      if (r.phase === 'rolling') return toRolloutData(r);
      const set = { hold_reason: null, held_at: null, held_by: null, updated_at: this.deps.clock.now() };
      await repo.setPhase('rolling', set);
      await this.deps.audit.record(tx, by, 'agent.rollout.resume', `rollout:${r.target_version}`);
      return toRolloutData({ ...r, ...set, phase: 'rolling' });
    });
  }

  private async liveMachine(tx: Repos, machineNo: string) {
    const m = await tx.machines.machineByNo(machineNo);
    if (!m) throw machineNotFound();
    if (m.retired_at !== null) throw new AppError('gone', 'Machine is retired');
    return m;
  }

  /** Pins a machine to a published version (404 when it is not); replaces an earlier pin. */
  async pin(by: Principal, machineNo: string, body: { version: string; reason: string }): Promise<MachineAgentData> {
    await this.deps.store.transaction(async (tx) => {
      const repo = tx.releases;
      const m = await this.liveMachine(tx, machineNo);
      const release = await repo.releaseByKey(versionKey(body.version));
      if (!release) throw notFound(`Release ${body.version}`);
      await repo.upsertPin({
        machine_id: m.id,
        version: release.version,
        reason: body.reason,
        pinned_by: by.operatorEmail,
        pinned_key: by.credentialId,
        pinned_at: this.deps.clock.now(),
      });
      await this.deps.audit.record(tx, by, 'agent.pin.set', `machine:${m.machine_no}`);
    });
    return this.deps.offers.machineAgent(machineNo);
  }

  /** Removes a machine's pin; `removed` false (and nothing written) when it had none. */
  async unpin(by: Principal, machineNo: string): Promise<{ machineNo: string; removed: boolean; pin: null }> {
    return this.deps.store.transaction(async (tx) => {
      const repo = tx.releases;
      const m = await tx.machines.machineByNo(machineNo);
      if (!m) throw machineNotFound();
      const removed = await repo.deletePin(m.id);
      if (removed) await this.deps.audit.record(tx, by, 'agent.pin.remove', `machine:${m.machine_no}`);
      return { machineNo: m.machine_no, removed, pin: null };
    });
  }
}
