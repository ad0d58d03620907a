import type { Clock } from '@vend/protocol';

/** Why a hold ended: a command was enqueued here, its time ran out, the client went away, or the process is stopping. */
export type HoldEnd = 'notified' | 'timeout' | 'aborted' | 'shutdown';

export interface Hold {
  /** Settles once, with why the hold ended; the waiter is already released by then. */
  readonly ended: Promise<HoldEnd>;
  /** Ends the hold now (the caller found commands, or gave up); harmless after it ended. */
  release(): void;
}

export interface PendingNotifierOptions {
  /** Held pending calls per machine at most; one more is refused (answered at once). */
  maxPerMachine: number;
  /** How often the held machines are probed in the store: the bound for commands enqueued by another replica. */
  recheckMs: number;
  /**
   * Which of these machines have pending commands in the store — one batched query for every machine held
   * in this process. Without it (SQLite: one process per file, every enqueue is signalled here) nothing is probed.
   */
  probe?: (machineIds: string[]) => Promise<string[]>;
  /** A probe that fails is logged by the caller's choice; the holds go on (their timeout still ends them). */
  onProbeError?: (err: unknown) => void;
  /** A publish to the other replicas that fails is logged by the caller's choice; their probe still finds the command. */
  onPublishError?: (err: unknown) => void;
}

/** Tells every replica (this one included) that a machine has a new command: see `connect`. */
export interface WakePublisher {
  publish(machineId: string): Promise<void>;
}

export const PENDING_NOTIFIER_DEFAULTS: PendingNotifierOptions = Object.freeze({ maxPerMachine: 4, recheckMs: 2_000 });

/** Machines per probe query (an IN list PostgreSQL plans well). */
const PROBE_CHUNK = 500;

interface Waiter {
  finish(why: HoldEnd): void;
}

/**
 * Wakes long-polling `GET /cabinet/pending` calls of one process when a command is enqueued for their
 * machine (docs/decisions/gateway-and-credentials.md). A command enqueued by another replica is found by
 * one batched `probe` of every held machine each `recheckMs` (one query per process, not one per hold),
 * which runs only while something is held. Timers come from the injected clock, so tests drive holds
 * with a ManualClock.
 */
export class PendingNotifier {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private closed = false;
  private held = 0;
  private probeTimer: unknown = null;
  private probing = false;
  private publisher: WakePublisher | null = null;
  readonly opts: PendingNotifierOptions;

  constructor(
    private readonly clock: Clock,
    opts: Partial<PendingNotifierOptions> = {},
  ) {
    this.opts = { ...PENDING_NOTIFIER_DEFAULTS, ...opts };
  }

  /**
   * Holds until `notify(machineId)`, `ms` elapses, `signal` aborts or `close()`. Null when the machine
   * already has `maxPerMachine` holds, when the notifier is closed, or when `signal` already aborted:
   * the caller answers at once.
   */
  hold(machineId: string, ms: number, signal?: AbortSignal): Hold | null {
    if (this.closed || signal?.aborted) return null;
    let set = this.waiters.get(machineId);
    if (set && set.size >= this.opts.maxPerMachine) return null;
    if (!set) {
      set = new Set();
      this.waiters.set(machineId, set);
    }
    const waiters = set;
    let resolve!: (why: HoldEnd) => void;
    const ended = new Promise<HoldEnd>((r) => (resolve = r));
    let done = false;
    const onAbort = () => waiter.finish('aborted');
    const timer = this.clock.setTimeout(() => waiter.finish('timeout'), Math.max(0, ms));
    const waiter: Waiter = {
      finish: (why) => {
        if (done) return;
        done = true;
        this.clock.clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        waiters.delete(waiter);
        if (waiters.size === 0 && this.waiters.get(machineId) === waiters) this.waiters.delete(machineId);
        this.held--;
        resolve(why);
      },
    };
    waiters.add(waiter);
    this.held++;
    this.scheduleProbe();
    signal?.addEventListener('abort', onAbort, { once: true });
    return { ended, release: () => waiter.finish('aborted') };
  }

  /**
   * Cross-replica push (docs/decisions/scale-out.md): from now on `notify` also publishes the machine to
   * every replica, whose subscriber calls `wake` — a hold on another replica ends at once instead of at its
   * next probe. The probe stays as the safety net for a publish that was lost.
   */
  connect(publisher: WakePublisher): void {
    this.publisher = publisher;
  }

  /** A command was enqueued for the machine (here): every hold of it on every replica ends now (each re-reads the store). */
  notify(machineId: string): void {
    this.wake(machineId);
    this.publisher?.publish(machineId).catch((err: unknown) => this.opts.onPublishError?.(err));
  }

  /** Ends this process's holds of the machine (a local enqueue, or a message from another replica). */
  wake(machineId: string): void {
    const set = this.waiters.get(machineId);
    if (!set) return;
    for (const w of [...set]) w.finish('notified');
  }

  /** Holds in progress: of one machine, or of the whole process. */
  holding(machineId?: string): number {
    return machineId === undefined ? this.held : (this.waiters.get(machineId)?.size ?? 0);
  }

  /** One probe of every held machine; the ones with pending commands are woken. Public for tests. */
  async probeNow(): Promise<void> {
    const probe = this.opts.probe;
    if (!probe || this.probing || this.waiters.size === 0) return;
    this.probing = true;
    try {
      const ids = [...this.waiters.keys()];
      for (let i = 0; i < ids.length; i += PROBE_CHUNK) {
        for (const id of await probe(ids.slice(i, i + PROBE_CHUNK))) this.wake(id);
      }
    } catch (err) {
      this.opts.onProbeError?.(err);
    } finally {
      this.probing = false;
    }
  }

  /** Keeps one probe timer running while anything is held (and a probe is configured). */
  private scheduleProbe(): void {
    if (!this.opts.probe || this.probeTimer !== null || this.closed || !Number.isFinite(this.opts.recheckMs)) return;
    this.probeTimer = this.clock.setTimeout(() => {
      this.probeTimer = null;
      void this.probeNow().finally(() => {
        if (this.held > 0) this.scheduleProbe();
      });
    }, this.opts.recheckMs);
  }

  /** Shutdown: every hold ends now (answered with what it has) and no new one starts. */
  close(): void {
    this.closed = true;
    if (this.probeTimer !== null) this.clock.clearTimeout(this.probeTimer);
    this.probeTimer = null;
    for (const set of [...this.waiters.values()]) for (const w of [...set]) w.finish('shutdown');
  }
}
