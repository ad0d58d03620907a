import type { Clock } from '@vend/protocol';
import { backoffDelay } from '../cloud/backoff.ts';
import type { RandomSource } from '../cloud/backoff.ts';
import { CloudError } from '../cloud/client.ts';
import type { CloudClient, CloudLogger } from '../cloud/client.ts';
import type { DispenseBook } from './book.ts';
import type { OutcomeRecord } from './journal.ts';

export interface SpoolOptions {
  book: DispenseBook;
  client: Pick<CloudClient, 'report'>;
  clock: Clock;
  random: RandomSource;
  log: CloudLogger;
  backoff: { baseMs: number; capMs: number };
  /** Called when a report is refused for good (a technician should look). */
  onRejected?(record: OutcomeRecord, message: string): void;
}

/** The report body for an outcome. */
export function reportBody(outcome: OutcomeRecord) {
  return {
    dispenseId: outcome.id,
    ...(outcome.commandId !== undefined ? { commandId: outcome.commandId } : {}),
    ...(outcome.orderNumber !== undefined ? { orderNumber: outcome.orderNumber } : {}),
    aisleNo: outcome.aisle,
    success: outcome.success,
    outcome: outcome.outcome,
    detail: outcome.detail.slice(0, 1000),
  };
}

/**
 * Delivers the report spool to `/cabinet/report`, strictly in order, one at a time. A report is
 * marked delivered (a fsynced journal record) only after the cloud's 2xx; until then a cloud
 * outage, a crash or a power cut leaves it in the spool and it is sent again, so the only way to
 * deliver one twice is a crash in the instant between the 2xx and that record — which the cloud's
 * exactly-once on dispenseId absorbs. A transient failure (no answer, 5xx, 429) blocks the queue
 * and is retried with capped backoff; a report the cloud refuses for good (400/404/409/422) is
 * set aside as rejected so it cannot block the ones behind it. Revocation stops delivery.
 */
export class ReportSpool {
  private wakeUp: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private failures = 0;
  private waitingForCloud = false;
  /** Deliveries the cloud answered as duplicates (it already had the dispenseId). */
  duplicates = 0;
  delivered = 0;
  lastError: { at: number; message: string } | null = null;

  constructor(private readonly opts: SpoolOptions) {}

  get depth(): number {
    return this.opts.book.depth();
  }

  /** Starts the delivery loop (idempotent). */
  start(signal: AbortSignal): Promise<void> {
    this.running ??= this.loop(signal).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Something was added, or the cloud may be back: try now. */
  wake(): void {
    this.failures = 0;
    this.wakeUp?.();
  }

  /**
   * Another call just reached the cloud: if the spool is waiting because the cloud could not be
   * reached (not because it answered with an error), the wait is over.
   */
  nudge(): void {
    if (this.waitingForCloud) this.wake();
  }

  private async loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && !this.stopped) {
      const head = this.opts.book.head();
      if (!head) {
        await this.idle(signal, null);
        continue;
      }
      const wait = await this.deliver(head, signal);
      if (wait === 'stop') return;
      if (wait !== null) await this.idle(signal, wait);
    }
  }

  /** Delivers one report; the delay before the next try (null: go on at once), or 'stop'. */
  private async deliver(outcome: OutcomeRecord, signal: AbortSignal): Promise<number | null | 'stop'> {
    try {
      const answer = await this.opts.client.report(reportBody(outcome), { attempts: 1, signal });
      this.opts.book.recordDelivered(outcome.id, { duplicate: answer.duplicate, status: answer.status });
      this.delivered++;
      if (answer.duplicate) this.duplicates++;
      this.failures = 0;
      this.waitingForCloud = false;
      this.opts.log.info({ dispenseId: outcome.id, duplicate: answer.duplicate, status: answer.status, depth: this.opts.book.depth() }, 'report delivered');
      return null;
    } catch (e) {
      if (!(e instanceof CloudError)) throw e;
      if (e.kind === 'aborted') return 'stop';
      this.lastError = { at: this.opts.clock.now(), message: e.message };
      if (e.kind === 'revoked') {
        this.opts.log.error({ dispenseId: outcome.id, depth: this.opts.book.depth() }, 'credential revoked: reports stay in the spool undelivered');
        this.stopped = true;
        return 'stop';
      }
      if (e.kind === 'http' && e.status !== null && [400, 404, 409, 410, 422].includes(e.status)) {
        this.opts.book.recordRejected(outcome.id, { status: e.status, message: e.message });
        this.opts.log.error({ dispenseId: outcome.id, status: e.status, message: e.message }, 'the cloud refused a report for good; set aside as rejected');
        this.opts.onRejected?.(outcome, e.message);
        return null;
      }
      // no credential yet (enrolment pending), 401, no answer, 5xx, 429: keep it and try later
      this.waitingForCloud = e.kind === 'unreachable' || e.kind === 'timeout' || e.kind === 'no-credential';
      const wait = backoffDelay(this.failures++, { ...this.opts.backoff, random: this.opts.random }, e.retryAfterMs);
      this.opts.log.warn(
        { dispenseId: outcome.id, error: e.message, retryInMs: wait, depth: this.opts.book.depth() },
        'report not delivered; kept in the spool',
      );
      return wait;
    }
  }

  private idle(signal: AbortSignal, ms: number | null): Promise<void> {
    return new Promise<void>((resolve) => {
      let timer: unknown = null;
      const done = (): void => {
        if (timer !== null) this.opts.clock.clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wakeUp = null;
        resolve();
      };
      if (ms !== null) timer = this.opts.clock.setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wakeUp = done;
    });
  }
}
