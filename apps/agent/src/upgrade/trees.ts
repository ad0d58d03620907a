import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { compareVersions } from '@vend/protocol';
import type { Clock } from '@vend/protocol';
import { exists, fsyncDir, renameDurable } from './fs-atomic.ts';
import { emptyJournal, readJournal, writeJournal } from './journal.ts';
import type { InstallRecord, Journal, JournalState, LastOutcome } from './journal.ts';
import { TRANSIENT_PREFIXES, layoutOf, treeVersion } from './layout.ts';
import type { Layout } from './layout.ts';

/**
 * The install root's state machine on disk: the swap (journal first, then two renames, the previous
 * tree kept), the boot guard (finish or undo whatever a power cut interrupted, count boot attempts of
 * a version on trial), commit and revert. Filesystem only — no network, no daemon — so systemd can run
 * it as ExecStartPre (`vend-agent upgrade boot-guard`) before the daemon, and the crash tests can kill
 * it at every step. Every saved state resolves to the old or the new tree (docs/agent-upgrades.md has
 * the table).
 */

/** A logger of pino's shape (the daemon passes its pino instance). */
export interface UpgradeLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
export const silentUpgradeLogger: UpgradeLogger = { info: () => {}, warn: () => {}, error: () => {} };

/** Named points of an install, boot and revert; `onStep` is called after each (crash tests kill there). */
export const UPGRADE_STEPS = [
  'download',
  'downloaded',
  'extract',
  'extracted',
  'self-tested',
  'journal-swapping',
  'moved-previous',
  'moved-current',
  'moved-staging',
  'journal-trial',
  'boot-counted',
  'committed',
  'journal-reverting',
  'revert-moved-current',
  'revert-moved-previous',
  'reverted',
] as const;
export type UpgradeStep = (typeof UPGRADE_STEPS)[number];

/** What `bootGuard()` / `onBoot()` found and did. */
export interface BootOutcome {
  state: JournalState | 'no-install';
  /** The version in `<root>/current` afterwards. */
  current: string | null;
  action: 'none' | 'initialised' | 'counted' | 'reverted' | 'swap-rolled-back' | 'swap-completed' | 'cleaned';
  attempts?: number;
  reason?: string;
}

/** Where the boot guard reads the kernel boot and the monotonic clock (a seam for tests). */
export interface MachineBoot {
  /** The kernel's boot id (`/proc/sys/kernel/random/boot_id`), or null when unknown. */
  bootId(): string | null;
  /** The system-wide monotonic clock in ms (CLOCK_MONOTONIC: the same in every process of one boot). */
  monotonicMs(): number;
}

export const systemMachineBoot: MachineBoot = {
  bootId: () => {
    try {
      return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 64) || null;
    } catch {
      return null;
    }
  },
  monotonicMs: () => Number(process.hrtime.bigint() / 1_000_000n),
};

/** Spec 2 §8: the cloud must be reached within 300 s of booting a new version. */
export const DEFAULT_HEALTH_TIMEOUT_MS = 300_000;

/** What `trialExpired()` found (the systemd trial-guard timer asks it). */
export interface TrialCheck {
  expired: boolean;
  /** The version on trial, or null when none is. */
  version: string | null;
  /** Seconds since the boot guard counted the attempt now running (same kernel boot), or null. */
  seconds: number | null;
  reason: string;
}

export interface InstallRootOptions {
  root: string;
  clock: Clock;
  /** Spec 2 §8: 3 boot attempts for a new version. */
  maxBootAttempts?: number;
  /** systemd's `$INVOCATION_ID`: one service start counts one boot attempt however often the guard runs in it. */
  invocationId?: string | null;
  /** The health timeout the boot guard and `trialExpired()` judge a trial by (default 300 s). */
  healthTimeoutMs?: number;
  machine?: MachineBoot;
  log?: UpgradeLogger;
  onStep?: (step: UpgradeStep) => void | Promise<void>;
}

export class InstallRoot {
  readonly layout: Layout;
  private readonly log: UpgradeLogger;
  private readonly maxBootAttempts: number;
  private readonly healthTimeoutMs: number;
  private readonly machine: MachineBoot;

  constructor(private readonly opts: InstallRootOptions) {
    this.layout = layoutOf(opts.root);
    this.log = opts.log ?? silentUpgradeLogger;
    this.maxBootAttempts = opts.maxBootAttempts ?? 3;
    this.healthTimeoutMs = opts.healthTimeoutMs ?? DEFAULT_HEALTH_TIMEOUT_MS;
    this.machine = opts.machine ?? systemMachineBoot;
  }

  /**
   * How long ago (ms) the attempt now on trial was counted, when it was counted in this kernel boot;
   * null otherwise (no stamp, another boot, or the boot id unknown): a power cut or reboot ended that
   * attempt, and the next start counts a new one.
   */
  private attemptAgeMs(install: InstallRecord): number | null {
    const boot = install.boot;
    if (!boot) return null;
    const id = this.machine.bootId();
    if (id === null || id !== boot.id) return null;
    return Math.max(0, this.machine.monotonicMs() - boot.monotonicMs);
  }

  /**
   * Read-only: is a version on trial past its health timeout — counted in this kernel boot more than
   * the timeout ago and still not committed? The trial-guard timer asks this from outside the version
   * on trial (it may hang before `onBoot()` or wedge its event loop) and restarts the service when so;
   * the restart's boot guard then reverts it.
   */
  async trialExpired(): Promise<TrialCheck> {
    const read = await readJournal(this.layout.journal);
    if (read.kind !== 'ok' || read.journal.state !== 'trial' || !read.journal.install)
      return { expired: false, version: null, seconds: null, reason: 'no version on trial' };
    const install = read.journal.install;
    const age = this.attemptAgeMs(install);
    const limit = Math.round(this.healthTimeoutMs / 1000);
    if (age === null)
      return { expired: false, version: install.to, seconds: null, reason: `${install.to} is on trial; its attempt was not counted in this boot` };
    const seconds = Math.floor(age / 1000);
    return age > this.healthTimeoutMs
      ? { expired: true, version: install.to, seconds, reason: `${install.to} has been on trial ${seconds} s without reaching the cloud (limit ${limit} s)` }
      : { expired: false, version: install.to, seconds, reason: `${install.to} is on trial for ${seconds} s of ${limit} s` };
  }

  async step(step: UpgradeStep): Promise<void> {
    await this.opts.onStep?.(step);
  }

  /** The journal, or null when there is none yet; throws when it is unreadable (the boot guard sets it aside). */
  async load(): Promise<Journal | null> {
    const read = await readJournal(this.layout.journal);
    if (read.kind === 'ok') return read.journal;
    if (read.kind === 'corrupt') throw new Error(`the upgrade journal is unreadable (${read.error}); the boot guard sets it aside at the next start`);
    return null;
  }

  /** The journal, created for `current` when missing. */
  async ensure(current: string): Promise<Journal> {
    const j = await this.load();
    if (j) return j;
    await fs.promises.mkdir(this.layout.stateDir, { recursive: true, mode: 0o700 });
    return writeJournal(this.layout.journal, emptyJournal(current));
  }

  /** The journal as it is on disk, or null (for `vend-agent upgrade status`). */
  async status(): Promise<Journal | null> {
    const read = await readJournal(this.layout.journal);
    return read.kind === 'ok' ? read.journal : null;
  }

  /** Forgets that `version` was reverted here, so it may be tried again. True when it was marked. */
  async forgetBad(version: string): Promise<boolean> {
    const read = await readJournal(this.layout.journal);
    if (read.kind !== 'ok') return false;
    const bad = read.journal.bad.filter((b) => compareVersions(b.version, version) !== 0);
    if (bad.length === read.journal.bad.length) return false;
    await writeJournal(this.layout.journal, { ...read.journal, bad });
    return true;
  }

  // -------------------------------------------------------------------------------------------
  // The swap

  /**
   * Swaps the verified tree in `staging` (a directory directly under the root) into `current`:
   * journal `swapping` first, then previous → trash, current → previous, staging → current, each
   * saved before it is done, then journal `trial`. On an error in this process the swap is undone
   * (this process still runs `from`) and the error rethrown.
   */
  async swap(journal: Journal, install: InstallRecord): Promise<Journal> {
    const layout = this.layout;
    const staging = path.join(layout.root, install.staging);
    let j = await writeJournal(layout.journal, { ...journal, state: 'swapping', install: { ...install, step: 'move-previous' } });
    try {
      await this.step('journal-swapping');
      if (await exists(layout.previous)) await renameDurable(layout.previous, path.join(layout.root, `trash-${randomBytes(6).toString('hex')}`));
      await this.step('moved-previous');
      j = await writeJournal(layout.journal, { ...j, install: { ...install, step: 'move-current' } });
      await renameDurable(layout.current, layout.previous);
      await this.step('moved-current');
      j = await writeJournal(layout.journal, { ...j, install: { ...install, step: 'move-staging' } });
      await renameDurable(staging, layout.current);
      await this.step('moved-staging');
      j = await writeJournal(layout.journal, { ...j, state: 'trial', current: install.to, install: { ...install, step: null } });
      await this.step('journal-trial');
      return j;
    } catch (err) {
      this.log.error({ err: (err as Error).message }, 'upgrade: the swap failed; undoing it');
      await this.undoSwap(j, install);
      throw err;
    }
  }

  /** Puts `from` back in `current` after a swap that failed in this process (no restart happened). */
  private async undoSwap(journal: Journal, install: InstallRecord): Promise<void> {
    const layout = this.layout;
    const current = await treeVersion(layout.current);
    if (current !== null && compareVersions(current, install.to) === 0) {
      await renameDurable(layout.current, path.join(layout.root, `failed-${install.to}-${randomBytes(6).toString('hex')}`));
    }
    if ((await treeVersion(layout.current)) === null && (await treeVersion(layout.previous)) !== null) await renameDurable(layout.previous, layout.current);
    const restored = await treeVersion(layout.current);
    const last: LastOutcome = { outcome: 'abandoned', version: install.to, from: install.from, reason: 'the swap failed', at: this.opts.clock.now() };
    await writeJournal(layout.journal, { ...journal, state: 'idle', current: restored, install: null, last });
    await this.cleanTransient();
  }

  // -------------------------------------------------------------------------------------------
  // Boot

  /**
   * Resolves whatever an interrupted install or revert left (to the old or the new tree, never a
   * broken one), counts a boot attempt of a version on trial and reverts it past the limit.
   *
   * `fallback`: this guard runs from the previous tree because the current tree's guard could not
   * run at all — a version on trial is reverted at once.
   */
  async bootGuard(opts: { fallback?: boolean } = {}): Promise<BootOutcome> {
    const layout = this.layout;
    if (!(await exists(layout.root))) return { state: 'no-install', current: null, action: 'none' };
    const read = await readJournal(layout.journal);
    if (read.kind !== 'ok') {
      if (read.kind === 'corrupt') {
        const aside = `${layout.journal}.corrupt-${this.opts.clock.now()}`;
        this.log.error({ error: read.error, aside }, 'upgrade: the journal is unreadable; keeping it aside and starting from the trees on disk');
        await fs.promises.rename(layout.journal, aside);
      }
      if ((await treeVersion(layout.current)) === null && (await treeVersion(layout.previous)) !== null) await renameDurable(layout.previous, layout.current);
      const current = await treeVersion(layout.current);
      if (current === null) return { state: 'no-install', current: null, action: 'none' };
      await fs.promises.mkdir(layout.stateDir, { recursive: true, mode: 0o700 });
      await writeJournal(layout.journal, emptyJournal(current));
      await this.cleanTransient();
      return { state: 'idle', current, action: 'initialised' };
    }
    const journal = read.journal;
    switch (journal.state) {
      case 'idle': {
        const current = await treeVersion(layout.current);
        if (current === null && (await treeVersion(layout.previous)) !== null) {
          // nothing this code does leaves this; restore rather than fail to start
          await renameDurable(layout.previous, layout.current);
          const restored = await treeVersion(layout.current);
          await writeJournal(layout.journal, { ...journal, current: restored });
          return { state: 'idle', current: restored, action: 'swap-rolled-back', reason: 'current was missing; previous restored' };
        }
        if (current !== journal.current) await writeJournal(layout.journal, { ...journal, current });
        await this.cleanTransient();
        return { state: 'idle', current, action: 'cleaned' };
      }
      case 'swapping':
        return this.resolveSwap(journal, opts);
      case 'reverting':
        return this.finishRevert(journal);
      case 'trial': {
        const install = journal.install!;
        const current = await treeVersion(layout.current);
        if (current === null || compareVersions(current, install.to) !== 0) {
          const j = await writeJournal(layout.journal, {
            ...journal,
            state: 'reverting',
            install: { ...install, revertReason: `${layout.current} no longer held ${install.to}` },
          });
          return this.finishRevert(j);
        }
        if (opts.fallback) return this.revert(journal, `the boot guard of ${install.to} could not run`);
        const id = this.opts.invocationId ?? null;
        if (id !== null && install.invocation === id) return { state: 'trial', current, action: 'none', attempts: install.attempts };
        // the attempt before this start had its health window and did not commit in it (it hung, wedged
        // or crashed late): revert now rather than give it another window
        const age = this.attemptAgeMs(install);
        if (age !== null && age > this.healthTimeoutMs) {
          return this.revert(
            journal,
            `${install.to} did not reach the cloud within ${Math.round(this.healthTimeoutMs / 1000)} s of booting (${Math.floor(age / 1000)} s; reverted by the boot guard)`,
          );
        }
        const attempts = install.attempts + 1;
        if (attempts > this.maxBootAttempts) return this.revert(journal, `${install.to} did not reach the cloud in ${this.maxBootAttempts} boot attempts`);
        const boot = { id: this.machine.bootId() ?? 'unknown', monotonicMs: this.machine.monotonicMs(), at: this.opts.clock.now() };
        await writeJournal(layout.journal, { ...journal, install: { ...install, attempts, invocation: id, boot } });
        await this.step('boot-counted');
        return { state: 'trial', current, action: 'counted', attempts };
      }
    }
  }

  /** The version on trial reached the cloud: it becomes the committed one, and the rollback floor follows it. */
  async commit(): Promise<Journal | null> {
    const read = await readJournal(this.layout.journal);
    if (read.kind !== 'ok' || read.journal.state !== 'trial') return null;
    const journal = read.journal;
    const install = journal.install!;
    const floor = install.allowDowngrade || journal.floor === null || compareVersions(install.to, journal.floor) > 0 ? install.to : journal.floor;
    const last: LastOutcome = { outcome: 'committed', version: install.to, from: install.from, reason: 'the cloud was reached', at: this.opts.clock.now() };
    const j = await writeJournal(this.layout.journal, { ...journal, state: 'idle', current: install.to, floor, install: null, last });
    this.log.info({ version: install.to, from: install.from, floor }, 'upgrade: committed');
    await this.step('committed');
    return j;
  }

  /** Reverts the version on trial, if one is (the health timer ran out). */
  async revertTrial(reasonOf: (to: string) => string): Promise<BootOutcome | null> {
    const read = await readJournal(this.layout.journal);
    if (read.kind !== 'ok' || read.journal.state !== 'trial') return null;
    return this.revert(read.journal, reasonOf(read.journal.install!.to));
  }

  /** An interrupted swap: both renames done → the new version starts its trial; otherwise back to `from`. */
  private async resolveSwap(journal: Journal, opts: { fallback?: boolean }): Promise<BootOutcome> {
    const layout = this.layout;
    const install = journal.install!;
    const staging = path.join(layout.root, install.staging);
    const current = await treeVersion(layout.current);
    if (current !== null && compareVersions(current, install.to) === 0) {
      // the last rename happened; only the journal lagged
      await writeJournal(layout.journal, { ...journal, state: 'trial', current, install: { ...install, step: null } });
      this.log.warn({ to: install.to }, 'upgrade: the swap had finished before the interruption; the new version starts its trial');
      const counted = await this.bootGuard(opts);
      return { ...counted, action: counted.action === 'counted' ? 'swap-completed' : counted.action };
    }
    if (current === null) {
      // current → previous happened, staging → current did not: put the old tree back
      if ((await treeVersion(layout.previous)) !== null) await renameDurable(layout.previous, layout.current);
      else if ((await treeVersion(staging)) !== null) {
        // nothing else can run: the staged tree was verified before the swap began
        await renameDurable(staging, layout.current);
        await writeJournal(layout.journal, { ...journal, state: 'trial', current: install.to, install: { ...install, step: null } });
        return this.bootGuard(opts);
      }
    }
    await fs.promises.rm(staging, { recursive: true, force: true });
    const restored = await treeVersion(layout.current);
    const last: LastOutcome = {
      outcome: 'abandoned',
      version: install.to,
      from: install.from,
      reason: 'interrupted before the swap finished',
      at: this.opts.clock.now(),
    };
    await writeJournal(layout.journal, { ...journal, state: 'idle', current: restored, install: null, last });
    await this.cleanTransient();
    this.log.warn({ to: install.to, current: restored }, 'upgrade: an interrupted swap was rolled back');
    return { state: 'idle', current: restored, action: 'swap-rolled-back' };
  }

  /** Takes the version on trial out and puts the previous tree back; marks the version bad. */
  private async revert(journal: Journal, reason: string): Promise<BootOutcome> {
    const j = await writeJournal(this.layout.journal, { ...journal, state: 'reverting', install: { ...journal.install!, revertReason: reason } });
    await this.step('journal-reverting');
    return this.finishRevert(j);
  }

  private async finishRevert(journal: Journal): Promise<BootOutcome> {
    const layout = this.layout;
    const install = journal.install!;
    const reason = install.revertReason ?? 'reverted';
    let current = await treeVersion(layout.current);
    if (current !== null && compareVersions(current, install.to) === 0) {
      if ((await treeVersion(layout.previous)) === null) {
        // nothing to go back to: keep the new version rather than leave no tree at all
        this.log.error({ to: install.to }, 'upgrade: no previous tree to revert to; keeping the new version');
        const last: LastOutcome = {
          outcome: 'committed',
          version: install.to,
          from: install.from,
          reason: `kept: no previous tree to revert to (${reason})`,
          at: this.opts.clock.now(),
        };
        await writeJournal(layout.journal, { ...journal, state: 'idle', current, install: null, last });
        return { state: 'idle', current, action: 'none', reason: last.reason };
      }
      await renameDurable(layout.current, path.join(layout.root, `failed-${install.to}-${randomBytes(6).toString('hex')}`));
      await this.step('revert-moved-current');
      current = null;
    }
    if (current === null && (await treeVersion(layout.previous)) !== null) {
      await renameDurable(layout.previous, layout.current);
      await this.step('revert-moved-previous');
    }
    current = await treeVersion(layout.current);
    const now = this.opts.clock.now();
    const bad = [
      ...journal.bad.filter((b) => compareVersions(b.version, install.to) !== 0),
      { version: install.to, sha256: install.sha256, reason, at: now },
    ].slice(-64);
    const last: LastOutcome = { outcome: 'reverted', version: install.to, from: install.from, reason, at: now };
    await writeJournal(layout.journal, { ...journal, state: 'idle', current, install: null, bad, last });
    await this.step('reverted');
    await this.cleanTransient();
    this.log.warn({ version: install.to, current, reason }, 'upgrade: reverted');
    return { state: 'idle', current, action: 'reverted', reason };
  }

  /** Removes staging, trash and failed trees and partial downloads (only with no install in flight). */
  async cleanTransient(): Promise<void> {
    const layout = this.layout;
    let names: string[];
    try {
      names = await fs.promises.readdir(layout.root);
    } catch {
      return;
    }
    const gone = names.filter((n) => TRANSIENT_PREFIXES.some((p) => n.startsWith(p)));
    for (const name of gone) await fs.promises.rm(path.join(layout.root, name), { recursive: true, force: true });
    await fs.promises.rm(layout.downloads, { recursive: true, force: true });
    if (gone.length) fsyncDir(layout.root);
  }
}
