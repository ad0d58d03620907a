import { z } from 'zod';
import {
  CONFIG_BOUNDS,
  ConfigBlock,
  DISPATCH_MODES,
  FEATURE_NAMES,
  MODULES,
  SERIAL_FIELD_MAX,
  SERVICE_ACTIONS,
  SERVICE_ATTEMPT_RESULTS,
  ServiceCode,
  safeString,
  type FeatureName,
} from '@vend/protocol';

export const MachineNoParams = z.object({ machineNo: safeString().min(1).max(SERIAL_FIELD_MAX) });

const bounded = (b: { min: number; max: number }) => z.number().int().min(b.min).max(b.max).nullable().optional();

/** A feature setting: true/false is authoritative for the cabinet; null removes it (the default applies). */
const FeatureSettingsPatch = z.strictObject(
  Object.fromEntries(FEATURE_NAMES.map((f) => [f, z.boolean().nullable().optional()])) as Record<FeatureName, z.ZodOptional<z.ZodNullable<z.ZodBoolean>>>,
);

/** Per-machine configuration (spec 2 §2.4). Only sent fields change; null restores the default. Unknown fields are refused. */
export const SettingsBody = z.strictObject({
  module: z.enum(MODULES).nullable().optional(),
  rows: bounded(CONFIG_BOUNDS.rows),
  columnsPerRow: bounded(CONFIG_BOUNDS.columnsPerRow),
  pollInterval: bounded(CONFIG_BOUNDS.pollInterval),
  heartbeatInterval: bounded(CONFIG_BOUNDS.heartbeatInterval),
  dispatchMode: z.enum(DISPATCH_MODES).nullable().optional(),
  kioskUiUrl: safeString({ trim: true }).min(1).max(500).nullable().optional(),
  adminPin: z
    .string()
    .regex(/^\d{4,8}$/, 'must be 4–8 digits')
    .nullable()
    .optional(),
  features: FeatureSettingsPatch.optional(),
});
export type SettingsInput = z.infer<typeof SettingsBody>;

export const SettingsData = z.object({
  machineNo: z.string(),
  /** What is stored for this machine (null: the default applies). */
  settings: z.object({
    module: z.string().nullable(),
    rows: z.number().int().nullable(),
    columnsPerRow: z.number().int().nullable(),
    pollInterval: z.number().int().nullable(),
    heartbeatInterval: z.number().int().nullable(),
    dispatchMode: z.string().nullable(),
    kioskUiUrl: z.string().nullable(),
    adminPinSet: z.boolean(),
    features: z.record(z.string(), z.boolean()),
  }),
  /** The configuration block the cabinet receives. */
  config: ConfigBlock,
});
export type SettingsData = z.infer<typeof SettingsData>;

/** PUT …/service-code: set or rotate the cabinet's service code (stored and delivered hashed only). */
export const ServiceCodeBody = z.strictObject({ code: ServiceCode });
export type ServiceCodeInput = z.infer<typeof ServiceCodeBody>;

/** The service code of a cabinet as the operator sees it: whether one is set (never the code), the lock and the attempts the cabinet reported. */
export const ServiceCodeData = z.object({
  machineNo: z.string(),
  set: z.boolean(),
  setAt: z.string().nullable(),
  /** The lock as the cabinet last reported it (null: it never reported one). */
  lock: z.object({ failures: z.number().int(), lockedUntil: z.string().nullable(), reportedAt: z.string() }).nullable(),
  /** The last 50 attempts the cabinet reported, newest first. */
  attempts: z.array(z.object({ at: z.string(), action: z.enum(SERVICE_ACTIONS), result: z.enum(SERVICE_ATTEMPT_RESULTS), source: z.enum(['cli', 'control']) })),
});
export type ServiceCodeData = z.infer<typeof ServiceCodeData>;
