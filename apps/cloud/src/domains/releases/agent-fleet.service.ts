import { compareVersions, isDottedVersion, type Clock } from '@vend/protocol';
import type { RolloutProgressRow } from '../../db/schema.ts';
import type { AppStore } from '../../repos.ts';
import { newId } from '../../crypto/ids.ts';
import { offsetOf, type Paging } from '../../http/paging.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { decide, inCohort, type PinPolicy, type RolloutPhase } from './offer.ts';
import { pinData, reportBlocks, toRolloutData } from './release-views.ts';
import type { FleetData, ProgressCounts, RolloutsData } from './releases.schemas.ts';
import type { UpgradeOffersService } from './upgrade-offers.service.ts';

type Policy = Awaited<ReturnType<UpgradeOffersService['policy']>>;

export interface AgentFleetDeps {
  store: AppStore;
  clock: Clock;
  /** Every machine's offer is decided from the same policy the cabinets are offered from. */
  offers: UpgradeOffersService;
}

function sameCounts(row: RolloutProgressRow, c: ProgressCounts): boolean {
  return (
    row.total === c.total &&
    row.eligible === c.eligible &&
    row.on_target === c.onTarget &&
    row.pinned === c.pinned &&
    row.deferring === c.deferring &&
    row.blocked === c.blocked &&
    row.no_artifact === c.noArtifact
  );
}

/** The agent fleet (spec 2 §2.8): the fleet view, the rollout's progress counted now, and the sweep's progress snapshots. */
export class AgentFleetService {
  constructor(private readonly deps: AgentFleetDeps) {}

  /**
   * One pass over the non-retired machines in view (`operatorId` null: the whole fleet): each one's
   * offer decision, cohort membership and live blocks, and the progress counts over all of them. The
   * fleet view, the rollout sweep and `/api/v1/rollouts` all count through here, so the rules exist once.
   */
  private async survey(operatorId: string | null, known?: Policy) {
    const [{ releases, rollout, rolloutRow }, rows] = await Promise.all([
      known ?? this.deps.offers.policy(),
      this.deps.store.repos.releases.fleetRows(operatorId),
    ]);
    const counts: ProgressCounts = { total: rows.length, eligible: 0, onTarget: 0, pinned: 0, deferring: 0, blocked: 0, noArtifact: 0 };
    const machines = rows.map((m) => {
      const pin: PinPolicy | null = m.pin_version ? { version: m.pin_version } : null;
      const decision = decide({ running: m.agent_version, arch: m.agent_arch, machineCode: m.machine_no, releases, rollout, pin });
      const cohort = rollout !== null && inCohort(m.machine_no, rollout);
      const blocks = reportBlocks(m, decision);
      if (pin) counts.pinned++;
      if (!pin && cohort) {
        counts.eligible++;
        if (m.agent_version !== null && isDottedVersion(m.agent_version) && rollout && compareVersions(m.agent_version, rollout.targetVersion) === 0)
          counts.onTarget++;
      }
      if (blocks.deferring) counts.deferring++;
      if (blocks.blocked) counts.blocked++;
      if (decision.reason === 'no-artifact-for-arch' || decision.reason === 'arch-unknown') counts.noArtifact++;
      return { m, decision, cohort, blocks };
    });
    return { rollout, rolloutRow, counts, machines };
  }

  /**
   * The agent fleet view (spec 2 §2.8) over the machines the caller may read: an admin sees the
   * fleet, an operator their own cabinets. Counts cover every machine in view; `machines` is one page.
   */
  async fleet(p: Principal, page: number, size: number): Promise<FleetData> {
    const { rollout, rolloutRow, counts, machines: all } = await this.survey(ownerFilter(p));
    const byVersion: Record<string, number> = {};
    const byArch: Record<string, number> = {};
    for (const { m } of all) {
      const version = m.agent_version ?? 'unreported';
      byVersion[version] = (byVersion[version] ?? 0) + 1;
      const arch = m.agent_arch ?? 'unreported';
      byArch[arch] = (byArch[arch] ?? 0) + 1;
    }
    const first = (page - 1) * size;
    const machines: FleetData['machines'] = all.slice(first, first + size).map(({ m, decision, cohort, blocks }) => ({
      machineNo: m.machine_no,
      agentVersion: m.agent_version,
      arch: m.agent_arch,
      lastSeen: formatTimestamp(m.last_seen === null ? null : Number(m.last_seen)),
      pin:
        m.pin_version && m.pin_reason !== null && m.pinned_at !== null
          ? pinData({ version: m.pin_version, reason: m.pin_reason, pinned_at: m.pinned_at, pinned_by: m.pinned_by })
          : null,
      target: decision.target,
      inCohort: cohort,
      offerVersion: decision.offer?.version ?? null,
      isFinalStep: decision.offer?.isFinalStep ?? null,
      offerReason: decision.reason,
      ...blocks,
    }));
    return {
      target: rollout?.targetVersion ?? null,
      rollout: rolloutRow ? toRolloutData(rolloutRow) : null,
      ...counts,
      byArch,
      byVersion,
      page,
      size,
      machines,
    };
  }

  /**
   * The rollout sweep's work (jobs.ts): with a rollout in flight (any phase), counts its progress
   * over the whole fleet and writes a `rollout_progress` snapshot when the rollout, its phase or any
   * count differs from the newest snapshot. Answers how many snapshots it wrote (0 or 1). Only the
   * leader replica runs it; snapshots are bookkeeping, not operator writes, so they are not audited.
   */
  async recordProgress(): Promise<number> {
    const policy = await this.deps.offers.policy();
    const { rolloutRow } = policy;
    // no rollout in flight: nothing to count, and the fleet is not read (at 6,000 cabinets on SQLite that read held the event loop 40–60 ms a minute)
    if (!rolloutRow) return 0;
    const { counts } = await this.survey(null, policy);
    const repo = this.deps.store.repos.releases;
    const last = await repo.latestProgress();
    if (
      last &&
      last.rollout_id === rolloutRow.id &&
      last.target_version === rolloutRow.target_version &&
      last.phase === rolloutRow.phase &&
      sameCounts(last, counts)
    )
      return 0;
    // strictly after the newest snapshot, so "newest first" never ties
    const takenAt = Math.max(this.deps.clock.now(), last ? Number(last.taken_at) + 1 : 0);
    await repo.insertProgress({
      id: newId('rp', takenAt),
      rollout_id: rolloutRow.id,
      target_version: rolloutRow.target_version,
      phase: rolloutRow.phase,
      taken_at: takenAt,
      total: counts.total,
      eligible: counts.eligible,
      on_target: counts.onTarget,
      pinned: counts.pinned,
      deferring: counts.deferring,
      blocked: counts.blocked,
      no_artifact: counts.noArtifact,
    });
    return 1;
  }

  /**
   * GET /api/v1/rollouts: the rollout in flight with its progress counted now over the caller's
   * machines (an operator: their own cabinets, and only their own codes in `canary`), and for admins
   * one page of the sweep's fleet-wide snapshots, newest first. Operators get no history: snapshots
   * count every operator's cabinets.
   */
  async rollouts(p: Principal, paging: Paging): Promise<RolloutsData> {
    const { rolloutRow, counts, machines } = await this.survey(ownerFilter(p));
    let current: RolloutsData['current'] = null;
    if (rolloutRow) {
      const r = toRolloutData(rolloutRow);
      const mine = new Set(machines.map(({ m }) => m.machine_no));
      current = {
        targetVersion: r.targetVersion,
        phase: r.phase,
        canary: p.admin ? r.canary : r.canary.filter((c) => mine.has(c)),
        percent: r.percent,
        allowDowngrade: r.allowDowngrade,
        note: r.note,
        holdReason: r.holdReason,
        heldAt: r.heldAt,
        createdAt: r.setAt,
        updatedAt: r.updatedAt,
        progress: counts,
      };
    }
    if (!p.admin) return { current, page: paging.page, size: paging.size, total: 0, history: [] };
    const repo = this.deps.store.repos.releases;
    const [rows, total] = await Promise.all([repo.progressPage(offsetOf(paging), paging.size), repo.countProgress()]);
    return {
      current,
      page: paging.page,
      size: paging.size,
      total,
      history: rows.map((h) => ({
        takenAt: formatTimestamp(Number(h.taken_at))!,
        targetVersion: h.target_version,
        phase: h.phase as RolloutPhase,
        total: h.total,
        eligible: h.eligible,
        onTarget: h.on_target,
        pinned: h.pinned,
        deferring: h.deferring,
        blocked: h.blocked,
        noArtifact: h.no_artifact,
      })),
    };
  }
}
