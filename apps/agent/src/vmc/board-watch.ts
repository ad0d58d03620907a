import type { Clock, ControlStatus, VmcBoardInfo } from '@vend/protocol';
import { sleep } from '../cloud/backoff.ts';
import { isDiskFull } from '../state/disk-full.ts';
import type { DriverLogger } from './link.ts';
import type { VmcDriver } from './driver.ts';

const BOARD_CHECK_MS = 60_000;
const BOARD_RETRY_MS = 10_000;

type BoardState = Omit<ControlStatus['board'], 'port' | 'checkedAt'> & { checkedAt: number | null };

export interface BoardWatchOptions {
  driver: Pick<VmcDriver, 'info' | 'status'>;
  /** Crash recovery (the dispenser's): it settles the journal before any other frame goes to the board. */
  recovery: { readonly recovered: boolean; recover(): Promise<number> };
  clock: Clock;
  log: DriverLogger;
  /** The board stopped answering (the status view's "last errors"). */
  noteError: (source: string, message: string) => void;
}

/**
 * The daemon's view of the board: its loop runs crash recovery first, reads the board's INFO, then
 * checks its status every minute (every 10 s while it does not answer), and keeps what the status
 * view's `board` block shows.
 */
export class BoardWatch {
  private readonly board: BoardState = {
    state: 'unknown',
    vmcVersion: null,
    module: null,
    rows: null,
    columnsPerRow: null,
    bootId: null,
    problems: [],
    checkedAt: null,
    lastError: null,
  };

  constructor(private readonly opts: BoardWatchOptions) {}

  /** The board's firmware version, once it answered. */
  get vmcVersion(): string | null {
    return this.board.vmcVersion;
  }

  /** False while the board does not answer: a dispense then is refused rather than left to time out. */
  get available(): boolean {
    return this.board.state !== 'unavailable';
  }

  /** Aisles the board's geometry gives; null until INFO told it (the configuration block stands in). */
  aisles(): number | null {
    return this.board.rows && this.board.columnsPerRow ? this.board.rows * this.board.columnsPerRow : null;
  }

  /** The status view's `board` block. */
  status(port: string): ControlStatus['board'] {
    return { port, ...this.board, checkedAt: this.board.checkedAt === null ? null : new Date(this.board.checkedAt).toISOString() };
  }

  async run(signal: AbortSignal): Promise<void> {
    const { driver, recovery, clock, log } = this.opts;
    while (!signal.aborted) {
      try {
        if (!recovery.recovered) {
          const settled = await recovery.recover();
          if (settled > 0) log.info({ settled }, 'crash recovery done');
        }
        if (this.board.vmcVersion === null) await driver.info();
        const st = await driver.status();
        const problems: string[] = [];
        if (st.faults.lift) problems.push('lift fault');
        if (st.faults.dropSensor) problems.push('drop sensor fault');
        if (st.faults.jammedLanes) problems.push('a lane is jammed');
        Object.assign(this.board, {
          state: problems.length > 0 || st.state === 'fault' ? 'fault' : 'ok',
          bootId: st.bootId,
          problems,
          checkedAt: clock.now(),
          lastError: null,
        });
        if (!(await sleep(clock, BOARD_CHECK_MS, signal))) return;
      } catch (e) {
        const message = (e as Error).message;
        if (isDiskFull(e)) {
          // recovery could not journal an outcome: the board is fine, the disk is not (DiskWatch logged it once)
          if (!(await sleep(clock, BOARD_RETRY_MS, signal))) return;
          continue;
        }
        if (this.board.state !== 'unavailable') log.warn({ error: message }, 'the board does not answer');
        Object.assign(this.board, { state: 'unavailable', lastError: message, checkedAt: clock.now() });
        this.opts.noteError('board', message);
        if (!(await sleep(clock, BOARD_RETRY_MS, signal))) return;
      }
    }
  }

  /** Every INFO the driver reads: at start, and again after a new boot id (other firmware or geometry). */
  noteInfo(info: VmcBoardInfo): void {
    if (this.board.bootId !== null && info.bootId !== this.board.bootId)
      this.opts.log.warn({ was: this.board.bootId, now: info.bootId, vmcVersion: info.vmcVersion }, 'the board restarted: board info read again');
    Object.assign(this.board, {
      vmcVersion: info.vmcVersion,
      module: info.module,
      rows: info.rows,
      columnsPerRow: info.columnsPerRow,
      bootId: info.bootId,
    });
  }
}
