import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { CONFIG_DEFAULTS, FEATURE_DEFAULTS } from '@vend/protocol';
import type { BlockedReport, Clock, ConfigBlock, ControlPlanogram, ControlStatus, DeferralReport, GoodsData, RevertReport, VmcBoardInfo } from '@vend/protocol';
import type { AgentConfig } from './config.ts';
import { mask } from './config.ts';
import { Ads } from './ads/ads.ts';
import { Prizes } from './prizes/prizes.ts';
import { sleep } from './cloud/backoff.ts';
import type { RandomSource } from './cloud/backoff.ts';
import { CloudClient } from './cloud/client.ts';
import { StateCredentialStore } from './cloud/credentials.ts';
import { Enroller } from './cloud/enrolment.ts';
import { CloudLoops } from './cloud/loops.ts';
import { cloudStatusOf } from './cloud/status-view.ts';
import type { EnrolmentStatus } from './cloud/enrolment.ts';
import { cloudTransport } from './cloud/http.ts';
import type { HttpTransport } from './cloud/http.ts';
import { networkControl } from './control/network-api.ts';
import { startControlServer } from './control/server.ts';
import type { ControlServer } from './control/server.ts';
import { DispenseBook } from './spool/book.ts';
import { Dispenser } from './spool/dispenser.ts';
import { JournalRecord } from './spool/journal.ts';
import { JsonlJournal } from './state/jsonl-journal.ts';
import { agentClock, elapsedNow } from './state/monotonic.ts';
import { DiskWatch, VEND_ROOM_BYTES, freeBytes, isDiskFull, watchedStore } from './state/disk-full.ts';
import { REPORT_SPOOL_MAX, ReportSpool } from './spool/spool.ts';
import { createAgentLogger } from './state/log-file.ts';
import { StateDir } from './state/state-dir.ts';
import { VmcDriver } from './vmc/driver.ts';
import { serialportTransport } from './vmc/transport.ts';
import type { SerialTransport } from './vmc/transport.ts';
import { revertReportOf } from './upgrade/journal.ts';
import { UpgradeManager } from './upgrade/manager.ts';
import { NmcliBackend } from './network/nmcli.ts';
import type { NetworkBackend } from './network/backend.ts';
import { NetworkProvisioner } from './network/provisioner.ts';
import { controlVerdict, serviceGate } from './service/index.ts';
import type { ServiceGate } from './service/index.ts';
import { holdVendLock } from './upgrade/vend-hold.ts';
import type { CheckOutcome, UpgradeHost } from './upgrade/manager.ts';

/** What the upgrade pipeline needs to know about how busy the cabinet is (spec 2 §4.4 step 7; upgrade/preflight.ts QuietState). */
export interface QuietFacts {
  /** The cabinet's vend lock is free (no dispense, walk-up or remote, and no board exchange running). */
  vendLockFree: boolean;
  /** Remote drop commands taken from the cloud and not yet finished. */
  leased: number;
  /** Reports in the spool not yet delivered (zero is "empty spool"). */
  spoolDepth: number;
  /** Seconds since the last vend, lease or customer activity. */
  secondsSinceActivity: number;
}

export interface DaemonOptions {
  config: AgentConfig;
  clock?: Clock;
  random?: RandomSource;
  /** Serial ports (default: serialport's OS binding). */
  serial?: SerialTransport;
  /** HTTP to the cloud (default: undici). */
  http?: HttpTransport;
  /** Where log lines go besides the log file (default: stdout; null: the file only). */
  logStdout?: NodeJS.WritableStream | null;
  /** The upgrade pipeline asks for a restart (a new version is in place, or one on trial is reverted). */
  onRestart?: () => void;
  /** Run the upgrade pipeline (default true). */
  upgrades?: boolean;
  /** The host's network stack for provisioning (default: NetworkManager through nmcli). */
  network?: NetworkBackend;
  /** Random bytes for provisioning tokens (default: crypto's). */
  randomBytes?: (bytes: number) => Buffer;
}

/** One line of the status view's "last errors". */
interface ErrorLine {
  at: number;
  source: string;
  message: string;
}

const BOARD_CHECK_MS = 60_000;
const BOARD_RETRY_MS = 10_000;
const PLANOGRAM_TTL_MS = 30_000;

export function defaultConfigBlock(machineCode: string): ConfigBlock {
  return {
    ...CONFIG_DEFAULTS,
    features: { ...FEATURE_DEFAULTS },
    machineCode,
    kioskUiUrl: '',
    adminPin: '',
    adminPinSource: 'derived',
  };
}

/**
 * `vend-agent run`: the cabinet daemon. Starts its parts in order — state directory (one daemon per
 * directory), logs, the dispense journal, the board driver, the cloud client, the loopback control
 * channel — then runs its loops together: board link and crash recovery, enrolment and register,
 * heartbeat, pending poll, configuration refresh, report spool, remote drops. SIGTERM stops it
 * with a deadline: a dispense on the wire is seen through, everything else stops at once.
 */
export class Daemon {
  readonly log: Logger;
  readonly state: StateDir;
  readonly book: DispenseBook;
  readonly driver: VmcDriver;
  readonly client: CloudClient;
  readonly credentials: StateCredentialStore;
  readonly enroller: Enroller;
  readonly spool: ReportSpool;
  readonly dispenser: Dispenser;
  readonly cloud: CloudLoops;
  /** The state disk: one "full" episode at a time, logged once (state/disk-full.ts). */
  readonly disk: DiskWatch;
  /** Screen advertising: the attract loop for the kiosk, its media, the proof-of-play spool. */
  readonly ads: Ads;
  /** The kiosk prize game: the event spool to the cloud and the cloud's last prize state. */
  readonly prizes: Prizes;
  /** The service-code gate (5 wrong codes: the service functions locked 300 s; service/gate.ts). */
  readonly service: ServiceGate;
  /** Network provisioning with revert (network/provisioner.ts). */
  readonly network: NetworkProvisioner;
  readonly deviceId: string;
  readonly startedAt: number;
  /** From the configuration: required to run. */
  readonly equipmentNo: string;
  private readonly cloudUrl: string;
  control: ControlServer | null = null;
  readonly upgrades: UpgradeManager | null;

  private readonly clock: Clock;
  private readonly random: RandomSource;
  private readonly abort = new AbortController();
  private readonly journal: JsonlJournal<JournalRecord>;
  private readonly pidLock: { release(): void };
  private readonly closeHttp: () => Promise<void>;
  private readonly tasks: Promise<unknown>[] = [];
  private readonly errors: ErrorLine[] = [];
  private board: {
    state: 'unknown' | 'ok' | 'fault' | 'unavailable';
    vmcVersion: string | null;
    module: string | null;
    rows: number | null;
    columnsPerRow: number | null;
    bootId: number | null;
    problems: string[];
    checkedAt: number | null;
    lastError: string | null;
  } = { state: 'unknown', vmcVersion: null, module: null, rows: null, columnsPerRow: null, bootId: null, problems: [], checkedAt: null, lastError: null };
  /** `at` wall time (shown), `elapsed` monotonic (its age: a stepped clock must not keep old prices fresh for hours). */
  private planogramCache: { at: number; elapsed: number; goods: GoodsData } | null = null;
  private upgradeReports: { deferring: DeferralReport | null; blocked: BlockedReport | null; reverted: RevertReport | null } = {
    deferring: null,
    blocked: null,
    reverted: null,
  };
  private stopping: Promise<void> | null = null;
  /** The upgrade pipeline holds the vend lock (from its last quiet check until exit). */
  private vendLockHeld = false;
  private dispenseTask: Promise<unknown> | null = null;

  private constructor(
    readonly config: AgentConfig,
    options: DaemonOptions,
  ) {
    if (!config.cloudUrl) throw new Error('cloudUrl is required to run (flag --cloud-url, VEND_AGENT_CLOUD_URL, or the config file)');
    if (!config.equipmentNo) throw new Error('equipmentNo is required to run (flag --equipment-no, VEND_AGENT_EQUIPMENT_NO, or the config file)');
    this.equipmentNo = config.equipmentNo;
    this.cloudUrl = config.cloudUrl;
    this.clock = options.clock ?? agentClock; // wall time, timers, and a monotonic clock for elapsed time
    this.random = options.random ?? Math.random;
    this.startedAt = this.clock.now();

    // 1. state directory, one daemon on it
    this.state = new StateDir(config.stateDir);
    this.state.ensure();
    this.pidLock = this.state.acquirePidLock();

    // 2. logs
    this.log = createAgentLogger({
      file: this.state.path('log'),
      level: config.logLevel,
      stdout: options.logStdout === undefined ? process.stdout : options.logStdout,
    });
    const deviceId = this.state.deviceId(config.machineIdFile === '' ? null : config.machineIdFile);
    this.deviceId = deviceId.deviceId;
    this.state.controlToken(); // generated on first start (0600)
    const cached = this.state.readCachedConfig();

    // 3. the dispense journal
    this.journal = new JsonlJournal(this.state.path('journal'), JournalRecord);
    this.disk = new DiskWatch(
      this.log.child({ part: 'disk' }),
      () => this.clock.now(),
      // while the disk is full, "last errors" holds one `disk` line; it goes when space returns
      (message) => {
        this.clearErrors('disk');
        if (message !== null) this.noteError('disk', message);
      },
      () => this.diskRoom(),
    );
    this.book = new DispenseBook(watchedStore(this.journal, this.disk, 'the dispense journal'), this.clock);
    const loaded = this.book.load();
    if (loaded.dropped > 0) this.log.warn({ dropped: loaded.dropped }, 'journal: dropped a record cut short by a crash');

    // 4. the board
    this.driver = new VmcDriver({
      transport: options.serial ?? serialportTransport(),
      path: config.serialPort,
      clock: this.clock,
      timings: { openAttempts: config.vmcOpenAttempts, openBackoffMs: config.vmcOpenBackoffMs },
      log: this.log.child({ part: 'vmc' }),
      // the driver reads INFO again itself after a new boot id, before its next request (docs/vmc-protocol.md §6.4)
      onBoardInfo: (info) => this.noteBoardInfo(info),
    });

    // 5. the cloud
    const http = options.http ? { transport: options.http, close: async () => {} } : cloudTransport();
    this.closeHttp = http.close;
    const cloudLog = this.log.child({ part: 'cloud' });
    this.credentials = new StateCredentialStore(this.state, () => this.clock.now(), {
      rotated: (keyId, previous) => cloudLog.info({ keyId, previousKeyId: previous }, 'credential handover stored'),
      revoked: (message) => this.noteError('cloud', `credential revoked: ${message}`),
    });
    this.client = new CloudClient({
      baseUrl: config.cloudUrl,
      equipmentNo: config.equipmentNo,
      fleetSecret: config.fleetSecret,
      credentials: this.credentials,
      transport: http.transport,
      clock: this.clock,
      random: this.random,
      timeoutMs: config.httpTimeoutMs,
      backoff: { baseMs: config.backoffBaseMs, capMs: config.backoffCapMs },
      log: cloudLog,
    });
    this.enroller = new Enroller({
      client: this.client,
      credentials: this.credentials,
      deviceId: this.deviceId,
      clock: this.clock,
      random: this.random,
      log: cloudLog,
      recordConflict: (message) => this.state.writeEnrolment({ state: 'conflict', keyId: null, machineCode: null, message, at: this.clock.now() }),
      waitMs: config.backoffBaseMs,
    });
    this.spool = new ReportSpool({
      book: this.book,
      client: this.client,
      clock: this.clock,
      random: this.random,
      log: this.log.child({ part: 'spool' }),
      backoff: { baseMs: config.backoffBaseMs, capMs: config.backoffCapMs },
      onRejected: (r, message) => this.noteError('spool', `report ${r.id} rejected: ${message}`),
    });
    this.dispenser = new Dispenser({
      book: this.book,
      driver: this.driver,
      client: this.client,
      clock: this.clock,
      log: this.log.child({ part: 'dispense' }),
      onOutcome: () => this.spool.wake(),
      aisleCount: () =>
        this.board.rows && this.board.columnsPerRow
          ? this.board.rows * this.board.columnsPerRow
          : this.cloud.configBlock.rows * this.cloud.configBlock.columnsPerRow,
      boardAvailable: () => this.board.state !== 'unavailable',
      diskRoom: () => this.disk.check(),
      spoolMax: REPORT_SPOOL_MAX,
      onUnrecorded: (_id, message) => this.noteError('dispense', message),
    });
    this.ads = new Ads({
      config: { ...config, cloudUrl: config.cloudUrl },
      state: this.state,
      client: this.client,
      clock: this.clock,
      random: this.random,
      log: this.log,
      kioskUiUrl: () => this.cloud.configBlock.kioskUiUrl,
      onPlayRejected: (message) => this.noteError('ads', message),
    });
    const adsLoaded = this.ads.load();
    if (adsLoaded.droppedLines > 0) this.log.warn({ dropped: adsLoaded.droppedLines }, 'ad play spool: dropped a record cut short by a crash');
    this.prizes = new Prizes({
      config,
      state: this.state,
      client: this.client,
      clock: this.clock,
      random: this.random,
      log: this.log,
      onEventRejected: (message) => this.noteError('prizes', message),
    });
    this.service = serviceGate(this.state, config, this.clock, this.log.child({ part: 'service' }));
    const prizesLoaded = this.prizes.load();
    if (prizesLoaded.droppedLines > 0) this.log.warn({ dropped: prizesLoaded.droppedLines }, 'prize event spool: dropped a record cut short by a crash');
    this.cloud = new CloudLoops({
      config,
      client: this.client,
      credentials: this.credentials,
      enroller: this.enroller,
      spool: this.spool,
      dispenser: this.dispenser,
      state: this.state,
      clock: this.clock,
      random: this.random,
      log: this.log,
      deviceId: this.deviceId,
      initialConfig: { block: cached?.config ?? defaultConfigBlock(config.equipmentNo), source: cached ? 'cache' : 'defaults' },
      vmcVersion: () => this.board.vmcVersion,
      upgradeReports: () => this.upgradeReports,
      serviceReport: () => this.service.report(),
      // an authenticated call reached the cloud: a version on trial may commit
      onRegistered: () => {
        this.ads.wake();
        this.prizes.wake();
        if (this.upgrades) void this.upgrades.cloudReached().catch((e: unknown) => this.log.warn({ error: (e as Error).message }, 'upgrade commit failed'));
      },
      noteError: (source, message) => this.noteError(source, message),
      onReached: () => {
        this.ads.nudge();
        this.prizes.nudge();
      },
      runTask: (name, task) => this.run(name, task),
    });
    this.network = new NetworkProvisioner({
      file: this.state.path('network'),
      backend: options.network ?? new NmcliBackend(),
      clock: this.clock,
      random: options.randomBytes ?? randomBytes,
      reachable: () => this.cloud.cloudAnswers(this.abort.signal),
      log: this.log.child({ part: 'network' }),
    });
    // 6. the upgrade pipeline (docs/agent-upgrades.md "Wiring into the daemon")
    const host: UpgradeHost = {
      runningVersion: () => config.agentVersion,
      quiet: () => this.quiet(),
      fetchOffer: () => this.client.upgrade(config.agentVersion, { attempts: 2, signal: this.abort.signal }),
      reportDeferral: (r) => this.setUpgradeReports({ deferring: r }),
      reportBlocked: (r) => this.setUpgradeReports({ blocked: r }),
      clearReports: () => this.setUpgradeReports({ deferring: null, blocked: null }),
      holdVendLock: () => this.holdVendLock(),
      restart: () => {
        this.log.warn({}, 'the upgrade pipeline asks for a restart');
        if (options.onRestart) options.onRestart();
        else void this.stop('upgrade restart');
      },
      cloudReachable: () => this.heartbeatNow(),
    };
    this.upgrades =
      options.upgrades === false
        ? null
        : new UpgradeManager({
            root: config.installRoot,
            host,
            clock: this.clock,
            releasePublicKey: config.releasePublicKey ?? null,
            artifactPrefix: config.artifactPrefix ?? null,
            invocationId: config.invocationId ?? null,
            log: this.log.child({ part: 'upgrade' }),
            limits: { download: { timeoutMs: config.downloadTimeoutMs } },
          });
    this.log.info(
      {
        version: config.agentVersion,
        stateDir: config.stateDir,
        equipmentNo: config.equipmentNo,
        deviceIdSource: deviceId.source,
        keyId: this.credentials.keyId(),
        spoolDepth: this.book.depth(),
        unresolved: this.book.unresolved().length,
      },
      'vend-agent starting',
    );
  }

  /** Starts every part in order and the loops; resolves once the control channel listens. */
  static async start(options: DaemonOptions): Promise<Daemon> {
    const daemon = new Daemon(options.config, options);
    try {
      // the boot guard first: finishes or undoes an interrupted install, arms the health timer of a version on trial
      if (daemon.upgrades) {
        const boot = await daemon.upgrades.onBoot();
        daemon.log.info({ boot }, 'upgrade boot guard');
        // the journal's last revert (by the guard just now, or before the restart that brought us here) goes to the
        // cloud in every heartbeat until another upgrade outcome replaces it
        daemon.upgradeReports.reverted = revertReportOf(await daemon.upgrades.status());
      }
      // a switch a restart cut short goes back to the network last proven to reach the cloud
      await daemon.network
        .recover()
        .catch((e: unknown) => daemon.noteError('network', `going back from an interrupted switch failed: ${(e as Error).message}`));
      // 7. the control channel (a technician can ask for status while board and cloud come up)
      daemon.control = await startControlServer({
        host: options.config.controlHost,
        port: options.config.controlPort,
        token: () => daemon.state.readControlToken() ?? '',
        api: {
          status: () => daemon.status(),
          planogram: () => daemon.planogram(),
          walkUp: (req) => daemon.dispenser.walkUp(req),
          vends: (limit) => daemon.book.recent(limit),
          enrolNow: () => daemon.enrolNow(),
          upgradeCheck: () => daemon.upgradeCheck(),
          upgradeProgress: () => daemon.upgrades?.progress() ?? { state: 'disabled' },
          service: {
            status: () => daemon.service.status(),
            check: async (code, action) => controlVerdict(await daemon.service.check(code, action, 'control'), daemon.clock),
          },
          network: networkControl(daemon.network, daemon.service, daemon.clock),
        },
        ads: daemon.ads,
        prizes: daemon.prizes,
        log: daemon.log.child({ part: 'control' }),
      });
    } catch (e) {
      await daemon.release();
      throw e;
    }
    // 8. the loops, together
    const signal = daemon.abort.signal;
    daemon.run('board', () => daemon.boardLoop(signal));
    daemon.run('cloud', () => daemon.cloud.run(signal));
    daemon.run('ads', () => daemon.ads.run(signal));
    daemon.run('prizes', () => daemon.prizes.run(signal));
    daemon.run('dispense', () => daemon.dispenser.runQueue(signal));
    daemon.dispenseTask = daemon.tasks.at(-1) ?? null;
    daemon.upgrades?.start();
    daemon.log.info({ control: daemon.control.url }, 'vend-agent running');
    return daemon;
  }

  private run(name: string, fn: () => Promise<unknown>): void {
    this.tasks.push(
      fn().catch((e: unknown) => {
        this.noteError(name, (e as Error).message);
        this.log.error({ task: name, error: (e as Error).stack }, 'a daemon task failed');
      }),
    );
  }

  /** The state disk has room for a vend's records (a file system that cannot say counts as roomy). */
  private diskRoom(): boolean {
    return (freeBytes(this.config.stateDir) ?? Infinity) >= VEND_ROOM_BYTES;
  }

  private clearErrors(source: string): void {
    this.errors.splice(0, this.errors.length, ...this.errors.filter((e) => e.source !== source));
  }

  private noteError(source: string, message: string): void {
    const last = this.errors[this.errors.length - 1];
    if (last && last.source === source && last.message === message) {
      last.at = this.clock.now();
      return;
    }
    this.errors.push({ at: this.clock.now(), source, message });
    if (this.errors.length > 10) this.errors.shift();
  }

  // --- facts for the upgrade pipeline ----------------------------------------------------------

  quiet(): QuietFacts {
    return {
      vendLockFree: this.dispenser.lock.isFree && this.driver.lock.isFree,
      leased: this.dispenser.leased,
      spoolDepth: this.book.depth(),
      secondsSinceActivity: this.dispenser.idleSeconds(),
    };
  }

  /** UpgradeHost.holdVendLock: the dispenser's vend lock for the upgrade, only when free and crash recovery is done. */
  holdVendLock(): { release(): void } | null {
    if (this.vendLockHeld || !this.dispenser.recovered) return null;
    const hold = holdVendLock(this.dispenser.lock);
    if (hold === null) return null;
    this.vendLockHeld = true;
    return {
      release: () => {
        this.vendLockHeld = false;
        hold.release();
      },
    };
  }

  /** Carried in every heartbeat until replaced or cleared (null: the condition ended). */
  setUpgradeReports(reports: { deferring?: DeferralReport | null; blocked?: BlockedReport | null }): void {
    if (reports.deferring !== undefined) this.upgradeReports.deferring = reports.deferring;
    if (reports.blocked !== undefined) this.upgradeReports.blocked = reports.blocked;
  }

  /** Sends a heartbeat now; true on a 2xx. */
  heartbeatNow(): Promise<boolean> {
    return this.cloud.heartbeatNow(this.abort.signal);
  }

  // --- loops -----------------------------------------------------------------------------------

  /** Board link: crash recovery first (before any other frame), then board info, then a check every minute. */
  private async boardLoop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        if (!this.dispenser.recovered) {
          const settled = await this.dispenser.recover();
          if (settled > 0) this.log.info({ settled }, 'crash recovery done');
        }
        if (this.board.vmcVersion === null) await this.driver.info();
        const st = await this.driver.status();
        const problems: string[] = [];
        if (st.faults.lift) problems.push('lift fault');
        if (st.faults.dropSensor) problems.push('drop sensor fault');
        if (st.faults.jammedLanes) problems.push('a lane is jammed');
        Object.assign(this.board, {
          state: problems.length > 0 || st.state === 'fault' ? 'fault' : 'ok',
          bootId: st.bootId,
          problems,
          checkedAt: this.clock.now(),
          lastError: null,
        });
        if (!(await sleep(this.clock, BOARD_CHECK_MS, signal))) return;
      } catch (e) {
        const message = (e as Error).message;
        if (isDiskFull(e)) {
          // recovery could not journal an outcome: the board is fine, the disk is not (DiskWatch logged it once)
          if (!(await sleep(this.clock, BOARD_RETRY_MS, signal))) return;
          continue;
        }
        if (this.board.state !== 'unavailable') this.log.warn({ error: message }, 'the board does not answer');
        Object.assign(this.board, { state: 'unavailable', lastError: message, checkedAt: this.clock.now() });
        this.noteError('board', message);
        if (!(await sleep(this.clock, BOARD_RETRY_MS, signal))) return;
      }
    }
  }

  /** Every INFO the driver reads: at start, and again after a new boot id (other firmware or geometry). */
  private noteBoardInfo(info: VmcBoardInfo): void {
    if (this.board.bootId !== null && info.bootId !== this.board.bootId)
      this.log.warn({ was: this.board.bootId, now: info.bootId, vmcVersion: info.vmcVersion }, 'the board restarted: board info read again');
    Object.assign(this.board, {
      vmcVersion: info.vmcVersion,
      module: info.module,
      rows: info.rows,
      columnsPerRow: info.columnsPerRow,
      bootId: info.bootId,
    });
  }

  // --- control channel -------------------------------------------------------------------------

  private async planogram(): Promise<ControlPlanogram> {
    const now = this.clock.now();
    const elapsed = elapsedNow(this.clock);
    if (this.planogramCache && elapsed - this.planogramCache.elapsed < PLANOGRAM_TTL_MS)
      return { ...this.planogramCache.goods, stale: false, fetchedAt: new Date(this.planogramCache.at).toISOString() };
    try {
      const goods = await this.client.goods({ attempts: 1, signal: this.abort.signal });
      this.planogramCache = { at: now, elapsed, goods };
      return { ...goods, stale: false, fetchedAt: new Date(now).toISOString() };
    } catch (e) {
      if (this.planogramCache)
        return { ...this.planogramCache.goods, stale: true, fetchedAt: new Date(this.planogramCache.at).toISOString(), error: (e as Error).message };
      return { machineCode: this.equipmentNo, currency: null, aisles: [], stale: true, fetchedAt: null, error: (e as Error).message };
    }
  }

  /** The technician's trigger: check for an upgrade now. */
  private async upgradeCheck(): Promise<CheckOutcome | { result: 'disabled' }> {
    return this.upgrades ? this.upgrades.checkNow() : { result: 'disabled' };
  }

  private async enrolNow(): Promise<EnrolmentStatus> {
    if (this.credentials.current() !== null || this.credentials.isRevoked()) return this.enroller.status();
    this.enroller.kick();
    // the loop's attempt runs now; answer with what it came to (bounded)
    const before = this.enroller.status();
    for (let i = 0; i < 100; i++) {
      await sleep(this.clock, 100);
      const status = this.enroller.status();
      if (status !== before) return status;
    }
    return this.enroller.status();
  }

  /** Everything `vend-agent status` shows. */
  status(): ControlStatus {
    this.disk.check(); // the `disk` line in last errors is live: begun by too little room, gone once space returns
    const now = this.clock.now();
    const enrolment = this.enroller.status();
    const block = this.cloud.configBlock;
    return {
      agent: {
        version: this.config.agentVersion,
        pid: process.pid,
        startedAt: new Date(this.startedAt).toISOString(),
        uptimeSeconds: Math.floor((now - this.startedAt) / 1000),
        stateDir: this.config.stateDir,
        equipmentNo: this.equipmentNo,
        deviceId: this.deviceId,
        memory: memory(),
      },
      enrolment: { ...enrolment, keyId: this.credentials.keyId() },
      cloud: cloudStatusOf(this.cloudUrl, this.client.reachability, this.cloud.registeredAt),
      board: { port: this.config.serialPort, ...this.board, checkedAt: iso(this.board.checkedAt) },
      spool: {
        depth: this.book.depth(),
        delivered: this.spool.delivered,
        duplicates: this.spool.duplicates,
        rejected: this.book.rejected(5).map((x) => ({ dispenseId: x.id, status: x.status, message: x.message, at: iso(x.at) })),
        lastError: this.spool.lastError ? { ...this.spool.lastError, at: iso(this.spool.lastError.at) } : null,
      },
      dispensing: {
        recovered: this.dispenser.recovered,
        busy: !this.dispenser.lock.isFree,
        current: this.dispenser.current,
        leased: this.dispenser.leased,
        lastActivityAt: iso(this.dispenser.lastActivityAt),
      },
      config: {
        source: this.cloud.configSource,
        machineCode: block.machineCode,
        pollInterval: block.pollInterval,
        heartbeatInterval: block.heartbeatInterval,
        dispatchMode: block.dispatchMode,
        rows: block.rows,
        columnsPerRow: block.columnsPerRow,
        adminPin: block.adminPin ? mask(block.adminPin) : null,
      },
      upgrade: { ...this.upgradeReports, quiet: this.quiet() },
      lastErrors: this.errors.map((e) => ({ ...e, at: iso(e.at) })).reverse(),
      ads: this.ads.status(),
      prizes: this.prizes.status(),
      ...this.serviceStatus(),
    };
  }

  /** The gate's state for `status`; a gate file this user cannot read must not take the whole status down. */
  private serviceStatus(): { service?: NonNullable<ControlStatus['service']> } {
    try {
      return { service: this.service.status() };
    } catch (e) {
      this.noteError('service', `service-code file unreadable: ${(e as Error).message}`);
      return {};
    }
  }

  // --- stopping --------------------------------------------------------------------------------

  /** Stops the loops at once; waits (up to the deadline) for a dispense on the wire; closes everything. */
  stop(reason: string): Promise<void> {
    this.stopping ??= (async () => {
      this.log.info({ reason }, 'vend-agent stopping');
      this.abort.abort();
      this.upgrades?.stop();
      this.network.close();
      const deadline = new Promise<'deadline'>((resolve) => this.clock.setTimeout(() => resolve('deadline'), this.config.stopDeadlineMs));
      // the upgrade pipeline holds the vend lock (taken while free): nothing dispenses, and a remote drop
      // waiting for the lock stays pending in the cloud for the next start
      const held = this.vendLockHeld;
      const idle = held ? Promise.resolve('idle' as const) : this.dispenser.lock.run(async () => 'idle' as const);
      const how = await Promise.race([idle, deadline]);
      if (how === 'deadline')
        this.log.warn({ current: this.dispenser.current }, 'stop deadline passed with a dispense running; the journal settles it at the next start');
      await Promise.race([this.control?.close() ?? Promise.resolve(), deadline]);
      await Promise.race([Promise.allSettled(held ? this.tasks.filter((t) => t !== this.dispenseTask) : this.tasks), deadline]);
      await this.release();
      this.log.info({}, 'vend-agent stopped');
    })();
    return this.stopping;
  }

  private async release(): Promise<void> {
    await this.driver.close().catch(() => {});
    await this.closeHttp().catch(() => {});
    this.journal.close();
    this.ads.close();
    this.prizes.close();
    this.pidLock.release();
  }
}

function memory(): Record<string, number> {
  const usage = process.memoryUsage();
  const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;
  return {
    rssMb: mb(usage.rss),
    heapUsedMb: mb(usage.heapUsed),
    heapTotalMb: mb(usage.heapTotal),
    externalMb: mb(usage.external),
    arrayBuffersMb: mb(usage.arrayBuffers),
  };
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
