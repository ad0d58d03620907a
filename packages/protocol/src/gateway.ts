import { z } from 'zod';
import { VMC_MAX_COLUMNS, VMC_MAX_ROWS } from './vmc/constants.ts';
import { UpgradeOffer } from './release.ts';
import { ServiceCodeHash, ServiceCodeReport } from './service-code.ts';
import { safeString } from './text.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The cabinet gateway's wire contract (spec 2 §2.1, §2.4, §4.1, §4.2): header names, the device-key
 * format, the configuration block with its defaults, and a zod schema for every request body and
 * response `data` of `/cabinet/*` and `/apk/*`. Every JSON response is the envelope
 * `{code, message, data}`; the schemas named `…Data` describe `data`.
 */

// ---------------------------------------------------------------------------------------------
// Headers

/** Request: the per-cabinet credential, `<keyId>:<secret>`. */
export const DEVICE_KEY_HEADER = 'x-device-key';
/** Request: the shared fleet secret (bootstrap and the selling legs of un-enrolled cabinets). */
export const FLEET_SECRET_HEADER = 'secret';
/** Response: a rotated credential `<keyId>:<secret>` (the next generation); store it and present it from now on. */
export const DEVICE_CREDENTIAL_HEADER = 'x-device-credential';
/**
 * Response: the rotating witness token. Request: the last witness token the cabinet saw, echoed
 * back verbatim under the same header name. A cabinet never invents one: with none seen yet (first
 * call, state lost) it sends no header.
 */
export const DEVICE_WITNESS_HEADER = 'x-device-witness';
/** Request headers that may carry the cabinet's serial as a cross-check (HTTP header names are case-insensitive). */
export const EQUIPMENT_NO_HEADERS = ['equipmentno', 'x-equipment-no'] as const;

// ---------------------------------------------------------------------------------------------
// Device key `<keyId>:<secret>` (spec 2 §2.1)

/** `dk_` + 16 lowercase hex characters; not secret. */
export const DEVICE_KEY_ID_PATTERN = /^dk_[0-9a-f]{16}$/;
/** 32 random bytes, URL-safe base64 without padding: 43 characters. */
export const DEVICE_SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const DEVICE_SECRET_BYTES = 32;

export interface DeviceKey {
  keyId: string;
  secret: string;
}

/** Splits an `x-device-key` value; null when it is not of the documented form. */
export function parseDeviceKey(raw: string): DeviceKey | null {
  if (raw.length !== 19 + 1 + 43) return null;
  const keyId = raw.slice(0, 19);
  const secret = raw.slice(20);
  if (raw[19] !== ':' || !DEVICE_KEY_ID_PATTERN.test(keyId) || !DEVICE_SECRET_PATTERN.test(secret)) return null;
  return { keyId, secret };
}

export function formatDeviceKey(k: DeviceKey): string {
  return `${k.keyId}:${k.secret}`;
}

// ---------------------------------------------------------------------------------------------
// Configuration block (spec 2 §2.4)

/** Feature flags and their defaults. Per-machine settings are authoritative over these. */
export const FEATURE_DEFAULTS = Object.freeze({
  autoRescue: true,
  dropSound: true,
  merchOnDemand: true,
  figurines: true,
  walkupSensor: true,
  walkupAlerts: true,
  arcadePrintables: true,
  remoteScreen: false,
  appAnalytics: false,
  photobooth: false,
  factoryMode: false,
  deviceLogs: false,
  voiceShopper: false,
  ambientAudio: false,
  cardTapStorefront: false,
  cardTapForceTile: false,
  htmlStorefront: false,
  testMode: false,
  cameraLive: false,
  visionWatch: false,
});

export type FeatureName = keyof typeof FEATURE_DEFAULTS;
export const FEATURE_NAMES = Object.keys(FEATURE_DEFAULTS) as FeatureName[];
/** The one feature a cabinet may turn on by reporting the capability (unless a per-machine setting says otherwise). */
export const CAPABILITY_FEATURES: readonly FeatureName[] = ['voiceShopper'];

export const FeatureFlags = lazySchema(() => z.object(Object.fromEntries(FEATURE_NAMES.map((f) => [f, z.boolean()])) as Record<FeatureName, z.ZodBoolean>));
export type FeatureFlags = z.infer<typeof FeatureFlags>;
/** A partial set of per-machine feature settings (unknown names refused). */
export const FeatureSettings = lazySchema(() =>
  z.strictObject(Object.fromEntries(FEATURE_NAMES.map((f) => [f, z.boolean().optional()])) as Record<FeatureName, z.ZodOptional<z.ZodBoolean>>),
);
export type FeatureSettings = z.infer<typeof FeatureSettings>;

export const MODULES = ['SH_YAxis', 'SH'] as const;
export const DISPATCH_MODES = ['both', 'kiosk_led', 'remote_led'] as const;
export const ADMIN_PIN_SOURCES = ['operator', 'derived'] as const;

export const CONFIG_DEFAULTS = Object.freeze({
  module: 'SH_YAxis' as (typeof MODULES)[number],
  columnsPerRow: 10,
  rows: 6,
  pollInterval: 3,
  heartbeatInterval: 60,
  dispatchMode: 'both' as (typeof DISPATCH_MODES)[number],
});

/** Bounds of the settable numbers: geometry is the board's; intervals keep a fleet from polling itself to death. */
export const CONFIG_BOUNDS = Object.freeze({
  rows: { min: 1, max: VMC_MAX_ROWS },
  columnsPerRow: { min: 1, max: VMC_MAX_COLUMNS },
  pollInterval: { min: 1, max: 3600 },
  heartbeatInterval: { min: 10, max: 86_400 },
});

const intIn = (b: { min: number; max: number }) => z.number().int().min(b.min).max(b.max);

export const ConfigBlock = lazySchema(() =>
  z.object({
    module: z.enum(MODULES),
    columnsPerRow: intIn(CONFIG_BOUNDS.columnsPerRow),
    rows: intIn(CONFIG_BOUNDS.rows),
    /** Seconds between pending polls. */
    pollInterval: intIn(CONFIG_BOUNDS.pollInterval),
    /** Seconds between heartbeats. */
    heartbeatInterval: intIn(CONFIG_BOUNDS.heartbeatInterval),
    dispatchMode: z.enum(DISPATCH_MODES),
    features: FeatureFlags,
    /** The cabinet's code: its serial (machineNo). */
    machineCode: z.string(),
    kioskUiUrl: z.string(),
    /** The kiosk's local admin PIN (6 digits). */
    adminPin: z.string(),
    /** `operator` when an operator set it, `derived` when the cloud derived the cabinet's default. */
    adminPinSource: z.enum(ADMIN_PIN_SOURCES),
    /**
     * The hash of the cabinet's service code (service-code.ts), never the code; null or absent when the
     * operator has set none (then the agent's locally configured hash, if any, applies).
     */
    serviceCode: ServiceCodeHash.nullable().optional(),
  }),
);
export type ConfigBlock = z.infer<typeof ConfigBlock>;

// ---------------------------------------------------------------------------------------------
// Field shapes shared by the bodies. Every string a cabinet sends goes through `safeString`
// (no control characters, no lone surrogates): a NUL would otherwise reach PostgreSQL as a 500.

/** The longest serial any carrier (header, query, body) may name; longer is malformed (400). */
export const SERIAL_FIELD_MAX = 128;
const serialField = safeString().max(SERIAL_FIELD_MAX);
const versionField = safeString().min(1).max(64);
/** A single-line token the cabinet echoes back (ids, outcomes, brands). */
const tokenField = (max: number) => safeString().min(1).max(max);
/** A stable per-installation id of the box (e.g. /etc/machine-id); opaque to the cloud. */
export const DeviceIdField = lazySchema(() =>
  z
    .string()
    .min(8)
    .max(128)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces'),
);
const capabilitiesField = z.array(tokenField(64)).max(64);
/**
 * The architecture the agent runs on, as Node names it (`process.arch`: `x64`, `arm64`, `arm`, …). The
 * cloud offers only a release artifact built for it (docs/decisions/agent-upgrades.md).
 */
export const CabinetArch = lazySchema(() => z.string().regex(/^[a-z][a-z0-9_]{0,15}$/, 'an architecture name as process.arch gives it, e.g. x64 or arm64'));

/** Where a body may carry the serial cross-check. */
export const SerialCarrier = lazySchema(() => z.object({ equipmentNo: serialField.optional(), serialNumber: serialField.optional() }));

// ---------------------------------------------------------------------------------------------
// /cabinet legs

export const RegisterRequest = lazySchema(() =>
  SerialCarrier.extend({
    agentVersion: versionField.optional(),
    vmcVersion: versionField.optional(),
    deviceId: DeviceIdField.optional(),
    capabilities: capabilitiesField.optional(),
    arch: CabinetArch.optional(),
  }),
);
export type RegisterRequest = z.infer<typeof RegisterRequest>;
/** Register answers the configuration block (which carries `machineCode`). */
export const RegisterData = ConfigBlock;

export const EnrolRequest = lazySchema(() => SerialCarrier.extend({ deviceId: DeviceIdField.optional() }));
export type EnrolRequest = z.infer<typeof EnrolRequest>;
/** Shown once: the cabinet stores `keyId:deviceKey` as one string and presents it in `x-device-key`. */
export const EnrolData = lazySchema(() =>
  z.object({
    keyId: z.string().regex(DEVICE_KEY_ID_PATTERN),
    deviceKey: z.string().regex(DEVICE_SECRET_PATTERN),
    machineCode: z.string(),
  }),
);
export type EnrolData = z.infer<typeof EnrolData>;

/** The agent declined an offered upgrade because the cabinet was busy (spec 2 §4.4 step 7). */
export const DeferralReport = lazySchema(() =>
  z.object({
    version: versionField,
    count: z.number().int().min(0).max(1_000_000_000),
    seconds: z.number().int().min(0).max(1_000_000_000),
    reason: safeString({ allowBreaks: true }).max(500),
  }),
);
export type DeferralReport = z.infer<typeof DeferralReport>;
/** The agent cannot install the target because its running version is below the signed floor. */
export const BlockedReport = lazySchema(() =>
  z.object({
    version: versionField,
    minFrom: versionField,
    count: z.number().int().min(0).max(1_000_000_000),
    seconds: z.number().int().min(0).max(1_000_000_000),
  }),
);
export type BlockedReport = z.infer<typeof BlockedReport>;

/**
 * The last upgrade the cabinet's boot guard reverted (its journal's last outcome): `version` failed its trial,
 * `from` runs again. Carried in every heartbeat until another upgrade outcome replaces it.
 */
export const RevertReport = lazySchema(() =>
  z.object({
    version: versionField,
    from: versionField,
    reason: safeString({ allowBreaks: true }).max(500),
    at: z.iso.datetime({ offset: true }),
  }),
);
export type RevertReport = z.infer<typeof RevertReport>;

/** A missing or null `deferring`/`blocked` means the condition has ended. */
export const HeartbeatRequest = lazySchema(() =>
  SerialCarrier.extend({
    agentVersion: versionField.optional(),
    vmcVersion: versionField.optional(),
    deferring: DeferralReport.nullable().optional(),
    blocked: BlockedReport.nullable().optional(),
    reverted: RevertReport.nullable().optional(),
    capabilities: capabilitiesField.optional(),
    arch: CabinetArch.optional(),
    /** The service-code lock and the attempts since the last heartbeat the cloud answered. */
    serviceCode: ServiceCodeReport.optional(),
  }),
);
export type HeartbeatRequest = z.infer<typeof HeartbeatRequest>;
export const HeartbeatData = lazySchema(() => z.object({ status: z.literal('online'), serverTime: z.string() }));
export type HeartbeatData = z.infer<typeof HeartbeatData>;

export const GoodsAisle = lazySchema(() =>
  z.object({
    aisleNo: z.number().int(),
    sku: z.string().nullable(),
    name: z.string().nullable(),
    /** Decimal currency amount. */
    price: z.number(),
    priceCents: z.number().int(),
    stock: z.number().int(),
    maxStock: z.number().int(),
    faulted: z.boolean(),
    /** Sellable now: stocked, priced and not faulted. */
    sellable: z.boolean(),
    /**
     * The product's picture on the planogram: an https URL or a path on the cloud (resolve it against the
     * cloud's URL); null when the aisle has none. Absent from an older cloud: read as null.
     */
    imageUrl: z.string().nullable().default(null),
  }),
);
export const GoodsData = lazySchema(() => z.object({ machineCode: z.string(), currency: z.string().nullable(), aisles: z.array(GoodsAisle) }));
export type GoodsData = z.infer<typeof GoodsData>;
/** The planogram as family A (`/apk/getEquipment`) answers it: the Android app's contract, without the aisles' `imageUrl`. */
export const ApkGoodsData = lazySchema(() => GoodsData.extend({ aisles: z.array(GoodsAisle.omit({ imageUrl: true })) }));
export type ApkGoodsData = z.infer<typeof ApkGoodsData>;

export const PAY_METHODS = ['card', 'wallet', 'cash'] as const;
export const CreateOrderRequest = lazySchema(() =>
  SerialCarrier.extend({
    aisleNo: z
      .number()
      .int()
      .min(1)
      .max(VMC_MAX_ROWS * VMC_MAX_COLUMNS),
    quantity: z.number().int().min(1).max(10).default(1),
    payMethod: z.enum(PAY_METHODS).optional(),
    cardBrand: tokenField(32).optional(),
    cardLast4: z
      .string()
      .regex(/^\d{4}$/)
      .optional(),
    /**
     * The cabinet's own reference for this sale: a retry after a lost answer names it again and gets the
     * order the first call opened (same aisle and quantity), never a second one. Optional: without it
     * every call opens a new order.
     */
    requestRef: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{8,64}$/, 'letters, digits and . _ : - only, 8-64 characters')
      .optional(),
  }),
);
export type CreateOrderRequest = z.infer<typeof CreateOrderRequest>;
export const CreateOrderData = lazySchema(() =>
  z.object({
    orderNumber: z.string(),
    machineCode: z.string(),
    aisleNo: z.number().int(),
    quantity: z.number().int(),
    amount: z.number(),
    amountCents: z.number().int(),
    payStatus: z.string(),
  }),
);
export type CreateOrderData = z.infer<typeof CreateOrderData>;

/** A reference a cabinet mints for one physical dispense; the report is applied exactly once per id. */
export const DispenseIdField = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._:-]+$/, 'letters, digits, dot, underscore, colon, hyphen'),
);

/**
 * A dispense report: `commandId` for a remote drop, `orderNumber` for a walk-up sale opened with
 * createOrder, neither for a local (service) dispense.
 */
export const ReportRequest = lazySchema(() =>
  SerialCarrier.extend({
    dispenseId: DispenseIdField,
    commandId: tokenField(64).optional(),
    orderNumber: tokenField(64).optional(),
    aisleNo: z
      .number()
      .int()
      .min(1)
      .max(VMC_MAX_ROWS * VMC_MAX_COLUMNS),
    success: z.boolean(),
    outcome: tokenField(64),
    detail: safeString({ allowBreaks: true }).max(1000).default(''),
  }),
);
export type ReportRequest = z.infer<typeof ReportRequest>;
export const ReportData = lazySchema(() =>
  z.object({
    dispenseId: z.string(),
    /** True when this dispenseId had already been reported: the answer is the first report's. */
    duplicate: z.boolean(),
    kind: z.enum(['command', 'order', 'local']),
    commandId: z.string().nullable(),
    orderNumber: z.string().nullable(),
    /** The command's status or the order's payStatus after the report; null for a local dispense. */
    status: z.string().nullable(),
    receivedAt: z.string(),
  }),
);
export type ReportData = z.infer<typeof ReportData>;

export const PendingCommand = lazySchema(() =>
  z.object({
    commandId: z.string(),
    aisleNo: z.number().int(),
    reason: z.string(),
    externalRef: z.string().nullable(),
    createdAt: z.string(),
  }),
);
export const PendingData = lazySchema(() => z.object({ commands: z.array(PendingCommand) }));
export type PendingData = z.infer<typeof PendingData>;

/** The longest `wait` a pending call may ask for, in seconds: under the usual 30 s idle cut of proxies and load balancers. */
export const PENDING_WAIT_MAX_SECONDS = 25;
/**
 * `GET /cabinet/pending` query. `wait` (whole seconds, 0–25, default 0) makes it a long poll: with nothing
 * pending the cloud holds the answer until a command is enqueued for the cabinet or the wait is over.
 * Without it the call answers at once, as before (a cloud that predates it ignores the field).
 */
export const PendingQuery = lazySchema(() =>
  SerialCarrier.pick({ equipmentNo: true }).extend({
    wait: z.coerce.number().int().min(0).max(PENDING_WAIT_MAX_SECONDS).optional(),
  }),
);
export type PendingQuery = z.infer<typeof PendingQuery>;

export const UpgradeQuery = lazySchema(() =>
  z.object({ agentVersion: versionField.optional(), arch: CabinetArch.optional(), equipmentNo: serialField.optional() }),
);
/** The upgrade offer for this cabinet (see release.ts), or `data: null` when it is told nothing. */
export const UpgradeData = lazySchema(() => UpgradeOffer.nullable());

// ---------------------------------------------------------------------------------------------
// /apk legs (family A)

export const ApkSerialCarrier = lazySchema(() => SerialCarrier.extend({ machineNo: serialField.optional() }));

export const ApkEquipmentRequest = lazySchema(() => ApkSerialCarrier.extend({ apkVersion: versionField.optional(), vmcVersion: versionField.optional() }));
export const ApkEquipmentData = lazySchema(() =>
  z.object({
    machineCode: z.string(),
    name: z.string(),
    /** False while the board sits in the unclaimed pool. */
    claimed: z.boolean(),
    /** True when this call provisioned the board. */
    provisioned: z.boolean(),
    config: ConfigBlock,
    goods: ApkGoodsData,
  }),
);
export type ApkEquipmentData = z.infer<typeof ApkEquipmentData>;

export const ApkCreateOrderRequest = lazySchema(() => CreateOrderRequest.extend({ machineNo: serialField.optional() }));

export const AD_SOURCES = ['direct-sold', 'programmatic', 'house'] as const;
export const AdEntry = lazySchema(() =>
  z.object({
    id: z.string(),
    url: z.string(),
    head: z.string(),
    type: z.string(),
    startTime: z.string(),
    endTime: z.string(),
    campaignId: z.string().optional(),
    source: z.enum(AD_SOURCES).optional(),
    mediaType: z.string().optional(),
  }),
);
export type AdEntry = z.infer<typeof AdEntry>;
export const AdLoopData = lazySchema(() => z.object({ machineCode: z.string(), slotSeconds: z.number().int(), entries: z.array(AdEntry) }));
export type AdLoopData = z.infer<typeof AdLoopData>;

/** One showing: `playedAt` (ISO 8601 or epoch ms) defaults to the time the cloud receives it. */
export const AdPlayRecord = lazySchema(() =>
  z.object({
    id: tokenField(128),
    campaignId: tokenField(64).optional(),
    source: z.enum(AD_SOURCES).optional(),
    playedAt: z.union([tokenField(64), z.number().int().min(0)]).optional(),
    durationMs: z.number().int().min(0).max(3_600_000).optional(),
  }),
);
export type AdPlayRecord = z.infer<typeof AdPlayRecord>;
export const AD_RECORDS_MAX = 500;
export const SaveAdRecordRequest = lazySchema(() =>
  z.union([ApkSerialCarrier.extend({ records: z.array(AdPlayRecord).min(1).max(AD_RECORDS_MAX) }), ApkSerialCarrier.extend(AdPlayRecord.shape)]),
);
export const SaveAdRecordData = lazySchema(() =>
  z.object({
    accepted: z.number().int(),
    duplicates: z.number().int(),
    /** Records naming a campaign that is not one of this machine operator's: kept, credited to no campaign. */
    unattributed: z.number().int(),
  }),
);
export type SaveAdRecordData = z.infer<typeof SaveAdRecordData>;

export const ApkUpRequest = lazySchema(() => ApkSerialCarrier.extend({ apkVersion: versionField.optional(), version: versionField.optional() }));
export const ValidVmcVersionRequest = lazySchema(() => ApkSerialCarrier.extend({ vmcVersion: versionField.optional(), version: versionField.optional() }));
export const SoftwareData = lazySchema(() =>
  z.object({
    machineCode: z.string(),
    agentVersion: z.string().nullable(),
    platform: z.string().nullable(),
    vmcVersion: z.string().nullable(),
    apkVersion: z.string().nullable(),
  }),
);
export type SoftwareData = z.infer<typeof SoftwareData>;
