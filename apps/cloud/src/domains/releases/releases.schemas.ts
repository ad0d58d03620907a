import { z } from 'zod';
import {
  ReleaseSignature,
  ReleaseVersion,
  Sha256Hex,
  UpgradeOffer,
  RELEASE_SIGNATURE_ALG,
  SERIAL_MAX,
  UNSAFE_CHARS_MESSAGE,
  hasUnsafeChars,
  safeString,
} from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';
import { ROLLOUT_PHASES } from './offer.ts';

/** Free text: trimmed, bounded, no NUL (PostgreSQL text cannot hold it), no other control character, no lone surrogate. */
const text = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !hasUnsafeChars(s), UNSAFE_CHARS_MESSAGE);

/** A machine code as it appears in a path or a canary list (the lookup decides whether it exists). */
const MachineCode = z
  .string()
  .min(1)
  .max(SERIAL_MAX)
  .regex(/^[A-Za-z0-9-]+$/, 'must be letters, digits, hyphens only');

/** A machine code in a path: judged before the lookup (a NUL would reach PostgreSQL as a 500). */
export const MachineNoParams = z.object({ machineNo: safeString().max(200) });

// --- releases --------------------------------------------------------------------------------

/** A registry record: the manifest as published, its publish order and when it was published. */
export const ReleaseRecord = z.object({
  version: ReleaseVersion,
  sha256: Sha256Hex,
  size: z.number().int(),
  url: z.string(),
  migration: z.boolean(),
  minFrom: ReleaseVersion.nullable(),
  signature: ReleaseSignature,
  signatureAlg: z.literal(RELEASE_SIGNATURE_ALG),
  sequence: z.number().int(),
  publishedAt: z.string(),
  /** Whether a rollout or a pin names it now (publishing alone offers it to nobody). */
  offered: z.boolean(),
});
export type ReleaseRecord = z.infer<typeof ReleaseRecord>;

/** POST answers the record, with `created` false when the same version with the same bytes was already there. */
export const PublishData = ReleaseRecord.extend({ created: z.boolean() });
export const ReleaseList = z.object({ total: z.number().int(), records: z.array(ReleaseRecord) });

// --- rollout ---------------------------------------------------------------------------------

export const RolloutBody = z.strictObject({
  targetVersion: ReleaseVersion,
  phase: z.enum(ROLLOUT_PHASES).default('rolling'),
  canary: z.array(MachineCode).max(1000).default([]),
  percent: z.number().int().min(0).max(100).default(0),
  allowDowngrade: z.boolean().default(false),
  note: z.union([z.literal(''), text(1, 500)]).default(''),
});
export type RolloutBody = z.infer<typeof RolloutBody>;

export const HoldBody = z.strictObject({ reason: text(1, 500) });

export const RolloutData = z.object({
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
});
export type RolloutData = z.infer<typeof RolloutData>;

// --- pins ------------------------------------------------------------------------------------

export const PinBody = z.strictObject({ version: ReleaseVersion, reason: text(4, 500) });

export const PinData = z.object({ version: z.string(), reason: z.string(), pinnedAt: z.string(), pinnedBy: z.string().nullable() });
export type PinData = z.infer<typeof PinData>;

export const UnpinData = z.object({ machineNo: z.string(), removed: z.boolean(), pin: z.null() });

// --- views -----------------------------------------------------------------------------------

export const DeferringBlock = z.object({
  version: z.string(),
  count: z.number().int(),
  seconds: z.number().int(),
  reason: z.string(),
  reportedAt: z.string(),
  firstReportedAt: z.string(),
});
export const BlockedBlock = z.object({
  version: z.string(),
  minFrom: z.string(),
  count: z.number().int(),
  seconds: z.number().int(),
  firstReportedAt: z.string(),
});
export type DeferringBlock = z.infer<typeof DeferringBlock>;
export type BlockedBlock = z.infer<typeof BlockedBlock>;

export const MachineAgentData = z.object({
  machineNo: z.string(),
  agentVersion: z.string().nullable(),
  lastSeen: z.string().nullable(),
  pin: PinData.nullable(),
  /** The version the pin or the rollout moves this cabinet to; null when it is told nothing. */
  target: z.string().nullable(),
  /** In the rollout's cohort (a canary, or inside the percentage). */
  inCohort: z.boolean(),
  offer: UpgradeOffer.nullable(),
  /** Why the offer is what it is (`on-target`, `not-in-cohort`, `migration-rung`, …). */
  offerReason: z.string(),
  deferring: DeferringBlock.nullable(),
  blocked: BlockedBlock.nullable(),
});
export type MachineAgentData = z.infer<typeof MachineAgentData>;

export const FleetQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(100),
});

export const FleetMachine = MachineAgentData.omit({ offer: true }).extend({
  /** The version offered now, or null. */
  offerVersion: z.string().nullable(),
  isFinalStep: z.boolean().nullable(),
});

export const FleetData = z.object({
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
  /** Machines per reported agent version (`unreported` for none). */
  byVersion: z.record(z.string(), z.number().int()),
  page: z.number().int(),
  size: z.number().int(),
  machines: z.array(FleetMachine),
});
export type FleetData = z.infer<typeof FleetData>;

// --- /api/v1/rollouts ------------------------------------------------------------------------

export const RolloutsQuery = PagingQuery;

/** Progress of the rollout over a set of machines (the same counts as the fleet view). */
export const ProgressCounts = z.object({
  /** Non-retired machines counted. */
  total: z.number().int(),
  /** Not pinned and inside the rollout's cohort. */
  eligible: z.number().int(),
  /** Eligible machines already running the target. */
  onTarget: z.number().int(),
  pinned: z.number().int(),
  deferring: z.number().int(),
  blocked: z.number().int(),
});
export type ProgressCounts = z.infer<typeof ProgressCounts>;

export const RolloutCurrent = z.object({
  targetVersion: z.string(),
  phase: z.enum(ROLLOUT_PHASES),
  /** Canary machine codes (an operator sees only their own). */
  canary: z.array(z.string()),
  percent: z.number().int(),
  allowDowngrade: z.boolean(),
  note: z.string(),
  holdReason: z.string().nullable(),
  heldAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Counted when read, over the caller's machines (an operator: their own cabinets). */
  progress: ProgressCounts,
});

/** A fleet-wide snapshot the rollout sweep wrote when the phase or a count changed. */
export const RolloutSnapshot = ProgressCounts.extend({
  takenAt: z.string(),
  targetVersion: z.string(),
  phase: z.enum(ROLLOUT_PHASES),
});

export const RolloutsData = z.object({
  current: RolloutCurrent.nullable(),
  page: z.number().int(),
  size: z.number().int(),
  /** Snapshots in all (0 for operators, who get no fleet-wide history). */
  total: z.number().int(),
  /** One page of snapshots, newest first (admins only; empty for operators). */
  history: z.array(RolloutSnapshot),
});
export type RolloutsData = z.infer<typeof RolloutsData>;
