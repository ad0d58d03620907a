import { randomUUID } from 'node:crypto';
import type { Clock, PAY_METHODS, PendingData } from '@vend/protocol';

type PayMethodName = (typeof PAY_METHODS)[number];
import { MOTOR_RAN_BY_OUTCOME } from '@vend/protocol';
import { CloudError } from '../cloud/client.ts';
import type { CloudClient, CloudLogger } from '../cloud/client.ts';
import type { DispenseBinding, DispenseResolution } from '../vmc/driver.ts';
import type { DispenseReport } from '../vmc/outcomes.ts';
import { isDiskFull } from '../state/disk-full.ts';
import { elapsedNow } from '../state/monotonic.ts';
import { VendLock } from '../vmc/vend-lock.ts';
import { vendResultOf } from './book.ts';
import type { DispenseBook, VendResult } from './book.ts';
import type { OutcomeRecord } from './journal.ts';

export type PendingCommand = PendingData['commands'][number];

/** The driver as the dispenser uses it (VmcDriver; a fake in unit tests). */
export interface DispenseDriver {
  dispense(aisle: number, opts: { onRequest: (binding: DispenseBinding) => Promise<void> }): Promise<DispenseReport>;
  resolveDispense(binding: DispenseBinding): Promise<DispenseResolution>;
}

/** Why a walk-up dispense was refused before the motor ran. */
export class DispenseRefused extends Error {
  constructor(
    readonly code:
      'busy' | 'not-ready' | 'board-unavailable' | 'bad-aisle' | 'cloud-refused' | 'cloud-unreachable' | 'not-enrolled' | 'disk-full' | 'spool-full',
    message: string,
    /** The cloud's status when it refused the order. */
    readonly cloudStatus: number | null = null,
  ) {
    super(message);
    this.name = 'DispenseRefused';
  }
}

export interface WalkUpRequest {
  aisle: number;
  payMethod?: PayMethodName;
  cardBrand?: string;
  cardLast4?: string;
}

export type { VendResult } from './book.ts';

export interface DispenserOptions {
  book: DispenseBook;
  driver: DispenseDriver;
  client: Pick<CloudClient, 'createOrder'>;
  clock: Clock;
  log: CloudLogger;
  /** A new report is in the spool. */
  onOutcome(outcome: OutcomeRecord): void;
  /** Aisles the machine has (from the configuration block); null when unknown. */
  aisleCount(): number | null;
  /** The board answered its last check (walk-ups are refused at once when it did not). */
  boardAvailable(): boolean;
  /**
   * The state disk has room for a vend's records (state/disk-full.ts VEND_ROOM_BYTES). A vend that
   * could not be journalled is not started: its intent is what makes a crash or a lost answer
   * settle it once, and its outcome is the report that bills it. Default: always.
   */
  diskRoom?(): boolean;
  /**
   * Undelivered reports past which no new vend starts (the report spool's bound): reports are never
   * dropped, so the bound is kept by refusing the next sale, not by forgetting an old one. Default: none.
   */
  spoolMax?: number;
  /** A vend's outcome could not be journalled (the disk): the status shows it. */
  onUnrecorded?(dispenseId: string, message: string): void;
}

/** The dispenseId of a remote drop: derived from the command, so it is the same however often the agent restarts. */
export function dispenseIdForCommand(commandId: string): string {
  return `drop:${commandId}`;
}
/** The dispenseId of a walk-up sale: one order is one drop. */
export function dispenseIdForOrder(orderNumber: string): string {
  return `walkup:${orderNumber}`;
}

/**
 * Every dispense of the cabinet, remote or walk-up, crash-safe:
 *
 *   1. (walk-up) the order is opened on the cloud first (`createOrder`);
 *   2. the intent — dispenseId, command or order, aisle, the frame's seq and boot id, the board's
 *      last seq — is appended to the journal and fsynced before the DISPENSE frame goes on the wire;
 *   3. the board's outcome is appended (fsynced) before anyone is told: then it is a report in the spool;
 *   4. the spool delivers it in order and marks it delivered after the cloud's 2xx.
 *
 * After a crash, an intent without an outcome is settled by asking the board what became of that
 * frame (VmcDriver.resolveDispense), never by sending a new request. A command the journal knows is
 * never run again, however often the cloud lists it. The cabinet's vend lock covers all of it:
 * one dispense at a time, and a walk-up arriving while it is held is refused, not queued.
 */
export class Dispenser {
  readonly lock = new VendLock();
  private queue: PendingCommand[] = [];
  private queued = new Set<string>();
  private wakeWorker: (() => void) | null = null;
  private recoveredFlag = false;
  private inFlight: string | null = null;
  /** Wall time of the last vend or lease, for the status view. */
  lastActivityAt: number;
  /** The same on the monotonic clock: how long the cabinet has been idle survives a wall-clock step. */
  private lastActivityElapsed: number;

  constructor(private readonly opts: DispenserOptions) {
    this.lastActivityAt = opts.clock.now();
    this.lastActivityElapsed = elapsedNow(opts.clock);
  }

  /** Seconds since the last vend or lease (the upgrade's quiet window), on the monotonic clock. */
  idleSeconds(): number {
    return Math.max(0, Math.floor((elapsedNow(this.opts.clock) - this.lastActivityElapsed) / 1000));
  }

  private touch(): void {
    this.lastActivityAt = this.opts.clock.now();
    this.lastActivityElapsed = elapsedNow(this.opts.clock);
  }

  /** Crash recovery is done: no intent is left without an outcome. */
  get recovered(): boolean {
    return this.recoveredFlag;
  }

  /** Commands taken from the cloud and not yet finished (the upgrade's "nothing leased"). */
  get leased(): number {
    return this.queue.length; // the running one stays at the head of the queue until it has its outcome
  }

  /** The dispense running now, if any. */
  get current(): string | null {
    return this.inFlight;
  }

  /**
   * Settles every intent a crash left without an outcome, by asking the board. Throws (a
   * VmcLinkError) while the board cannot be reached; call again later. Until it succeeds nothing
   * else is dispensed.
   */
  async recover(): Promise<number> {
    let settled = 0;
    for (const intent of this.opts.book.unresolved()) {
      const binding: DispenseBinding = { aisle: intent.aisle, seq: intent.seq, bootId: intent.bootId, boardLastSeq: intent.boardLastSeq };
      const resolution = await this.lock.run(() => this.opts.driver.resolveDispense(binding));
      const subject = { id: intent.id, kind: intent.kind, aisle: intent.aisle, commandId: intent.commandId, orderNumber: intent.orderNumber };
      const record =
        resolution.state === 'not-sent'
          ? {
              ...subject,
              success: false,
              outcome: 'board_unavailable' as const,
              motorRan: MOTOR_RAN_BY_OUTCOME.board_unavailable,
              detail: `agent restarted: ${resolution.detail}`,
            }
          : {
              ...subject,
              success: resolution.report.outcome === 'success',
              outcome: resolution.report.outcome,
              motorRan: resolution.report.motorRan,
              detail: resolution.report.detail,
            };
      this.finish(record, 'recovery');
      this.opts.log.warn({ dispenseId: intent.id, outcome: record.outcome, motorRan: record.motorRan }, 'settled a dispense interrupted by a restart');
      settled++;
    }
    this.recoveredFlag = true;
    this.wakeWorker?.();
    return settled;
  }

  /** Takes pending commands from a poll; returns how many were new. Known ones (journal or queue) are ignored. */
  offer(commands: readonly PendingCommand[]): number {
    let added = 0;
    for (const command of commands) {
      if (this.queued.has(command.commandId) || this.opts.book.knowsCommand(command.commandId)) continue;
      this.queue.push(command);
      this.queued.add(command.commandId);
      added++;
    }
    if (added > 0) {
      this.touch();
      this.wakeWorker?.();
    }
    return added;
  }

  /** Runs queued remote drops one by one until the signal aborts. */
  async runQueue(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const next = this.recoveredFlag ? this.queue[0] : undefined;
      if (!next) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            signal.removeEventListener('abort', done);
            this.wakeWorker = null;
            resolve();
          };
          signal.addEventListener('abort', done, { once: true });
          this.wakeWorker = done;
        });
        continue;
      }
      try {
        this.checkRecordable();
        await this.lock.run(() => this.runCommand(next));
      } catch (e) {
        // the journal could not be written: nothing was sent; the cloud lists the command again
        this.opts.log.error({ commandId: next.commandId, error: (e as Error).message }, 'remote drop not started');
      } finally {
        this.queue.shift();
        this.queued.delete(next.commandId);
      }
    }
  }

  private async runCommand(command: PendingCommand): Promise<void> {
    if (this.opts.book.knowsCommand(command.commandId)) return;
    const id = dispenseIdForCommand(command.commandId);
    this.inFlight = id;
    try {
      this.opts.log.info({ commandId: command.commandId, aisle: command.aisleNo, dispenseId: id }, 'remote drop');
      const report = await this.opts.driver.dispense(command.aisleNo, {
        onRequest: async (b) =>
          this.opts.book.recordIntent({
            id,
            kind: 'command',
            commandId: command.commandId,
            aisle: command.aisleNo,
            seq: b.seq,
            bootId: b.bootId,
            boardLastSeq: b.boardLastSeq,
          }),
      });
      this.finish({ id, kind: 'command', commandId: command.commandId, orderNumber: undefined, aisle: command.aisleNo, ...fromReport(report) }, 'dispense');
    } finally {
      this.inFlight = null;
      this.touch();
    }
  }

  /**
   * A walk-up sale after local payment: the order on the cloud, the motor, the report. Refused
   * (DispenseRefused) while another dispense holds the vend lock, before recovery, when the board
   * is known to be down, for an aisle the machine does not have, or when the cloud does not open
   * the order — in each case before the motor could run.
   */
  async walkUp(req: WalkUpRequest): Promise<VendResult> {
    if (!this.recoveredFlag)
      throw new DispenseRefused('not-ready', 'the agent is still settling a dispense whose outcome is not journalled yet (a restart, or a full disk)');
    if (!this.opts.boardAvailable()) throw new DispenseRefused('board-unavailable', 'the vending board is not answering');
    this.checkRecordable();
    const count = this.opts.aisleCount();
    if (!Number.isInteger(req.aisle) || req.aisle < 1 || (count !== null && req.aisle > count))
      throw new DispenseRefused('bad-aisle', `aisle must be 1..${count ?? '?'}, got ${req.aisle}`);
    // Checked and taken in the same turn: two walk-ups cannot both see the lock free.
    if (!this.lock.isFree) throw new DispenseRefused('busy', `a dispense is running (${this.inFlight ?? 'starting'}); try again when it has finished`);
    return this.lock.run(async () => {
      this.inFlight = 'walk-up';
      this.touch();
      try {
        let order;
        try {
          order = await this.opts.client.createOrder(
            {
              aisleNo: req.aisle,
              quantity: 1,
              // one reference per sale: a retry after a lost answer gets this sale's order, not a second one
              requestRef: `wu-${randomUUID()}`,
              ...(req.payMethod ? { payMethod: req.payMethod } : {}),
              ...(req.cardBrand ? { cardBrand: req.cardBrand } : {}),
              ...(req.cardLast4 ? { cardLast4: req.cardLast4 } : {}),
            },
            { attempts: 2 },
          );
        } catch (e) {
          if (!(e instanceof CloudError)) throw e;
          if (e.kind === 'http') throw new DispenseRefused('cloud-refused', `the cloud did not open the order: ${e.message}`, e.status);
          if (e.kind === 'no-credential' || e.kind === 'revoked') throw new DispenseRefused('not-enrolled', e.message);
          throw new DispenseRefused('cloud-unreachable', `the cloud could not be reached to open the order: ${e.message}`);
        }
        const id = dispenseIdForOrder(order.orderNumber);
        this.inFlight = id;
        this.opts.log.info({ orderNumber: order.orderNumber, aisle: req.aisle, dispenseId: id }, 'walk-up sale');
        const report = await this.opts.driver.dispense(req.aisle, {
          onRequest: async (b) =>
            this.opts.book.recordIntent({
              id,
              kind: 'order',
              orderNumber: order.orderNumber,
              aisle: req.aisle,
              seq: b.seq,
              bootId: b.bootId,
              boardLastSeq: b.boardLastSeq,
            }),
        });
        const record = { id, kind: 'order' as const, commandId: undefined, orderNumber: order.orderNumber, aisle: req.aisle, ...fromReport(report) };
        this.finish(record, 'dispense');
        return vendResultOf(record);
      } finally {
        this.inFlight = null;
        this.touch();
      }
    });
  }

  /** Refuses (before the cloud or the board is asked) a vend whose records the disk or the spool's bound could not take. */
  private checkRecordable(): void {
    if (this.opts.diskRoom && !this.opts.diskRoom())
      throw new DispenseRefused('disk-full', 'the state disk is full: a vend that cannot be recorded is not started; try again when space returns');
    const max = this.opts.spoolMax;
    const depth = max === undefined ? 0 : this.opts.book.depth();
    if (max !== undefined && depth >= max)
      throw new DispenseRefused('spool-full', `${depth} reports wait for the cloud (the bound is ${max}); no new vend until they are delivered`);
  }

  private finish(record: Omit<OutcomeRecord, 't' | 'at' | 'via'>, via: OutcomeRecord['via']): void {
    const clean = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Omit<OutcomeRecord, 't' | 'at' | 'via'>;
    try {
      this.opts.book.recordOutcome({ ...clean, via });
    } catch (e) {
      // recovery itself throws: it runs again later (the board loop retries it), nothing else dispenses meanwhile
      if (!isDiskFull(e) || via === 'recovery') throw e;
      // The motor has run (or not) and the disk would not take it. The intent is on disk, so this is the
      // state a crash leaves: recovery settles it by asking the board (its stored result for that frame),
      // and until then nothing else is dispensed — the board must still hold this frame as its last.
      this.recoveredFlag = false;
      const message = `the outcome of ${record.id} could not be journalled (${(e as Error).message}); it is settled from the board when space returns`;
      this.opts.log.error({ dispenseId: record.id, outcome: record.outcome, error: (e as Error).message }, 'dispense outcome not journalled: vends paused');
      this.opts.onUnrecorded?.(record.id, message);
      return;
    }
    const stored = this.opts.book.get(record.id)?.outcome;
    if (stored) this.opts.onOutcome(stored);
  }
}

function fromReport(report: DispenseReport) {
  return { success: report.outcome === 'success', outcome: report.outcome, detail: report.detail, motorRan: report.motorRan };
}
