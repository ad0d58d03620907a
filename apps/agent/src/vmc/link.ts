import { VmcFrameDecoder, parseBoardFrame, vmcHex } from '@vend/protocol';
import type { Clock, VmcBoardMessage } from '@vend/protocol';
import type { SerialConnection, SerialTransport } from './transport.ts';
import { elapsedNow } from '../state/monotonic.ts';

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

export interface DriverStats {
  framesSent: number;
  retransmissions: number;
  opens: number;
  badFrames: number;
  lateFrames: number;
}

/** One decoded board frame. */
export interface Incoming {
  seq: number;
  message: VmcBoardMessage;
}
export type WaitResult = Incoming | 'timeout' | 'closed';

const INBOX_LIMIT = 16;

export interface VmcLinkOptions {
  transport: SerialTransport;
  path: string;
  clock: Clock;
  log: DriverLogger;
  /** Attempts to open the port, and the pause between them. */
  openAttempts: number;
  openBackoffMs: number;
}

/**
 * The serial port under the driver: opening it (with retries), decoding what arrives into board
 * messages, handing each to whoever waits for it (or keeping a few in a small inbox), writing frames,
 * and noticing an unplug. It knows nothing of sequence numbers' meaning or of the board's boot id:
 * that conversation is the driver's (driver.ts).
 */
export class VmcLink {
  readonly stats: DriverStats = { framesSent: 0, retransmissions: 0, opens: 0, badFrames: 0, lateFrames: 0 };
  /** The board on this connection has been greeted (reset on every open and every drop). */
  greeted = false;
  /** Why the last connection ended ('' while none has). */
  lastCloseError = '';
  private conn: SerialConnection | null = null;
  private generation = 0;
  private decoder = new VmcFrameDecoder('board');
  private inbox: Incoming[] = [];
  private waiter: { pick: (incoming: Incoming) => boolean; done: (result: WaitResult) => void } | null = null;

  constructor(private readonly opts: VmcLinkOptions) {}

  get isOpen(): boolean {
    return this.conn !== null;
  }

  async close(): Promise<void> {
    const conn = this.conn;
    this.generation++;
    this.dropConnection('closed by the agent');
    await conn?.close();
  }

  /** Opens the port, up to `openAttempts` times (not past `deadline`); throws VmcLinkError('board_unavailable'). */
  async open(deadline: number): Promise<void> {
    const { path, clock, log, openAttempts, openBackoffMs } = this.opts;
    let lastError = '';
    for (let attempt = 1; attempt <= openAttempts; attempt++) {
      const generation = ++this.generation;
      this.decoder = new VmcFrameDecoder('board');
      this.inbox = [];
      try {
        const conn = await this.opts.transport.open(path, {
          data: (chunk) => {
            if (generation === this.generation) this.onData(chunk);
          },
          closed: (err) => {
            if (generation === this.generation) this.onClosed(err);
          },
        });
        if (generation !== this.generation) {
          await conn.close();
          throw new Error('superseded');
        }
        this.conn = conn;
        this.greeted = false;
        this.stats.opens++;
        log.info({ path, attempt }, 'serial port open');
        return;
      } catch (e) {
        lastError = (e as Error).message;
        log.warn({ path, attempt, error: lastError }, 'cannot open serial port');
      }
      if (attempt === openAttempts || elapsedNow(clock) + openBackoffMs >= deadline) {
        throw new VmcLinkError('board_unavailable', `could not open ${path} after ${attempt} attempts: ${lastError}`);
      }
      await new Promise<void>((resolve) => clock.setTimeout(resolve, openBackoffMs));
    }
    throw new VmcLinkError('board_unavailable', `could not open ${path}: ${lastError}`);
  }

  /** The next matching message: one already received, or one arriving within `ms`. */
  waitFor(pick: (incoming: Incoming) => boolean, ms: number): Promise<WaitResult> {
    const i = this.inbox.findIndex(pick);
    if (i >= 0) {
      const [found] = this.inbox.splice(i, 1);
      if (found) return Promise.resolve(found);
    }
    if (!this.conn) return Promise.resolve('closed');
    if (ms <= 0) return Promise.resolve('timeout');
    const clock = this.opts.clock;
    return new Promise<WaitResult>((resolve) => {
      const timer = clock.setTimeout(() => {
        if (this.waiter === waiter) this.waiter = null;
        resolve('timeout');
      }, ms);
      const waiter = {
        pick,
        done: (result: WaitResult) => {
          clock.clearTimeout(timer);
          resolve(result);
        },
      };
      this.waiter = waiter;
    });
  }

  /** Writes a frame; false when the port is gone (the close is handled as an unplug). */
  async send(bytes: Uint8Array, retransmission: boolean): Promise<boolean> {
    const conn = this.conn;
    if (!conn) return false;
    this.inbox = this.inbox.filter((m) => m.seq === bytes[1]);
    try {
      await conn.write(bytes);
      this.stats.framesSent++;
      if (retransmission) this.stats.retransmissions++;
      this.opts.log.debug({ hex: vmcHex(bytes), retransmission }, 'frame sent');
      return true;
    } catch (e) {
      this.opts.log.warn({ error: (e as Error).message }, 'write failed');
      if (this.conn === conn) {
        this.generation++;
        this.dropConnection((e as Error).message);
        conn.close().catch(() => {});
      }
      return false;
    }
  }

  private onClosed(err: Error | null): void {
    this.opts.log.warn({ path: this.opts.path, error: err?.message }, 'serial port closed');
    this.dropConnection(err?.message ?? 'port closed');
  }

  private dropConnection(why: string): void {
    this.conn = null;
    this.greeted = false;
    this.lastCloseError = why;
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.done('closed');
  }

  private onData(chunk: Uint8Array): void {
    const before = this.decoder.stats.badFrames + this.decoder.stats.truncated;
    for (const frame of this.decoder.push(chunk)) {
      const parsed = parseBoardFrame(frame);
      if (!parsed.ok) {
        this.stats.badFrames++;
        this.opts.log.warn({ seq: frame.seq, command: frame.command, error: parsed.error }, 'unintelligible board frame');
        continue;
      }
      this.deliver({ seq: parsed.seq, message: parsed.message });
    }
    const bad = this.decoder.stats.badFrames + this.decoder.stats.truncated - before;
    if (bad > 0) {
      this.stats.badFrames += bad;
      this.opts.log.debug({ bad }, 'damaged frames dropped');
    }
  }

  private deliver(incoming: Incoming): void {
    const waiter = this.waiter;
    if (waiter && waiter.pick(incoming)) {
      this.waiter = null;
      waiter.done(incoming);
      return;
    }
    this.inbox.push(incoming);
    if (this.inbox.length > INBOX_LIMIT) {
      const old = this.inbox.shift();
      this.stats.lateFrames++;
      if (old?.message.kind === 'result') this.opts.log.warn({ seq: old.seq, result: old.message }, 'late result for a request already given up on');
    }
  }
}
