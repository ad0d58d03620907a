import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { CONFIG_DEFAULTS, FEATURE_DEFAULTS } from '@vend/protocol';
import type { BlockedReport, Clock, ConfigBlock, ControlPlanogram, ControlStatus, DeferralReport } from '@vend/protocol';
import type { AgentConfig } from './config.ts';
import { Ads } from './ads/ads.ts';
import { Prizes } from './prizes/prizes.ts';
import { sleep } from './cloud/backoff.ts';
import type { RandomSource } from './cloud/backoff.ts';
import { CloudClient } from './cloud/client.ts';
import { StateCredentialStore } from './cloud/credentials.ts';
import { Enroller } from './cloud/enrolment.ts';
import { CloudLoops } from './cloud/loops.ts';
import { PlanogramCache } from './cloud/planogram-cache.ts';
import type { EnrolmentStatus } from './cloud/enrolment.ts';
import { cloudTransport } from './cloud/http.ts';
import type { HttpTransport } from './cloud/http.ts';
import { LastErrors } from './control/last-errors.ts';
import { networkControl } from './control/network-api.ts';
import { startControlServer } from './control/server.ts';
import type { ControlServer } from './control/server.ts';
import { statusView } from './control/status-view.ts';
import { DispenseBook } from './spool/book.ts';
import { Dispenser } from './spool/dispenser.ts';
import { JournalRecord } from './spool/journal.ts';
import { JsonlJournal } from './state/jsonl-journal.ts';
import { agentClock } from './state/monotonic.ts';
import { DiskWatch, VEND_ROOM_BYTES, freeBytes, watchedStore } from './state/disk-full.ts';
import { REPORT_SPOOL_MAX, ReportSpool } from './spool/spool.ts';
import { createAgentLogger } from './state/log-file.ts';
import { StateDir } from './state/state-dir.ts';
import { BoardWatch } from './vmc/board-watch.ts';
import { VmcDriver } from './vmc/driver.ts';
import { serialportTransport } from './vmc/transport.ts';
import type { SerialTransport } from './vmc/transport.ts';
import { CabinetUpgradeHost } from './upgrade/cabinet-host.ts';
import type { QuietFacts } from './upgrade/cabinet-host.ts';
import { revertReportOf } from './upgrade/journal.ts';
import { UpgradeManager } from './upgrade/manager.ts';
import type { CheckOutcome } from './upgrade/manager.ts';
import { NmcliBackend } from './network/nmcli.ts';
import type { NetworkBackend } from './network/backend.ts';
import { NetworkProvisioner } from './network/provisioner.ts';
import { controlVerdict, serviceGate } from './service/index.ts';
import { storefront } from './storefront/index.ts';
import { packagedScreenDir } from './config.ts';
import type { ServiceGate } from './service/index.ts';

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
  private readonly errors: LastErrors;
  /** The board's state for the status view, and its loop (crash recovery first). */
  private readonly board: BoardWatch;
  /** The daemon's side of the upgrade pipeline: quiet facts, the vend-lock hold, the heartbeat's reports. */
  private readonly upgradeHost: CabinetUpgradeHost;
  private readonly planograms: PlanogramCache;
  private stopping: Promise<void> | null = null;
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
    this.errors = new LastErrors(this.clock);

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
        this.errors.clear('disk');
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
      onBoardInfo: (info) => this.board.noteInfo(info),
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
      aisleCount: () => this.board.aisles() ?? this.cloud.configBlock.rows * this.cloud.configBlock.columnsPerRow,
      boardAvailable: () => this.board.available,
      diskRoom: () => this.disk.check(),
      spoolMax: REPORT_SPOOL_MAX,
      onUnrecorded: (_id, message) => this.noteError('dispense', message),
    });
    this.board = new BoardWatch({
      driver: this.driver,
      recovery: this.dispenser,
      clock: this.clock,
      log: this.log,
      noteError: (source, message) => this.noteError(source, message),
    });
    this.planograms = new PlanogramCache(this.client, this.clock, this.equipmentNo, () => this.cloud.configBlock.heartbeatInterval * 1000);
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
      upgradeReports: () => this.upgradeHost.reports,
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
    this.upgradeHost = new CabinetUpgradeHost({
      runningVersion: config.agentVersion,
      dispenser: this.dispenser,
      driver: this.driver,
      book: this.book,
      fetchOffer: () => this.client.upgrade(config.agentVersion, { attempts: 2, signal: this.abort.signal }),
      cloudReachable: () => this.heartbeatNow(),
      restart: () => {
        this.log.warn({}, 'the upgrade pipeline asks for a restart');
        if (options.onRestart) options.onRestart();
        else void this.stop('upgrade restart');
      },
    });
    this.upgrades =
      options.upgrades === false
        ? null
        : new UpgradeManager({
            root: config.installRoot,
            host: this.upgradeHost,
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
        daemon.upgradeHost.reports.reverted = revertReportOf(await daemon.upgrades.status());
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
        storefront: storefront({
          machineCode: daemon.equipmentNo,
          cloudUrl: daemon.cloudUrl,
          clock: daemon.clock,
          client: daemon.client,
          planogram: (signal) => daemon.planograms.get(signal),
          status: () => daemon.status(),
          features: () => daemon.cloud.configBlock.features,
          book: daemon.book,
          inFlight: () => daemon.dispenser.current,
          checkCode: (code, action) => daemon.service.check(code, action, 'control'),
        }),
        screenDir: options.config.screenDir ?? packagedScreenDir(),
        cloudOrigin: new URL(daemon.cloudUrl).origin,
        signal: daemon.abort.signal,
        log: daemon.log.child({ part: 'control' }),
      });
    } catch (e) {
      await daemon.release();
      throw e;
    }
    // 8. the loops, together
    const signal = daemon.abort.signal;
    daemon.run('board', () => daemon.board.run(signal));
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

  private noteError(source: string, message: string): void {
    this.errors.note(source, message);
  }

  // --- facts for the upgrade pipeline ----------------------------------------------------------

  quiet(): QuietFacts {
    return this.upgradeHost.quiet();
  }

  /** UpgradeHost.holdVendLock: the dispenser's vend lock for the upgrade, only when free and crash recovery is done. */
  holdVendLock(): { release(): void } | null {
    return this.upgradeHost.holdVendLock();
  }

  /** Carried in every heartbeat until replaced or cleared (null: the condition ended). */
  setUpgradeReports(reports: { deferring?: DeferralReport | null; blocked?: BlockedReport | null }): void {
    this.upgradeHost.setReports(reports);
  }

  /** Sends a heartbeat now; true on a 2xx. */
  heartbeatNow(): Promise<boolean> {
    return this.cloud.heartbeatNow(this.abort.signal);
  }

  // --- control channel -------------------------------------------------------------------------

  private planogram(): Promise<ControlPlanogram> {
    return this.planograms.get(this.abort.signal);
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
    return statusView({
      config: this.config,
      clock: this.clock,
      startedAt: this.startedAt,
      equipmentNo: this.equipmentNo,
      deviceId: this.deviceId,
      cloudUrl: this.cloudUrl,
      enroller: this.enroller,
      credentials: this.credentials,
      client: this.client,
      cloud: this.cloud,
      board: this.board,
      book: this.book,
      spool: this.spool,
      dispenser: this.dispenser,
      upgrades: this.upgradeHost,
      errors: this.errors,
      ads: this.ads,
      prizes: this.prizes,
      service: this.service,
    });
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
      const held = this.upgradeHost.vendLockHeld;
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
