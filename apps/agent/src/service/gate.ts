import { scrypt, timingSafeEqual } from 'node:crypto';
import { chownSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { SERVICE_ACTIONS, SERVICE_CODE_LIMITS, SERVICE_CODE_PATTERN, ServiceAttempt, parseServiceCodeHash } from '@vend/protocol';
import type { Clock, ControlServiceCheck, ServiceAction, ServiceCodeReport } from '@vend/protocol';
import { readJsonIfValid, writeFileAtomic } from '../state/fs-atomic.ts';

/**
 * The lock as kept in `service-code.json` (0600): wrong codes since the last right one, the end of a
 * lockout, and the attempts not yet reported to the cloud (at most 50; older ones are counted).
 */
const GateFile = z.object({
  failures: z.number().int().min(0),
  lockedUntil: z.number().int().nullable(),
  nextId: z.number().int().min(1),
  pending: z.array(ServiceAttempt),
  dropped: z.number().int().min(0),
});
type GateFile = z.infer<typeof GateFile>;

const EMPTY: GateFile = { failures: 0, lockedUntil: null, nextId: 1, pending: [], dropped: 0 };

export type GateVerdict =
  | { result: 'ok' }
  /** The code was wrong; `remaining` more wrong ones lock the service functions (0: they are locked now, until `lockedUntil`). */
  | { result: 'wrong'; remaining: number; lockedUntil: number | null }
  /** Locked: the code was not even checked. */
  | { result: 'locked'; lockedUntil: number }
  /** No service code is set (none delivered by the cloud, none configured locally): nothing can be unlocked. */
  | { result: 'no-code' };

export interface GateStatus {
  codeSet: boolean;
  /** Where the hash in force came from. */
  source: 'cloud' | 'local' | 'none';
  failures: number;
  remaining: number;
  lockedUntil: string | null;
  unreported: number;
}

export interface ServiceGateOptions {
  /** The gate's file (the state directory's `service-code.json`). */
  file: string;
  clock: Clock;
  /** The hash in force and where it came from: the configuration block's, else the locally configured one. */
  hash: () => { hash: string; source: 'cloud' | 'local' } | null;
  /** Every attempt, logged (the daemon's log, or the CLI's line in it). */
  log: (attempt: ServiceAttempt, verdict: GateVerdict) => void;
}

function kdf(code: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(code, salt, 32, { N, r, p, maxmem: 300 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))));
}

/** True when `code` matches the scrypt hash (constant time over the key); false for any code against a hash this version cannot read. */
export async function codeMatches(code: string, hash: string): Promise<boolean> {
  const parsed = parseServiceCodeHash(hash);
  if (!parsed || !SERVICE_CODE_PATTERN.test(code)) return false;
  const expected = Buffer.from(parsed.hash, 'base64url');
  const actual = await kdf(code, Buffer.from(parsed.salt, 'base64url'), parsed.N, parsed.r, parsed.p);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Mints a hash of `code` in the form the cloud delivers (for a locally configured code: `vend-agent service-code hash`). */
export async function hashCode(code: string, salt: Buffer): Promise<string> {
  const N = 16384;
  const key = await kdf(code, salt, N, 8, 1);
  return `scrypt$${N}$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/**
 * The service-code gate (spec 2 §8): technician actions that change the cabinet need the cabinet's
 * service code; 5 wrong codes lock them for 300 s. The count and the lockout are on disk, so a restart
 * (of the daemon, or a new CLI process) does not reset them; the file is read again at every check, so
 * the daemon and a CLI share one count. While locked no code is checked at all (no oracle). Every
 * attempt is logged and kept until a heartbeat the cloud answered has carried it.
 *
 * Times are the injected clock's wall time. A lockout that ends more than 300 s from now (the clock
 * was set back) is cut to 300 s from now, so a clock jump cannot lock a cabinet for longer.
 */
export class ServiceGate {
  /** Checks run one at a time in this process (two at once would both count from the same file). */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: ServiceGateOptions) {}

  private read(): GateFile {
    const file = readJsonIfValid(this.opts.file, GateFile) ?? { ...EMPTY, pending: [] };
    const now = this.opts.clock.now();
    const longest = now + SERVICE_CODE_LIMITS.lockoutSeconds * 1000;
    if (file.lockedUntil !== null && file.lockedUntil > longest) file.lockedUntil = longest;
    // a lockout that has run out clears the count: the next 5 wrong codes lock again
    if (file.lockedUntil !== null && file.lockedUntil <= now) {
      file.lockedUntil = null;
      file.failures = 0;
    }
    return file;
  }

  private write(file: GateFile): void {
    writeFileAtomic(this.opts.file, JSON.stringify(file) + '\n', { mode: 0o600 });
    // a technician's `sudo vend-agent service …` must not leave a root-owned file the daemon cannot read:
    // the file goes to the owner of the state directory
    if (process.getuid?.() === 0) {
      const dir = statSync(dirname(this.opts.file));
      if (dir.uid !== 0) chownSync(this.opts.file, dir.uid, dir.gid);
    }
  }

  status(): GateStatus {
    const file = this.read();
    const hash = this.opts.hash();
    return {
      codeSet: hash !== null,
      source: hash?.source ?? 'none',
      failures: file.failures,
      remaining: file.lockedUntil !== null ? 0 : SERVICE_CODE_LIMITS.maxFailures - file.failures,
      lockedUntil: file.lockedUntil === null ? null : new Date(file.lockedUntil).toISOString(),
      unreported: file.pending.length + file.dropped,
    };
  }

  /** Checks a technician's code for `action`, records the attempt durably, and answers the verdict. */
  check(code: string, action: ServiceAction, source: 'cli' | 'control'): Promise<GateVerdict> {
    const run = this.queue.then(() => this.checkNow(code, action, source));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async checkNow(code: string, action: ServiceAction, source: 'cli' | 'control'): Promise<GateVerdict> {
    if (!(SERVICE_ACTIONS as readonly string[]).includes(action)) throw new Error(`unknown service action ${action}`);
    let file = this.read();
    const hash = this.opts.hash();
    let verdict: GateVerdict;
    if (file.lockedUntil !== null) verdict = { result: 'locked', lockedUntil: file.lockedUntil };
    else if (hash === null) verdict = { result: 'no-code' };
    else {
      const right = await codeMatches(code, hash.hash);
      // the KDF took a while: another process may have counted meanwhile
      file = this.read();
      if (file.lockedUntil !== null) verdict = { result: 'locked', lockedUntil: file.lockedUntil };
      else if (right) {
        file.failures = 0;
        verdict = { result: 'ok' };
      } else {
        file.failures += 1;
        if (file.failures >= SERVICE_CODE_LIMITS.maxFailures) {
          file.lockedUntil = this.opts.clock.now() + SERVICE_CODE_LIMITS.lockoutSeconds * 1000;
          file.failures = SERVICE_CODE_LIMITS.maxFailures;
        }
        verdict = { result: 'wrong', remaining: SERVICE_CODE_LIMITS.maxFailures - file.failures, lockedUntil: file.lockedUntil };
      }
    }
    const attempt: ServiceAttempt = {
      id: file.nextId,
      at: new Date(this.opts.clock.now()).toISOString(),
      action,
      result: verdict.result,
      source,
    };
    file.nextId += 1;
    file.pending.push(attempt);
    while (file.pending.length > SERVICE_CODE_LIMITS.reportedAttempts) {
      file.pending.shift();
      file.dropped += 1;
    }
    this.write(file);
    this.opts.log(attempt, verdict);
    return verdict;
  }

  /**
   * The heartbeat's block and, once the cloud answered it, `ack` to forget what it carried (attempts
   * made meanwhile stay for the next one).
   */
  report(): { report: ServiceCodeReport; ack: () => void } {
    const file = this.read();
    const sentUpTo = file.pending.at(-1)?.id ?? 0;
    const sentDropped = file.dropped;
    return {
      report: {
        failures: file.failures,
        lockedUntil: file.lockedUntil === null ? null : new Date(file.lockedUntil).toISOString(),
        attempts: file.pending,
        dropped: file.dropped,
      },
      ack: () => {
        // nothing was carried: nothing to forget (no write, so a quiet cabinet never touches the file)
        if (sentUpTo === 0 && sentDropped === 0) return;
        const now = this.read();
        now.pending = now.pending.filter((a) => a.id > sentUpTo);
        now.dropped = Math.max(0, now.dropped - sentDropped);
        this.write(now);
      },
    };
  }
}

/** One line a technician reads: what a verdict means and what to do. */
export function describeVerdict(verdict: GateVerdict, clock: Clock): string {
  switch (verdict.result) {
    case 'ok':
      return 'service code accepted';
    case 'wrong':
      return verdict.lockedUntil !== null
        ? `wrong service code: the service functions are locked for ${Math.ceil((verdict.lockedUntil - clock.now()) / 1000)} s`
        : `wrong service code: ${verdict.remaining} more wrong code${verdict.remaining === 1 ? '' : 's'} lock the service functions for ${SERVICE_CODE_LIMITS.lockoutSeconds} s`;
    case 'locked':
      return `the service functions are locked after ${SERVICE_CODE_LIMITS.maxFailures} wrong codes: try again in ${Math.max(1, Math.ceil((verdict.lockedUntil - clock.now()) / 1000))} s`;
    case 'no-code':
      return 'this cabinet has no service code: the operator sets one in the cloud (PUT /api/v1/machines/<serial>/service-code), or serviceCodeHash in /etc/vend-agent/config.json';
  }
}

/** A verdict as the control channel answers it (POST /v1/service/check, /v1/network/token). */
export function controlVerdict(verdict: GateVerdict, clock: Clock): ControlServiceCheck {
  const message = describeVerdict(verdict, clock);
  switch (verdict.result) {
    case 'ok':
    case 'no-code':
      return { result: verdict.result, message };
    case 'wrong':
      return {
        result: 'wrong',
        remaining: verdict.remaining,
        lockedUntil: verdict.lockedUntil === null ? null : new Date(verdict.lockedUntil).toISOString(),
        message,
      };
    case 'locked':
      return { result: 'locked', lockedUntil: new Date(verdict.lockedUntil).toISOString(), message };
  }
}
