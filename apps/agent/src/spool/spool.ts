import { CloudError } from '../cloud/client.ts';
import type { CloudClient, CloudLogger } from '../cloud/client.ts';
import { DeliveryLoop } from '../cloud/delivery-loop.ts';
import type { DeliveryLoopOptions } from '../cloud/delivery-loop.ts';
import { isDiskFull } from '../state/disk-full.ts';
import type { DispenseBook } from './book.ts';
import type { OutcomeRecord } from './journal.ts';

/**
 * Undelivered reports past which the dispenser starts no new vend (the spool's bound). Reports are
 * never dropped: each is a sale or a drop the cloud must hear of, so the bound refuses the next vend
 * instead. Far above an hour offline (walk-ups need the cloud to open their order; remote drops come
 * from it), it stops a cabinet whose report leg alone is refused from selling on for days unbilled.
 */
export const REPORT_SPOOL_MAX = 1_000;

export interface SpoolOptions extends DeliveryLoopOptions {
  book: DispenseBook;
  client: Pick<CloudClient, 'report'>;
  log: CloudLogger;
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
export class ReportSpool extends DeliveryLoop {
  private stopped = false;
  /** Deliveries the cloud answered as duplicates (it already had the dispenseId). */
  duplicates = 0;
  delivered = 0;
  lastError: { at: number; message: string } | null = null;

  constructor(private readonly opts: SpoolOptions) {
    super(opts);
  }

  get depth(): number {
    return this.opts.book.depth();
  }

  protected override async loop(signal: AbortSignal): Promise<void> {
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

  /**
   * Writes what the cloud said into the journal. A disk that refuses (full) is not the end of the
   * loop: the report stays at the head, undelivered as far as the journal knows, and goes again after
   * the backoff — the cloud answers the resend as a duplicate of its dispenseId, so it counts once.
   */
  private record(write: () => void): boolean {
    try {
      write();
      return true;
    } catch (e) {
      if (!isDiskFull(e)) throw e;
      this.lastError = { at: this.opts.clock.now(), message: `the journal could not be written: ${(e as Error).message}` };
      this.opts.log.debug({ error: (e as Error).message }, 'report answered but its record could not be written; it goes again');
      return false;
    }
  }

  /** Delivers one report; the delay before the next try (null: go on at once), or 'stop'. */
  private async deliver(outcome: OutcomeRecord, signal: AbortSignal): Promise<number | null | 'stop'> {
    try {
      const answer = await this.opts.client.report(reportBody(outcome), { attempts: 1, signal });
      if (!this.record(() => this.opts.book.recordDelivered(outcome.id, { duplicate: answer.duplicate, status: answer.status }))) return this.backoffDelay();
      this.delivered++;
      if (answer.duplicate) this.duplicates++;
      this.answered();
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
        if (!this.record(() => this.opts.book.recordRejected(outcome.id, { status: e.status, message: e.message }))) return this.backoffDelay();
        this.opts.log.error({ dispenseId: outcome.id, status: e.status, message: e.message }, 'the cloud refused a report for good; set aside as rejected');
        this.opts.onRejected?.(outcome, e.message);
        return null;
      }
      // no credential yet (enrolment pending), 401, no answer, 5xx, 429: keep it and try later
      const wait = this.retryDelay(e);
      this.opts.log.warn(
        { dispenseId: outcome.id, error: e.message, retryInMs: wait, depth: this.opts.book.depth() },
        'report not delivered; kept in the spool',
      );
      return wait;
    }
  }
}
