import { z } from 'zod';
import {
  BlockedReport,
  DeferralReport,
  compareVersions,
  isDottedVersion,
  parseReleasePublicKey,
  type ReleaseManifest,
  type UpgradeOffer,
} from '@vend/protocol';
import type { AppContext } from '../../context.ts';
import type { AgentReleaseRow, AgentRolloutRow, RolloutProgressRow } from '../../db/schema.ts';
import { newId } from '../../crypto/ids.ts';
import { offsetOf, type Paging } from '../../http/paging.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import { AppError, badRequest, conflict, machineNotFound, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { decide, inCohort, type OfferDecision, type OfferableRelease, type PinPolicy, type RolloutPhase, type RolloutPolicy } from './offer.ts';
import { ReleasesRepo } from './releases.repo.ts';
import { judgePublication, versionKey, type Trust } from './releases.rules.ts';
import type {
  BlockedBlock,
  DeferringBlock,
  FleetData,
  MachineAgentData,
  PinData,
  ProgressCounts,
  ReleaseRecord,
  RolloutBody,
  RolloutData,
  RolloutsData,
} from './releases.schemas.ts';
import { isUniqueViolation } from '../../db/errors.ts';

type Services = Pick<AppContext, 'database' | 'clock' | 'audit' | 'config'>;

/** Tries of a publication that lost a race for its sequence number or version (a unique violation). */
const PUBLISH_ATTEMPTS = 4;

function toRelease(r: AgentReleaseRow): OfferableRelease {
  return {
    version: r.version,
    sha256: r.sha256,
    size: Number(r.size),
    url: r.url,
    migration: r.migration === 1,
    minFrom: r.min_from,
    signature: r.signature,
    signatureAlg: 'ed25519',
    sequence: Number(r.sequence),
  };
}

function toRecord(r: AgentReleaseRow, offered: ReadonlySet<string>): ReleaseRecord {
  return { ...toRelease(r), publishedAt: formatTimestamp(Number(r.published_at))!, offered: offered.has(r.version) };
}

function parseCanary(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function toPolicy(r: AgentRolloutRow | undefined): RolloutPolicy | null {
  if (!r) return null;
  return {
    targetVersion: r.target_version,
    phase: r.phase as RolloutPhase,
    canary: parseCanary(r.canary_json),
    percent: r.percent,
    allowDowngrade: r.allow_downgrade === 1,
  };
}

function toRolloutData(r: AgentRolloutRow): RolloutData {
  return {
    targetVersion: r.target_version,
    phase: r.phase as RolloutPhase,
    canary: parseCanary(r.canary_json),
    percent: r.percent,
    allowDowngrade: r.allow_downgrade === 1,
    note: r.note,
    holdReason: r.hold_reason,
    heldAt: formatTimestamp(r.held_at === null ? null : Number(r.held_at)),
    setAt: formatTimestamp(Number(r.created_at))!,
    updatedAt: formatTimestamp(Number(r.updated_at))!,
  };
}

// What the gateway's heartbeat stores in cabinet_status (0004): the agent's block plus `reportedAt`.
const StoredDeferral = DeferralReport.extend({ reportedAt: z.number() });
const StoredBlocked = BlockedReport.extend({ reportedAt: z.number() });

function parseStored<T extends z.ZodType>(schema: T, json: string | null | undefined): z.output<T> | null {
  if (!json) return null;
  try {
    const r = schema.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

interface StoredReports {
  deferring_json: string | null;
  deferring_first_at: number | null;
  blocked_json: string | null;
  blocked_first_at: number | null;
}

/**
 * The cabinet's deferral and blocked blocks as the views show them. A block is shown while its
 * condition lasts: the agent still reports it (the heartbeat clears it otherwise) and it concerns the
 * version this cabinet is offered now or its target — a block about a version nothing offers any more
 * (the rollout moved, was held, or a pin took over) has ended even if the cabinet has not said so yet.
 */
function reportBlocks(s: StoredReports | undefined, decision: OfferDecision): { deferring: DeferringBlock | null; blocked: BlockedBlock | null } {
  const relevant = (version: string) =>
    isDottedVersion(version) &&
    [decision.offer?.version, decision.target].some((v) => v !== undefined && v !== null && isDottedVersion(v) && compareVersions(v, version) === 0);
  const d = parseStored(StoredDeferral, s?.deferring_json);
  const b = parseStored(StoredBlocked, s?.blocked_json);
  return {
    deferring:
      d && relevant(d.version)
        ? {
            version: d.version,
            count: d.count,
            seconds: d.seconds,
            reason: d.reason,
            reportedAt: formatTimestamp(d.reportedAt)!,
            firstReportedAt: formatTimestamp(s?.deferring_first_at != null ? Number(s.deferring_first_at) : d.reportedAt)!,
          }
        : null,
    blocked:
      b && relevant(b.version)
        ? {
            version: b.version,
            minFrom: b.minFrom,
            count: b.count,
            seconds: b.seconds,
            firstReportedAt: formatTimestamp(s?.blocked_first_at != null ? Number(s.blocked_first_at) : b.reportedAt)!,
          }
        : null,
  };
}

function sameCounts(row: RolloutProgressRow, c: ProgressCounts): boolean {
  return (
    row.total === c.total &&
    row.eligible === c.eligible &&
    row.on_target === c.onTarget &&
    row.pinned === c.pinned &&
    row.deferring === c.deferring &&
    row.blocked === c.blocked
  );
}

function pinData(p: { version: string; reason: string; pinned_at: number; pinned_by: string | null }): PinData {
  return { version: p.version, reason: p.reason, pinnedAt: formatTimestamp(Number(p.pinned_at))!, pinnedBy: p.pinned_by };
}

/**
 * Agent releases, the fleet-wide rollout and pins (spec 2 §4.3–§4.5). Every write is one transaction
 * with its audit record; the offer itself is the pure `decide` in offer.ts.
 */
export class ReleasesService {
  constructor(private readonly ctx: Services) {}

  private repo(db = this.ctx.database.db): ReleasesRepo {
    return new ReleasesRepo(db);
  }

  private get now(): number {
    return this.ctx.clock.now();
  }

  private trust(): Trust {
    const publicKey = parseReleasePublicKey(this.ctx.config.releases.publicKey);
    if (!publicKey) throw new AppError('unavailable', 'No release publishing key is configured');
    return { publicKey, artifactUrlPrefix: this.ctx.config.releases.artifactUrlPrefix };
  }

  private async offeredVersions(repo: ReleasesRepo): Promise<Set<string>> {
    const [rollout, pinned] = await Promise.all([repo.rollout(), repo.pinnedVersions()]);
    return new Set([...(rollout ? [rollout.target_version] : []), ...pinned]);
  }

  // --- registry ------------------------------------------------------------------------------

  async list(): Promise<{ total: number; records: ReleaseRecord[] }> {
    const repo = this.repo();
    const [rows, offered] = await Promise.all([repo.releases(), this.offeredVersions(repo)]);
    return { total: rows.length, records: rows.map((r) => toRecord(r, offered)) };
  }

  /**
   * Publishes a signed manifest under every rule of spec 2 §4.5 (releases.rules.ts). A new version
   * gets the next sequence number; the same version with the same signed bytes answers the existing
   * record (`created` false). Publishing offers the release to nobody: only a rollout or a pin does.
   */
  async publish(by: Principal, manifest: ReleaseManifest): Promise<ReleaseRecord & { created: boolean }> {
    const trust = this.trust();
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.ctx.database.db.transaction().execute(async (trx) => {
          const repo = this.repo(trx);
          await repo.lockRegistry(this.ctx.database.dialect);
          const rows = await repo.releases();
          const verdict = judgePublication(
            manifest,
            rows.map((r) => ({ ...toRelease(r), row: r })),
            trust,
          );
          if (verdict.kind === 'existing') return { ...toRecord(verdict.release.row, await this.offeredVersions(repo)), created: false };
          const now = this.now;
          const row: AgentReleaseRow = {
            version: manifest.version,
            version_key: versionKey(manifest.version),
            sha256: manifest.sha256,
            size: manifest.size,
            url: manifest.url,
            migration: manifest.migration ? 1 : 0,
            min_from: manifest.minFrom ?? null,
            signature: manifest.signature,
            signature_alg: manifest.signatureAlg,
            sequence: await repo.nextSequence(),
            published_at: now,
            published_by: by.operatorEmail,
            published_key: by.credentialId,
          };
          await repo.insertRelease(row);
          await this.ctx.audit.record(trx, by, 'agent.release.publish', `release:${row.version}`);
          return { ...toRecord(row, new Set()), created: true };
        });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        if (attempt >= PUBLISH_ATTEMPTS) throw conflict('another publication raced this one; send it again');
      }
    }
  }

  // --- rollout -------------------------------------------------------------------------------

  async rollout(): Promise<RolloutData | null> {
    const r = await this.repo().rollout();
    return r ? toRolloutData(r) : null;
  }

  /** Sets the one fleet-wide rollout (replacing any other). The target must be published (404); canary codes must name machines (400). */
  async putRollout(by: Principal, body: RolloutBody): Promise<RolloutData> {
    return this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const release = await repo.releaseByKey(versionKey(body.targetVersion));
      if (!release) throw notFound(`Release ${body.targetVersion}`);
      const canary = [...new Set(body.canary)];
      const known = await repo.existingMachineNos(canary);
      const unknown = canary.filter((c) => !known.has(c));
      if (unknown.length)
        throw badRequest(`canary names unknown machines: ${unknown.slice(0, 20).join(', ')}${unknown.length > 20 ? ` (and ${unknown.length - 20} more)` : ''}`);
      const now = this.now;
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
      await this.ctx.audit.record(trx, by, 'agent.rollout.set', `rollout:${release.version}`);
      return toRolloutData(row);
    });
  }

  /** rolling → held. A second hold changes nothing; with no rollout, or a complete one, 409. */
  async hold(by: Principal, reason: string): Promise<RolloutData> {
    return this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const r = await repo.rollout();
      if (!r || r.phase === 'complete') throw conflict('No rollout in flight to hold');
      if (r.phase === 'held') return toRolloutData(r);
      const now = this.now;
      const set = { hold_reason: reason, held_at: now, held_by: by.operatorEmail, updated_at: now };
      await repo.setPhase('held', set);
      await this.ctx.audit.record(trx, by, 'agent.rollout.hold', `rollout:${r.target_version}`);
      return toRolloutData({ ...r, ...set, phase: 'held' });
    });
  }

  /** held → rolling. Resuming a rolling rollout changes nothing; with no rollout, or a complete one, 409. */
  async resume(by: Principal): Promise<RolloutData> {
    return this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const r = await repo.rollout();
      if (!r || r.phase === 'complete') throw conflict('No rollout in flight to resume');
      if (r.phase === 'rolling') return toRolloutData(r);
      const set = { hold_reason: null, held_at: null, held_by: null, updated_at: this.now };
      await repo.setPhase('rolling', set);
      await this.ctx.audit.record(trx, by, 'agent.rollout.resume', `rollout:${r.target_version}`);
      return toRolloutData({ ...r, ...set, phase: 'rolling' });
    });
  }

  // --- pins ----------------------------------------------------------------------------------

  private async liveMachine(repo: ReleasesRepo, machineNo: string) {
    const m = await repo.machineByNo(machineNo);
    if (!m) throw machineNotFound();
    if (m.retired_at !== null) throw new AppError('gone', 'Machine is retired');
    return m;
  }

  /** Pins a machine to a published version (404 when it is not); replaces an earlier pin. */
  async pin(by: Principal, machineNo: string, body: { version: string; reason: string }): Promise<MachineAgentData> {
    await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const m = await this.liveMachine(repo, machineNo);
      const release = await repo.releaseByKey(versionKey(body.version));
      if (!release) throw notFound(`Release ${body.version}`);
      await repo.upsertPin({
        machine_id: m.id,
        version: release.version,
        reason: body.reason,
        pinned_by: by.operatorEmail,
        pinned_key: by.credentialId,
        pinned_at: this.now,
      });
      await this.ctx.audit.record(trx, by, 'agent.pin.set', `machine:${m.machine_no}`);
    });
    return this.machineAgent(machineNo);
  }

  /** Removes a machine's pin; `removed` false (and nothing written) when it had none. */
  async unpin(by: Principal, machineNo: string): Promise<{ machineNo: string; removed: boolean; pin: null }> {
    return this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const m = await repo.machineByNo(machineNo);
      if (!m) throw machineNotFound();
      const removed = await repo.deletePin(m.id);
      if (removed) await this.ctx.audit.record(trx, by, 'agent.pin.remove', `machine:${m.machine_no}`);
      return { machineNo: m.machine_no, removed, pin: null };
    });
  }

  // --- offers and views ----------------------------------------------------------------------

  private async policy() {
    const repo = this.repo();
    const [rows, rollout] = await Promise.all([repo.releases(), repo.rollout()]);
    return { releases: rows.map(toRelease), rolloutRow: rollout, rollout: toPolicy(rollout) };
  }

  /**
   * What `/cabinet/upgrade` answers for a resolved cabinet: its offer, or null. `agentVersion` is what
   * the query says is running; without it the last version the cabinet reported stands in.
   */
  async offerForCabinet(machineId: string, agentVersion?: string | null): Promise<UpgradeOffer | null> {
    const repo = this.repo();
    const m = await this.ctx.database.db.selectFrom('machines').select(['machine_no', 'agent_version']).where('id', '=', machineId).executeTakeFirst();
    if (!m) return null;
    const [{ releases, rollout }, pin] = await Promise.all([this.policy(), repo.pin(machineId)]);
    return decide({ running: agentVersion ?? m.agent_version, machineCode: m.machine_no, releases, rollout, pin: pin ? { version: pin.version } : null }).offer;
  }

  /** GET /machines/{no}/agent: the cabinet's version, pin, current offer and its deferral/blocked blocks. */
  async machineAgent(machineNo: string): Promise<MachineAgentData> {
    const repo = this.repo();
    const m = await repo.machineByNo(machineNo);
    if (!m) throw machineNotFound();
    const [{ releases, rollout }, pin, reports] = await Promise.all([this.policy(), repo.pin(m.id), repo.reports(m.id)]);
    const decision = decide({ running: m.agent_version, machineCode: m.machine_no, releases, rollout, pin: pin ? { version: pin.version } : null });
    return {
      machineNo: m.machine_no,
      agentVersion: m.agent_version,
      lastSeen: formatTimestamp(m.last_seen === null ? null : Number(m.last_seen)),
      pin: pin ? pinData(pin) : null,
      target: decision.target,
      inCohort: rollout !== null && inCohort(m.machine_no, rollout),
      offer: decision.offer,
      offerReason: decision.reason,
      ...reportBlocks(reports, decision),
    };
  }

  /**
   * One pass over the non-retired machines in view (`operatorId` null: the whole fleet): each one's
   * offer decision, cohort membership and live blocks, and the progress counts over all of them. The
   * fleet view, the rollout sweep and `/api/v1/rollouts` all count through here, so the rules exist once.
   */
  private async survey(operatorId: string | null) {
    const [{ releases, rollout, rolloutRow }, rows] = await Promise.all([this.policy(), this.repo().fleetRows(operatorId)]);
    const counts: ProgressCounts = { total: rows.length, eligible: 0, onTarget: 0, pinned: 0, deferring: 0, blocked: 0 };
    const machines = rows.map((m) => {
      const pin: PinPolicy | null = m.pin_version ? { version: m.pin_version } : null;
      const decision = decide({ running: m.agent_version, machineCode: m.machine_no, releases, rollout, pin });
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
    for (const { m } of all) {
      const version = m.agent_version ?? 'unreported';
      byVersion[version] = (byVersion[version] ?? 0) + 1;
    }
    const first = (page - 1) * size;
    const machines: FleetData['machines'] = all.slice(first, first + size).map(({ m, decision, cohort, blocks }) => ({
      machineNo: m.machine_no,
      agentVersion: m.agent_version,
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
      byVersion,
      page,
      size,
      machines,
    };
  }

  // --- rollout progress ----------------------------------------------------------------------

  /**
   * The rollout sweep's work (jobs.ts): with a rollout in flight (any phase), counts its progress
   * over the whole fleet and writes a `rollout_progress` snapshot when the rollout, its phase or any
   * count differs from the newest snapshot. Answers how many snapshots it wrote (0 or 1). Only the
   * leader replica runs it; snapshots are bookkeeping, not operator writes, so they are not audited.
   */
  async recordProgress(): Promise<number> {
    const { rolloutRow, counts } = await this.survey(null);
    if (!rolloutRow) return 0;
    const repo = this.repo();
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
    const takenAt = Math.max(this.now, last ? Number(last.taken_at) + 1 : 0);
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
    const repo = this.repo();
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
      })),
    };
  }
}
