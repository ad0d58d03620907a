import type { Logger } from 'pino';
import type { BlockedReport, Clock, ConfigBlock, DeferralReport, HeartbeatRequest, RevertReport, ServiceCodeReport } from '@vend/protocol';
import type { AgentConfig } from '../config.ts';
import type { Dispenser } from '../spool/dispenser.ts';
import type { ReportSpool } from '../spool/spool.ts';
import type { StateDir } from '../state/state-dir.ts';
import { backoffDelay, sleep } from './backoff.ts';
import type { RandomSource } from './backoff.ts';
import { CloudError } from './client.ts';
import type { CloudClient } from './client.ts';
import type { StateCredentialStore } from './credentials.ts';
import type { Enroller } from './enrolment.ts';
import { PendingPoller } from './long-poll.ts';

export interface CloudLoopsOptions {
  config: Pick<AgentConfig, 'agentVersion' | 'fleetSecret' | 'backoffBaseMs' | 'backoffCapMs' | 'configRefreshSeconds'>;
  client: CloudClient;
  credentials: StateCredentialStore;
  enroller: Enroller;
  spool: ReportSpool;
  /** Where remote drops from the pending poll go. */
  dispenser: Pick<Dispenser, 'offer'>;
  /** Where a changed configuration block is kept for an offline start. */
  state: Pick<StateDir, 'writeCachedConfig'>;
  clock: Clock;
  random: RandomSource;
  log: Logger;
  deviceId: string;
  /** The configuration block to start from (the cached one, or the defaults) and where it came from. */
  initialConfig: { block: ConfigBlock; source: 'cache' | 'defaults' };
  /** The board's firmware version, once it answered (register and heartbeat carry it). */
  vmcVersion: () => string | null;
  /** The upgrade pipeline's reports, carried in every heartbeat. */
  upgradeReports: () => { deferring: DeferralReport | null; blocked: BlockedReport | null; reverted: RevertReport | null };
  /** The service-code block of the next heartbeat, and what to do once the cloud answered it. */
  serviceReport?: () => { report: ServiceCodeReport; ack: () => void } | null;
  /** Register succeeded: an authenticated call reached the cloud. */
  onRegistered: () => void;
  /** A loop step failed (the status view's "last errors"). */
  noteError: (source: string, message: string) => void;
  /** A pending poll reached the cloud (spools waiting for it may try now). */
  onReached?: () => void;
  /** Runs a task beside the loops, as the daemon runs its own (the report spool). */
  runTask: (name: string, task: () => Promise<unknown>) => void;
}

/**
 * The daemon's cloud side: enrolment when needed, then register (retried until it succeeds), then
 * the heartbeat, the pending long poll and the configuration refresh together, and the report spool.
 * Holds the configuration block in force (the cloud's, the cached one, or the defaults).
 */
export class CloudLoops {
  configBlock: ConfigBlock;
  configSource: 'cloud' | 'cache' | 'defaults';
  registeredAt: number | null = null;
  private poller: PendingPoller | null = null;

  constructor(private readonly opts: CloudLoopsOptions) {
    this.configBlock = opts.initialConfig.block;
    this.configSource = opts.initialConfig.source;
  }

  /** Enrolment, then register, then heartbeat, pending poll, configuration refresh and the spool, together. */
  async run(signal: AbortSignal): Promise<void> {
    const { credentials, log } = this.opts;
    if (credentials.isRevoked()) {
      log.error({}, 'this cabinet credential is revoked: the agent does not call the cloud and does not enrol again');
      return;
    }
    if (credentials.current() === null) {
      if (!this.opts.config.fleetSecret) log.warn({}, 'not enrolled and no fleet secret configured: set fleetSecret to enrol');
      const enrolled = await this.opts.enroller.run(signal);
      if (!enrolled) return;
    }
    this.opts.runTask('spool', () => this.opts.spool.start(signal));
    if (!(await this.register(signal))) return;
    await Promise.all([
      this.every(
        signal,
        'heartbeat',
        () => this.configBlock.heartbeatInterval * 1000,
        () => this.heartbeat(signal),
      ),
      this.every(
        signal,
        'poll',
        () => this.pendingPoller().delayMs(this.configBlock.pollInterval * 1000),
        () => this.poll(signal),
      ),
      this.every(
        signal,
        'config',
        () => this.opts.config.configRefreshSeconds * 1000,
        () => this.refreshConfig(signal),
        true,
      ),
    ]);
  }

  /** Sends a heartbeat now; true on a 2xx. */
  async heartbeatNow(signal: AbortSignal): Promise<boolean> {
    return (await this.tryHeartbeat(signal)) === null;
  }

  /**
   * One probe for a network switch: a heartbeat, where any HTTP answer counts (a cabinet not enrolled
   * yet is answered 401/428 — the network works all the same).
   */
  async cloudAnswers(signal: AbortSignal): Promise<boolean> {
    const error = await this.tryHeartbeat(signal);
    return error === null || (error instanceof CloudError && error.status !== null);
  }

  /** One heartbeat; null when the cloud took it, else what went wrong. */
  private async tryHeartbeat(signal: AbortSignal): Promise<unknown> {
    try {
      const { body, ack } = this.heartbeatBody();
      await this.opts.client.heartbeat(body, { attempts: 1, signal });
      this.acknowledge(ack);
      return null;
    } catch (e) {
      return e;
    }
  }

  private async every(signal: AbortSignal, name: string, intervalMs: () => number, step: () => Promise<void>, waitFirst = false): Promise<void> {
    const clock = this.opts.clock;
    if (waitFirst && !(await sleep(clock, intervalMs(), signal))) return;
    while (!signal.aborted && !this.opts.credentials.isRevoked()) {
      try {
        await step();
      } catch (e) {
        if (e instanceof CloudError && e.kind === 'aborted') return;
        this.opts.noteError(name, (e as Error).message);
        this.opts.log.debug({ loop: name, error: (e as Error).message }, 'loop step failed');
      }
      if (!(await sleep(clock, intervalMs(), signal))) return;
    }
  }

  private async register(signal: AbortSignal): Promise<boolean> {
    const { config, clock, log } = this.opts;
    for (let attempt = 0; !signal.aborted; attempt++) {
      try {
        const vmcVersion = this.opts.vmcVersion();
        const body = {
          agentVersion: config.agentVersion,
          // the cloud offers only a release artifact built for this architecture
          arch: process.arch,
          deviceId: this.opts.deviceId,
          ...(vmcVersion ? { vmcVersion } : {}),
        };
        const block = await this.opts.client.register(body, { attempts: 1, signal });
        this.applyConfig(block);
        this.registeredAt = clock.now();
        log.info({ machineCode: block.machineCode, pollInterval: block.pollInterval, heartbeatInterval: block.heartbeatInterval }, 'registered');
        this.opts.spool.wake();
        this.opts.onRegistered();
        return true;
      } catch (e) {
        if (!(e instanceof CloudError)) throw e;
        if (e.kind === 'aborted' || e.kind === 'revoked') return false;
        this.opts.noteError('register', e.message);
        const wait = backoffDelay(attempt, { baseMs: config.backoffBaseMs, capMs: config.backoffCapMs, random: this.opts.random }, e.retryAfterMs);
        log.warn({ error: e.message, retryInMs: wait }, 'register failed; retrying');
        if (!(await sleep(clock, wait, signal))) return false;
      }
    }
    return false;
  }

  private heartbeatBody(): { body: Omit<HeartbeatRequest, 'equipmentNo'>; ack: () => void } {
    const vmcVersion = this.opts.vmcVersion();
    const reports = this.opts.upgradeReports();
    const service = this.serviceReport();
    return {
      body: {
        agentVersion: this.opts.config.agentVersion,
        arch: process.arch,
        ...(vmcVersion ? { vmcVersion } : {}),
        deferring: reports.deferring,
        blocked: reports.blocked,
        ...(reports.reverted ? { reverted: reports.reverted } : {}),
        ...(service ? { serviceCode: service.report } : {}),
      },
      ack: () => service?.ack(),
    };
  }

  /** The service-code block; a gate that cannot be read (a bad disk) must not stop the heartbeat. */
  private serviceReport(): { report: ServiceCodeReport; ack: () => void } | null {
    try {
      return this.opts.serviceReport?.() ?? null;
    } catch (e) {
      this.opts.log.warn({ error: (e as Error).message }, 'service-code report unavailable');
      return null;
    }
  }

  private async heartbeat(signal: AbortSignal): Promise<void> {
    const { body, ack } = this.heartbeatBody();
    await this.opts.client.heartbeat(body, { attempts: 2, signal });
    this.acknowledge(ack);
  }

  private acknowledge(ack: () => void): void {
    try {
      ack();
    } catch (e) {
      this.opts.log.warn({ error: (e as Error).message }, 'service-code report: cannot forget what the cloud has');
    }
  }

  /** The pending leg as a long poll: again at once after a held or fresh answer, else after pollInterval (long-poll.ts). */
  private pendingPoller(): PendingPoller {
    this.poller ??= new PendingPoller({ client: this.opts.client, clock: this.opts.clock, offer: (commands) => this.opts.dispenser.offer(commands) });
    return this.poller;
  }

  private async poll(signal: AbortSignal): Promise<void> {
    const { commands, added } = await this.pendingPoller().poll(signal);
    if (added > 0) this.opts.log.info({ added, listed: commands.length }, 'remote drops received');
    this.opts.spool.nudge();
    this.opts.onReached?.();
  }

  private async refreshConfig(signal: AbortSignal): Promise<void> {
    this.applyConfig(await this.opts.client.config({ attempts: 2, signal }));
  }

  private applyConfig(block: ConfigBlock): void {
    const changed = JSON.stringify(block) !== JSON.stringify(this.configBlock);
    this.configBlock = block;
    this.configSource = 'cloud';
    if (changed) {
      this.opts.state.writeCachedConfig({ receivedAt: this.opts.clock.now(), config: block });
      this.opts.log.info(
        { pollInterval: block.pollInterval, heartbeatInterval: block.heartbeatInterval, dispatchMode: block.dispatchMode },
        'configuration block updated',
      );
    }
  }
}
