import { z } from 'zod';
import { DeviceIdField, SERIAL_FIELD_MAX, isClaimableSerial, safeString } from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';
import { BINDINGS, ENROLMENT_MODES } from './enrolment.rules.ts';

/** Arm window: default 30 minutes, at most 24 hours (spec 2 §2.2, §8). */
export const ARM_TTL = Object.freeze({ defaultMinutes: 30, maxMinutes: 1440 });
/** Enrolment budget: attempts per serial per sliding window (spec 2 §5 rule 5). */
export const ENROL_BUDGET = Object.freeze({ attempts: 10, windowMs: 15 * 60_000 });

/** A machine code in a path: judged before the lookup (a NUL would reach PostgreSQL as a 500). */
export const MachineNoParams = z.object({ machineNo: safeString().min(1).max(SERIAL_FIELD_MAX) });

/** Trimmed, non-empty text without control characters or lone surrogates; reasons may span lines. */
const text = (max: number, allowBreaks = false) => safeString({ allowBreaks, trim: true }).min(1).max(max);

export const ArmBody = z.object({
  reason: text(500, true),
  deviceId: DeviceIdField.optional(),
  ttlMinutes: z.number().int().min(1).max(ARM_TTL.maxMinutes).default(ARM_TTL.defaultMinutes),
});
export type ArmInput = z.infer<typeof ArmBody>;

export const RevokeBody = z.object({ by: text(100), reason: text(500, true) });
export type RevokeInput = z.infer<typeof RevokeBody>;

export const ResetBody = z.object({
  signer: text(100),
  reason: text(500, true),
  /** Open an arm in the same step, so the new control board can enrol. */
  arm: z.object({ deviceId: DeviceIdField.optional(), ttlMinutes: z.number().int().min(1).max(ARM_TTL.maxMinutes).default(ARM_TTL.defaultMinutes) }).optional(),
});
export type ResetInput = z.infer<typeof ResetBody>;

export const ModeBody = z.object({ mode: z.enum(ENROLMENT_MODES) });
/** A machine's own mode; null removes it (the fleet-wide mode applies). The stricter of the two wins. */
export const MachineModeBody = z.object({ mode: z.enum(ENROLMENT_MODES).nullable() });

export const FleetQuery = PagingQuery.extend({ state: z.enum(['enrolled', 'fleet-secret', 'revoked']).optional() });
export type FleetQuery = z.infer<typeof FleetQuery>;

const Attribution = z.object({ kind: z.enum(['owner', 'admin', 'factory']), keyId: z.string().nullable(), operatorEmail: z.string().nullable() });

export const ArmView = z.object({
  reason: z.string(),
  deviceId: z.string().nullable(),
  armedAt: z.string(),
  expiresAt: z.string(),
  armedBy: Attribution,
});
export type ArmView = z.infer<typeof ArmView>;

export const ArmData = z.object({ machineNo: z.string(), enrolmentArmed: ArmView });
export const DisarmData = z.object({ machineNo: z.string(), disarmed: z.boolean() });
export const RotateData = z.object({ machineNo: z.string(), rotationDue: z.boolean(), generation: z.number().int() });
export const RevokeData = z.object({
  machineNo: z.string(),
  state: z.literal('revoked'),
  revokedAt: z.string(),
  by: z.string(),
  reason: z.string(),
  generationsRevoked: z.number().int(),
});
export const ResetData = z.object({
  machineNo: z.string(),
  state: z.literal('fleet-secret'),
  enrolmentBinding: z.literal('unbound'),
  resetAt: z.string(),
  signer: z.string(),
  reason: z.string(),
  enrolmentArmed: ArmView.nullable(),
});
export const ModeData = z.object({ mode: z.enum(ENROLMENT_MODES) });
export const MachineModeData = z.object({ machineNo: z.string(), mode: z.enum(ENROLMENT_MODES).nullable(), effectiveMode: z.enum(ENROLMENT_MODES) });

export const FleetMachine = z.object({
  machineNo: z.string(),
  state: z.enum(['enrolled', 'fleet-secret', 'revoked']),
  keyId: z.string().nullable(),
  generation: z.number().int().nullable(),
  enrolmentBinding: z.enum(BINDINGS),
  deviceId: z.string().nullable(),
  rotationDue: z.boolean(),
  enrolmentArmed: ArmView.nullable(),
  revoked: z.object({ at: z.string(), by: z.string().nullable(), reason: z.string().nullable() }).nullable(),
  copySuspicions: z.number().int(),
});
export const FleetData = z.object({
  /** Un-enrolled cabinets that have actually called on the fleet secret. */
  onFleetSecret: z.number().int(),
  /** Cabinets with an open enrolment arm. */
  armed: z.number().int(),
  /** Every un-enrolled (and unrevoked, unretired) machine record the shared secret still serves. */
  reachableOnFleetSecret: z.number().int(),
  enrolmentWindow: z.object({
    mode: z.enum(ENROLMENT_MODES),
    budgetAttempts: z.number().int(),
    budgetWindowSeconds: z.number().int(),
    armDefaultMinutes: z.number().int(),
    armMaxMinutes: z.number().int(),
  }),
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
  machines: z.array(FleetMachine),
});
export type FleetData = z.infer<typeof FleetData>;

export const ConflictView = z.object({
  machineNo: z.string(),
  binding: z.string(),
  boundDeviceId: z.string().nullable(),
  presentedDeviceId: z.string(),
  leg: z.string(),
  at: z.string(),
  resolvedAt: z.string().nullable(),
});
export const SuspicionView = z.object({
  machineNo: z.string(),
  keyId: z.string().nullable(),
  leg: z.string(),
  count: z.number().int(),
  firstAt: z.string(),
  lastAt: z.string(),
});
export const UnclaimableView = z.object({
  serial: z.string(),
  faults: z.array(z.string()),
  /** `machine`: a machine record carries it; `first-contact`: a cabinet presented it and was refused. */
  source: z.enum(['machine', 'first-contact']),
  leg: z.string().nullable(),
  attempts: z.number().int().nullable(),
  firstSeenAt: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
});
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(item) });

// --- factory build records --------------------------------------------------------------------

export const BuildBody = z.object({
  machineNo: z.string().max(128).refine(isClaimableSerial, 'machineNo must be letters, digits, hyphens only and 8–32 characters'),
  /** Admin credentials name the plant; a factory key's plant is always its own. */
  plant: text(64).optional(),
  builtAt: z.iso.datetime({ offset: true }).optional(),
});
export type BuildInput = z.infer<typeof BuildBody>;
export const BuildPatchBody = z.object({ qaPassed: z.literal(true).optional(), shipped: z.literal(true).optional() });
export type BuildPatch = z.infer<typeof BuildPatchBody>;
export const BuildView = z.object({
  machineNo: z.string(),
  plant: z.string(),
  builtAt: z.string(),
  qaPassedAt: z.string().nullable(),
  shippedAt: z.string().nullable(),
});
export type BuildView = z.infer<typeof BuildView>;
