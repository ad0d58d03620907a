import { VMC_ACK_TIMEOUT_MS, VMC_OPEN_ATTEMPTS, VMC_OPEN_BACKOFF_MS, VMC_RESULT_TIMEOUT_MS, encodeHostMessage, nextVmcSeq } from '@vend/protocol';
import type {
  Clock,
  VmcBoardInfo,
  VmcBoardMessage,
  VmcBoardStatus,
  VmcDispenseAck,
  VmcDispenseResult,
  VmcDropSensorReading,
  VmcHostMessage,
  VmcLaneScanPage,
} from '@vend/protocol';
import { motorRanOf, outcomeOfFailure, outcomeOfResult } from './outcomes.ts';
import type { DispenseReport, LinkFailure } from './outcomes.ts';
import { VmcLink, VmcLinkError, silentLogger } from './link.ts';
import type { DriverLogger, DriverStats, Incoming } from './link.ts';
import type { SerialTransport } from './transport.ts';
import { KeptDispense } from './kept-dispense.ts';
import { VendLock } from './vend-lock.ts';
import { elapsedNow } from '../state/monotonic.ts';

export interface VmcTimings {
  /** Wait for an ACK (or a query's reply) before sending the same frame again. Spec: 0.5 s. */
  ackTimeoutMs: number;
  /** Sends of one frame (first + retransmissions) before giving up with no_ack. */
  maxSends: number;
  /** Wait for a dispense result after the ACK. Spec: 30 s. */
  resultTimeoutMs: number;
  /** Past the board's own estimate, wait this long before asking again (re-sending the request). */
  resultGraceMs: number;
  /** Then ask again this often until the result comes or the result timeout passes. */
  resultQueryMs: number;
  /** Attempts to open the port. Spec: 10. */
  openAttempts: number;
  /** Pause between open attempts. Spec: 2 s. */
  openBackoffMs: number;
}

export const DEFAULT_VMC_TIMINGS: Readonly<VmcTimings> = Object.freeze({
  ackTimeoutMs: VMC_ACK_TIMEOUT_MS,
  maxSends: 5,
  resultTimeoutMs: VMC_RESULT_TIMEOUT_MS,
  resultGraceMs: 1000,
  resultQueryMs: 2000,
  openAttempts: VMC_OPEN_ATTEMPTS,
  openBackoffMs: VMC_OPEN_BACKOFF_MS,
});

export interface VmcDriverOptions {
  transport: SerialTransport;
  path: string;
  clock: Clock;
  timings?: Partial<VmcTimings>;
  /** Shared with whatever else must know the board is in use (the upgrade quiet check). */
  lock?: VendLock;
  log?: DriverLogger;
  /** Every INFO the board answers: the first read, and the one read again after a new boot id (docs/vmc-protocol.md §6.4). */
  onBoardInfo?: (info: VmcBoardInfo) => void;
}

/**
 * What the board is told for one dispense request, handed to `onRequest` before the frame first goes
 * on the wire (the agent's crash journal persists it): the sequence number and boot id the frame
 * carries, and the board's last accepted sequence number just before it (read with an unsequenced
 * STATUS), so that after a crash the agent can tell "never reached the board" from "reached it".
 */
export interface DispenseBinding {
  aisle: number;
  seq: number;
  bootId: number;
  boardLastSeq: number;
}

/** What the board says about a request a previous run of the agent may have sent (see resolveDispense). */
export type DispenseResolution =
  /** The board never accepted the frame: the motor did not run for it. */
  | { state: 'not-sent'; detail: string }
  /** The board had it: its stored result, fetched by retransmitting the identical frame (or undecided). */
  | { state: 'resolved'; report: DispenseReport };

export interface LaneScan {
  pages: number;
  /** Aisles scanned (1-based), with whether a motor is fitted and whether it is jammed. */
  lanes: { aisle: number; motor: boolean; jammed: boolean }[];
}

/**
 * The agent's end of the VMC link. Every operation goes through the vend lock, so only one frame
 * exchange is ever in flight; replies are matched to requests by sequence number.
 *
 * Dispense: send DISPENSE(seq, aisle, bootId); no ACK within 0.5 s -> send the same bytes again
 * (up to maxSends); ACK -> wait for RESULT(seq) up to 30 s, re-sending the same bytes when the
 * board's estimate has passed (the board answers a retransmission with a duplicate ACK and its
 * stored result; it never runs the motor twice). Unplug -> reopen (10 × 2 s) and carry on, unless
 * the board's boot id changed (then it forgot the request: report, never resend).
 */
export class VmcDriver {
  readonly lock: VendLock;
  readonly timings: Readonly<VmcTimings>;
  private readonly clock: Clock;
  private readonly log: DriverLogger;
  /** The port and its frames (open, decode, wait, write); this class is the conversation over it. */
  private readonly link: VmcLink;
  private seq = 0;
  /** The seq and boot of the last DISPENSE sent: the board may keep it, so a new one never reuses that seq. */
  private lastDispenseSeq = 0;
  private lastDispenseBoot = 0;
  private boot: number | null = null;
  /** A new boot id was seen: INFO is read before the next request (the board may run other firmware now). */
  private infoDue = false;
  private readonly kept = new KeptDispense();

  constructor(private readonly opts: VmcDriverOptions) {
    this.clock = opts.clock;
    this.timings = Object.freeze({ ...DEFAULT_VMC_TIMINGS, ...opts.timings });
    this.lock = opts.lock ?? new VendLock();
    this.log = opts.log ?? silentLogger;
    this.link = new VmcLink({
      transport: opts.transport,
      path: opts.path,
      clock: opts.clock,
      log: this.log,
      openAttempts: this.timings.openAttempts,
      openBackoffMs: this.timings.openBackoffMs,
    });
  }

  /** Frames sent, retransmissions, opens, bad and late frames since the driver was made. */
  get stats(): DriverStats {
    return this.link.stats;
  }

  get path(): string {
    return this.opts.path;
  }

  /** The board's boot id as of the last handshake (null before the first). */
  get bootId(): number | null {
    return this.boot;
  }

  get connected(): boolean {
    return this.link.isOpen;
  }

  /** Opens the port (with retries) and greets the board. Optional: every operation does it when needed. */
  connect(signal?: AbortSignal): Promise<void> {
    return this.lock.run(() => this.ensureReady().then(() => undefined), signal);
  }

  close(): Promise<void> {
    return this.link.close();
  }

  info(signal?: AbortSignal): Promise<VmcBoardInfo> {
    return this.lock.run(async () => {
      await this.ensureReady();
      return this.readInfo();
    }, signal);
  }

  /** A sequenced STATUS; when it shows a new boot id, INFO is read at once, before the caller's next request. */
  status(signal?: AbortSignal): Promise<VmcBoardStatus> {
    return this.lock.run(async () => {
      const status = await this.query({ kind: 'status' }, 'status');
      this.noteBoot(status.bootId, null);
      this.kept.reported(status.bootId, status.keptSeq);
      await this.readInfoIfDue();
      return status;
    }, signal);
  }

  dropSensor(signal?: AbortSignal): Promise<VmcDropSensorReading> {
    return this.lock.run(() => this.query({ kind: 'dropSensor' }, 'dropSensor'), signal);
  }

  /** Every lane: motor fitted, jammed. `onPage(done, pages)` after each page (a technician's progress line). */
  laneScan(signal?: AbortSignal, onPage?: (done: number, pages: number) => void): Promise<LaneScan> {
    return this.lock.run(async () => {
      const first = await this.query({ kind: 'laneScan', page: 0 }, 'laneScan');
      const pages: VmcLaneScanPage[] = [first];
      onPage?.(1, first.pages);
      for (let page = 1; page < first.pages && page < 128; page++) {
        pages.push(await this.query({ kind: 'laneScan', page: page }, 'laneScan'));
        onPage?.(page + 1, first.pages);
      }
      return {
        pages: first.pages,
        lanes: pages.flatMap((pg) => pg.motors.map((motor, i) => ({ aisle: pg.firstAisle + i, motor, jammed: pg.jams[i] ?? false }))),
      };
    }, signal);
  }

  /**
   * Vends one aisle. Never throws for a board or link problem: every request ends in exactly one
   * outcome. The signal only cancels waiting for the vend lock; once the request is on the wire it
   * is seen through.
   */
  dispense(aisle: number, opts: { signal?: AbortSignal; onRequest?: (binding: DispenseBinding) => Promise<void> } = {}): Promise<DispenseReport> {
    return this.lock.run(() => this.runDispense(aisle, opts.onRequest ? { onRequest: opts.onRequest } : {}), opts.signal);
  }

  /**
   * After a crash: what became of a request a previous run bound (seq, boot id) and may have sent.
   * Never sends a new request. An unsequenced STATUS tells whether the board restarted (undecided:
   * `no_result`, the motor may have run), never accepted the frame (`not-sent`), or holds it as its
   * last frame — then the identical 16 bytes are sent again, which the board answers as a
   * retransmission (duplicate ACK and the stored RESULT; the motor never runs twice). Throws
   * VmcLinkError('board_unavailable') when the board cannot be reached (ask again later).
   */
  resolveDispense(binding: DispenseBinding, signal?: AbortSignal): Promise<DispenseResolution> {
    return this.lock.run(async () => {
      await this.ensureReady();
      const status = await this.freshStatus();
      if (status.bootId !== binding.bootId) {
        return {
          state: 'resolved' as const,
          report: this.undecided(binding, `the board restarted (boot id ${binding.bootId} -> ${status.bootId}) while the agent was down`),
        };
      }
      if (status.lastSeq === binding.boardLastSeq && status.lastSeq !== binding.seq) {
        return {
          state: 'not-sent' as const,
          detail: `the board never accepted the request for aisle ${binding.aisle} (seq ${binding.seq}); the motor did not run`,
        };
      }
      if (status.lastSeq !== binding.seq) {
        return {
          state: 'resolved' as const,
          report: this.undecided(binding, `the board's last frame is seq ${status.lastSeq}, not the request's ${binding.seq} (another frame followed it)`),
        };
      }
      return { state: 'resolved' as const, report: await this.runDispense(binding.aisle, { resume: binding }) };
    }, signal);
  }

  private undecided(binding: DispenseBinding, why: string): DispenseReport {
    const outcome = 'no_result' as const;
    return {
      outcome,
      detail: `${why}; the request for aisle ${binding.aisle} may have run: check the machine before selling this aisle again`,
      motorRan: motorRanOf(outcome),
      aisle: binding.aisle,
      seq: binding.seq,
      sends: 0,
      durationMs: 0,
    };
  }

  /** An unsequenced STATUS now (never stored by the board); notes a restart like the greeting does. */
  private async freshStatus(): Promise<VmcBoardStatus> {
    const status = await this.exchange(0, { kind: 'status' }, 'status');
    this.noteBoot(status.bootId, status.lastSeq);
    this.kept.reported(status.bootId, status.keptSeq);
    return status;
  }

  /**
   * The board just before a new DISPENSE is bound, for the crash journal: INFO first if a new boot id
   * is pending, then an unsequenced STATUS (the board's last seq, and its kept dispense, which may be
   * another session's). A restart seen by that STATUS means INFO again and another look.
   */
  private async boardBeforeDispense(): Promise<VmcBoardStatus> {
    for (let look = 1; ; look++) {
      await this.readInfoIfDue();
      const status = await this.freshStatus();
      if (!this.infoDue || look === 3) return status;
    }
  }

  /**
   * Notes the boot id a reply carries. A new one after the first means the board restarted: it forgot
   * its frames (the sequence continues after its `lastSeq`, when known) and INFO is due.
   */
  private noteBoot(bootId: number, lastSeq: number | null): void {
    if (this.boot === bootId) return;
    if (this.boot !== null) {
      this.log.warn({ was: this.boot, now: bootId }, 'the board restarted');
      this.infoDue = true;
    }
    if (lastSeq !== null) this.seq = lastSeq;
    this.boot = bootId;
  }

  private async readInfoIfDue(): Promise<void> {
    if (this.infoDue) await this.readInfo();
  }

  private async readInfo(): Promise<VmcBoardInfo> {
    const info = await this.exchange(this.takeSeq(), { kind: 'info' }, 'info');
    this.noteBoot(info.bootId, null);
    this.infoDue = false;
    this.opts.onBoardInfo?.(info);
    return info;
  }

  // --- dispense -------------------------------------------------------------------------------

  private async runDispense(
    aisle: number,
    mode: { onRequest?: (binding: DispenseBinding) => Promise<void>; resume?: DispenseBinding } = {},
  ): Promise<DispenseReport> {
    const timings = this.timings;
    const resume = mode.resume;
    const started = elapsedNow(this.clock);
    let seq = 0;
    let sends = 0;
    const report = (o: { outcome: DispenseReport['outcome']; detail: string }): DispenseReport => {
      const finished: DispenseReport = { ...o, motorRan: motorRanOf(o.outcome), aisle, seq, sends, durationMs: elapsedNow(this.clock) - started };
      if (seq !== 0) this.kept.sent(boot, seq, o.outcome);
      this.log.info({ ...finished }, 'dispense finished');
      return finished;
    };
    const fail = (f: LinkFailure): DispenseReport => {
      // Resuming a request an earlier run sent: "not sent" and "refused" would claim a certainty nobody has.
      if (resume && (f.kind === 'unavailable' || f.kind === 'refused'))
        return report({ ...outcomeOfFailure(aisle, { kind: 'lost_after_ack', path: this.path, error: f.kind === 'refused' ? `NAK ${f.reason}` : f.error }) });
      return report(outcomeOfFailure(aisle, f));
    };

    try {
      await this.ensureReady();
    } catch (e) {
      return fail({ kind: 'unavailable', path: this.path, attempts: timings.openAttempts, error: (e as Error).message });
    }
    let boot = this.boot ?? 0;
    let bytes: Uint8Array = new Uint8Array();
    /** The board's last seq as last read by an unsequenced STATUS (for the crash journal). */
    let boardLastSeq = 0;
    /** The binding `onRequest` has been told of (it is told before the frame's first send). */
    let announced: Uint8Array | null = null;
    const bind = (): void => {
      boot = this.boot ?? 0;
      seq = this.takeSeq();
      // never a seq the board would take for a retransmission: its last frame's, or (once the sequence has
      // come round) the last dispense it started, which it keeps whoever sent it (docs/vmc-protocol.md §6.3)
      const barred = (n: number): boolean => n === boardLastSeq || this.kept.bars(boot, n) || (n === this.lastDispenseSeq && boot === this.lastDispenseBoot);
      while (barred(seq)) seq = this.takeSeq();
      bytes = encodeHostMessage(seq, { kind: 'dispense', aisle, bootId: boot });
      this.lastDispenseSeq = seq;
      this.lastDispenseBoot = boot;
    };
    if (resume) {
      seq = resume.seq;
      boot = resume.bootId;
      bytes = encodeHostMessage(seq, { kind: 'dispense', aisle, bootId: boot });
      announced = bytes;
    } else {
      try {
        // the journal needs the board's last seq; without it the greeting's STATUS told the kept dispense
        if (mode.onRequest) boardLastSeq = (await this.boardBeforeDispense()).lastSeq;
        else await this.readInfoIfDue();
      } catch (e) {
        return fail({ kind: 'unavailable', path: this.path, attempts: timings.openAttempts, error: (e as Error).message });
      }
      bind();
    }
    const isOurs = (m: Incoming): boolean => m.seq === seq && (m.message.kind === 'dispenseAck' || m.message.kind === 'result' || m.message.kind === 'nak');

    // 1. until acknowledged
    let ack: VmcDispenseAck | null = null;
    let result: VmcDispenseResult | null = null;
    let written = 0;
    let rebinds = 0;
    let lost: string | null = null;
    while (!ack && !result && sends < timings.maxSends) {
      if (!this.link.isOpen || !this.link.greeted) {
        try {
          await this.ensureReady();
        } catch (e) {
          lost = (e as Error).message;
          break;
        }
        if (this.boot !== boot) {
          // the board restarted: if it may have seen the request, it may have run it; never resend
          if (written > 0 || resume) return fail({ kind: 'restarted_before_ack' });
          try {
            if (mode.onRequest) boardLastSeq = (await this.boardBeforeDispense()).lastSeq;
            else await this.readInfoIfDue();
          } catch (e) {
            lost = (e as Error).message;
            break;
          }
          bind();
        }
      }
      if (mode.onRequest && announced !== bytes) {
        // the crash journal learns of the binding before the board can: a failure here sends nothing
        await mode.onRequest({ aisle, seq, bootId: boot, boardLastSeq });
        announced = bytes;
      }
      sends++;
      if (await this.link.send(bytes, sends > 1 || resume !== undefined)) written++;
      const got = await this.link.waitFor(isOurs, timings.ackTimeoutMs);
      if (typeof got === 'string') continue;
      const reply = got.message;
      if (reply.kind === 'nak') {
        if (resume) return this.undecided(resume, `the board refused the retransmitted request (NAK ${reply.reason})`);
        if (reply.reason !== 'bootMismatch') return fail({ kind: 'refused', reason: reply.reason });
        this.link.greeted = false; // greet the board again before anything else
        if (written > 1) return fail({ kind: 'restarted_before_ack' });
        // Only one send, refused by a boot that never ran it: rebind to the new boot, once.
        if (rebinds++ > 0) return fail({ kind: 'refused', reason: reply.reason });
        sends = 0;
        written = 0;
        continue;
      }
      if (reply.kind === 'dispenseAck' && reply.disposition === 'duplicate' && written === 1 && !resume) {
        // only one frame of this request is out, so the board matched it to an identical frame it holds from
        // another request: it started nothing for this one, and the RESULT it re-sends is not this one's
        return fail({ kind: 'duplicate_first_send' });
      }
      if (reply.kind === 'result') result = reply;
      else if (reply.kind === 'dispenseAck') ack = reply;
    }
    if (!ack && !result) {
      if (written === 0) return fail({ kind: 'unavailable', path: this.path, attempts: timings.openAttempts, error: lost ?? this.link.lastCloseError });
      if (lost !== null) return fail({ kind: 'lost_before_ack', path: this.path, error: lost });
      return fail({ kind: 'no_ack', sends, ackTimeoutMs: timings.ackTimeoutMs });
    }

    // 2. until the result
    const ackedAt = elapsedNow(this.clock);
    const deadline = ackedAt + timings.resultTimeoutMs;
    let askAt = ackedAt + (ack?.estimateMs ?? 0) + timings.resultGraceMs;
    while (!result) {
      const now = elapsedNow(this.clock);
      if (now >= deadline) return fail({ kind: 'no_result', waitedMs: now - ackedAt });
      if (!this.link.isOpen || !this.link.greeted) {
        try {
          await this.ensureReady(deadline);
        } catch (e) {
          return fail({ kind: 'lost_after_ack', path: this.path, error: (e as Error).message });
        }
        if (this.boot !== boot) return fail({ kind: 'restarted_after_ack' });
        askAt = elapsedNow(this.clock);
      }
      if (elapsedNow(this.clock) >= askAt) {
        sends++;
        await this.link.send(bytes, true);
        askAt = elapsedNow(this.clock) + timings.resultQueryMs;
      }
      const got = await this.link.waitFor(
        (m) => m.seq === seq && (m.message.kind === 'result' || m.message.kind === 'nak'),
        Math.min(deadline, askAt) - elapsedNow(this.clock),
      );
      if (typeof got === 'string') continue;
      const reply = got.message;
      if (reply.kind === 'nak') {
        this.link.greeted = false;
        return fail(
          reply.reason === 'bootMismatch' ? { kind: 'restarted_after_ack' } : { kind: 'lost_after_ack', path: this.path, error: `NAK ${reply.reason}` },
        );
      }
      if (reply.kind === 'result') result = reply;
    }
    if (result.aisle !== aisle) return fail({ kind: 'wrong_aisle', reported: result.aisle });
    return report(outcomeOfResult(aisle, result));
  }

  // --- queries --------------------------------------------------------------------------------

  private async query<K extends 'status' | 'laneScan' | 'dropSensor'>(msg: VmcHostMessage, kind: K): Promise<Extract<VmcBoardMessage, { kind: K }>> {
    await this.ensureReady();
    await this.readInfoIfDue();
    return this.exchange(this.takeSeq(), msg, kind);
  }

  /** Sends one frame until its reply comes (retransmitting the same bytes), or throws. */
  private async exchange<K extends VmcBoardMessage['kind']>(seq: number, msg: VmcHostMessage, kind: K): Promise<Extract<VmcBoardMessage, { kind: K }>> {
    const timings = this.timings;
    const bytes = encodeHostMessage(seq, msg);
    for (let sends = 1; sends <= timings.maxSends; sends++) {
      if (!this.link.isOpen) {
        if (seq === 0) break;
        await this.ensureReady();
      }
      await this.link.send(bytes, sends > 1);
      const got = await this.link.waitFor((m) => m.seq === seq && (m.message.kind === kind || m.message.kind === 'nak'), timings.ackTimeoutMs);
      if (typeof got === 'string') continue;
      if (got.message.kind === 'nak') throw new VmcLinkError('board_refused', `the board refused ${msg.kind} (NAK ${got.message.reason})`);
      return got.message as Extract<VmcBoardMessage, { kind: K }>;
    }
    throw new VmcLinkError('no_ack', `no reply from the board on ${this.path} to ${msg.kind} after ${timings.maxSends} sends ${timings.ackTimeoutMs} ms apart`);
  }

  // --- connection -----------------------------------------------------------------------------

  /** Port open and board greeted; throws VmcLinkError('board_unavailable') when it cannot be. */
  private async ensureReady(deadline = Number.POSITIVE_INFINITY): Promise<void> {
    if (!this.link.isOpen) await this.link.open(deadline);
    if (this.link.greeted) return;
    let status: VmcBoardStatus;
    try {
      // unsequenced, so it can never be taken for a retransmission of whatever the board remembers
      status = await this.exchange(0, { kind: 'status' }, 'status');
    } catch (e) {
      throw new VmcLinkError('board_unavailable', `${this.path} opened but the board does not answer: ${(e as Error).message}`);
    }
    this.noteBoot(status.bootId, status.lastSeq); // continue after whatever it remembers
    this.kept.reported(status.bootId, status.keptSeq);
    this.link.greeted = true;
  }

  private takeSeq(): number {
    this.seq = nextVmcSeq(this.seq);
    return this.seq;
  }
}
