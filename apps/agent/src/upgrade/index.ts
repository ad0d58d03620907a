/**
 * The agent's upgrade pipeline (spec 2 §4.4; docs/agent-upgrades.md).
 *
 * ## Wiring it into the daemon
 *
 * ```ts
 * const upgrades = new UpgradeManager({
 *   root: config.installRoot,                 // /opt/vend-agent: current/, previous/, upgrade/journal.json
 *   host,                                     // the UpgradeHost below
 *   clock,                                    // the daemon's Clock
 *   releasePublicKey: config.releasePublicKey, // text of the fleet's Ed25519 public key, or null (never install)
 *   artifactPrefix: config.artifactPrefix,     // e.g. https://artifacts.example.com/agent/ (trailing slash), or null
 *   invocationId: config.invocationId,         // systemd's $INVOCATION_ID (shared with the ExecStartPre boot guard), or null
 *   log: logger,
 * });
 * await upgrades.onBoot();   // first, before the loops: finishes or reverts an interrupted install and,
 *                            // when a new version is on trial, arms the 300 s health timer
 * upgrades.start();          // checks 60 s later, then every 21,600 s (180 s after a deferral)
 * await upgrades.checkNow(); // on demand (control channel, CLI)
 * upgrades.cloudReached();   // optional: after any authenticated cloud call succeeded (commits a trial early)
 * upgrades.stop();           // on SIGTERM: stops timers, aborts a download in flight
 * ```
 *
 * `UpgradeHost` is what the pipeline needs from the daemon:
 *
 * | member | what the daemon provides |
 * |---|---|
 * | `runningVersion()` | the version it runs (the packaged tree's package.json/VERSION); must equal `<root>/current/VERSION` or nothing installs |
 * | `quiet()` | `{vendLockFree, leased, spoolDepth, secondsSinceActivity}`: the VendLock's `isFree`, leased dispense commands, spool depth, seconds since the last vend/lease/customer activity |
 * | `fetchOffer()` | `GET /cabinet/upgrade?agentVersion=<running>`: the `data` (an offer or null); throw on a transport error |
 * | `reportDeferral(r)`, `reportBlocked(r)`, `clearReports()` | keep the latest report and send it as `deferring` / `blocked` in every heartbeat until cleared (null when cleared) |
 * | `holdVendLock()` | take the dispenser's vend lock now if free (`holdVendLock(dispenser.lock)` from vend-hold.ts), else null; held through the swap and `restart()` until exit, so `stop()` must not wait for it |
 * | `restart()` | stop the daemon the SIGTERM way and exit; systemd (`Restart=always`) starts `<root>/current` again |
 * | `cloudReachable()` | send a heartbeat now (it reports the running version) and resolve true on a 2xx |
 *
 * The journal, the rollback floor and the reverted ("bad") versions live in `<root>/upgrade/journal.json`;
 * `vend-agent upgrade status` prints it, `vend-agent upgrade boot-guard` is systemd's ExecStartPre.
 */
export { UpgradeManager, UPGRADE_STEPS } from './manager.ts';
export { DEFAULT_UPGRADE_LIMITS } from './limits.ts';
export { launcherSelfTest } from './staged-tree.ts';
export { InstallRoot, systemMachineBoot, DEFAULT_HEALTH_TIMEOUT_MS } from './trees.ts';
export type { InstallRootOptions, MachineBoot, TrialCheck } from './trees.ts';
export type { UpgradeHost, UpgradeLogger, UpgradeManagerOptions, UpgradeStep, CheckOutcome, BootOutcome } from './manager.ts';
export type { UpgradeLimits } from './limits.ts';
export { preflight, notQuietReason, REFUSAL_CODES, REFUSAL_STEP } from './preflight.ts';
export type { QuietState, PreflightContext, PreflightDecision, RefusalCode } from './preflight.ts';
export { downloadArtifact, undiciArtifactFetch, DownloadError, DEFAULT_DOWNLOAD_LIMITS, downloadDeadlineMs } from './download.ts';
export type { ArtifactFetch, ArtifactResponse, DownloadLimits, DownloadParams } from './download.ts';
export { extractRelease, checkMemberPath, ArchiveError, DEFAULT_EXTRACT_LIMITS } from './extract.ts';
export type { ExtractLimits, ExtractResult } from './extract.ts';
export { readJournal as readUpgradeJournal, Journal as UpgradeJournal, JOURNAL_STATES as UPGRADE_JOURNAL_STATES } from './journal.ts';
export type { JournalState as UpgradeJournalState, InstallRecord, BadVersion, LastOutcome } from './journal.ts';
export { layoutOf, treeVersion, releaseTreeOfBundle, LAUNCHER, VERSION_FILE } from './layout.ts';
export type { Layout } from './layout.ts';
export { renameDurable, syncTree, fsyncPath } from './fs-atomic.ts';
export { holdVendLock } from './vend-hold.ts';
export { upgradeCommand, upgradeMain, UPGRADE_EXIT_CODES, DEFAULT_INSTALL_ROOT } from './cli.ts';
export type { UpgradeCliDeps } from './cli.ts';
