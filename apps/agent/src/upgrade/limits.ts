import { DEFAULT_DOWNLOAD_LIMITS } from './download.ts';
import type { DownloadLimits } from './download.ts';
import { DEFAULT_EXTRACT_LIMITS } from './extract.ts';
import type { ExtractLimits } from './extract.ts';

export interface UpgradeLimits {
  /** Spec 2 §8: 21,600 s between checks. */
  checkIntervalMs: number;
  /** First check after `start()`. */
  firstCheckDelayMs: number;
  /** Next check after a deferral (the cabinet was busy). */
  deferralRetryMs: number;
  /** Spec 2 §8: 180 s of quiet before a restart. */
  quietSeconds: number;
  /** Spec 2 §8: the cloud must be reached within 300 s of booting a new version. */
  healthTimeoutMs: number;
  /** How often `cloudReachable()` is tried while a new version is on trial. */
  healthPollMs: number;
  /** Spec 2 §8: 3 boot attempts for a new version. */
  maxBootAttempts: number;
  /** Spec 2 §4.4 step 8: free space of about 3× the artifact. */
  diskFactor: number;
  /** The staged tree's `bin/vend-agent --version` must answer within this. */
  selfTestTimeoutMs: number;
  download: DownloadLimits;
  extract: ExtractLimits;
}

/** What a caller may change; the rest keeps the defaults, the nested download and extract limits included. */
export type UpgradeLimitsOverride = Partial<Omit<UpgradeLimits, 'download' | 'extract'>> & {
  download?: Partial<DownloadLimits>;
  extract?: Partial<ExtractLimits>;
};

export const DEFAULT_UPGRADE_LIMITS: UpgradeLimits = {
  checkIntervalMs: 21_600_000,
  firstCheckDelayMs: 60_000,
  deferralRetryMs: 180_000,
  quietSeconds: 180,
  healthTimeoutMs: 300_000,
  healthPollMs: 3_000,
  maxBootAttempts: 3,
  diskFactor: 3,
  selfTestTimeoutMs: 30_000,
  download: DEFAULT_DOWNLOAD_LIMITS,
  extract: DEFAULT_EXTRACT_LIMITS,
};

export function upgradeLimits(override: UpgradeLimitsOverride = {}): UpgradeLimits {
  return {
    ...DEFAULT_UPGRADE_LIMITS,
    ...override,
    download: { ...DEFAULT_UPGRADE_LIMITS.download, ...override.download },
    extract: { ...DEFAULT_UPGRADE_LIMITS.extract, ...override.extract },
  };
}
