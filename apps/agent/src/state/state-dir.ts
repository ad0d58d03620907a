import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { ConfigBlock, DeviceIdField, parseDeviceKey } from '@vend/protocol';
import { fsyncDir, readJsonIfValid, readTextIfExists, writeFileAtomic } from './fs-atomic.ts';

/** Files in the state directory (docs/agent.md lists them with their modes). */
export const STATE_FILES = {
  credential: 'credential',
  enrolment: 'enrolment.json',
  deviceId: 'device-id',
  controlToken: 'control-token',
  config: 'config-block.json',
  log: 'agent.log',
  pid: 'agent.pid',
  journal: 'journal.log',
  adLoop: 'ad-loop.json',
  adPlays: 'ad-plays.log',
  adMedia: 'ad-media',
  prizeEvents: 'prize-events.log',
  prizeState: 'prize-state.json',
  serviceCode: 'service-code.json',
  network: 'network.json',
} as const;

/**
 * What the agent knows of its enrolment. Only lasting facts are stored: `enrolled`, `revoked`
 * (stop presenting, never re-enrol), `conflict` (409: the cloud has an enrolment for this cabinet
 * this agent does not hold — a technician must reset the identity). Waiting for an arm (428) is
 * transient and lives in memory.
 */
export const EnrolmentRecord = z.object({
  state: z.enum(['enrolled', 'revoked', 'conflict']),
  keyId: z.string().nullable(),
  machineCode: z.string().nullable(),
  /** The cloud's message when it refused (revoked, conflict). */
  message: z.string().nullable(),
  at: z.number().int(),
});
export type EnrolmentRecord = z.infer<typeof EnrolmentRecord>;

const CachedConfig = z.object({ receivedAt: z.number().int(), config: ConfigBlock });
export type CachedConfig = z.infer<typeof CachedConfig>;

/** machine-id(5) asks applications not to send the raw id: derive an application-specific one (like sd_id128_get_machine_app_specific). */
export function deviceIdFromMachineId(machineId: string): string | null {
  const id = machineId.trim().toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(id)) return null;
  return `mid-${createHmac('sha256', id).update('vend-agent device id v1').digest('hex').slice(0, 32)}`;
}

export class StateDirError extends Error {}

/** The state directory cannot be used at all: the path is not a directory (a configuration mistake, not a busy directory). */
export class StateDirUnusable extends Error {}

/** Files that hold secrets: 0600 whatever someone did to them (tightened at every start). */
const SECRET_FILES = ['credential', 'enrolment', 'controlToken', 'config', 'journal', 'serviceCode', 'network'] as const;

/**
 * The agent's durable state: one directory (default /var/lib/vend-agent, mode 0700). Every file is
 * written atomically (fs-atomic.ts); the credential and the control token are mode 0600.
 */
export class StateDir {
  constructor(readonly root: string) {}

  path(name: keyof typeof STATE_FILES): string {
    return join(this.root, STATE_FILES[name]);
  }

  /**
   * Creates the directory (0700) if needed, and tightens what is there: the directory to 0700, the
   * files holding secrets to 0600 (an operator's `chmod -R`, a restored backup, an older version).
   */
  ensure(): void {
    try {
      mkdirSync(this.root, { recursive: true, mode: 0o700 });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR') throw new StateDirUnusable(`the state directory ${this.root} is not a directory`);
      throw e;
    }
    const st = statSync(this.root);
    if (!st.isDirectory()) throw new StateDirUnusable(`the state directory ${this.root} is not a directory`);
    // best effort: a directory owned by someone else is still usable if it can be read and written
    if ((st.mode & 0o077) !== 0) chmodQuietly(this.root, 0o700);
    for (const file of SECRET_FILES) {
      try {
        if ((statSync(this.path(file)).mode & 0o077) !== 0) chmodQuietly(this.path(file), 0o600);
      } catch {
        // not there
      }
    }
  }

  // --- credential ------------------------------------------------------------------------------

  /** `keyId:deviceKey`, or null when none is stored (or the file is not of that form). */
  readCredential(): string | null {
    const raw = readTextIfExists(this.path('credential'))?.trim();
    if (!raw) return null;
    return parseDeviceKey(raw) ? raw : null;
  }

  /** Stores `keyId:deviceKey` as one string, mode 0600, atomically. */
  writeCredential(value: string): void {
    if (!parseDeviceKey(value)) throw new StateDirError('refusing to store a credential that is not keyId:secret');
    writeFileAtomic(this.path('credential'), value + '\n', { mode: 0o600 });
  }

  // --- enrolment -------------------------------------------------------------------------------

  readEnrolment(): EnrolmentRecord | null {
    return readJsonIfValid(this.path('enrolment'), EnrolmentRecord);
  }

  writeEnrolment(record: EnrolmentRecord): void {
    writeFileAtomic(this.path('enrolment'), JSON.stringify(record) + '\n', { mode: 0o600 });
  }

  // --- device id -------------------------------------------------------------------------------

  /**
   * The stable per-installation id sent as `deviceId`: one generated earlier and kept here wins (so
   * it never changes under a cabinet); otherwise derived from /etc/machine-id; otherwise a random
   * id generated now and kept here.
   */
  deviceId(machineIdFile: string | null): { deviceId: string; source: 'machine-id' | 'generated' } {
    const kept = readTextIfExists(this.path('deviceId'))?.trim();
    if (kept && DeviceIdField.safeParse(kept).success) return { deviceId: kept, source: 'generated' };
    if (machineIdFile) {
      const mid = readTextIfExists(machineIdFile);
      const derived = mid === null ? null : deviceIdFromMachineId(mid);
      if (derived) return { deviceId: derived, source: 'machine-id' };
    }
    const generated = `gen-${randomBytes(16).toString('hex')}`;
    writeFileAtomic(this.path('deviceId'), generated + '\n', { mode: 0o644 });
    return { deviceId: generated, source: 'generated' };
  }

  // --- control token ---------------------------------------------------------------------------

  /**
   * The control channel's bearer token. Missing: one is generated (32 random bytes) and stored 0600.
   * Present but empty: '' — the control channel then accepts no bearer, so every dispense is refused.
   */
  controlToken(): string {
    const raw = readTextIfExists(this.path('controlToken'));
    if (raw !== null) return raw.trim();
    const token = randomBytes(32).toString('base64url');
    writeFileAtomic(this.path('controlToken'), token + '\n', { mode: 0o600 });
    return token;
  }

  /** The token as stored, without generating one (the CLI reads it). */
  readControlToken(): string | null {
    const raw = readTextIfExists(this.path('controlToken'));
    return raw === null ? null : raw.trim();
  }

  // --- configuration block ---------------------------------------------------------------------

  readCachedConfig(): CachedConfig | null {
    return readJsonIfValid(this.path('config'), CachedConfig);
  }

  writeCachedConfig(cached: CachedConfig): void {
    // holds the kiosk's admin PIN
    writeFileAtomic(this.path('config'), JSON.stringify(cached) + '\n', { mode: 0o600 });
  }

  // --- single instance -------------------------------------------------------------------------

  /**
   * One daemon per state directory: `agent.pid`, created with its content in one step — the pid is
   * written to a temp file, which is then hard-linked as `agent.pid` (link fails with EEXIST when the
   * lock exists, and a lock never exists without its pid in it). A lock whose process is gone (a
   * crash, a power cut) or that holds no pid is taken over — but only by the holder of a second lock,
   * `agent.pid.takeover`, taken the same way: removing a lock is then one starter's act, judged again
   * under that lock, so two starters that both saw the dead lock cannot remove each other's fresh one.
   * Throws StateDirError when another live agent holds it.
   */
  acquirePidLock(isAlive: (pid: number) => boolean = processAlive): { release(): void } {
    const file = this.path('pid');
    const takeover = `${file}.takeover`;
    const tmp = join(this.root, `.${STATE_FILES.pid}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    const fd = openSync(tmp, 'wx', 0o644);
    try {
      writeSync(fd, `${process.pid}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    const take = (): { release(): void } | null => {
      try {
        linkSync(tmp, file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'EEXIST') return null;
        throw e;
      }
      fsyncDir(this.root);
      const ino = statSync(file).ino;
      return {
        release: () => {
          try {
            if (statSync(file).ino === ino && readTextIfExists(file)?.trim() === String(process.pid)) unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    };
    /** The live holder's pid, or null when the lock is stale (dead pid, no pid) or gone. */
    const liveHolder = (f: string): { pid: number | null; ino: number } | null => {
      let held: { ino: number; text: string | null };
      try {
        held = { ino: statSync(f).ino, text: readTextIfExists(f) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
      const pid = Number(held.text?.trim());
      return { pid: Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : null, ino: held.ino };
    };
    try {
      for (let attempt = 0; attempt < 200; attempt++) {
        const won = take();
        if (won) return won;
        const seen = liveHolder(file);
        if (seen === null) continue; // released meanwhile: try again
        if (seen.pid !== null) throw new StateDirError(`another vend-agent (pid ${seen.pid}) is running on ${this.root}`);
        // Stale: take it over under the takeover lock, or wait for whoever holds that.
        try {
          linkSync(tmp, takeover);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
          const other = liveHolder(takeover);
          // A takeover lock left by a starter that died during its takeover (a double fault) is moved aside by inode.
          if (other !== null && other.pid === null) this.removeStaleLock(takeover, other.ino);
          else sleepSync(10);
          continue;
        }
        try {
          const again = liveHolder(file);
          if (again !== null && again.pid !== null) throw new StateDirError(`another vend-agent (pid ${again.pid}) is running on ${this.root}`);
          if (again !== null) unlinkSync(file); // only a takeover holder removes a lock, so this is still the stale one
          const got = take();
          if (got) return got;
        } finally {
          try {
            unlinkSync(takeover);
          } catch {
            // already gone
          }
        }
      }
      throw new StateDirError(`could not take ${file}`);
    } finally {
      try {
        unlinkSync(tmp);
      } catch {
        // linked and unlinked already, or never made
      }
    }
  }

  /** Removes a lock file only if it is still the inode judged stale; a fresh lock moved aside by mistake is put back. */
  private removeStaleLock(file: string, staleIno: number): void {
    const aside = join(this.root, `.${basename(file)}.stale.${process.pid}.${randomBytes(4).toString('hex')}`);
    try {
      renameSync(file, aside);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else removed it
      throw e;
    }
    if (statSync(aside).ino !== staleIno) {
      // another starter took the lock between our look and our move: give it back
      try {
        linkSync(aside, file);
      } catch {
        // a third starter holds it now; that one wins
      }
    }
    unlinkSync(aside);
  }

  /** The pid of a running daemon on this directory, or null. */
  runningPid(isAlive: (pid: number) => boolean = processAlive): number | null {
    const holder = Number(readTextIfExists(this.path('pid'))?.trim());
    return Number.isInteger(holder) && holder > 0 && isAlive(holder) ? holder : null;
  }

  /** Tightens a file's mode (the credential is 0600 even if someone loosened it). */
  tighten(name: keyof typeof STATE_FILES, mode = 0o600): void {
    try {
      chmodSync(this.path(name), mode);
    } catch {
      // not there
    }
  }
}

function chmodQuietly(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch {
    // not ours to change
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Blocks this thread for `ms` (the lock is taken before the event loop has work to do). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
