import fs from 'node:fs';
import path from 'node:path';
import { compareVersions, parseReleasePublicKey, releaseUnpackCap } from '@vend/protocol';
import type { BlockedReport, Clock, DeferralReport, UpgradeOffer } from '@vend/protocol';
import { DownloadError, downloadArtifact, undiciArtifactFetch } from './download.ts';
import { ThrottledProgress, progressLine } from './progress.ts';
import type { DownloadProgress } from './progress.ts';
import type { ArtifactFetch } from './download.ts';
import { ArchiveError, extractRelease } from './extract.ts';
import { fsyncPath, syncTree } from './fs-atomic.ts';
import type { SyncKind } from './fs-atomic.ts';
import type { InstallRecord, Journal } from './journal.ts';
import { treeVersion } from './layout.ts';
import type { Layout } from './layout.ts';
import { upgradeLimits } from './limits.ts';
import type { UpgradeLimits, UpgradeLimitsOverride } from './limits.ts';
import { REFUSAL_STEP, notQuietReason, preflight } from './preflight.ts';
import type { QuietState, RefusalCode } from './preflight.ts';
import { Refusal } from './refusal.ts';
import { ReportCount } from './report-count.ts';
import { launcherSelfTest, verifyStagedTree } from './staged-tree.ts';
import type { SelfTest } from './staged-tree.ts';
import { InstallRoot, silentUpgradeLogger } from './trees.ts';
import type { BootOutcome, MachineBoot, UpgradeLogger, UpgradeStep } from './trees.ts';
import { TrialHealth } from './trial-health.ts';

export { UPGRADE_STEPS } from './trees.ts';
export type { BootOutcome, UpgradeLogger, UpgradeStep } from './trees.ts';

/** What the upgrade pipeline needs from the daemon (see index.ts for how to wire it). */
export interface UpgradeHost {
  /** The version this process runs (the VERSION of the tree it was started from). */
  runningVersion(): string;
  /** How busy the cabinet is now (spec 2 §4.4 step 7). */
  quiet(): QuietState;
  /** `GET /cabinet/upgrade`: the offer for this cabinet, or null. Used by the schedule and `checkNow()`. */
  fetchOffer(): Promise<unknown>;
  /** Carry this deferral in the next heartbeats (replaces any earlier report). */
  reportDeferral(report: DeferralReport): void;
  /** Carry this blocked report in the next heartbeats (replaces any earlier report). */
  reportBlocked(report: BlockedReport): void;
  /** Stop carrying deferral and blocked reports: the condition has ended. */
  clearReports(): void;
  /**
   * Takes the cabinet's vend lock now if it is free — checked and taken in the same turn, so nothing
   * can start a dispense in between — or answers null. The pipeline takes it at its last quiet check
   * and keeps it through the swap and `restart()` until the process exits: a walk-up meanwhile is
   * refused as busy (409 on the control channel) and remote drops wait, pending, for the new version.
   * `release()` gives it back when the install does not go ahead.
   */
  holdVendLock(): { release(): void } | null;
  /** Stop the daemon (SIGTERM path) and exit, so the service manager starts `<root>/current` again. The vend lock may be held by the pipeline. */
  restart(): void;
  /** An authenticated call to the cloud that reports the running version (a heartbeat) succeeded. */
  cloudReachable(): Promise<boolean>;
}

export interface UpgradeManagerOptions {
  /** The install root (`/opt/vend-agent`): `current/`, `previous/`, `upgrade/journal.json`. */
  root: string;
  host: UpgradeHost;
  clock: Clock;
  /** The installed release-signing public key (base64 or hex text), or null: nothing is ever installed. */
  releasePublicKey: string | null;
  /** The trusted artifact prefix (canonical https, trailing `/`), or null: no URL is trusted. */
  artifactPrefix: string | null;
  /** How artifacts are fetched (default: undici with the system CAs). */
  fetch?: ArtifactFetch;
  /** Free bytes on the filesystem holding `dir` (default: `fs.statfs`). */
  freeBytes?: (dir: string) => Promise<number>;
  /** Runs the staged tree once before the swap (default: `bin/vend-agent --version` must print the version). */
  selfTest?: SelfTest;
  /** fsyncs one file or directory of the staged tree before the swap (default: open, fsync, close; a seam for tests). */
  fsync?: (target: string, kind: SyncKind) => Promise<void>;
  /**
   * The service manager's id of this start (systemd's `$INVOCATION_ID`): the boot guard run by
   * ExecStartPre and the daemon's `onBoot()` share it, so one start counts one boot attempt. Null:
   * every `bootGuard()` counts.
   */
  invocationId?: string | null;
  /** The kernel boot id and monotonic clock the boot guard stamps attempts with (default: the system's). */
  machine?: MachineBoot;
  /** The architecture this agent runs on (default `process.arch`): only its signed artifact is installed. */
  arch?: string;
  log?: UpgradeLogger;
  onStep?: (step: UpgradeStep) => void | Promise<void>;
  limits?: UpgradeLimitsOverride;
}

/** What one `check()` came to. */
export type CheckOutcome =
  | { result: 'none' }
  | { result: 'current'; version: string }
  | { result: 'refused'; step: number; code: RefusalCode; reason: string; version: string | null }
  | { result: 'blocked'; report: BlockedReport; reason: string }
  | { result: 'deferred'; report: DeferralReport }
  | { result: 'installed'; version: string; from: string }
  | { result: 'busy'; reason: string }
  | { result: 'error'; reason: string };

/** What `UpgradeManager.progress()` answers (the control channel's GET /v1/upgrade/progress). */
export type UpgradeProgress =
  { state: 'idle' } | { state: 'checking' } | ({ state: 'downloading' } & DownloadProgress) | { state: 'installing'; version: string };

/** The daemon logs download progress at most this often (and at the start and the end). */
export const DOWNLOAD_LOG_INTERVAL_MS = 30_000;

/** Space left free after extraction, beyond the tree itself. */
const EXTRACT_MARGIN_BYTES = 16 * 1024 * 1024;

async function statfsFree(dir: string): Promise<number> {
  const stats = await fs.promises.statfs(dir);
  return Number(stats.bavail) * Number(stats.bsize);
}

/**
 * The agent side of signed releases (spec 2 §4.4): checks an offer step by step, downloads, extracts
 * beside the running tree, swaps by renames under a journal, restarts, and on the next start either
 * commits the new version (the cloud was reached) or reverts to the previous tree.
 */
export class UpgradeManager {
  private readonly layout: Layout;
  /** The on-disk state machine (journal, swap, boot guard, commit, revert). */
  readonly trees: InstallRoot;
  private readonly limits: UpgradeLimits;
  private readonly publicKey: Uint8Array | null;
  private readonly log: UpgradeLogger;
  private readonly fetch: ArtifactFetch;
  private readonly freeBytes: (dir: string) => Promise<number>;
  private readonly selfTest: SelfTest;
  private readonly reports: ReportCount;
  private readonly health: TrialHealth;
  private busy: string | null = null;
  /** What a check is doing now, for `progress()` (the control channel's GET /v1/upgrade/progress). */
  private phase: UpgradeProgress = { state: 'idle' };
  private downloadStartedAt = 0;
  private scheduleTimer: unknown = null;
  private stopped = false;
  private abort = new AbortController();

  constructor(private readonly opts: UpgradeManagerOptions) {
    this.limits = upgradeLimits(opts.limits);
    this.log = opts.log ?? silentUpgradeLogger;
    this.trees = new InstallRoot({
      root: opts.root,
      clock: opts.clock,
      maxBootAttempts: this.limits.maxBootAttempts,
      invocationId: opts.invocationId ?? null,
      healthTimeoutMs: this.limits.healthTimeoutMs,
      ...(opts.machine ? { machine: opts.machine } : {}),
      log: this.log,
      ...(opts.onStep ? { onStep: opts.onStep } : {}),
    });
    this.layout = this.trees.layout;
    this.publicKey = opts.releasePublicKey === null ? null : parseReleasePublicKey(opts.releasePublicKey);
    if (opts.releasePublicKey !== null && this.publicKey === null)
      this.log.error({}, 'upgrade: the configured release public key is not a usable Ed25519 key; nothing will be installed');
    this.fetch = opts.fetch ?? undiciArtifactFetch();
    this.freeBytes = opts.freeBytes ?? statfsFree;
    this.selfTest = opts.selfTest ?? launcherSelfTest;
    this.reports = new ReportCount(opts.clock);
    this.health = new TrialHealth({
      clock: opts.clock,
      timeoutMs: this.limits.healthTimeoutMs,
      pollMs: this.limits.healthPollMs,
      log: this.log,
      cloudReachable: () => opts.host.cloudReachable(),
      commit: () => this.cloudReached(),
      trees: this.trees,
      restart: () => opts.host.restart(),
    });
  }

  get root(): string {
    return this.layout.root;
  }

  // -------------------------------------------------------------------------------------------
  // Checking an offer (spec 2 §4.4, in order)

  /** Fetches the offer from the cloud (host.fetchOffer) and checks it. */
  async checkNow(): Promise<CheckOutcome> {
    let offer: unknown;
    try {
      offer = await this.opts.host.fetchOffer();
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'upgrade: could not fetch the offer');
      return { result: 'error', reason: `could not fetch the offer: ${(err as Error).message}` };
    }
    return this.check(offer);
  }

  /** Runs the pipeline on one offer (as `/cabinet/upgrade` answered it). One check at a time. */
  async check(offer: unknown): Promise<CheckOutcome> {
    if (this.busy) return { result: 'busy', reason: this.busy };
    if (this.stopped) return { result: 'busy', reason: 'stopped' };
    this.busy = 'checking an offer';
    this.phase = { state: 'checking' };
    try {
      const outcome = await this.checkInner(offer);
      this.applyReports(outcome);
      this.log.info({ outcome }, `upgrade: ${outcome.result}`);
      return outcome;
    } catch (err) {
      this.log.error({ err: (err as Error).stack ?? String(err) }, 'upgrade: check failed');
      return { result: 'error', reason: (err as Error).message };
    } finally {
      this.busy = null;
      this.phase = { state: 'idle' };
    }
  }

  /** What the pipeline is doing now: idle, checking an offer, downloading (bytes so far of the signed size), or installing. */
  progress(): UpgradeProgress {
    const p = this.phase;
    return p.state === 'downloading' ? { ...p, elapsedMs: Math.max(0, this.opts.clock.now() - this.downloadStartedAt) } : p;
  }

  private async checkInner(offer: unknown): Promise<CheckOutcome> {
    if (offer === null || offer === undefined) return { result: 'none' };
    const journal = await this.trees.load();
    if (journal && journal.state !== 'idle') return { result: 'busy', reason: `an install is in state ${journal.state}` };
    const running = this.opts.host.runningVersion();
    const decision = preflight(offer, {
      running,
      arch: this.opts.arch ?? process.arch,
      publicKey: this.publicKey,
      artifactPrefix: this.opts.artifactPrefix,
      floor: journal?.floor ?? null,
      bad: journal?.bad ?? [],
      quiet: this.opts.host.quiet(),
      quietSeconds: this.limits.quietSeconds,
    });
    switch (decision.kind) {
      case 'refused':
        return { result: 'refused', step: decision.step, code: decision.code, reason: decision.reason, version: decision.version };
      case 'current':
        return { result: 'current', version: decision.offer.version };
      case 'blocked':
        return { result: 'blocked', report: this.reports.blocked(decision.version, decision.minFrom), reason: decision.reason };
      case 'deferred':
        return { result: 'deferred', report: this.reports.deferring(decision.version, decision.reason) };
      case 'proceed':
        break;
    }
    try {
      return await this.install(decision.offer, running, journal);
    } catch (err) {
      if (err instanceof Refusal) {
        await this.trees.cleanTransient();
        return { result: 'refused', step: REFUSAL_STEP[err.code], code: err.code, reason: err.message, version: decision.offer.version };
      }
      throw err;
    }
  }

  /** Steps 8–10: disk room, download and digest, extraction, verification, journal, swap, restart. */
  private async install(offer: UpgradeOffer, running: string, loaded: Journal | null): Promise<CheckOutcome> {
    const layout = this.layout;
    const currentVersion = await treeVersion(layout.current);
    if (currentVersion === null || compareVersions(currentVersion, running) !== 0) {
      throw new Refusal(
        'not-running-from-root',
        `${layout.current} holds ${currentVersion ?? 'no release tree'}, not the running ${running}: this agent was not started from its install root`,
      );
    }
    const journal = loaded ?? (await this.trees.ensure(currentVersion));
    await this.trees.cleanTransient();

    // 8. disk room: the download, the most the signed size lets it unpack to, and some margin
    const unpackCap = releaseUnpackCap(offer.size);
    const free = await this.freeBytes(layout.root);
    const need = Math.max(this.limits.diskFactor * offer.size, offer.size + unpackCap + EXTRACT_MARGIN_BYTES);
    if (free < need)
      throw new Refusal(
        'no-disk-room',
        `${free} bytes free under ${layout.root}; ${need} needed (the ${offer.size}-byte artifact, the ${unpackCap} bytes it may unpack to, ${EXTRACT_MARGIN_BYTES} spare)`,
      );

    // 9. download (signed size, deadline, digest) and extraction into a fresh 0700 staging directory
    await fs.promises.mkdir(layout.downloads, { recursive: true, mode: 0o700 });
    const file = path.join(layout.downloads, `${offer.version}.tar.gz.part`);
    let first = true;
    // progress for the control channel, and for the log at a low rate (a line per 30 s, and the end)
    this.downloadStartedAt = this.opts.clock.now();
    const logged = new ThrottledProgress(DOWNLOAD_LOG_INTERVAL_MS);
    const snapshot = (received: number): DownloadProgress => ({
      version: offer.version,
      received,
      total: offer.size,
      elapsedMs: Math.max(0, this.opts.clock.now() - this.downloadStartedAt),
    });
    this.phase = { state: 'downloading', ...snapshot(0) };
    this.log.info({ version: offer.version, url: offer.url, size: offer.size, arch: offer.arch ?? null }, `upgrade: ${progressLine(snapshot(0))}`);
    try {
      await downloadArtifact({
        url: offer.url,
        size: offer.size,
        sha256: offer.sha256,
        dest: file,
        fetch: this.fetch,
        clock: this.opts.clock,
        limits: this.limits.download,
        signal: this.abort.signal,
        onProgress: async (received) => {
          const now = snapshot(received);
          this.phase = { state: 'downloading', ...now };
          const line = logged.next(now);
          if (line !== null) this.log.info({ version: offer.version, received, size: offer.size }, `upgrade: ${line}`);
          if (first) {
            first = false;
            await this.trees.step('download');
          }
        },
      });
    } catch (err) {
      if (err instanceof DownloadError) throw new Refusal(err.code, err.message);
      throw err;
    }
    this.phase = { state: 'installing', version: offer.version };
    await this.trees.step('downloaded');

    const staging = await fs.promises.mkdtemp(path.join(layout.root, `staging-${offer.version}-`));
    let swapped = false;
    let installed = false;
    let held: { release(): void } | null = null;
    try {
      let firstMember = true;
      try {
        const freeNow = await this.freeBytes(layout.root);
        await extractRelease(file, staging, {
          // bounded by what was signed: the cap follows the signed size (and never exceeds the configured limits)
          limits: {
            ...this.limits.extract,
            maxUnpackedBytes: Math.min(this.limits.extract.maxUnpackedBytes, unpackCap),
            maxStreamBytes: Math.min(this.limits.extract.maxStreamBytes, unpackCap),
          },
          // the headers say how much the tree takes: refuse before writing when it cannot fit
          onScanned: (bytes) => {
            if (bytes + EXTRACT_MARGIN_BYTES > freeNow) {
              throw new Refusal(
                'no-disk-room',
                `the release unpacks to ${bytes} bytes; ${freeNow} bytes free under ${layout.root} (keeping ${EXTRACT_MARGIN_BYTES} spare)`,
              );
            }
          },
          onMember: () => {
            if (firstMember) {
              firstMember = false;
              void this.trees.step('extract');
            }
          },
        });
      } catch (err) {
        if (err instanceof ArchiveError) throw new Refusal('bad-archive', err.message);
        throw err;
      }
      // every file and directory of the staged tree on the medium before the journal says swapping
      // (renameDurable makes only the renames durable; the files they move must already be)
      await syncTree(staging, this.opts.fsync ?? fsyncPath);
      await this.trees.step('extracted');
      await verifyStagedTree(staging, offer.version, this.selfTest, this.limits.selfTestTimeoutMs);
      await this.trees.step('self-tested');

      // the cabinet may have woken up while we downloaded: check again right before the swap, and take
      // the vend lock in the same turn; it stays held through the swap and the restart
      const busy = notQuietReason(this.opts.host.quiet(), this.limits.quietSeconds);
      const hold = busy === null ? this.opts.host.holdVendLock() : null;
      if (hold === null) {
        const reason = busy ?? 'the vend lock is held (a dispense is starting)';
        return { result: 'deferred', report: this.reports.deferring(offer.version, reason) };
      }
      held = hold;

      // 10. journal before the swap, then the renames, each saved before it is done
      const install: InstallRecord = {
        from: running,
        to: offer.version,
        sha256: offer.sha256,
        allowDowngrade: offer.allowDowngrade,
        staging: path.basename(staging),
        step: 'move-previous',
        attempts: 0,
        invocation: null,
        startedAt: this.opts.clock.now(),
        boot: null,
        revertReason: null,
      };
      swapped = true;
      try {
        await this.trees.swap(journal, install);
      } catch (err) {
        throw new Refusal('install-failed', `the swap failed and was undone: ${(err as Error).message}`);
      }
      installed = true;
    } finally {
      if (!installed) held?.release();
      await fs.promises.rm(file, { force: true });
      if (!swapped) await this.trees.cleanTransient();
    }
    await this.trees.cleanTransient();
    // the vend lock stays held: the process exits with it, and the new version starts with it free
    this.log.info({ from: running, to: offer.version }, 'upgrade: swapped; restarting into the new version (vend lock held until exit)');
    this.opts.host.restart();
    return { result: 'installed', version: offer.version, from: running };
  }

  private applyReports(outcome: CheckOutcome): void {
    switch (outcome.result) {
      case 'deferred':
        this.opts.host.reportDeferral(outcome.report);
        return;
      case 'blocked':
        this.opts.host.reportBlocked(outcome.report);
        return;
      case 'busy':
      case 'error':
        return; // nothing learnt: keep what is being reported
      case 'none':
      case 'current':
      case 'refused':
      case 'installed':
        this.reports.reset();
        this.opts.host.clearReports();
        return;
    }
  }

  // -------------------------------------------------------------------------------------------
  // The schedule

  /** Checks `firstCheckDelayMs` after start, then every 21,600 s (sooner again after a deferral). */
  start(): void {
    this.stopped = false;
    if (this.abort.signal.aborted) this.abort = new AbortController();
    this.schedule(this.limits.firstCheckDelayMs);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.scheduleTimer !== null) this.opts.clock.clearTimeout(this.scheduleTimer);
    this.scheduleTimer = this.opts.clock.setTimeout(() => {
      this.scheduleTimer = null;
      void this.checkNow().then((o) => {
        if (o.result !== 'installed') this.schedule(o.result === 'deferred' ? this.limits.deferralRetryMs : this.limits.checkIntervalMs);
      });
    }, ms);
  }

  /** Stops the schedule and the health timer, and aborts a download in flight. */
  stop(): void {
    this.stopped = true;
    this.abort.abort();
    if (this.scheduleTimer !== null) this.opts.clock.clearTimeout(this.scheduleTimer);
    this.scheduleTimer = null;
    this.health.disarm();
  }

  // -------------------------------------------------------------------------------------------
  // Boot: the guard and the health timer

  /**
   * The daemon calls this once at start, before its loops: runs the boot guard and, when a new
   * version is on trial, arms the health timer — `cloudReachable()` every 3 s; reached → commit;
   * not reached within 300 s → revert and `restart()`.
   */
  async onBoot(): Promise<BootOutcome> {
    const outcome = await this.trees.bootGuard();
    if (outcome.state === 'trial') this.health.arm();
    return outcome;
  }

  /** The boot guard alone (filesystem only): what `vend-agent upgrade boot-guard` runs. */
  bootGuard(opts: { fallback?: boolean } = {}): Promise<BootOutcome> {
    return this.trees.bootGuard(opts);
  }

  /** The daemon may call this when any authenticated cloud call succeeded: commits a version on trial. */
  async cloudReached(): Promise<boolean> {
    const committed = await this.trees.commit();
    if (!committed) return false;
    this.health.disarm();
    this.reports.reset();
    this.opts.host.clearReports();
    return true;
  }

  /** The journal as it is on disk (for `vend-agent upgrade status` and the daemon's status page). */
  status(): Promise<Journal | null> {
    return this.trees.status();
  }
}
