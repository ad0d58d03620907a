import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { encodeBase64, isValidArtifactPrefix, parseReleasePublicKey } from '@vend/protocol';

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalUrl = z.url().optional();

const EnvSchema = z
  .object({
    VEND_MODE: z.enum(['sandbox', 'production']).default('sandbox'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
    /** Namespace of every Redis key, so deployments (and test runs) sharing a server never collide. */
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_-]{1,64}$/)
      .default('vend:'),
    /** The address people reach this service at (QR codes, links); else each request's own origin. */
    PUBLIC_BASE_URL: z.url().optional(),
    /** The operator console's built files (index.html, console.js, console.css); default: DEFAULT_CONSOLE_DIR. */
    CONSOLE_DIR: z.string().min(1).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOG_PRETTY: bool.default(false),
    RATE_LIMIT_PER_HOUR: z.coerce.number().int().min(1).default(1000),
    /** Key for encrypting secrets that must be read back (TOTP seeds). 32+ chars. */
    DATA_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
    FLEET_SECRET: z.string().min(8, 'must be at least 8 characters').optional(),
    WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    /** HMAC key of the self-serve ad payment processor's webhook (docs/ad-payments-webhook.md); its own, not WEBHOOK_SECRET. */
    AD_PAYMENTS_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    SESSION_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(30 * 24 * 3600),
    OAUTH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(3600),
    GEOCODER_URL: optionalUrl,
    GEOCODER_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
    GEOCODER_USER_AGENT: z.string().default('vend-cloud/0.1 (operator placement geocoding)'),
    /** The creative studio (spec 1 §4.7 `creative/contentx`); unset: the built-in poster renderer (studio.ts: the wire contract). */
    STUDIO_URL: optionalUrl,
    /** How long one studio generation may take, whole answer included. */
    STUDIO_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
    IDP_ISSUER: z.string().min(1).optional(),
    IDP_JWKS_URL: optionalUrl,
    IDP_AUDIENCE: z.string().min(1).optional(),
    SOCIAL_ISSUER: z.string().min(1).optional(),
    SOCIAL_JWKS_URL: optionalUrl,
    SOCIAL_AUDIENCE: z.string().min(1).optional(),
    POD_NAME: z.string().min(1).optional(),
    /** Replicas wake each other's held long polls at once on an enqueue (Redis pub/sub or PostgreSQL LISTEN/NOTIFY); false: the 2 s probe only. */
    PENDING_PUSH: bool.default(true),
    /** On SIGTERM: keep accepting this long while readiness says draining (let a load balancer notice first). */
    SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(120).default(0),
    /** On SIGTERM: requests in flight get this long to finish after the listener closed; then they are cut. */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0.1).max(600).default(10),
    /** Background loops (refund sweep, dispense decision, rollout sweep) on this replica; see docs/decisions/commands-and-loops.md. */
    JOBS_ENABLED: bool.default(true),
    /** Leader lease lifetime; the leader renews it on every tick, a follower takes over once it lapses. */
    JOBS_LEASE_TTL_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
    /** Every loop ticks at this interval instead of its own (failover drills: scripts/cluster); unset: each loop's default. */
    JOBS_INTERVAL_SECONDS: z.coerce.number().min(0.1).max(3600).optional(),
    /** A dispense whose outcome is missing this long is ruled failed and its money returned. */
    DISPENSE_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(86_400).default(120),
    /** A paid order still not vended this long is flagged as an owed refund (at most 30 days). */
    REFUND_GRACE_SECONDS: z.coerce.number().int().min(60).max(2_592_000).default(900),
    /** The fleet publishing key (Ed25519 public key, base64 or hex); releases must verify against it. docs/release-signing.md. */
    RELEASE_PUBLIC_KEY: z
      .string()
      .refine((v) => parseReleasePublicKey(v) !== null, 'must be a 32-byte Ed25519 public key as base64 (44 chars) or hex (64 chars), not of small order')
      .optional(),
    /** Trusted artifact prefix: release URLs must start with it (https, canonical, trailing slash). */
    ARTIFACT_URL_PREFIX: z
      .string()
      .refine((v) => isValidArtifactPrefix(v), 'must be a canonical https URL ending with / (no query, no fragment)')
      .optional(),
    /** An outside SSP (Vistar-style wire format) for programmatic fill: its API base; the adapter POSTs `{SSP_URL}/get_ad/json`. */
    SSP_URL: z
      .url()
      .refine((v) => /^https?:\/\//i.test(v), 'must be an http(s) URL')
      .optional(),
    /** The SSP's credentials for this media owner; both required with SSP_URL. */
    SSP_API_KEY: z.string().min(1).max(256).optional(),
    SSP_NETWORK_ID: z.string().min(1).max(128).optional(),
    /** Per call to the SSP (get_ad, proof of play): the loop never waits longer for programmatic fill. */
    SSP_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(1500),
    /** Outgoing e-mail (DFY outreach, alerts): smtp:// or smtps:// with credentials; unset: a recording outbox (nothing leaves). */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    /** The From address of outgoing e-mail. */
    MAIL_FROM: z.email().default('placements@vend.test'),
    /** A Twilio-style voice/text provider (DFY outreach): its REST base; unset: a recording outbox. */
    TELEPHONY_URL: optionalUrl,
    TELEPHONY_ACCOUNT: z.string().min(1).max(128).optional(),
    TELEPHONY_TOKEN: z.string().min(1).max(256).optional(),
    /** The caller id / sender number of voice calls and texts. */
    TELEPHONY_FROM: z.string().min(1).max(32).optional(),
    /** HMAC key of the provider's signed status and inbound callbacks (docs/decisions/outreach.md). */
    OUTREACH_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    /** Stripe (issue 34): the account's secret key; with STRIPE_WEBHOOK_SECRET, self-serve ad purchases pay through Stripe Checkout. */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]{8,}$/, 'must be a Stripe secret key (sk_test_…, sk_live_…, or a restricted rk_…)')
      .optional(),
    /** The signing secret of the Stripe webhook endpoint (docs/cloud-production.md). */
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/=_]{8,}$/, 'must be a Stripe webhook signing secret (whsec_…)')
      .optional(),
    /** Tests only: another Stripe API base (a fake Stripe on 127.0.0.1); never with a live key. */
    STRIPE_API_BASE: z
      .url()
      .refine((v) => /^https?:\/\/[^/]+\/?$/i.test(v), 'must be an http(s) origin (scheme, host, port; no path)')
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.VEND_MODE === 'production') {
      for (const key of ['DATA_KEY', 'FLEET_SECRET', 'WEBHOOK_SECRET', 'AD_PAYMENTS_WEBHOOK_SECRET', 'RELEASE_PUBLIC_KEY', 'ARTIFACT_URL_PREFIX'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when VEND_MODE=production' });
      }
    }
    if (env.SSP_URL) {
      for (const key of ['SSP_API_KEY', 'SSP_NETWORK_ID'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when SSP_URL is set' });
      }
      // the API key travels in the request body: never in clear text to a production SSP
      if (env.VEND_MODE === 'production' && !/^https:\/\//i.test(env.SSP_URL)) {
        ctx.addIssue({ code: 'custom', path: ['SSP_URL'], message: 'must be an https URL when VEND_MODE=production' });
      }
    } else {
      for (const key of ['SSP_API_KEY', 'SSP_NETWORK_ID'] as const) {
        if (env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is set but SSP_URL is not' });
      }
    }
    if (env.TELEPHONY_URL) {
      for (const key of ['TELEPHONY_ACCOUNT', 'TELEPHONY_TOKEN', 'TELEPHONY_FROM', 'OUTREACH_WEBHOOK_SECRET'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when TELEPHONY_URL is set' });
      }
    }
    for (const [issuer, jwks] of [
      ['IDP_ISSUER', 'IDP_JWKS_URL'],
      ['SOCIAL_ISSUER', 'SOCIAL_JWKS_URL'],
    ] as const) {
      if (Boolean(env[issuer]) !== Boolean(env[jwks])) {
        ctx.addIssue({ code: 'custom', path: [jwks], message: `${issuer} and ${jwks} must be set together` });
      }
    }
    if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET)) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together' });
    }
    if (env.STRIPE_SECRET_KEY && !env.PUBLIC_BASE_URL) {
      // Stripe's hosted checkout sends the buyer back to an absolute address of this service
      ctx.addIssue({ code: 'custom', path: ['PUBLIC_BASE_URL'], message: 'is required when STRIPE_SECRET_KEY is set' });
    }
    if (env.STRIPE_API_BASE && !env.STRIPE_SECRET_KEY) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_API_BASE'], message: 'is set but STRIPE_SECRET_KEY is not' });
    }
    if (env.STRIPE_API_BASE && /^(sk|rk)_live_/.test(env.STRIPE_SECRET_KEY ?? '')) {
      // a live key is sent to Stripe only
      ctx.addIssue({ code: 'custom', path: ['STRIPE_API_BASE'], message: 'must not be set with a live key (sk_live_/rk_live_)' });
    }
    // the leader renews the lease on its ticks: ticking slower than the lease lives would hand it around
    if (env.JOBS_INTERVAL_SECONDS !== undefined && env.JOBS_INTERVAL_SECONDS >= env.JOBS_LEASE_TTL_SECONDS) {
      ctx.addIssue({ code: 'custom', path: ['JOBS_INTERVAL_SECONDS'], message: 'must be below JOBS_LEASE_TTL_SECONDS' });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

/** Deterministic secrets of the sandbox data set: documented in docs/sandbox.md, never used in production. */
export const SANDBOX_SECRETS = {
  DATA_KEY: 'sandbox-data-key-0123456789abcdef0123',
  FLEET_SECRET: 'sbx-fleet-secret-4b2d',
  WEBHOOK_SECRET: 'sbx-webhook-secret-8c1f0e',
  AD_PAYMENTS_WEBHOOK_SECRET: 'sbx-ad-payments-secret-3a7d51',
  OUTREACH_WEBHOOK_SECRET: 'sbx-outreach-secret-6e2b94',
} as const;

/**
 * The sandbox's release-signing key pair and artifact prefix: public by design so QA can sign releases
 * with `vendctl sign --key` (docs/decisions/releases.md). Sandbox only; production requires its own
 * RELEASE_PUBLIC_KEY and ARTIFACT_URL_PREFIX and never falls back to these.
 */
export const SANDBOX_RELEASES = {
  /** Ed25519 seed (base64): the PRIVATE key, published for the sandbox only. */
  privateKey: '3RZyHJFkF0CiteVWobavUM5rkSGaPZU6smwNhkXYHOA=',
  publicKey: 'wHg6OmqNGbjsECQcM5ejBHwcKpxd2XBfOWRyIfHzd+E=',
  artifactUrlPrefix: 'https://artifacts.sandbox.vend.test/agent/',
} as const;

/**
 * Where the console's build lands in this repository (`apps/console/dist`, built by scripts/build-console.ts):
 * resolved from this module's own place, which is two folders below `apps/` both as source
 * (apps/cloud/src/config.ts) and as the production bundle (apps/cloud/dist/main.js). docs/decisions/console.md.
 */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../console/dist', import.meta.url));

export interface Config {
  mode: 'sandbox' | 'production';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  publicBaseUrl: string | undefined;
  /** The operator console's built files, served under /console (absolute). */
  consoleDir: string;
  logLevel: Env['LOG_LEVEL'];
  logPretty: boolean;
  rateLimitPerHour: number;
  dataKey: string;
  fleetSecret: string | undefined;
  webhookSecret: string;
  /** The ad payment processor's webhook key (the sandbox's public one unless set). */
  adPaymentsWebhookSecret: string;
  sessionTtlSeconds: number;
  oauthTokenTtlSeconds: number;
  geocoder: { url: string; timeoutMs: number; userAgent: string } | undefined;
  /** The external creative studio; undefined: posters are rendered in-process from the brief. */
  studio: { url: string; timeoutMs: number } | undefined;
  idp: { issuer: string; jwksUrl: string; audience: string | undefined } | undefined;
  social: { issuer: string; jwksUrl: string; audience: string | undefined } | undefined;
  pod: string;
  /** Cross-replica push of enqueued commands to held long polls. */
  pendingPush: boolean;
  /** Graceful stop (SIGTERM): see shutdown.ts. */
  shutdown: { delayMs: number; graceMs: number };
  jobs: { enabled: boolean; leaseTtlSeconds: number; intervalSeconds?: number; dispenseTimeoutSeconds: number; refundGraceSeconds: number };
  /** Agent releases: the fleet publishing public key (base64) and the trusted artifact prefix. */
  releases: { publicKey: string; artifactUrlPrefix: string };
  /** An outside SSP for programmatic fill; undefined: the built-in mock in sandbox mode, none in production. */
  ssp: { url: string; apiKey: string; networkId: string; timeoutMs: number } | undefined;
  /** Outgoing e-mail: the SMTP server (undefined: the recording outbox) and the From address. */
  mail: { smtpUrl: string | undefined; from: string };
  /** The voice/text provider (undefined: the recording outbox). */
  telephony: { url: string; account: string; token: string; from: string } | undefined;
  /** The HMAC key of the outreach callbacks (the sandbox's public one; unset in production: callbacks are refused). */
  outreachWebhookSecret: string | undefined;
  /**
   * Stripe (both keys set): self-serve ad purchases pay through it; undefined: the sandbox's test processor, or
   * none in production. `api`: tests only (STRIPE_API_BASE). The keys are secrets: never logged or answered.
   */
  stripe: { secretKey: string; webhookSecret: string; api: { host: string; port: number; protocol: 'http' | 'https' } | undefined } | undefined;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** STRIPE_API_BASE as the SDK's host, port and protocol. */
function apiBaseOf(base: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const u = new URL(base);
  const protocol = u.protocol === 'http:' ? 'http' : 'https';
  return { host: u.hostname, port: u.port ? Number(u.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** Parses the environment once, reporting every problem together. Nothing else reads process.env. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  const e = parsed.data;
  const sandbox = e.VEND_MODE === 'sandbox';
  return Object.freeze({
    mode: e.VEND_MODE,
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    consoleDir: path.resolve(e.CONSOLE_DIR ?? DEFAULT_CONSOLE_DIR),
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_PRETTY,
    rateLimitPerHour: e.RATE_LIMIT_PER_HOUR,
    dataKey: e.DATA_KEY ?? SANDBOX_SECRETS.DATA_KEY,
    fleetSecret: e.FLEET_SECRET ?? (sandbox ? SANDBOX_SECRETS.FLEET_SECRET : undefined),
    webhookSecret: e.WEBHOOK_SECRET ?? SANDBOX_SECRETS.WEBHOOK_SECRET,
    adPaymentsWebhookSecret: e.AD_PAYMENTS_WEBHOOK_SECRET ?? SANDBOX_SECRETS.AD_PAYMENTS_WEBHOOK_SECRET,
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    oauthTokenTtlSeconds: e.OAUTH_TOKEN_TTL_SECONDS,
    geocoder: e.GEOCODER_URL ? { url: e.GEOCODER_URL, timeoutMs: e.GEOCODER_TIMEOUT_MS, userAgent: e.GEOCODER_USER_AGENT } : undefined,
    studio: e.STUDIO_URL ? Object.freeze({ url: e.STUDIO_URL, timeoutMs: e.STUDIO_TIMEOUT_MS }) : undefined,
    idp: e.IDP_ISSUER && e.IDP_JWKS_URL ? { issuer: e.IDP_ISSUER, jwksUrl: e.IDP_JWKS_URL, audience: e.IDP_AUDIENCE } : undefined,
    social: e.SOCIAL_ISSUER && e.SOCIAL_JWKS_URL ? { issuer: e.SOCIAL_ISSUER, jwksUrl: e.SOCIAL_JWKS_URL, audience: e.SOCIAL_AUDIENCE } : undefined,
    pod: e.POD_NAME ?? `pod-${process.pid}`,
    pendingPush: e.PENDING_PUSH,
    shutdown: Object.freeze({ delayMs: Math.round(e.SHUTDOWN_DELAY_SECONDS * 1000), graceMs: Math.round(e.SHUTDOWN_GRACE_SECONDS * 1000) }),
    releases: Object.freeze({
      publicKey: encodeBase64(parseReleasePublicKey(e.RELEASE_PUBLIC_KEY ?? SANDBOX_RELEASES.publicKey)!),
      artifactUrlPrefix: e.ARTIFACT_URL_PREFIX ?? SANDBOX_RELEASES.artifactUrlPrefix,
    }),
    mail: Object.freeze({ smtpUrl: e.SMTP_URL, from: e.MAIL_FROM }),
    telephony:
      e.TELEPHONY_URL && e.TELEPHONY_ACCOUNT && e.TELEPHONY_TOKEN && e.TELEPHONY_FROM
        ? Object.freeze({ url: e.TELEPHONY_URL.replace(/\/+$/, ''), account: e.TELEPHONY_ACCOUNT, token: e.TELEPHONY_TOKEN, from: e.TELEPHONY_FROM })
        : undefined,
    outreachWebhookSecret: e.OUTREACH_WEBHOOK_SECRET ?? (sandbox ? SANDBOX_SECRETS.OUTREACH_WEBHOOK_SECRET : undefined),
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? Object.freeze({
            secretKey: e.STRIPE_SECRET_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            api: e.STRIPE_API_BASE ? apiBaseOf(e.STRIPE_API_BASE) : undefined,
          })
        : undefined,
    ssp:
      e.SSP_URL && e.SSP_API_KEY && e.SSP_NETWORK_ID
        ? Object.freeze({ url: e.SSP_URL.replace(/\/+$/, ''), apiKey: e.SSP_API_KEY, networkId: e.SSP_NETWORK_ID, timeoutMs: e.SSP_TIMEOUT_MS })
        : undefined,
    jobs: Object.freeze({
      enabled: e.JOBS_ENABLED,
      leaseTtlSeconds: e.JOBS_LEASE_TTL_SECONDS,
      ...(e.JOBS_INTERVAL_SECONDS !== undefined ? { intervalSeconds: e.JOBS_INTERVAL_SECONDS } : {}),
      dispenseTimeoutSeconds: e.DISPENSE_TIMEOUT_SECONDS,
      refundGraceSeconds: e.REFUND_GRACE_SECONDS,
    }),
  });
}
