import { z } from 'zod';
import {
  AgentFleetData,
  AgentFleetMachine,
  AgentPinData,
  AgentUnpinData,
  BlockedBlock,
  DeferringBlock,
  MachineAgentData,
  ROLLOUT_PHASES,
  ReleaseList,
  ReleasePublishData,
  ReleaseRecord,
  ReleaseVersion,
  RolloutData,
  SERIAL_MAX,
  UNSAFE_CHARS_MESSAGE,
  NO_UNSAFE_CHARS,
  safeString,
} from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';

// The answers of the release-admin routes are the wire contract vendctl parses: their schemas live in
// @vend/protocol (release-admin.ts) and are re-exported here under the names the domain uses.
export { BlockedBlock, DeferringBlock, MachineAgentData, ReleaseList, ReleaseRecord, RolloutData };
export { ReleasePublishData as PublishData, AgentPinData as PinData, AgentUnpinData as UnpinData };
export { AgentFleetMachine as FleetMachine, AgentFleetData as FleetData };

/** Free text: trimmed, bounded, no NUL (PostgreSQL text cannot hold it), no other control character, no lone surrogate. */
const text = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
    .regex(NO_UNSAFE_CHARS, UNSAFE_CHARS_MESSAGE);

/** A machine code as it appears in a path or a canary list (the lookup decides whether it exists). */
const MachineCode = z
  .string()
  .min(1)
  .max(SERIAL_MAX)
  .regex(/^[A-Za-z0-9-]+$/, 'must be letters, digits, hyphens only');

/** A machine code in a path: judged before the lookup (a NUL would reach PostgreSQL as a 500). */
export const MachineNoParams = z.object({ machineNo: safeString().max(200) });

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

// --- pins ------------------------------------------------------------------------------------

export const PinBody = z.strictObject({ version: ReleaseVersion, reason: text(4, 500) });

// --- views -----------------------------------------------------------------------------------

export const FleetQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(100),
});

// --- /api/v1/rollouts ------------------------------------------------------------------------

export const RolloutsQuery = PagingQuery;

/** Progress of the rollout over a set of machines: the fleet view's counts, defined once (`AgentFleetData`). */
export const ProgressCounts = AgentFleetData.pick({
  total: true,
  eligible: true,
  onTarget: true,
  pinned: true,
  deferring: true,
  blocked: true,
  noArtifact: true,
});
export type ProgressCounts = z.infer<typeof ProgressCounts>;

/** The rollout as `/api/v1/rollouts` shows it: the admin answer's fields (its creation time, not `setAt`) and its progress. */
export const RolloutCurrent = RolloutData.omit({ setAt: true }).extend({
  createdAt: z.string(),
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
