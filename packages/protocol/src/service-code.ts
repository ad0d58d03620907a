import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * The cabinet's service code (spec 2 §8: 5 wrong codes lock the service functions for 300 s).
 * The operator sets it through the cloud; the cloud stores only its hash and delivers that hash in
 * the configuration block; the agent checks a technician's code against it offline.
 */
export const SERVICE_CODE_LIMITS = Object.freeze({
  /** Wrong codes before the service functions lock. */
  maxFailures: 5,
  /** How long they stay locked. */
  lockoutSeconds: 300,
  /** Attempts a heartbeat carries at most (the oldest unreported beyond it are counted, not sent). */
  reportedAttempts: 50,
});

/** A service code: 6 to 12 digits (typed on a kiosk's keypad or a technician's phone). */
export const SERVICE_CODE_PATTERN = /^\d{6,12}$/;
export const ServiceCode = lazySchema(() => z.string().regex(SERVICE_CODE_PATTERN, 'a service code is 6 to 12 digits'));

/**
 * The stored and delivered form: `scrypt$<N>$<r>$<p>$<salt>$<hash>`, salt (16 bytes) and hash (32
 * bytes) in unpadded base64url. The bounds keep a hostile block from making a cabinet spend unbounded
 * memory (N ≤ 2^17, r ≤ 16: 256 MiB at most); the cloud mints N = 2^14, r = 8, p = 1 (16 MiB, ~50 ms).
 */
export const SERVICE_CODE_HASH_PATTERN = /^scrypt\$(\d{1,6})\$(\d{1,2})\$(\d)\$([A-Za-z0-9_-]{22})\$([A-Za-z0-9_-]{43})$/;
export const ServiceCodeHash = lazySchema(() => z.string().regex(SERVICE_CODE_HASH_PATTERN, 'scrypt$N$r$p$salt$hash'));
export type ServiceCodeHash = z.infer<typeof ServiceCodeHash>;

export const SERVICE_CODE_KDF = Object.freeze({ N: 16384, r: 8, p: 1, saltBytes: 16, keyBytes: 32 });

export interface ParsedServiceCodeHash {
  N: number;
  r: number;
  p: number;
  salt: string;
  hash: string;
}

/** The parts of a hash string, or null when it is not one this version can check (a power of two N in 2^10..2^17, r 1..16, p 1..4). */
export function parseServiceCodeHash(text: string): ParsedServiceCodeHash | null {
  const m = SERVICE_CODE_HASH_PATTERN.exec(text);
  if (!m) return null;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (N < 1024 || N > 131072 || (N & (N - 1)) !== 0 || r < 1 || r > 16 || p < 1 || p > 4) return null;
  return { N, r, p, salt: m[4]!, hash: m[5]! };
}

/** What a technician's code was for (logged with every attempt and reported to the cloud). */
export const SERVICE_ACTIONS = ['motor-test', 'enrolment-reset', 'log-export', 'network', 'unlock', 'screen'] as const;
export type ServiceAction = (typeof SERVICE_ACTIONS)[number];
/** How an attempt ended: the code was right, wrong, or not even checked (locked out, or no code set). */
export const SERVICE_ATTEMPT_RESULTS = ['ok', 'wrong', 'locked', 'no-code'] as const;

export const ServiceAttempt = lazySchema(() =>
  z.object({
    /** Per cabinet, increasing: the cloud keeps an attempt once however often a heartbeat repeats it. */
    id: z.number().int().min(1),
    at: z.string().max(40),
    action: z.enum(SERVICE_ACTIONS),
    result: z.enum(SERVICE_ATTEMPT_RESULTS),
    /** `cli` (a shell on the cabinet) or `control` (the loopback control channel: the kiosk UI). */
    source: z.enum(['cli', 'control']),
  }),
);
export type ServiceAttempt = z.infer<typeof ServiceAttempt>;

/** The service-code block of a heartbeat: the lock as it stands and the attempts not yet reported. */
export const ServiceCodeReport = lazySchema(() =>
  z.object({
    /** Wrong codes since the last right one or the last lockout. */
    failures: z.number().int().min(0).max(1000),
    /** ISO 8601 while locked, else null. */
    lockedUntil: z.string().max(40).nullable(),
    attempts: z.array(ServiceAttempt).max(SERVICE_CODE_LIMITS.reportedAttempts),
    /** Attempts the agent could not keep for the report (more than it holds between two heartbeats). */
    dropped: z.number().int().min(0).max(1_000_000_000),
  }),
);
export type ServiceCodeReport = z.infer<typeof ServiceCodeReport>;
