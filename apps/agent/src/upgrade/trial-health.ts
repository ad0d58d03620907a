import type { Clock } from '@vend/protocol';
import type { InstallRoot, UpgradeLogger } from './trees.ts';

export interface TrialHealthOptions {
  clock: Clock;
  /** Spec 2 §8: the cloud must be reached within this of booting a new version. */
  timeoutMs: number;
  /** How often the cloud is tried meanwhile (and a refused commit written again). */
  pollMs: number;
  log: UpgradeLogger;
  /** UpgradeHost.cloudReachable: a heartbeat now, true on a 2xx. */
  cloudReachable: () => Promise<boolean>;
  /** Commits the version on trial (the manager's `cloudReached`, which also disarms this timer); throws when the disk refuses. */
  commit: () => Promise<unknown>;
  trees: Pick<InstallRoot, 'revertTrial'>;
  /** UpgradeHost.restart: into the reverted tree. */
  restart: () => void;
}

/**
 * The health timer of a version on trial: `cloudReachable()` at once and every poll period; reached →
 * commit; not reached before the deadline → revert and restart.
 */
export class TrialHealth {
  private timer: unknown = null;
  private deadline: unknown = null;
  private polling = false;
  /** The commit after the cloud was reached was refused by the disk (logged once while it lasts). */
  private commitRefused = false;

  constructor(private readonly opts: TrialHealthOptions) {}

  arm(): void {
    if (this.deadline !== null) return;
    const clock = this.opts.clock;
    this.deadline = clock.setTimeout(() => {
      this.deadline = null;
      if (this.timer !== null) clock.clearTimeout(this.timer);
      this.timer = null;
      void this.expired();
    }, this.opts.timeoutMs);
    const poll = (): void => {
      this.timer = clock.setTimeout(() => {
        this.timer = null;
        void this.poll().then((done) => {
          if (!done && this.deadline !== null) poll();
        });
      }, this.opts.pollMs);
    };
    // first try at once
    void this.poll().then((done) => {
      if (!done && this.deadline !== null) poll();
    });
  }

  /** Stops the deadline and the polling (the trial is committed, or the manager stops). */
  disarm(): void {
    if (this.deadline !== null) this.opts.clock.clearTimeout(this.deadline);
    if (this.timer !== null) this.opts.clock.clearTimeout(this.timer);
    this.deadline = this.timer = null;
  }

  private async poll(): Promise<boolean> {
    if (this.polling || this.deadline === null) return false;
    this.polling = true;
    try {
      let ok = false;
      try {
        ok = await this.opts.cloudReachable();
      } catch (err) {
        this.opts.log.warn({ err: (err as Error).message }, 'upgrade: cloud not reached yet');
      }
      if (!ok || this.deadline === null) return false;
      this.opts.clock.clearTimeout(this.deadline);
      this.deadline = null;
      await this.commitReached();
      return true;
    } finally {
      this.polling = false;
    }
  }

  /**
   * The cloud was reached: the version on trial has proved itself, so no deadline reverts it any more. Its
   * commit is a journal write; a disk that refuses it (full) is not the version's fault — the write is tried
   * again every poll period until it lands (logged once), instead of the rejection escaping and ending the
   * process (docs/decisions/outages.md, "The cabinet").
   */
  private async commitReached(): Promise<void> {
    try {
      await this.opts.commit();
      if (this.commitRefused) this.opts.log.info({}, 'upgrade: the commit is written');
      this.commitRefused = false;
    } catch (err) {
      if (!this.commitRefused)
        this.opts.log.warn({ err: (err as Error).message }, 'upgrade: the cloud was reached but the commit could not be written; trying again');
      this.commitRefused = true;
      this.timer = this.opts.clock.setTimeout(() => {
        this.timer = null;
        void this.commitReached();
      }, this.opts.pollMs);
    }
  }

  private async expired(): Promise<void> {
    const seconds = Math.round(this.opts.timeoutMs / 1000);
    try {
      const reverted = await this.opts.trees.revertTrial((to) => `${to} did not reach the cloud within ${seconds} s of booting`);
      if (reverted) this.opts.restart();
    } catch (err) {
      // the journal could not be written (a full disk): it is written before each step, so it says where the
      // revert stopped; the trial guard's restart and the next boot guard finish it once they can write
      this.opts.log.error({ err: (err as Error).message }, 'upgrade: the trial ran out but the revert could not be written');
    }
  }
}
