import fs from 'node:fs';
import { z } from 'zod';
import { ReleaseVersion, Sha256Hex, type RevertReport } from '@vend/protocol';
import { writeFileAtomic } from './fs-atomic.ts';

/**
 * The upgrade journal: one JSON file, written atomically before every step that changes the trees,
 * so that whatever the power does, `onBoot()` finds a saved state and resolves it to the old or the
 * new tree (Mender's "state saved before each step"). It also keeps what must outlive one install:
 * the rollback floor (TUF: never install below it without `allowDowngrade`) and the versions the boot
 * guard reverted (refused afterwards and reported as blocked).
 *
 * States:
 * - `idle`       no install in flight; `current` is what runs.
 * - `swapping`   the staged tree is verified; the renames are under way (`install.step` says which
 *                rename is next). Interrupted → back to `from` (nothing was committed).
 * - `trial`      both renames done; `to` is in `current` and is booting. Each boot counts an attempt;
 *                the cloud reached → commit (`idle`); no cloud within the health timeout, or more than
 *                the allowed attempts → `reverting`.
 * - `reverting`  `to` is being taken out and `from` put back; interrupted → finished on the next boot.
 */
export const JOURNAL_STATES = ['idle', 'swapping', 'trial', 'reverting'] as const;
export type JournalState = (typeof JOURNAL_STATES)[number];

/** The renames of a swap, in order; `install.step` is the next one to do (saved before doing it). */
export const SWAP_STEPS = ['move-previous', 'move-current', 'move-staging'] as const;
export type SwapStep = (typeof SWAP_STEPS)[number];

export const InstallRecord = z.object({
  from: ReleaseVersion,
  to: ReleaseVersion,
  sha256: Sha256Hex,
  allowDowngrade: z.boolean(),
  /** Directory name (under the root) of the verified staged tree. */
  staging: z.string().regex(/^staging-[A-Za-z0-9.-]+$/),
  step: z.enum(SWAP_STEPS).nullable(),
  /** Boots of `to` counted so far. */
  attempts: z.number().int().min(0),
  /** The systemd invocation that counted the last attempt (the boot guard and the daemon share one). */
  invocation: z.string().max(128).nullable(),
  startedAt: z.number().int(),
  /**
   * When the boot guard counted the last attempt: the kernel's boot id and the system's monotonic clock
   * (ms since boot), so the health deadline is judged from outside the version on trial, immune to wall
   * clock jumps, and only within the same kernel boot. Null before the first attempt (and in journals
   * written before this field existed).
   */
  boot: z
    .object({ id: z.string().max(64), monotonicMs: z.number().nonnegative(), at: z.number().int() })
    .nullable()
    .default(null),
  /** Why a revert is under way (set with state `reverting`). */
  revertReason: z.string().max(500).nullable(),
});
export type InstallRecord = z.infer<typeof InstallRecord>;

export const BadVersion = z.object({
  version: ReleaseVersion,
  sha256: Sha256Hex,
  reason: z.string().max(500),
  at: z.number().int(),
});
export type BadVersion = z.infer<typeof BadVersion>;

export const LAST_OUTCOMES = ['committed', 'reverted', 'abandoned'] as const;
export const LastOutcome = z.object({
  /** committed: `version` runs; reverted: `version` failed its trial, `from` runs; abandoned: interrupted before the swap finished, `from` runs. */
  outcome: z.enum(LAST_OUTCOMES),
  version: ReleaseVersion,
  from: ReleaseVersion,
  reason: z.string().max(500),
  at: z.number().int(),
});
export type LastOutcome = z.infer<typeof LastOutcome>;

export const Journal = z.object({
  v: z.literal(1),
  state: z.enum(JOURNAL_STATES),
  /** The version in `<root>/current` when this was written (what runs after the next start). */
  current: ReleaseVersion.nullable(),
  /** Rollback floor: the last committed version, lowered only by a committed `allowDowngrade` install. */
  floor: ReleaseVersion.nullable(),
  bad: z.array(BadVersion).max(64),
  install: InstallRecord.nullable(),
  last: LastOutcome.nullable(),
  /** Journal writes so far (a running count; shows loops in `upgrade status`). */
  saves: z.number().int().min(0),
});
export type Journal = z.infer<typeof Journal>;

export function emptyJournal(current: string | null): Journal {
  return { v: 1, state: 'idle', current, floor: current, bad: [], install: null, last: null, saves: 0 };
}

export type JournalRead = { kind: 'missing' } | { kind: 'ok'; journal: Journal } | { kind: 'corrupt'; error: string };

/** Reads the journal. A write is atomic, so "corrupt" means something other than this code wrote it. */
export async function readJournal(file: string): Promise<JournalRead> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'corrupt', error: (err as Error).message };
  }
  try {
    const parsed = Journal.safeParse(JSON.parse(text));
    return parsed.success ? { kind: 'ok', journal: parsed.data } : { kind: 'corrupt', error: parsed.error.message };
  } catch (err) {
    return { kind: 'corrupt', error: (err as Error).message };
  }
}

/** Writes the journal atomically and durably; returns what was written (with `saves` advanced). */
export async function writeJournal(file: string, j: Journal): Promise<Journal> {
  const next = Journal.parse({ ...j, saves: j.saves + 1 });
  writeFileAtomic(file, JSON.stringify(next, null, 2) + '\n', { mode: 0o600 });
  return next;
}

/** The heartbeat's revert report: the journal's last outcome when it is a revert, else null. */
export function revertReportOf(j: Journal | null): RevertReport | null {
  const last = j?.last;
  if (!last || last.outcome !== 'reverted') return null;
  return { version: last.version, from: last.from, reason: last.reason, at: new Date(last.at).toISOString() };
}
