import { z } from 'zod';
import {
  BlockedReport,
  DeferralReport,
  LEGACY_RELEASE_ARCH,
  ReleaseArtifacts,
  compareVersions,
  isDottedVersion,
  releaseArtifacts,
  type ReleaseArtifact,
} from '@vend/protocol';
import type { AgentReleaseRow, AgentRolloutRow } from '../../db/schema.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { OfferDecision, OfferableRelease, RolloutPhase, RolloutPolicy } from './offer.ts';
import type { BlockedBlock, DeferringBlock, PinData, ReleaseRecord, RolloutData } from './releases.schemas.ts';

/** How releases, the rollout, pins and the cabinets' reports read in the API: rows in, views out. */

/**
 * A row's artifacts in canonical order: `artifacts_json` for a release signed in the v2 form, else its
 * own columns as the one x64 artifact. A stored list that no longer parses (never written so) reads as
 * no artifact at all, so it is offered to nobody rather than as the wrong binary.
 */
function artifactsOf(r: AgentReleaseRow): ReleaseArtifact[] {
  if (r.artifacts_json === null) return [{ arch: LEGACY_RELEASE_ARCH, sha256: r.sha256, size: Number(r.size), url: r.url }];
  try {
    const parsed = ReleaseArtifacts.safeParse(JSON.parse(r.artifacts_json));
    return parsed.success ? releaseArtifacts({ version: r.version, artifacts: parsed.data, migration: r.migration === 1 }) : [];
  } catch {
    return [];
  }
}

export function toRelease(r: AgentReleaseRow): OfferableRelease {
  return {
    version: r.version,
    sha256: r.sha256,
    size: Number(r.size),
    url: r.url,
    artifacts: artifactsOf(r),
    migration: r.migration === 1,
    minFrom: r.min_from,
    signature: r.signature,
    signatureAlg: 'ed25519',
    sequence: Number(r.sequence),
  };
}

export function toRecord(r: AgentReleaseRow, offered: ReadonlySet<string>): ReleaseRecord {
  const { artifacts, ...release } = toRelease(r);
  return { ...release, artifacts: [...artifacts], publishedAt: formatTimestamp(Number(r.published_at))!, offered: offered.has(r.version) };
}

function parseCanary(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

function policyOf(r: AgentRolloutRow): RolloutPolicy & { canary: string[] } {
  return {
    targetVersion: r.target_version,
    phase: r.phase as RolloutPhase,
    canary: parseCanary(r.canary_json),
    percent: r.percent,
    allowDowngrade: r.allow_downgrade === 1,
  };
}

export function toPolicy(r: AgentRolloutRow | undefined): RolloutPolicy | null {
  return r ? policyOf(r) : null;
}

export function toRolloutData(r: AgentRolloutRow): RolloutData {
  return {
    ...policyOf(r),
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
export function reportBlocks(s: StoredReports | undefined, decision: OfferDecision): { deferring: DeferringBlock | null; blocked: BlockedBlock | null } {
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

export function pinData(p: { version: string; reason: string; pinned_at: number; pinned_by: string | null }): PinData {
  return { version: p.version, reason: p.reason, pinnedAt: formatTimestamp(Number(p.pinned_at))!, pinnedBy: p.pinned_by };
}
