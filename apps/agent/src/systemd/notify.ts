import { execFile } from 'node:child_process';
import type { Clock } from '@vend/protocol';

/**
 * sd_notify(3) for the daemon under `Type=notify` + `WatchdogSec=` (packaging/vend-agent.service):
 * READY=1 once it serves, WATCHDOG=1 from its own event loop every third of the watchdog period (a
 * loop that is wedged sends nothing, and systemd kills and restarts it), STOPPING=1 when it stops.
 *
 * Node has no unix datagram sockets (dgram is UDP only) and the project takes no native addon, so the
 * message goes out through `systemd-notify` (systemd's own tool), run as a child without a shell. Its
 * default barrier keeps it alive until systemd has taken the message, which systemd needs to tell
 * which unit a child's message belongs to (hence `NotifyAccess=all` in the unit). A ping still out
 * when the next falls due is skipped, so a slow manager never piles up children.
 */
export interface NotifyOptions {
  /** $NOTIFY_SOCKET; absent: not under systemd's notify protocol, nothing is sent. */
  socket?: string | undefined;
  /** $WATCHDOG_USEC: the watchdog period in µs; absent or 0: no watchdog. */
  watchdogUsec?: number | undefined;
  /** $WATCHDOG_PID: the watchdog is this process's only when it names this pid (or is absent). */
  watchdogPid?: number | undefined;
  clock: Clock;
  /** Sends assignments (`READY=1`, …); default: `systemd-notify <assignments…>`. */
  send?: (assignments: string[]) => Promise<void>;
  /** A send that failed (logged once per kind by the caller's choice). */
  onError?: (error: Error) => void;
  pid?: number;
}

export function systemdNotify(socket: string, timeoutMs = 10_000): (assignments: string[]) => Promise<void> {
  return (assignments) =>
    new Promise((resolve, reject) => {
      execFile('systemd-notify', assignments, { timeout: timeoutMs, env: { ...process.env, NOTIFY_SOCKET: socket } }, (err) => (err ? reject(err) : resolve()));
    });
}

export class ServiceNotifier {
  private timer: unknown = null;
  private inFlight = false;
  private stopped = false;
  readonly watchdogMs: number | null;
  private readonly send: ((assignments: string[]) => Promise<void>) | null;
  /** Pings sent (tests and status). */
  pings = 0;

  constructor(private readonly opts: NotifyOptions) {
    this.send = opts.socket ? (opts.send ?? systemdNotify(opts.socket)) : null;
    const usec = opts.watchdogUsec ?? 0;
    const forUs = opts.watchdogPid === undefined || opts.watchdogPid === (opts.pid ?? process.pid);
    this.watchdogMs = this.send && usec > 0 && forUs ? Math.max(1, Math.floor(usec / 1000 / 3)) : null;
  }

  get enabled(): boolean {
    return this.send !== null;
  }

  private emit(assignments: string[]): Promise<void> {
    if (!this.send) return Promise.resolve();
    return this.send(assignments).catch((e: unknown) => this.opts.onError?.(e as Error));
  }

  /** The daemon serves: READY=1 (with a status line), then the watchdog pings start. */
  async ready(status: string): Promise<void> {
    await this.emit(['READY=1', `STATUS=${status}`, `MAINPID=${this.opts.pid ?? process.pid}`]);
    this.schedule();
  }

  private schedule(): void {
    if (this.watchdogMs === null || this.stopped) return;
    this.timer = this.opts.clock.setTimeout(() => {
      this.timer = null;
      if (!this.inFlight) {
        this.inFlight = true;
        this.pings++;
        void this.emit(['WATCHDOG=1']).finally(() => (this.inFlight = false));
      }
      this.schedule();
    }, this.watchdogMs);
  }

  /** STOPPING=1; the watchdog pings end (systemd's stop timeout governs from here). */
  async stopping(status: string): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.opts.clock.clearTimeout(this.timer);
    this.timer = null;
    await this.emit(['STOPPING=1', `STATUS=${status}`]);
  }
}
