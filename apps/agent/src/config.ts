import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ServiceCodeHash, isDottedVersion } from '@vend/protocol';

/**
 * The agent's configuration: flags over environment over a JSON file over defaults, validated by
 * one zod schema. This is the only module that reads `process.env` (the CLI passes it in); every
 * problem is reported at once and the result is frozen.
 */

/** Loopback addresses the control channel may bind (spec 2 §8: loopback only). */
export const LOOPBACK_HOSTS = ['127.0.0.1', '::1'] as const;

export const DEFAULT_STATE_DIR = '/var/lib/vend-agent';
export const DEFAULT_CONFIG_FILE = '/etc/vend-agent/config.json';
export const DEFAULT_CONTROL_PORT = 8770;

/** The version of this agent tree (apps/agent/package.json), unless the configuration says otherwise. */
export function packagedVersion(): string {
  // the release bundle is CommonJS (<tree>/lib/vend-agent.cjs beside <tree>/package.json); the sources run as ESM
  const candidates: string[] = [];
  if (typeof __filename === 'string') candidates.push(join(dirname(__filename), '..', 'package.json'));
  try {
    candidates.push(fileURLToPath(new URL('../package.json', import.meta.url)));
  } catch {
    // no import.meta.url in the CommonJS bundle
  }
  for (const file of candidates) {
    try {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
      if (typeof pkg.version === 'string' && isDottedVersion(pkg.version)) return pkg.version;
    } catch {
      // try the next
    }
  }
  return '0.0.0';
}

/** The release tree's screen (`<tree>/screen/` beside `<tree>/lib/`), when this runs from a tree that has one. */
export function packagedScreenDir(): string | null {
  if (typeof __filename !== 'string') return null; // the sources: the screen is named by screenDir
  const dir = join(dirname(__filename), '..', 'screen');
  return existsSync(join(dir, 'index.html')) ? dir : null;
}

const intIn = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const AgentConfigSchema = z.object({
  /** Durable state: credential, enrolment, journal, logs. */
  stateDir: z.string().min(1).default(DEFAULT_STATE_DIR),
  /** The cloud's base URL, e.g. https://cloud.example.com (needed by `run` and `enrol`). */
  cloudUrl: z
    .url({ protocol: /^https?$/ })
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  /** The cabinet's serial (machineNo), sent as the equipmentNo cross-check. */
  equipmentNo: z
    .string()
    .regex(/^[A-Za-z0-9-]{8,32}$/, 'letters, digits and hyphens, 8-32 characters')
    .optional(),
  /** The shared fleet secret: only for enrolment (and nothing else once enrolled). */
  fleetSecret: z.string().min(1).optional(),
  /** Serial device of the vending board. */
  serialPort: z.string().min(1).default('/dev/ttyUSB0'),
  /** Loopback only: anything else is refused. */
  controlHost: z.enum(LOOPBACK_HOSTS, { error: 'the control channel binds to loopback only: 127.0.0.1 or ::1' }).default('127.0.0.1'),
  controlPort: intIn(0, 65535).default(DEFAULT_CONTROL_PORT),
  /** Source of the stable deviceId; empty disables it (a generated id kept in the state directory is used). */
  machineIdFile: z.string().default('/etc/machine-id'),
  /** The running agent's version (default: this tree's package version). */
  agentVersion: z.string().refine(isDottedVersion, 'must be dotted-numeric, e.g. 1.4.0').optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Per cloud call (spec 2 §8: 8 s). */
  httpTimeoutMs: intIn(100, 120_000).default(8_000),
  /** Downloads (spec 2 §8: at least 60 s). */
  downloadTimeoutMs: intIn(60_000, 3_600_000).default(60_000),
  /** How often the configuration block is fetched again (register fetches it at start). */
  configRefreshSeconds: intIn(10, 86_400).default(300),
  /** Capped exponential backoff of cloud retries. */
  backoffBaseMs: intIn(10, 60_000).default(1_000),
  backoffCapMs: intIn(100, 3_600_000).default(60_000),
  /** Board open attempts and the pause between them (spec 2 §8: 10 × 2 s). */
  vmcOpenAttempts: intIn(1, 100).default(10),
  vmcOpenBackoffMs: intIn(10, 60_000).default(2_000),
  /** How long SIGTERM waits for a dispense on the wire before the agent exits anyway. */
  stopDeadlineMs: intIn(100, 120_000).default(40_000),
  /** Upgrades (docs/agent-upgrades.md): the install root holding current/ and previous/. */
  installRoot: z.string().min(1).default('/opt/vend-agent'),
  /** The fleet's release-signing public key (base64 or hex); without it nothing is ever installed. */
  releasePublicKey: z.string().min(1).optional(),
  /** The trusted artifact prefix (https, trailing slash); without it no URL is trusted. */
  artifactPrefix: z.string().min(1).optional(),
  /** systemd's $INVOCATION_ID of this start (shared with the boot guard). */
  invocationId: z.string().min(1).optional(),
  /**
   * A service-code hash (`scrypt$…`, from `vend-agent service hash-code`) for a cabinet whose operator
   * has set none in the cloud (an install before enrolment); the cloud's, once delivered, wins.
   */
  serviceCodeHash: ServiceCodeHash.optional(),
  /** systemd's notify socket and watchdog ($NOTIFY_SOCKET, $WATCHDOG_USEC, $WATCHDOG_PID; systemd/notify.ts). */
  notifySocket: z.string().min(1).optional(),
  watchdogUsec: intIn(0, 86_400_000_000).optional(),
  watchdogPid: intIn(1, 4_194_304).optional(),
  /** Screen ads (docs/agent.md "Screen advertising"): how often the attract loop is fetched (jittered ±20 %). */
  adRefreshSeconds: intIn(1, 3600).default(60),
  /** A loop older than this is served with `stale: true`. */
  adStaleSeconds: intIn(1, 7 * 86_400).default(300),
  /** Plays kept for the cloud at most; past it the oldest are dropped (and counted). */
  adPlaySpoolMax: intIn(100, 1_000_000).default(50_000),
  /** How long plays gather before a batch goes to the cloud (0: at once); a full batch (500) goes at once. */
  adPlayFlushSeconds: intIn(0, 3600).default(30),
  /** Prize game (docs/agent.md "Prize game"): events kept for the cloud at most; past it the oldest are dropped (and counted). */
  prizeEventSpoolMax: intIn(100, 1_000_000).default(50_000),
  /** How long events gather before a batch goes to the cloud (0: at once); a full batch (500) goes at once. */
  prizeEventFlushSeconds: intIn(0, 3600).default(2),
  /** Media files of the loop kept in the state directory, in MiB (0: none; the kiosk plays from the cloud). */
  adMediaCacheMb: intIn(0, 16_384).default(256),
  /** Origins (scheme://host[:port]) of kiosk pages allowed to call the ad routes, besides the configuration block's kioskUiUrl. */
  kioskOrigins: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.split(/[\s,]+/).filter((x) => x !== '') : v),
      z.array(
        z
          .string()
          .refine((o) => /^https?:\/\/[^/\s]+\/?$/.test(o) && URL.canParse(o), 'an origin: http(s)://host[:port], no path')
          .transform((o) => new URL(o).origin),
      ),
    )
    .default([]),
  /** The kiosk screen's built files, served at /screen/ (default: the release tree's screen/ folder, when there is one). */
  screenDir: z.string().min(1).optional(),
});
export type AgentConfigInput = z.input<typeof AgentConfigSchema>;
export type AgentConfig = Readonly<z.output<typeof AgentConfigSchema> & { agentVersion: string }>;

/** Environment variable for each setting. */
export const ENV_NAMES: Readonly<Record<keyof AgentConfigInput, string>> = Object.freeze({
  stateDir: 'VEND_AGENT_STATE_DIR',
  cloudUrl: 'VEND_AGENT_CLOUD_URL',
  equipmentNo: 'VEND_AGENT_EQUIPMENT_NO',
  fleetSecret: 'VEND_AGENT_FLEET_SECRET',
  serialPort: 'VEND_AGENT_SERIAL_PORT',
  controlHost: 'VEND_AGENT_CONTROL_HOST',
  controlPort: 'VEND_AGENT_CONTROL_PORT',
  machineIdFile: 'VEND_AGENT_MACHINE_ID_FILE',
  agentVersion: 'VEND_AGENT_VERSION',
  logLevel: 'VEND_AGENT_LOG_LEVEL',
  httpTimeoutMs: 'VEND_AGENT_HTTP_TIMEOUT_MS',
  downloadTimeoutMs: 'VEND_AGENT_DOWNLOAD_TIMEOUT_MS',
  configRefreshSeconds: 'VEND_AGENT_CONFIG_REFRESH_SECONDS',
  backoffBaseMs: 'VEND_AGENT_BACKOFF_BASE_MS',
  backoffCapMs: 'VEND_AGENT_BACKOFF_CAP_MS',
  vmcOpenAttempts: 'VEND_AGENT_VMC_OPEN_ATTEMPTS',
  vmcOpenBackoffMs: 'VEND_AGENT_VMC_OPEN_BACKOFF_MS',
  stopDeadlineMs: 'VEND_AGENT_STOP_DEADLINE_MS',
  installRoot: 'VEND_AGENT_INSTALL_ROOT',
  releasePublicKey: 'VEND_AGENT_RELEASE_PUBLIC_KEY',
  artifactPrefix: 'VEND_AGENT_ARTIFACT_PREFIX',
  invocationId: 'INVOCATION_ID',
  serviceCodeHash: 'VEND_AGENT_SERVICE_CODE_HASH',
  notifySocket: 'NOTIFY_SOCKET',
  watchdogUsec: 'WATCHDOG_USEC',
  watchdogPid: 'WATCHDOG_PID',
  adRefreshSeconds: 'VEND_AGENT_AD_REFRESH_SECONDS',
  adStaleSeconds: 'VEND_AGENT_AD_STALE_SECONDS',
  adPlaySpoolMax: 'VEND_AGENT_AD_PLAY_SPOOL_MAX',
  adPlayFlushSeconds: 'VEND_AGENT_AD_PLAY_FLUSH_SECONDS',
  prizeEventSpoolMax: 'VEND_AGENT_PRIZE_EVENT_SPOOL_MAX',
  prizeEventFlushSeconds: 'VEND_AGENT_PRIZE_EVENT_FLUSH_SECONDS',
  adMediaCacheMb: 'VEND_AGENT_AD_MEDIA_CACHE_MB',
  kioskOrigins: 'VEND_AGENT_KIOSK_ORIGINS',
  screenDir: 'VEND_AGENT_SCREEN_DIR',
});
/** Where the JSON configuration file is named, when not by --config. */
export const CONFIG_FILE_ENV = 'VEND_AGENT_CONFIG';

export class AgentConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid agent configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'AgentConfigError';
  }
}

export interface ConfigSources {
  /** Settings given as command-line flags (undefined entries are ignored). */
  flags?: Partial<Record<keyof AgentConfigInput, unknown>>;
  env?: Record<string, string | undefined>;
  /** --config; else $VEND_AGENT_CONFIG; else /etc/vend-agent/config.json if it exists. */
  configFile?: string;
  /** Reads a file (tests replace it); null when missing. */
  readFile?: (path: string) => string | null;
  /** Fallback when none is configured (tests). */
  packagedVersion?: string;
}

function defaultReadFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Builds the agent configuration; throws AgentConfigError naming every problem. */
export function loadAgentConfig(src: ConfigSources = {}): AgentConfig {
  const env = src.env ?? {};
  const read = src.readFile ?? defaultReadFile;
  const problems: string[] = [];

  const explicitFile = src.configFile ?? env[CONFIG_FILE_ENV];
  const filePath = explicitFile ?? DEFAULT_CONFIG_FILE;
  let fromFile: Record<string, unknown> = {};
  let text: string | null = null;
  try {
    text = read(filePath);
  } catch (e) {
    problems.push(`${filePath}: ${(e as Error).message}`);
  }
  if (text === null && explicitFile !== undefined && problems.length === 0) problems.push(`${filePath}: no such file`);
  if (text !== null) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) problems.push(`${filePath}: must be a JSON object`);
      else fromFile = parsed as Record<string, unknown>;
    } catch (e) {
      problems.push(`${filePath}: not JSON (${(e as Error).message})`);
    }
    const known = new Set(Object.keys(ENV_NAMES));
    for (const key of Object.keys(fromFile)) if (!known.has(key)) problems.push(`${filePath}: unknown setting "${key}"`);
  }

  const fromEnv: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(ENV_NAMES)) {
    const value = env[name];
    if (value !== undefined && value !== '') fromEnv[key] = value;
  }
  // An empty VEND_AGENT_MACHINE_ID_FILE is meaningful: no machine-id.
  if (env[ENV_NAMES.machineIdFile] === '') fromEnv['machineIdFile'] = '';
  const fromFlags: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src.flags ?? {})) if (v !== undefined) fromFlags[k] = v;

  const merged = { ...fromFile, ...fromEnv, ...fromFlags };
  const parsed = AgentConfigSchema.safeParse(merged);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      const where =
        key in fromFlags ? `--${key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}` : key in fromEnv ? ENV_NAMES[key as keyof AgentConfigInput] : key;
      problems.push(`${where}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !parsed.success) throw new AgentConfigError(problems);
  const config = parsed.data;
  if (config.backoffCapMs < config.backoffBaseMs) throw new AgentConfigError(['backoffCapMs: must be at least backoffBaseMs']);
  return Object.freeze({ ...config, agentVersion: config.agentVersion ?? src.packagedVersion ?? packagedVersion() });
}

/** The configuration as `config show` prints it: the fleet secret masked. */
export function describeConfig(config: AgentConfig): Record<string, unknown> {
  return { ...config, fleetSecret: config.fleetSecret === undefined ? null : mask(config.fleetSecret) };
}

/** `abcd…` plus the length: enough to tell two values apart, never enough to use one. */
export function mask(secret: string): string {
  if (secret.length <= 8) return `${'*'.repeat(secret.length)} (${secret.length} chars)`;
  return `${secret.slice(0, 4)}… (${secret.length} chars)`;
}
