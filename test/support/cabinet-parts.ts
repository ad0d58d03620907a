import type { Clock } from '@vend/protocol';
import { CloudError, Dispenser, ReportSpool } from '@vend/agent';
import type { DispenseBinding, DispenseDriver, DispenseResolution, DispenseBook } from '@vend/agent';

/**
 * The agent's dispense path without a board or a cloud process, for the outage drills
 * (test/agent-outages-*.test.ts): the real journal, book, dispenser and report spool; a board that
 * keeps each frame's result (as the VMC does, so a restart or an unjournalled outcome is settled by
 * asking it); a cloud that dedupes reports by dispenseId (as /cabinet/report does) and can be cut.
 */

export type DispenseReport = Awaited<ReturnType<DispenseDriver['dispense']>>;

/** A board that runs every request and keeps each frame's result by seq. */
export class FakeBoard implements DispenseDriver {
  motorRuns = 0;
  private seq = 0;
  private readonly results = new Map<number, DispenseReport>();
  /** Runs after the intent is journalled, before the motor (a test fills the disk here). */
  beforeMotor: (() => void) | null = null;
  /** The detail each result carries (a long one makes the outcome record need a new page of the disk). */
  detail = 'vended';

  async dispense(aisle: number, opts: { onRequest: (binding: DispenseBinding) => Promise<void> }): Promise<DispenseReport> {
    const seq = (this.seq % 127) + 1;
    const binding = { aisle, seq, bootId: 1, boardLastSeq: this.seq % 127 };
    await opts.onRequest(binding); // the journal first: a throw here means the frame never goes out
    this.seq = seq;
    this.beforeMotor?.();
    this.motorRuns++;
    const report: DispenseReport = { outcome: 'success', detail: this.detail, motorRan: 'yes', aisle, seq, sends: 1, durationMs: 0 };
    this.results.set(seq, report);
    return report;
  }

  async resolveDispense(binding: DispenseBinding): Promise<DispenseResolution> {
    const report = this.results.get(binding.seq);
    return report ? { state: 'resolved', report } : { state: 'not-sent', detail: 'never accepted' };
  }
}

/** The cloud's report leg: dedupes by dispenseId; `up` false answers nothing (the link cut). */
export class FakeCloud {
  up = true;
  /** Every report that reached the cloud, in order (a resend too). */
  readonly received: string[] = [];
  readonly kept = new Set<string>();
  /** When each report call was made (the clock's reading), reached or not. */
  readonly attempts: number[] = [];
  orders = 0;

  constructor(private readonly clock: Clock) {}

  async report(body: { dispenseId: string }) {
    this.attempts.push(this.clock.now());
    if (!this.up) throw new CloudError('unreachable', 'connect ECONNREFUSED (the link is cut)');
    this.received.push(body.dispenseId);
    const duplicate = this.kept.has(body.dispenseId);
    this.kept.add(body.dispenseId);
    return {
      dispenseId: body.dispenseId,
      duplicate,
      kind: 'order' as const,
      commandId: null,
      orderNumber: null,
      status: 'paid',
      receivedAt: new Date(this.clock.now()).toISOString(),
    };
  }

  async createOrder(body: { aisleNo: number }) {
    if (!this.up) throw new CloudError('unreachable', 'connect ECONNREFUSED (the link is cut)');
    this.orders++;
    const orderNumber = `ORD${String(this.orders).padStart(6, '0')}`;
    return { orderNumber, machineCode: 'M1', aisleNo: body.aisleNo, quantity: 1, amount: 1, amountCents: 100, payStatus: 'paid' };
  }

  /** Distinct reports the cloud holds more than once in its received list (resends it counted once). */
  get resends(): number {
    return this.received.length - this.kept.size;
  }
}

type Log = Record<'debug' | 'info' | 'warn' | 'error', (obj: object, msg: string) => void>;
export const quietLog: Log = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** A logger that keeps its lines (level and message) for assertions. */
export function recordingLog(): Log & { lines: { level: string; msg: string }[] } {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (_obj: object, msg: string) => void lines.push({ level, msg });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** The dispenser and its spool on `book`, against `board` and `cloud`. */
export function cabinetParts(o: {
  book: DispenseBook;
  board: FakeBoard;
  cloud: FakeCloud;
  clock: Clock;
  diskRoom?: () => boolean;
  spoolMax?: number;
  backoff?: { baseMs: number; capMs: number };
}) {
  const spool = new ReportSpool({
    book: o.book,
    client: o.cloud as never,
    clock: o.clock,
    random: () => 0.5,
    log: quietLog,
    backoff: o.backoff ?? { baseMs: 1_000, capMs: 60_000 },
  });
  const dispenser = new Dispenser({
    book: o.book,
    driver: o.board,
    client: o.cloud as never,
    clock: o.clock,
    log: quietLog,
    onOutcome: () => spool.wake(),
    aisleCount: () => 60,
    boardAvailable: () => true,
    ...(o.diskRoom ? { diskRoom: o.diskRoom } : {}),
    ...(o.spoolMax !== undefined ? { spoolMax: o.spoolMax } : {}),
  });
  return { spool, dispenser };
}

/** Resolves once `done()` holds, checking every `everyMs` of the clock's time (for VirtualClock.run). */
export function until(clock: Clock, done: () => boolean, everyMs = 100): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (done()) resolve();
      else clock.setTimeout(check, everyMs);
    };
    check();
  });
}
