import type { Logger } from 'pino';
import type { Clock } from '@vend/protocol';
import { formatTimestamp } from '../http/time-format.ts';
import type { LeaderLease, LeaseKind } from './lease.ts';

/** One sweep's work: resolves what is due and answers how many items it resolved. */
export type LoopWork = () => Promise<number>;

export interface LoopOptions {
  name: string;
  /** What the work does, in one sentence (shown on the status endpoint). */
  description: string;
  intervalMs: number;
  /** From the configuration: whether `start()` schedules ticks on this replica. */
  enabled: boolean;
  clock: Clock;
  lease: LeaderLease;
  logger: Logger;
  /** null: nothing to do yet (the loop still ticks and takes part in leader election). */
  work: LoopWork | null;
  /** Loop-specific status fields (`timeoutSeconds`, `graceSeconds`). */
  extra?: Record<string, unknown>;
  /** Monotonic milliseconds that time each tick (default performance.now: the wall, whatever the clock). */
  monotonicMs?: () => number;
}

/** The liveness/status body of a loop: plain JSON, no envelope (spec 1 §4.1). */
export interface LoopStatus {
  name: string;
  description: string;
  pod: string;
  enabled: boolean;
  running: boolean;
  lease: LeaseKind;
  leader: boolean;
  intervalSeconds: number;
  ticks: number;
  sweeps: number;
  followerSkips: number;
  resolved: number;
  errors: number;
  lastError: string | null;
  lastTickAt: string | null;
  lastSweepAt: string | null;
  workInstalled: boolean;
  [extra: string]: unknown;
}

/**
 * A tick at least this long is logged at warn with its duration. On SQLite a sweep's statements run on the
 * event loop (better-sqlite3 is synchronous), so a tick's duration there is time no request was answered.
 */
export const SLOW_TICK_MS = 100;

export interface TickResult {
  leader: boolean;
  /** Items resolved by this tick (0 for a follower, for a leader with nothing due, or on error). */
  resolved: number;
}

/**
 * A background loop driven by the injected clock. Each tick asks the lease whether this replica
 * leads: the leader runs the work (a sweep), a follower counts a skip. Ticks never overlap (a direct
 * `tick()` during a scheduled one waits for it) and never throw: a failing sweep is counted and logged,
 * and the next tick tries again.
 */
export class Loop {
  readonly name: string;
  private readonly opts: LoopOptions;
  private workFn: LoopWork | null;
  private ticks = 0;
  private sweeps = 0;
  private followerSkips = 0;
  private resolved = 0;
  private errors = 0;
  private lastError: string | null = null;
  private lastTickAt: number | null = null;
  private lastSweepAt: number | null = null;
  private leader: boolean;
  private started = false;
  private timer: unknown = null;
  private chain: Promise<unknown> = Promise.resolve();
  private longestTickMs = 0;

  constructor(opts: LoopOptions) {
    this.opts = opts;
    this.name = opts.name;
    this.workFn = opts.work;
    this.leader = opts.lease.kind === 'in-process';
  }

  /** Installs (or replaces) the work; for loops whose job arrives with a later issue. */
  setWork(work: LoopWork | null): void {
    this.workFn = work;
  }

  protected getWork(): LoopWork | null {
    return this.workFn;
  }

  get running(): boolean {
    return this.started;
  }

  /** Runs one tick now (tests drive loops this way with a ManualClock). */
  tick(): Promise<TickResult> {
    const next = this.chain.then(() => this.runTick());
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Resolves when no tick is in flight. */
  async whenIdle(): Promise<void> {
    await this.chain;
  }

  /**
   * The longest tick since the last call, in ms, and starts over (the metrics scrape reads it: a window's own
   * maximum, as prom-client's event-loop figures are). Measured on a monotonic clock, not the injected one.
   */
  takeLongestTickMs(): number {
    const ms = this.longestTickMs;
    this.longestTickMs = 0;
    return ms;
  }

  private async runTick(): Promise<TickResult> {
    const now = this.opts.monotonicMs ?? (() => performance.now());
    const started = now();
    try {
      return await this.timedTick();
    } finally {
      const ms = now() - started;
      if (ms > this.longestTickMs) this.longestTickMs = ms;
      // a tick this long held the event loop on SQLite: the first suspect when every request stalls at once
      if (ms >= SLOW_TICK_MS) this.opts.logger.warn({ loop: this.name, ms: Math.round(ms), leader: this.leader }, 'background tick slow');
    }
  }

  private async timedTick(): Promise<TickResult> {
    this.ticks++;
    this.lastTickAt = this.opts.clock.now();
    try {
      this.leader = await this.opts.lease.acquire();
    } catch (err) {
      this.leader = false;
      this.fail(err, 'leader lease unavailable');
    }
    if (!this.leader) {
      this.followerSkips++;
      return { leader: false, resolved: 0 };
    }
    const work = this.workFn;
    if (!work) return { leader: true, resolved: 0 };
    try {
      const n = await work();
      this.sweeps++;
      this.resolved += n;
      this.lastSweepAt = this.opts.clock.now();
      // one line per sweep with the lease holder: how a failover drill proves no two replicas swept at once
      this.opts.logger.debug({ loop: this.name, holder: this.opts.lease.holder, resolved: n }, 'background sweep');
      if (n > 0) this.opts.logger.info({ loop: this.name, resolved: n }, 'background sweep resolved items');
      return { leader: true, resolved: n };
    } catch (err) {
      this.fail(err, 'background sweep failed');
      return { leader: true, resolved: 0 };
    }
  }

  private fail(err: unknown, what: string): void {
    this.errors++;
    this.lastError = err instanceof Error ? err.message : String(err);
    this.opts.logger.error({ loop: this.name, err }, what);
  }

  /** Schedules ticks every interval on the clock; a no-op when the loop is disabled or already started. */
  start(): void {
    if (!this.opts.enabled || this.started) return;
    this.started = true;
    this.schedule();
  }

  private schedule(): void {
    this.timer = this.opts.clock.setTimeout(() => {
      this.timer = null;
      void this.tick().finally(() => {
        if (this.started) this.schedule();
      });
    }, this.opts.intervalMs);
  }

  /** Stops scheduling and waits for a tick in flight. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer !== null) this.opts.clock.clearTimeout(this.timer);
    this.timer = null;
    await this.whenIdle();
  }

  status(pod: string): LoopStatus {
    return {
      name: this.name,
      description: this.opts.description,
      pod,
      enabled: this.opts.enabled,
      running: this.started,
      lease: this.opts.lease.kind,
      leader: this.leader,
      intervalSeconds: this.opts.intervalMs / 1000,
      ticks: this.ticks,
      sweeps: this.sweeps,
      followerSkips: this.followerSkips,
      resolved: this.resolved,
      errors: this.errors,
      lastError: this.lastError,
      lastTickAt: formatTimestamp(this.lastTickAt),
      lastSweepAt: formatTimestamp(this.lastSweepAt),
      workInstalled: this.workFn !== null,
      ...this.opts.extra,
    };
  }
}
