import { PENDING_WAIT_MAX_SECONDS, type Clock, type PendingData } from '@vend/protocol';
import type { CallOptions } from './client.ts';

type PendingCommands = PendingData['commands'];

export interface PendingPollerOptions {
  client: { pending(options: CallOptions & { wait?: number }): Promise<PendingData> };
  clock: Clock;
  /** Hands the answer's commands on; answers how many were new. */
  offer(commands: PendingCommands): number;
  /** The long poll's `wait` in seconds (default the protocol's maximum, 25). */
  waitSeconds?: number;
}

/**
 * The pending leg as a long poll (docs/decisions/agent.md). Every call asks the cloud to hold an empty
 * answer up to `waitSeconds` (the client's deadline for it is the wait plus the usual one). The next call
 * goes out at once after an answer that brought new commands, or that came back empty after being held
 * (a cloud that knows `wait`); after anything else — an error, an empty answer well inside the wait (a
 * cloud that predates `wait`, or one refusing another hold), an answer repeating only commands already in
 * hand (a dispense still under way) — the loop sleeps its configured poll interval, as before.
 */
export class PendingPoller {
  private again = false;
  readonly waitSeconds: number;

  constructor(private readonly opts: PendingPollerOptions) {
    this.waitSeconds = opts.waitSeconds ?? PENDING_WAIT_MAX_SECONDS;
  }

  /** How long the loop sleeps before the next call. */
  delayMs(pollIntervalMs: number): number {
    return this.again ? 0 : pollIntervalMs;
  }

  async poll(signal?: AbortSignal): Promise<{ commands: PendingCommands; added: number; held: boolean }> {
    this.again = false;
    const sentAt = this.opts.clock.now();
    const { commands } = await this.opts.client.pending({ attempts: 1, wait: this.waitSeconds, ...(signal ? { signal } : {}) });
    const added = this.opts.offer(commands);
    // held: an empty answer that took at least half the wait (an old cloud answers in milliseconds)
    const held = commands.length === 0 && this.opts.clock.now() - sentAt >= (this.waitSeconds * 1000) / 2;
    this.again = held || added > 0;
    return { commands, added, held };
  }
}
