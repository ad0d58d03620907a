import { z } from 'zod';
import { RELEASE_SIGNATURE_ALG, ReleaseArtifact, ReleaseSignature, ReleaseVersion, Sha256Hex, UpgradeOffer } from './release.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The `data` of the cloud's release-admin answers (spec 2 §4.3, §4.5): the release registry, the
 * fleet-wide rollout, pins, a cabinet's agent view and the agent fleet view. The cloud documents its
 * routes with these schemas and `vendctl` parses every answer with them, so the two cannot drift.
 * Plain `z.object`s: a field the cloud adds later is dropped by an older client, never a failure.
 */

export const ROLLOUT_PHASES = ['rolling', 'held', 'complete'] as const;
export type RolloutPhase = (typeof ROLLOUT_PHASES)[number];

// --- releases --------------------------------------------------------------------------------

/**
 * A registry record: the manifest as published, its publish order and when it was published.
 * `artifacts` lists every architecture's artifact (one, for x64, for a single-artifact release);
 * `sha256`/`size`/`url` repeat the first of them.
 */
export const ReleaseRecord = lazySchema(() =>
  z.object({
    version: ReleaseVersion,
    sha256: Sha256Hex,
    size: z.number().int(),
    url: z.string(),
    artifacts: z.array(ReleaseArtifact),
    migration: z.boolean(),
    minFrom: ReleaseVersion.nullable(),
    signature: ReleaseSignature,
    signatureAlg: z.literal(RELEASE_SIGNATURE_ALG),
    sequence: z.number().int(),
    publishedAt: z.string(),
    /** Whether a rollout or a pin names it now (publishing alone offers it to nobody). */
    offered: z.boolean(),
  }),
);
export type ReleaseRecord = z.infer<typeof ReleaseRecord>;

/** POST answers the record, with `created` false when the same version with the same bytes was already there. */
export const ReleasePublishData = lazySchema(() => ReleaseRecord.extend({ created: z.boolean() }));
export type ReleasePublishData = z.infer<typeof ReleasePublishData>;

export const ReleaseList = lazySchema(() => z.object({ total: z.number().int(), records: z.array(ReleaseRecord) }));
export type ReleaseList = z.infer<typeof ReleaseList>;

// --- rollout ---------------------------------------------------------------------------------

export const RolloutData = lazySchema(() =>
  z.object({
    targetVersion: z.string(),
    phase: z.enum(ROLLOUT_PHASES),
    canary: z.array(z.string()),
    percent: z.number().int(),
    allowDowngrade: z.boolean(),
    note: z.string(),
    holdReason: z.string().nullable(),
    heldAt: z.string().nullable(),
    setAt: z.string(),
    updatedAt: z.string(),
  }),
);
export type RolloutData = z.infer<typeof RolloutData>;

// --- pins ------------------------------------------------------------------------------------

export const AgentPinData = lazySchema(() => z.object({ version: z.string(), reason: z.string(), pinnedAt: z.string(), pinnedBy: z.string().nullable() }));
export type AgentPinData = z.infer<typeof AgentPinData>;

export const AgentUnpinData = lazySchema(() => z.object({ machineNo: z.string(), removed: z.boolean(), pin: z.null() }));
export type AgentUnpinData = z.infer<typeof AgentUnpinData>;

// --- views -----------------------------------------------------------------------------------

export const DeferringBlock = lazySchema(() =>
  z.object({
    version: z.string(),
    count: z.number().int(),
    seconds: z.number().int(),
    reason: z.string(),
    reportedAt: z.string(),
    firstReportedAt: z.string(),
  }),
);
export type DeferringBlock = z.infer<typeof DeferringBlock>;

export const BlockedBlock = lazySchema(() =>
  z.object({
    version: z.string(),
    minFrom: z.string(),
    count: z.number().int(),
    seconds: z.number().int(),
    firstReportedAt: z.string(),
  }),
);
export type BlockedBlock = z.infer<typeof BlockedBlock>;

export const MachineAgentData = lazySchema(() =>
  z.object({
    machineNo: z.string(),
    agentVersion: z.string().nullable(),
    /** The architecture its agent reports; null until it reports one (then it is offered only single-artifact x64 releases). */
    arch: z.string().nullable(),
    lastSeen: z.string().nullable(),
    pin: AgentPinData.nullable(),
    /** The version the pin or the rollout moves this cabinet to; null when it is told nothing. */
    target: z.string().nullable(),
    /** In the rollout's cohort (a canary, or inside the percentage). */
    inCohort: z.boolean(),
    offer: UpgradeOffer.nullable(),
    /** Why the offer is what it is (`on-target`, `not-in-cohort`, `migration-rung`, `no-artifact-for-arch`, …). */
    offerReason: z.string(),
    deferring: DeferringBlock.nullable(),
    blocked: BlockedBlock.nullable(),
  }),
);
export type MachineAgentData = z.infer<typeof MachineAgentData>;

export const AgentFleetMachine = lazySchema(() =>
  MachineAgentData.omit({ offer: true }).extend({
    /** The version offered now, or null. */
    offerVersion: z.string().nullable(),
    isFinalStep: z.boolean().nullable(),
  }),
);
export type AgentFleetMachine = z.infer<typeof AgentFleetMachine>;

export const AgentFleetData = lazySchema(() =>
  z.object({
    /** The rollout's target version, or null with no rollout. */
    target: z.string().nullable(),
    rollout: RolloutData.nullable(),
    /** Non-retired machines in view (an operator sees their own). */
    total: z.number().int(),
    /** Not pinned and inside the rollout's cohort. */
    eligible: z.number().int(),
    /** Eligible machines already running the target. */
    onTarget: z.number().int(),
    pinned: z.number().int(),
    deferring: z.number().int(),
    blocked: z.number().int(),
    /** Machines offered nothing because the release they are due has no artifact for their architecture (`no-artifact-for-arch`, `arch-unknown`). */
    noArtifact: z.number().int(),
    /** Machines per reported architecture (`unreported` for none). */
    byArch: z.record(z.string(), z.number().int()),
    /** Machines per reported agent version (`unreported` for none). */
    byVersion: z.record(z.string(), z.number().int()),
    page: z.number().int(),
    size: z.number().int(),
    machines: z.array(AgentFleetMachine),
  }),
);
export type AgentFleetData = z.infer<typeof AgentFleetData>;
