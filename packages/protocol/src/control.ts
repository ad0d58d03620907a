import { z } from 'zod';
import { AdEntry, AdPlayRecord, BlockedReport, DeferralReport, GoodsData } from './gateway.ts';
import { PrizeEvent, PrizeStateData } from './prizes.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The agent's loopback control channel (127.0.0.1:8770, spec 2 §8): the body of every answer. The
 * daemon builds its answers to these schemas (and checks them before sending); `vend-agent status`,
 * `enrol` and `dispense` parse what they get with them, as the kiosk screen can. Plain `z.object`s:
 * a field a newer daemon adds is dropped by an older CLI, never a failure.
 */

/** Every refusal: 400, 401, 403, 404, 409, 413, 415, 416, 421, 502, 503 and 500. */
export const ControlError = lazySchema(() => z.object({ error: z.string(), message: z.string() }));
export type ControlError = z.infer<typeof ControlError>;

/** GET /healthz. */
export const ControlHealth = lazySchema(() => z.object({ ok: z.literal(true) }));

/** Where enrolment stands (POST /v1/enrol; `enrolment` of GET /v1/status, which always carries the stored key id). */
export const ControlEnrolment = lazySchema(() =>
  z.discriminatedUnion('state', [
    z.object({ state: z.literal('enrolled'), keyId: z.string().nullable(), machineCode: z.string().nullable() }),
    z.object({ state: z.literal('not-enrolled'), message: z.string(), keyId: z.string().nullable().optional() }),
    /** 428: nothing proves this claimant yet; retried. `since` is epoch ms. */
    z.object({
      state: z.literal('waiting-for-arm'),
      message: z.string(),
      attempts: z.number().int(),
      since: z.number(),
      keyId: z.string().nullable().optional(),
    }),
    /** 409: the cloud holds an enrolment this agent cannot use. */
    z.object({ state: z.literal('conflict'), message: z.string(), keyId: z.string().nullable().optional() }),
    /** 403: never presented again, never re-enrolled. */
    z.object({ state: z.literal('revoked'), message: z.string(), keyId: z.string().nullable().optional() }),
    z.object({
      state: z.literal('failing'),
      message: z.string(),
      status: z.number().int().nullable(),
      attempts: z.number().int(),
      keyId: z.string().nullable().optional(),
    }),
  ]),
);
export type ControlEnrolment = z.infer<typeof ControlEnrolment>;

const at = z.string().nullable();

/** What the upgrade pipeline knows about how busy the cabinet is. */
export const ControlQuiet = lazySchema(() =>
  z.object({
    vendLockFree: z.boolean(),
    leased: z.number().int(),
    spoolDepth: z.number().int(),
    secondsSinceActivity: z.number().int(),
  }),
);

export const BOARD_STATES = ['unknown', 'ok', 'fault', 'unavailable'] as const;
export const CONFIG_SOURCES = ['cloud', 'cache', 'defaults'] as const;

// --- screen advertising (the kiosk's attract loop and proof of play) ----------------------------

export const AD_LOOP_SOURCES = ['cloud', 'disk', 'none'] as const;

/** One entry of the loop as the kiosk plays it: the cloud's entry, with `url` pointing where to play it from. */
export const ControlAdEntry = lazySchema(() =>
  AdEntry.extend({
    /** Where the kiosk plays it from: the agent's local copy (`http://127.0.0.1:8770/v1/ads/media/<key>`) when cached, else `remoteUrl`. */
    url: z.string(),
    /** The media at its origin: the cloud's relative URLs resolved against the agent's cloud URL. */
    remoteUrl: z.string(),
    /** The agent holds a copy: it plays while the cloud is away. */
    cached: z.boolean(),
  }),
);
export type ControlAdEntry = z.infer<typeof ControlAdEntry>;

/**
 * GET /v1/ads/loop: the attract loop the agent last fetched from `/apk/getAd`, kept on disk. `stale`
 * once it is older than the agent's `adStaleSeconds` (or when there is none); `source` says whether it
 * came from the cloud since this start, from disk (fetched before a restart), or there is none yet.
 */
export const ControlAdLoop = lazySchema(() =>
  z.object({
    machineCode: z.string().nullable(),
    slotSeconds: z.number().int(),
    entries: z.array(ControlAdEntry),
    fetchedAt: at,
    ageSeconds: z.number().int().nullable(),
    stale: z.boolean(),
    source: z.enum(AD_LOOP_SOURCES),
    /** The last refresh failed: why (the loop above is the last good one). */
    error: z.string().optional(),
  }),
);
export type ControlAdLoop = z.infer<typeof ControlAdLoop>;

/** The most plays one POST /v1/ads/plays may carry. */
export const CONTROL_AD_PLAYS_MAX = 100;

/** One showing the kiosk reports: AdPlayRecord, strict. Send `playedAt` (when it began): a retried POST then counts once. */
export const ControlAdPlay = lazySchema(() => z.strictObject(AdPlayRecord.shape));
export type ControlAdPlay = z.infer<typeof ControlAdPlay>;

/** POST /v1/ads/plays body. */
export const ControlAdPlaysRequest = lazySchema(() => z.strictObject({ plays: z.array(ControlAdPlay).min(1).max(CONTROL_AD_PLAYS_MAX) }));
export type ControlAdPlaysRequest = z.infer<typeof ControlAdPlaysRequest>;

/** POST /v1/ads/plays answer (202): the plays are on disk; `backlog` waits for the cloud. */
export const ControlAdPlaysAccepted = lazySchema(() =>
  z.object({
    accepted: z.number().int(),
    /** Plays already in the spool (same entry id and playedAt): kept once. */
    duplicates: z.number().int(),
    backlog: z.number().int(),
    /** Oldest plays dropped to make room (the spool is full). */
    dropped: z.number().int(),
  }),
);
export type ControlAdPlaysAccepted = z.infer<typeof ControlAdPlaysAccepted>;

/** A kiosk spool in GET /v1/status (the ad plays, the prize events). */
export const ControlSpoolStatus = lazySchema(() =>
  z.object({
    /** Items on disk not yet delivered to the cloud. */
    backlog: z.number().int(),
    oldestAt: at,
    /** Totals kept in the spool file (they survive restarts). */
    delivered: z.number().int(),
    duplicates: z.number().int(),
    dropped: z.number().int(),
    rejected: z.number().int(),
    lastDeliveredAt: at,
    lastError: z.object({ at, message: z.string() }).nullable(),
  }),
);
export type ControlSpoolStatus = z.infer<typeof ControlSpoolStatus>;

/** `ads` of GET /v1/status: the loop, the play spool and the media cache. */
export const ControlAdsStatus = lazySchema(() =>
  z.object({
    loop: z.object({
      entries: z.number().int(),
      machineCode: z.string().nullable(),
      fetchedAt: at,
      stale: z.boolean(),
      source: z.enum(AD_LOOP_SOURCES),
      lastAttemptAt: at,
      lastError: z.object({ at, message: z.string() }).nullable(),
    }),
    plays: ControlSpoolStatus,
    media: z.object({ files: z.number().int(), bytes: z.number().int(), capBytes: z.number().int(), lastError: z.string().nullable() }),
  }),
);
export type ControlAdsStatus = z.infer<typeof ControlAdsStatus>;

/** The most events one POST /v1/prizes/events may carry. */
export const CONTROL_PRIZE_EVENTS_MAX = 100;

/** POST /v1/prizes/events body: the cloud's PrizeEvent as the kiosk reports it (send each step once, by its own `eventId`). */
export const ControlPrizeEventsRequest = lazySchema(() => z.strictObject({ events: z.array(PrizeEvent).min(1).max(CONTROL_PRIZE_EVENTS_MAX) }));
export type ControlPrizeEventsRequest = z.infer<typeof ControlPrizeEventsRequest>;

/** POST /v1/prizes/events answer (202): the events are on disk; `backlog` waits for the cloud. */
export const ControlPrizeEventsAccepted = lazySchema(() =>
  z.object({
    accepted: z.number().int(),
    /** Events already in the spool (same eventId): kept once. */
    duplicates: z.number().int(),
    backlog: z.number().int(),
    /** Oldest events dropped to make room (the spool is full). */
    dropped: z.number().int(),
  }),
);
export type ControlPrizeEventsAccepted = z.infer<typeof ControlPrizeEventsAccepted>;

export const PRIZE_STATE_SOURCES = ['cloud', 'disk', 'none'] as const;

/**
 * GET /v1/prizes/state: the last `state` block the cloud answered (to a batch of events or to
 * `GET /cabinet/prize-mechanics`), kept on disk. `source`: from the cloud since this start, from disk
 * (before a restart), or none yet (`state` null: offer no game).
 */
export const ControlPrizeState = lazySchema(() =>
  z.object({
    state: PrizeStateData.nullable(),
    fetchedAt: at,
    ageSeconds: z.number().int().nullable(),
    source: z.enum(PRIZE_STATE_SOURCES),
  }),
);
export type ControlPrizeState = z.infer<typeof ControlPrizeState>;

/** `prizes` of GET /v1/status: the event spool and when the state was last heard. */
export const ControlPrizesStatus = lazySchema(() =>
  z.object({
    events: ControlSpoolStatus,
    state: z.object({ fetchedAt: at, source: z.enum(PRIZE_STATE_SOURCES), lastError: z.object({ at, message: z.string() }).nullable() }),
  }),
);
export type ControlPrizesStatus = z.infer<typeof ControlPrizesStatus>;

/** GET /v1/status: everything `vend-agent status` shows. Times are ISO strings (null: never). */
/** GET /v1/service: the service-code gate (never the code or its hash). */
export const ControlServiceStatus = lazySchema(() =>
  z.object({
    codeSet: z.boolean(),
    /** Where the hash in force came from: the cloud's configuration block, the local configuration, or none. */
    source: z.enum(['cloud', 'local', 'none']),
    failures: z.number().int(),
    /** Wrong codes left before the lockout (0 while locked). */
    remaining: z.number().int(),
    lockedUntil: z.string().nullable(),
    /** Attempts not yet carried to the cloud by a heartbeat. */
    unreported: z.number().int(),
  }),
);
export type ControlServiceStatus = z.infer<typeof ControlServiceStatus>;

/** POST /v1/service/check `{code, action}`: 200 ok, 403 wrong, 423 locked, 409 no code set; `message` says it for a person. */
export const ControlServiceCheck = lazySchema(() =>
  z.discriminatedUnion('result', [
    z.object({ result: z.literal('ok'), message: z.string() }),
    z.object({ result: z.literal('wrong'), remaining: z.number().int(), lockedUntil: z.string().nullable(), message: z.string() }),
    z.object({ result: z.literal('locked'), lockedUntil: z.string(), message: z.string() }),
    z.object({ result: z.literal('no-code'), message: z.string() }),
  ]),
);
export type ControlServiceCheck = z.infer<typeof ControlServiceCheck>;

export const ControlStatus = lazySchema(() =>
  z.object({
    agent: z.object({
      version: z.string(),
      pid: z.number().int(),
      startedAt: z.string(),
      uptimeSeconds: z.number().int(),
      stateDir: z.string(),
      equipmentNo: z.string(),
      deviceId: z.string(),
      /** Megabytes: rssMb, heapUsedMb, heapTotalMb, externalMb, arrayBuffersMb. */
      memory: z.record(z.string(), z.number()),
    }),
    enrolment: ControlEnrolment,
    cloud: z.object({
      url: z.string(),
      reachable: z.boolean(),
      lastAnswerAt: at,
      lastSuccessAt: at,
      registeredAt: at,
      lastError: z.object({ at, leg: z.string(), message: z.string() }).nullable(),
    }),
    board: z.object({
      port: z.string(),
      state: z.enum(BOARD_STATES),
      vmcVersion: z.string().nullable(),
      module: z.string().nullable(),
      rows: z.number().int().nullable(),
      columnsPerRow: z.number().int().nullable(),
      bootId: z.number().int().nullable(),
      /** What the board reports (lift fault, drop sensor fault, a jammed lane). */
      problems: z.array(z.string()),
      checkedAt: at,
      lastError: z.string().nullable(),
    }),
    spool: z.object({
      depth: z.number().int(),
      delivered: z.number().int(),
      duplicates: z.number().int(),
      /** Reports the cloud refused for good, newest first. */
      rejected: z.array(z.object({ dispenseId: z.string(), status: z.number().int().nullable(), message: z.string(), at })),
      lastError: z.object({ at, message: z.string() }).nullable(),
    }),
    dispensing: z.object({
      recovered: z.boolean(),
      busy: z.boolean(),
      current: z.string().nullable(),
      leased: z.number().int(),
      lastActivityAt: at,
    }),
    config: z.object({
      source: z.enum(CONFIG_SOURCES),
      machineCode: z.string(),
      pollInterval: z.number(),
      heartbeatInterval: z.number(),
      dispatchMode: z.string(),
      rows: z.number().int(),
      columnsPerRow: z.number().int(),
      /** Masked. */
      adminPin: z.string().nullable(),
    }),
    upgrade: z.object({ deferring: DeferralReport.nullable(), blocked: BlockedReport.nullable(), quiet: ControlQuiet }),
    /** Newest first, at most 10. */
    lastErrors: z.array(z.object({ at, source: z.string(), message: z.string() })),
    /** Screen advertising (absent from a daemon that predates it). */
    ads: ControlAdsStatus.optional(),
    /** The kiosk prize game (absent from a daemon that predates it). */
    prizes: ControlPrizesStatus.optional(),
    /** The service-code gate (absent from a daemon that predates it). */
    service: ControlServiceStatus.optional(),
  }),
);
export type ControlStatus = z.infer<typeof ControlStatus>;

/** POST /v1/dispense: what one walk-up sale came to. */
export const ControlVendResult = lazySchema(() =>
  z.object({
    dispenseId: z.string(),
    kind: z.enum(['command', 'order']),
    commandId: z.string().nullable(),
    orderNumber: z.string().nullable(),
    aisle: z.number().int(),
    success: z.boolean(),
    outcome: z.string(),
    detail: z.string(),
    motorRan: z.string(),
  }),
);
export type ControlVendResult = z.infer<typeof ControlVendResult>;

/** GET /v1/vends: the last vend results, newest first (`at` is epoch ms). */
export const ControlVends = lazySchema(() =>
  z.object({
    vends: z.array(ControlVendResult.extend({ at: z.number(), report: z.enum(['pending', 'delivered', 'rejected']) })),
  }),
);
export type ControlVends = z.infer<typeof ControlVends>;

/** GET /v1/planogram: the cloud's goods list, cached for 30 s; `stale` (with the error) when the cloud did not answer. */
export const ControlPlanogram = lazySchema(() => GoodsData.extend({ stale: z.boolean(), fetchedAt: at, error: z.string().optional() }));
export type ControlPlanogram = z.infer<typeof ControlPlanogram>;

/** POST /v1/upgrade/check: what the upgrade pipeline made of the cloud's offer. */
export const ControlUpgradeCheck = lazySchema(() =>
  z.discriminatedUnion('result', [
    z.object({ result: z.literal('none') }),
    z.object({ result: z.literal('current'), version: z.string() }),
    z.object({ result: z.literal('refused'), step: z.number().int(), code: z.string(), reason: z.string(), version: z.string().nullable() }),
    z.object({ result: z.literal('blocked'), report: BlockedReport, reason: z.string() }),
    z.object({ result: z.literal('deferred'), report: DeferralReport }),
    z.object({ result: z.literal('installed'), version: z.string(), from: z.string() }),
    z.object({ result: z.literal('busy'), reason: z.string() }),
    z.object({ result: z.literal('error'), reason: z.string() }),
    /** The daemon runs without the upgrade pipeline. */
    z.object({ result: z.literal('disabled') }),
  ]),
);
export type ControlUpgradeCheck = z.infer<typeof ControlUpgradeCheck>;

/** GET /v1/upgrade/progress: what the upgrade pipeline is doing now (`vend-agent upgrade check` polls it while it waits). */
export const ControlUpgradeProgress = lazySchema(() =>
  z.discriminatedUnion('state', [
    z.object({ state: z.literal('idle') }),
    z.object({ state: z.literal('checking') }),
    z.object({
      state: z.literal('downloading'),
      version: z.string(),
      /** Bytes received so far, of the signed size `total`. */
      received: z.number().int().min(0),
      total: z.number().int().min(0),
      elapsedMs: z.number().int().min(0),
    }),
    /** Downloaded: extracting, verifying, swapping (then the daemon restarts). */
    z.object({ state: z.literal('installing'), version: z.string() }),
    /** The daemon runs without the upgrade pipeline. */
    z.object({ state: z.literal('disabled') }),
  ]),
);
export type ControlUpgradeProgress = z.infer<typeof ControlUpgradeProgress>;
