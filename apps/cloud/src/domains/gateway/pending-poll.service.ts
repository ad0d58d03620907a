import type { Clock, PendingData } from '@vend/protocol';
import type { CommandsService } from '../commands/commands.service.ts';
import type { PendingNotifier } from '../commands/pending-notifier.ts';

/** A long poll of `pending`: how long at most, and the client's going away. */
export interface PendingHold {
  waitSeconds: number;
  signal?: AbortSignal;
}

export interface PendingPollDeps {
  clock: Clock;
  /** The pending commands of a machine. */
  commands: CommandsService;
  /** This process's held calls, woken when a command is enqueued here. */
  notifier: PendingNotifier;
}

/** `GET /cabinet/pending`: the cabinet's pending remote drops, answered at once or held (long poll). */
export class PendingPollService {
  constructor(private readonly deps: PendingPollDeps) {}

  /**
   * Pending remote drops of the cabinet, oldest first (the commands service's poll). With `hold`, a long
   * poll: when nothing is pending the answer waits until a command is enqueued for the machine (woken by
   * this process's notifier, or found by re-reading the store every `recheckMs` when another replica
   * enqueued it), the wait is over, the client went away or the process is stopping; then it answers
   * with what is pending (possibly nothing). A machine already holding its limit of calls, or a stopping
   * process, answers at once.
   */
  async pending(machineId: string, hold?: PendingHold): Promise<PendingData> {
    const { clock, notifier } = this.deps;
    const deadline = clock.now() + (hold?.waitSeconds ?? 0) * 1000;
    for (;;) {
      const remaining = deadline - clock.now();
      // the waiter is in place before the store is read, so an enqueue between the two is not missed
      const held = hold && remaining > 0 ? notifier.hold(machineId, remaining, hold.signal) : null;
      const data = await this.pendingNow(machineId);
      if (!held || data.commands.length > 0) {
        held?.release();
        return data;
      }
      const why = await held.ended;
      // client gone or shutting down: answer what was read, without another store read
      if (why === 'aborted' || why === 'shutdown') return data;
    }
  }

  private async pendingNow(machineId: string): Promise<PendingData> {
    const commands = await this.deps.commands.pendingFor(machineId);
    return {
      commands: commands.map((c) => ({ commandId: c.commandId, aisleNo: c.aisleNo, reason: c.reason, externalRef: c.externalRef, createdAt: c.createdAt })),
    };
  }
}
