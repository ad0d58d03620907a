import type { BlockedReport, DeferralReport, RevertReport } from '@vend/protocol';
import type { DispenseBook } from '../spool/book.ts';
import type { Dispenser } from '../spool/dispenser.ts';
import type { VmcDriver } from '../vmc/driver.ts';
import type { UpgradeHost } from './manager.ts';
import { holdVendLock } from './vend-hold.ts';

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

/** The upgrade pipeline's reports, carried in every heartbeat until replaced or cleared. */
export interface UpgradeReports {
  deferring: DeferralReport | null;
  blocked: BlockedReport | null;
  reverted: RevertReport | null;
}

export interface CabinetUpgradeHostOptions {
  runningVersion: string;
  dispenser: Pick<Dispenser, 'lock' | 'leased' | 'recovered' | 'idleSeconds'>;
  /** The board driver: its lock is busy while a board exchange runs. */
  driver: Pick<VmcDriver, 'lock'>;
  book: Pick<DispenseBook, 'depth'>;
  fetchOffer: () => Promise<unknown>;
  /** Sends a heartbeat now; true on a 2xx. */
  cloudReachable: () => Promise<boolean>;
  restart: () => void;
}

/**
 * The daemon's side of the upgrade pipeline (docs/agent-upgrades.md "Wiring into the daemon"): how
 * busy the cabinet is, the vend lock held for an install, and the reports the heartbeat carries.
 */
export class CabinetUpgradeHost implements UpgradeHost {
  readonly reports: UpgradeReports = { deferring: null, blocked: null, reverted: null };
  /** The daemon's stop must not wait for a lock the pipeline keeps until the process exits. */
  private held = false;

  constructor(private readonly opts: CabinetUpgradeHostOptions) {}

  /** The pipeline holds the vend lock (from its last quiet check until exit). */
  get vendLockHeld(): boolean {
    return this.held;
  }

  runningVersion(): string {
    return this.opts.runningVersion;
  }

  quiet(): QuietFacts {
    const { dispenser, driver, book } = this.opts;
    return {
      vendLockFree: dispenser.lock.isFree && driver.lock.isFree,
      leased: dispenser.leased,
      spoolDepth: book.depth(),
      secondsSinceActivity: dispenser.idleSeconds(),
    };
  }

  fetchOffer(): Promise<unknown> {
    return this.opts.fetchOffer();
  }

  reportDeferral(report: DeferralReport): void {
    this.setReports({ deferring: report });
  }

  reportBlocked(report: BlockedReport): void {
    this.setReports({ blocked: report });
  }

  clearReports(): void {
    this.setReports({ deferring: null, blocked: null });
  }

  /** Null: the condition ended. */
  setReports(reports: { deferring?: DeferralReport | null; blocked?: BlockedReport | null }): void {
    if (reports.deferring !== undefined) this.reports.deferring = reports.deferring;
    if (reports.blocked !== undefined) this.reports.blocked = reports.blocked;
  }

  /** The dispenser's vend lock, only when free and crash recovery is done (an unsettled vend is not quiet). */
  holdVendLock(): { release(): void } | null {
    if (this.held || !this.opts.dispenser.recovered) return null;
    const hold = holdVendLock(this.opts.dispenser.lock);
    if (hold === null) return null;
    this.held = true;
    return {
      release: () => {
        this.held = false;
        hold.release();
      },
    };
  }

  restart(): void {
    this.opts.restart();
  }

  cloudReachable(): Promise<boolean> {
    return this.opts.cloudReachable();
  }
}
