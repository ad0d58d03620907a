import type { Clock } from '@vend/protocol';
import { newId } from '../../../crypto/ids.ts';
import type { AuditLog } from '../../../http/audit.ts';
import { requireOwned } from '../../../http/authenticate.ts';
import { conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { formatTimestamp } from '../../../http/time-format.ts';
import type { Parsed } from '../../../http/route.ts';
import type { AppStore, Repos } from '../../../repos.ts';
import { CONCIERGE_FEE_CENTS_PER_MONTH, conciergeFeeCents } from './concierge-fee.ts';
import type { DealState } from '../deals/deal-model.ts';
import type { ModeKind } from './dfy-modes.repo.ts';
import type { ConciergeBody, Mode, ModeBody } from './dfy-modes.schemas.ts';
import { CAPABILITIES, type PortfolioSettings } from '../deals/dfy.rules.ts';
import { dealSubject, periodsOf, subjectMode, type ModeSubject } from './mode-inputs.ts';
import type { Toggles } from './modes.ts';

export interface DfyModesDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  settings: { settingsOf(operatorId: string, repos: Repos): Promise<PortfolioSettings> };
  /** Key rule 4: when a machine's inventory capability goes off, its queued supplier orders are cancelled. */
  onInventoryOff?: (tx: Repos, machineId: string, now: number) => Promise<void>;
}

/**
 * Operating modes and concierge of DFY deals and machines (spec 3 key rules 4, 5, 9; docs/decisions/dfy-modes.md):
 * capability toggles, the effective mode with the level that decided each capability, and the paid concierge.
 * Another operator's deal or machine is 404.
 */
export class DfyModesService {
  constructor(private readonly deps: DfyModesDeps) {}

  async mode(p: Principal, kind: ModeKind, id: string): Promise<Parsed<typeof Mode>> {
    const repos = this.deps.store.repos;
    return this.view(repos, id, await this.subject(repos, p, kind, id));
  }

  /** Sets (true/false) or clears (null) capability toggles of a deal or machine; absent capabilities keep theirs. */
  async setToggles(p: Principal, kind: ModeKind, id: string, body: Parsed<typeof ModeBody>): Promise<Parsed<typeof Mode>> {
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const s = await this.subject(tx, p, kind, id, true);
      const settings = await this.deps.settings.settingsOf(s.operatorId, tx);
      const before = await subjectMode(tx, s, settings);
      const toggles: Toggles = { ...before.toggles };
      for (const c of CAPABILITIES) {
        const v = body[c];
        if (v === null) delete toggles[c];
        else if (v !== undefined) toggles[c] = v;
      }
      await tx.dfyModes.putToggles(kind, s.subjectId, s.operatorId, JSON.stringify(toggles), now);
      const after = await subjectMode(tx, s, settings);
      if (s.machineId && before.mode.capabilities.inventory.on && !after.mode.capabilities.inventory.on) await this.deps.onInventoryOff?.(tx, s.machineId, now);
      await this.deps.audit.record(tx, p, 'dfy.mode_set', `${kind}:${s.subjectId} ${after.mode.label}`);
      return this.view(tx, id, s);
    });
  }

  /**
   * Key rule 5: confirmed enrolment forces every capability on (Auto, installed by the ops team) and starts the
   * fee; takeback stops it (what accrued stays owed). One fee per placement: a deal and its machine are one
   * placement, so enrolling one while the other is enrolled is 409.
   */
  async concierge(p: Principal, kind: ModeKind, id: string, body: Parsed<typeof ConciergeBody>): Promise<Parsed<typeof Mode>> {
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const s = await this.subject(tx, p, kind, id, true);
      if (body.action === 'takeback') {
        if (!(await tx.dfyModes.takeBack(kind, s.subjectId, now))) throw conflict(`The ${kind} is not enrolled in concierge`);
      } else {
        if (s.deal && (JSON.parse(s.deal.state_json) as DealState).stage === 'cancelled') throw conflict('Deal is cancelled: nothing to run for it');
        const active = (await tx.dfyModes.enrolmentsOf(s.deal?.id ?? null, s.machineId)).find((e) => e.ended_at === null);
        if (active) {
          throw conflict(
            active.kind === kind && active.subject_id === s.subjectId
              ? `The ${kind} is already enrolled in concierge`
              : `Its linked ${active.kind} is already enrolled: one concierge fee per placement`,
          );
        }
        await tx.dfyModes.enrol({
          id: newId('dcon', now),
          operator_id: s.operatorId,
          kind,
          subject_id: s.subjectId,
          deal_id: s.deal?.id ?? null,
          machine_id: s.machineId,
          enrolled_at: now,
          ended_at: null,
        });
      }
      await this.deps.audit.record(tx, p, `dfy.concierge_${body.action}`, `${kind}:${s.subjectId}`);
      return this.view(tx, id, s);
    });
  }

  /** The deal or machine, owned by the caller (404 otherwise); `lock` takes the deal's row lock for a write. */
  private async subject(repos: Repos, p: Principal, kind: ModeKind, id: string, lock = false): Promise<ModeSubject> {
    if (kind === 'deal') return dealSubject(requireOwned(p, lock ? await repos.dfy.lockDeal(id) : await repos.dfy.deal(id), () => notFound('Deal')));
    const m = requireOwned(p, await repos.machines.machineByNo(id), () => notFound('Machine'));
    const linked = await repos.dfyModes.dealOfMachine(m.id);
    const deal = linked && lock ? ((await repos.dfy.lockDeal(linked.id)) ?? null) : (linked ?? null);
    return { kind, subjectId: m.id, operatorId: m.operator_id ?? p.operatorId, deal, machineId: m.id };
  }

  private async view(repos: Repos, id: string, s: ModeSubject): Promise<Parsed<typeof Mode>> {
    const now = this.deps.clock.now();
    const settings = await this.deps.settings.settingsOf(s.operatorId, repos);
    const { mode, toggles, enrolments } = await subjectMode(repos, s, settings);
    const active = enrolments.find((e) => e.ended_at === null);
    const machineNo = s.machineId ? ((await repos.machines.machineById(s.machineId))?.machine_no ?? null) : null;
    return {
      kind: s.kind,
      id,
      dealId: s.deal?.id ?? null,
      machineNo,
      label: mode.label,
      capabilities: mode.capabilities,
      toggles: Object.fromEntries(CAPABILITIES.map((c) => [c, toggles[c] ?? null])) as Record<(typeof CAPABILITIES)[number], boolean | null>,
      installBy: active ? 'team' : settings.installMode,
      concierge: {
        active: active !== undefined,
        enrolledAt: active ? formatTimestamp(Number(active.enrolled_at))! : null,
        feePerMonthUsd: CONCIERGE_FEE_CENTS_PER_MONTH / 100,
        feeOwedUsd: conciergeFeeCents(periodsOf(enrolments), now) / 100,
        enrolments: enrolments.map((e) => ({
          kind: e.kind as ModeKind,
          enrolledAt: formatTimestamp(Number(e.enrolled_at))!,
          takenBackAt: formatTimestamp(e.ended_at === null ? null : Number(e.ended_at)),
        })),
      },
    };
  }
}
