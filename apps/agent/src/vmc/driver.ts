import {
  VMC_ACK_TIMEOUT_MS,
  VMC_OPEN_ATTEMPTS,
  VMC_OPEN_BACKOFF_MS,
  VMC_RESULT_TIMEOUT_MS,
  VmcFrameDecoder,
  encodeHostMessage,
  nextVmcSeq,
  parseBoardFrame,
  vmcHex,
} from '@vend/protocol';
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
import type { SerialConnection, SerialTransport } from './transport.ts';
import { VendLock } from './vend-lock.ts';

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

/** pino-compatible subset. */
export interface DriverLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export const silentLogger: DriverLogger = { debug: () => {}, info: () => {}, warn: () => {} };

export type VmcLinkErrorCode = 'board_unavailable' | 'no_ack' | 'board_refused';

/** A query (not a dispense) that the link could not complete. */
export class VmcLinkError extends Error {
  constructor(
    readonly code: VmcLinkErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'VmcLinkError';
  }
}

export interface VmcDriverOptions {
  transport: SerialTransport;
  path: string;
  clock: Clock;
  timings?: Partial<VmcTimings>;
  /** Shared with whatever else must know the board is in use (the upgrade quiet check). */
  lock?: VendLock;
  log?: DriverLogger;
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

export interface DriverStats {
  framesSent: number;
  retransmissions: number;
  opens: number;
  badFrames: number;
  lateFrames: number;
}

interface Incoming {
  seq: number;
  message: VmcBoardMessage;
}
type WaitResult = Incoming | 'timeout' | 'closed';

const INBOX_LIMIT = 16;

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
  readonly stats: DriverStats = { framesSent: 0, retransmissions: 0, opens: 0, badFrames: 0, lateFrames: 0 };
  private readonly transport: SerialTransport;
  private readonly clock: Clock;
  private readonly log: DriverLogger;
  private conn: SerialConnection | null = null;
  private handshook = false;
  private generation = 0;
  private decoder = new VmcFrameDecoder('board');
  private inbox: Incoming[] = [];
  private waiter: { pick: (m: Incoming) => boolean; done: (r: WaitResult) => void } | null = null;
  private seq = 0;
  private boot: number | null = null;
  private lastCloseError = '';

  constructor(private readonly opts: VmcDriverOptions) {
    this.transport = opts.transport;
    this.clock = opts.clock;
    this.timings = Object.freeze({ ...DEFAULT_VMC_TIMINGS, ...opts.timings });
    this.lock = opts.lock ?? new VendLock();
    this.log = opts.log ?? silentLogger;
  }

  get path(): string {
    return this.opts.path;
  }

  /** The board's boot id as of the last handshake (null before the first). */
  get bootId(): number | null {
    return this.boot;
  }

  get connected(): boolean {
    return this.conn !== null;
  }

  /** Opens the port (with retries) and greets the board. Optional: every operation does it when needed. */
  connect(signal?: AbortSignal): Promise<void> {
    return this.lock.run(() => this.ensureReady().then(() => undefined), signal);
  }

  async close(): Promise<void> {
    const conn = this.conn;
    this.generation++;
    this.dropConnection('closed by the agent');
    await conn?.close();
  }

  info(signal?: AbortSignal): Promise<VmcBoardInfo> {
    return this.lock.run(() => this.query({ kind: 'info' }, 'info'), signal);
  }

  status(signal?: AbortSignal): Promise<VmcBoardStatus> {
    return this.lock.run(() => this.query({ kind: 'status' }, 'status'), signal);
  }

  dropSensor(signal?: AbortSignal): Promise<VmcDropSensorReading> {
    return this.lock.run(() => this.query({ kind: 'dropSensor' }, 'dropSensor'), signal);
  }

  /** Every lane: motor fitted, jammed. */
  laneScan(signal?: AbortSignal): Promise<LaneScan> {
    return this.lock.run(async () => {
      const first = await this.query({ kind: 'laneScan', page: 0 }, 'laneScan');
      const pages: VmcLaneScanPage[] = [first];
      for (let p = 1; p < first.pages && p < 128; p++) pages.push(await this.query({ kind: 'laneScan', page: p }, 'laneScan'));
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
  dispense(aisle: number, opts: { signal?: AbortSignal; onRequest?: (b: DispenseBinding) => Promise<void> } = {}): Promise<DispenseReport> {
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
  resolveDispense(b: DispenseBinding, signal?: AbortSignal): Promise<DispenseResolution> {
    return this.lock.run(async () => {
      await this.ensureReady();
      const status = await this.freshStatus();
      if (status.bootId !== b.bootId) {
        return {
          state: 'resolved' as const,
          report: this.undecided(b, `the board restarted (boot id ${b.bootId} -> ${status.bootId}) while the agent was down`),
        };
      }
      if (status.lastSeq === b.boardLastSeq && status.lastSeq !== b.seq) {
        return { state: 'not-sent' as const, detail: `the board never accepted the request for aisle ${b.aisle} (seq ${b.seq}); the motor did not run` };
      }
      if (status.lastSeq !== b.seq) {
        return {
          state: 'resolved' as const,
          report: this.undecided(b, `the board's last frame is seq ${status.lastSeq}, not the request's ${b.seq} (another frame followed it)`),
        };
      }
      return { state: 'resolved' as const, report: await this.runDispense(b.aisle, { resume: b }) };
    }, signal);
  }

  private undecided(b: DispenseBinding, why: string): DispenseReport {
    const outcome = 'no_result' as const;
    return {
      outcome,
      detail: `${why}; the request for aisle ${b.aisle} may have run: check the machine before selling this aisle again`,
      motorRan: motorRanOf(outcome),
      aisle: b.aisle,
      seq: b.seq,
      sends: 0,
      durationMs: 0,
    };
  }

  /** An unsequenced STATUS now (never stored by the board); notes a restart like the greeting does. */
  private async freshStatus(): Promise<VmcBoardStatus> {
    const status = await this.exchange(0, { kind: 'status' }, 'status');
    if (this.boot !== status.bootId) {
      this.log.warn({ was: this.boot, now: status.bootId }, 'the board restarted');
      this.seq = status.lastSeq;
      this.boot = status.bootId;
    }
    return status;
  }

  // --- dispense -------------------------------------------------------------------------------

  private async runDispense(
    aisle: number,
    mode: { onRequest?: (b: DispenseBinding) => Promise<void>; resume?: DispenseBinding } = {},
  ): Promise<DispenseReport> {
    const t = this.timings;
    const resume = mode.resume;
    const started = this.clock.now();
    let seq = 0;
    let sends = 0;
    const report = (o: { outcome: DispenseReport['outcome']; detail: string }): DispenseReport => {
      const r: DispenseReport = { ...o, motorRan: motorRanOf(o.outcome), aisle, seq, sends, durationMs: this.clock.now() - started };
      this.log.info({ ...r }, 'dispense finished');
      return r;
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
      return fail({ kind: 'unavailable', path: this.path, attempts: t.openAttempts, error: (e as Error).message });
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
      if (seq === boardLastSeq) seq = this.takeSeq(); // never a seq the board would take for a retransmission
      bytes = encodeHostMessage(seq, { kind: 'dispense', aisle, bootId: boot });
    };
    if (resume) {
      seq = resume.seq;
      boot = resume.bootId;
      bytes = encodeHostMessage(seq, { kind: 'dispense', aisle, bootId: boot });
      announced = bytes;
    } else {
      if (mode.onRequest) {
        try {
          boardLastSeq = (await this.freshStatus()).lastSeq;
        } catch (e) {
          return fail({ kind: 'unavailable', path: this.path, attempts: t.openAttempts, error: (e as Error).message });
        }
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
    while (!ack && !result && sends < t.maxSends) {
      if (!this.conn || !this.handshook) {
        try {
          await this.ensureReady();
        } catch (e) {
          lost = (e as Error).message;
          break;
        }
        if (this.boot !== boot) {
          // the board restarted: if it may have seen the request, it may have run it; never resend
          if (written > 0 || resume) return fail({ kind: 'restarted_before_ack' });
          if (mode.onRequest) {
            try {
              boardLastSeq = (await this.freshStatus()).lastSeq;
            } catch (e) {
              lost = (e as Error).message;
              break;
            }
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
      if (await this.send(bytes, sends > 1 || resume !== undefined)) written++;
      const got = await this.waitFor(isOurs, t.ackTimeoutMs);
      if (typeof got === 'string') continue;
      const m = got.message;
      if (m.kind === 'nak') {
        if (resume) return this.undecided(resume, `the board refused the retransmitted request (NAK ${m.reason})`);
        if (m.reason !== 'bootMismatch') return fail({ kind: 'refused', reason: m.reason });
        this.handshook = false; // greet the board again before anything else
        if (written > 1) return fail({ kind: 'restarted_before_ack' });
        // Only one send, refused by a boot that never ran it: rebind to the new boot, once.
        if (rebinds++ > 0) return fail({ kind: 'refused', reason: m.reason });
        sends = 0;
        written = 0;
        continue;
      }
      if (m.kind === 'result') result = m;
      else if (m.kind === 'dispenseAck') ack = m;
    }
    if (!ack && !result) {
      if (written === 0) return fail({ kind: 'unavailable', path: this.path, attempts: t.openAttempts, error: lost ?? this.lastCloseError });
      if (lost !== null) return fail({ kind: 'lost_before_ack', path: this.path, error: lost });
      return fail({ kind: 'no_ack', sends, ackTimeoutMs: t.ackTimeoutMs });
    }

    // 2. until the result
    const ackedAt = this.clock.now();
    const deadline = ackedAt + t.resultTimeoutMs;
    let askAt = ackedAt + (ack?.estimateMs ?? 0) + t.resultGraceMs;
    while (!result) {
      const now = this.clock.now();
      if (now >= deadline) return fail({ kind: 'no_result', waitedMs: now - ackedAt });
      if (!this.conn || !this.handshook) {
        try {
          await this.ensureReady(deadline);
        } catch (e) {
          return fail({ kind: 'lost_after_ack', path: this.path, error: (e as Error).message });
        }
        if (this.boot !== boot) return fail({ kind: 'restarted_after_ack' });
        askAt = this.clock.now();
      }
      if (this.clock.now() >= askAt) {
        sends++;
        await this.send(bytes, true);
        askAt = this.clock.now() + t.resultQueryMs;
      }
      const got = await this.waitFor(
        (m) => m.seq === seq && (m.message.kind === 'result' || m.message.kind === 'nak'),
        Math.min(deadline, askAt) - this.clock.now(),
      );
      if (typeof got === 'string') continue;
      const m = got.message;
      if (m.kind === 'nak') {
        this.handshook = false;
        return fail(m.reason === 'bootMismatch' ? { kind: 'restarted_after_ack' } : { kind: 'lost_after_ack', path: this.path, error: `NAK ${m.reason}` });
      }
      if (m.kind === 'result') result = m;
    }
    if (result.aisle !== aisle) return fail({ kind: 'wrong_aisle', reported: result.aisle });
    return report(outcomeOfResult(aisle, result));
  }

  // --- queries --------------------------------------------------------------------------------

  private async query<K extends 'info' | 'status' | 'laneScan' | 'dropSensor'>(msg: VmcHostMessage, kind: K): Promise<Extract<VmcBoardMessage, { kind: K }>> {
    await this.ensureReady();
    return this.exchange(this.takeSeq(), msg, kind);
  }

  /** Sends one frame until its reply comes (retransmitting the same bytes), or throws. */
  private async exchange<K extends VmcBoardMessage['kind']>(seq: number, msg: VmcHostMessage, kind: K): Promise<Extract<VmcBoardMessage, { kind: K }>> {
    const t = this.timings;
    const bytes = encodeHostMessage(seq, msg);
    for (let sends = 1; sends <= t.maxSends; sends++) {
      if (!this.conn) {
        if (seq === 0) break;
        await this.ensureReady();
      }
      await this.send(bytes, sends > 1);
      const got = await this.waitFor((m) => m.seq === seq && (m.message.kind === kind || m.message.kind === 'nak'), t.ackTimeoutMs);
      if (typeof got === 'string') continue;
      if (got.message.kind === 'nak') throw new VmcLinkError('board_refused', `the board refused ${msg.kind} (NAK ${got.message.reason})`);
      return got.message as Extract<VmcBoardMessage, { kind: K }>;
    }
    throw new VmcLinkError('no_ack', `no reply from the board on ${this.path} to ${msg.kind} after ${t.maxSends} sends ${t.ackTimeoutMs} ms apart`);
  }

  // --- connection -----------------------------------------------------------------------------

  /** Port open and board greeted; throws VmcLinkError('board_unavailable') when it cannot be. */
  private async ensureReady(deadline = Number.POSITIVE_INFINITY): Promise<void> {
    if (!this.conn) await this.openWithRetries(deadline);
    if (this.handshook) return;
    let status: VmcBoardStatus;
    try {
      // unsequenced, so it can never be taken for a retransmission of whatever the board remembers
      status = await this.exchange(0, { kind: 'status' }, 'status');
    } catch (e) {
      throw new VmcLinkError('board_unavailable', `${this.path} opened but the board does not answer: ${(e as Error).message}`);
    }
    if (this.boot !== null && status.bootId !== this.boot) this.log.warn({ was: this.boot, now: status.bootId }, 'the board restarted');
    if (this.boot !== status.bootId) this.seq = status.lastSeq; // continue after whatever it remembers
    this.boot = status.bootId;
    this.handshook = true;
  }

  private async openWithRetries(deadline: number): Promise<void> {
    const t = this.timings;
    let lastError = '';
    for (let attempt = 1; attempt <= t.openAttempts; attempt++) {
      const gen = ++this.generation;
      this.decoder = new VmcFrameDecoder('board');
      this.inbox = [];
      try {
        const conn = await this.transport.open(this.path, {
          data: (chunk) => {
            if (gen === this.generation) this.onData(chunk);
          },
          closed: (err) => {
            if (gen === this.generation) this.onClosed(err);
          },
        });
        if (gen !== this.generation) {
          await conn.close();
          throw new Error('superseded');
        }
        this.conn = conn;
        this.handshook = false;
        this.stats.opens++;
        this.log.info({ path: this.path, attempt }, 'serial port open');
        return;
      } catch (e) {
        lastError = (e as Error).message;
        this.log.warn({ path: this.path, attempt, error: lastError }, 'cannot open serial port');
      }
      if (attempt === t.openAttempts || this.clock.now() + t.openBackoffMs >= deadline) {
        throw new VmcLinkError('board_unavailable', `could not open ${this.path} after ${attempt} attempts: ${lastError}`);
      }
      await this.sleep(t.openBackoffMs);
    }
    throw new VmcLinkError('board_unavailable', `could not open ${this.path}: ${lastError}`);
  }

  private onClosed(err: Error | null): void {
    this.log.warn({ path: this.path, error: err?.message }, 'serial port closed');
    this.dropConnection(err?.message ?? 'port closed');
  }

  private dropConnection(why: string): void {
    this.conn = null;
    this.handshook = false;
    this.lastCloseError = why;
    const w = this.waiter;
    this.waiter = null;
    w?.done('closed');
  }

  private onData(chunk: Uint8Array): void {
    const before = this.decoder.stats.badFrames + this.decoder.stats.truncated;
    for (const f of this.decoder.push(chunk)) {
      const parsed = parseBoardFrame(f);
      if (!parsed.ok) {
        this.stats.badFrames++;
        this.log.warn({ seq: f.seq, command: f.command, error: parsed.error }, 'unintelligible board frame');
        continue;
      }
      this.deliver({ seq: parsed.seq, message: parsed.message });
    }
    const bad = this.decoder.stats.badFrames + this.decoder.stats.truncated - before;
    if (bad > 0) {
      this.stats.badFrames += bad;
      this.log.debug({ bad }, 'damaged frames dropped');
    }
  }

  private deliver(m: Incoming): void {
    const w = this.waiter;
    if (w && w.pick(m)) {
      this.waiter = null;
      w.done(m);
      return;
    }
    this.inbox.push(m);
    if (this.inbox.length > INBOX_LIMIT) {
      const old = this.inbox.shift();
      this.stats.lateFrames++;
      if (old?.message.kind === 'result') this.log.warn({ seq: old.seq, result: old.message }, 'late result for a request already given up on');
    }
  }

  /** The next matching message: one already received, or one arriving within `ms`. */
  private waitFor(pick: (m: Incoming) => boolean, ms: number): Promise<WaitResult> {
    const i = this.inbox.findIndex(pick);
    if (i >= 0) {
      const [m] = this.inbox.splice(i, 1);
      if (m) return Promise.resolve(m);
    }
    if (!this.conn) return Promise.resolve('closed');
    if (ms <= 0) return Promise.resolve('timeout');
    return new Promise<WaitResult>((resolve) => {
      const timer = this.clock.setTimeout(() => {
        if (this.waiter === waiter) this.waiter = null;
        resolve('timeout');
      }, ms);
      const waiter = {
        pick,
        done: (r: WaitResult) => {
          this.clock.clearTimeout(timer);
          resolve(r);
        },
      };
      this.waiter = waiter;
    });
  }

  /** Writes a frame; false when the port is gone (the close is handled as an unplug). */
  private async send(bytes: Uint8Array, retransmission: boolean): Promise<boolean> {
    const conn = this.conn;
    if (!conn) return false;
    this.inbox = this.inbox.filter((m) => m.seq === bytes[1]);
    try {
      await conn.write(bytes);
      this.stats.framesSent++;
      if (retransmission) this.stats.retransmissions++;
      this.log.debug({ hex: vmcHex(bytes), retransmission }, 'frame sent');
      return true;
    } catch (e) {
      this.log.warn({ error: (e as Error).message }, 'write failed');
      if (this.conn === conn) {
        this.generation++;
        this.dropConnection((e as Error).message);
        conn.close().catch(() => {});
      }
      return false;
    }
  }

  private takeSeq(): number {
    this.seq = nextVmcSeq(this.seq);
    return this.seq;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.clock.setTimeout(resolve, ms));
  }
}
