import {
  CAPABILITY_FEATURES,
  CONFIG_DEFAULTS,
  DISPATCH_MODES,
  FEATURE_DEFAULTS,
  FEATURE_NAMES,
  MODULES,
  type ConfigBlock,
  type FeatureFlags,
  type FeatureName,
} from '@vend/protocol';

/** A machine's stored settings: every field null (or absent from `features`) means "the default". */
export interface StoredSettings {
  features_json: string;
  module: string | null;
  rows: number | null;
  columns_per_row: number | null;
  poll_interval: number | null;
  heartbeat_interval: number | null;
  dispatch_mode: string | null;
  kiosk_ui_url: string | null;
  /** The service code's hash (migration 0031); absent or null: none set. */
  service_code_hash?: string | null;
}

/** Per-machine feature settings as stored: explicit booleans only (anything else in the JSON is ignored). */
export function parseFeatureSettings(json: string | null | undefined): Partial<Record<FeatureName, boolean>> {
  if (!json) return {};
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return {};
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
  const out: Partial<Record<FeatureName, boolean>> = {};
  for (const name of FEATURE_NAMES) {
    const b = (v as Record<string, unknown>)[name];
    if (typeof b === 'boolean') out[name] = b;
  }
  return out;
}

export function parseCapabilities(json: string | null | undefined): string[] {
  if (!json) return [];
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Feature flags (spec 2 §2.4): defaults, then a capability the cabinet reported may turn its
 * feature on (only `voiceShopper`), then per-machine settings — authoritative over both.
 */
export function resolveFeatures(settings: Partial<Record<FeatureName, boolean>>, capabilities: readonly string[]): FeatureFlags {
  const flags: FeatureFlags = { ...FEATURE_DEFAULTS };
  for (const f of CAPABILITY_FEATURES) if (capabilities.includes(f)) flags[f] = true;
  for (const f of FEATURE_NAMES) {
    const explicit = settings[f];
    if (explicit !== undefined) flags[f] = explicit;
  }
  return flags;
}

const oneOf = <T extends string>(allowed: readonly T[], v: string | null, fallback: T): T =>
  (allowed as readonly string[]).includes(v ?? '') ? (v as T) : fallback;

/**
 * The default kiosk UI of every cabinet: the screen its own agent serves from its release tree on the loopback
 * control port (issue 32), so it works with no cloud at all. An operator may point a machine elsewhere
 * (cabinet-settings `kioskUiUrl`); the cloud's `/kiosk/<serial>` only explains this (kiosk-page.ts).
 */
export const DEFAULT_KIOSK_UI_URL = 'http://127.0.0.1:8770/screen/';

/** The configuration block of one cabinet: every default of spec 2 §2.4, overridden by what is stored for it. */
export function buildConfigBlock(input: {
  machineNo: string;
  settings: StoredSettings | undefined;
  capabilities: readonly string[];
  adminPin: { pin: string; source: 'operator' | 'derived' };
}): ConfigBlock {
  const s = input.settings;
  return {
    module: oneOf(MODULES, s?.module ?? null, CONFIG_DEFAULTS.module),
    columnsPerRow: s?.columns_per_row ?? CONFIG_DEFAULTS.columnsPerRow,
    rows: s?.rows ?? CONFIG_DEFAULTS.rows,
    pollInterval: s?.poll_interval ?? CONFIG_DEFAULTS.pollInterval,
    heartbeatInterval: s?.heartbeat_interval ?? CONFIG_DEFAULTS.heartbeatInterval,
    dispatchMode: oneOf(DISPATCH_MODES, s?.dispatch_mode ?? null, CONFIG_DEFAULTS.dispatchMode),
    features: resolveFeatures(parseFeatureSettings(s?.features_json), input.capabilities),
    machineCode: input.machineNo,
    kioskUiUrl: s?.kiosk_ui_url ?? DEFAULT_KIOSK_UI_URL,
    adminPin: input.adminPin.pin,
    adminPinSource: input.adminPin.source,
    // the hash only, never the code: the cabinet checks a technician's code against it offline
    serviceCode: s?.service_code_hash ?? null,
  };
}
