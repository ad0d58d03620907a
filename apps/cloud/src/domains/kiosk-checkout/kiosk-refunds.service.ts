import type { Clock } from '@vend/protocol';
import type { AuditLog } from '../../http/audit.ts';
import { AppError } from '../../http/errors.ts';
import type { AppStore } from '../../repos.ts';
import type { IssuedRefund, PaymentProcessor } from '../ad-purchases/processor.ts';
import type { SalesService } from '../orders/sales.service.ts';
import type { EventSink } from '../webhooks/webhook-events.ts';
import { MAX_REFUND_ATTEMPTS, refundDue, refundKey } from './checkout.rules.ts';
import type { CheckoutRecord } from './kiosk-checkout.repo.ts';
import { settleCheckout } from './kiosk-checkout.service.ts';

export interface KioskRefundsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** The processors this deployment can call; a checkout is refunded by the one named like its `processor`. */
  processors: readonly (PaymentProcessor | null)[];
  /** Moves the order to `refunded` once its money is back (the orders domain's own operation). */
  sales: Pick<SalesService, 'refundIssued'>;
  /** The outbox: a refused refund reaches the operator (`order.refund_failed`, an alert condition too). */
  events: EventSink;
}

/** What one sweep did. `unknown`: attempts the processor did not answer (retried with the same key next sweep). */
export interface RefundSweep {
  settled: number;
  issued: number;
  failed: number;
  unknown: number;
  /** The first unanswered attempt's error, so the loop's status shows why refunds are stuck. */
  firstError: unknown;
}

/** Most checkouts one sweep settles or refunds; the rest wait for the next. */
const BATCH = 100;

/**
 * Refunds that happen for pay-by-phone checkouts (issue 34): a checkout owing its money back (its drop failed, or its
 * payment came after it ended) is refunded through the processor it was paid with, for its amount, by the kiosk
 * refund loop (leader-only). Never twice: each attempt's idempotency key is the checkout id and its count of refused
 * attempts, so an attempt whose outcome is unknown (503, no answer) is retried with the same key and the processor
 * answers the refund it may have made; the state moves are conditional on that count, so a stale answer writes
 * nothing. A refusal (502, or a refund the processor reports failed) is recorded with its reason and told to the
 * operator; it is retried with a new key after a wait, at most MAX_REFUND_ATTEMPTS in all.
 */
export class KioskRefundsService {
  constructor(private readonly deps: KioskRefundsDeps) {}

  /**
   * One sweep: paid checkouts whose drop's command ended are settled first (a failed drop owes its money back even when
   * nobody reads the checkout), then every refund due is tried once.
   */
  async sweep(): Promise<RefundSweep> {
    const { store, clock } = this.deps;
    const repo = store.repos.kioskCheckouts;
    const out: RefundSweep = { settled: 0, issued: 0, failed: 0, unknown: 0, firstError: null };
    for (const row of await repo.dropsUnderWay(BATCH)) {
      const settled = await settleCheckout(store.repos, row, clock.now());
      if (settled.status !== row.status) out.settled++;
    }
    for (const row of await repo.refundsToTry(BATCH)) {
      if (!refundDue({ ...row, refund_attempts: Number(row.refund_attempts) }, clock.now())) continue;
      const r = await this.attempt(row);
      if (r.outcome === 'unknown') {
        out.unknown++;
        out.firstError ??= r.error;
      } else if (r.outcome === 'issued') out.issued++;
      else if (r.outcome === 'failed') out.failed++;
    }
    return out;
  }

  /** One attempt at a checkout's refund, under the key of its count of refused attempts. */
  private async attempt(row: CheckoutRecord): Promise<{ outcome: 'issued' | 'failed' | 'unknown' | 'raced'; error?: unknown }> {
    const attempt = Number(row.refund_attempts);
    const processor = this.deps.processors.find((p) => p?.name === row.processor) ?? null;
    if (!processor || row.intent_id === null) {
      const why = `it was paid through ${row.processor}, which this deployment cannot call: refund it there by hand`;
      return { outcome: (await this.failed(row, attempt, why, null)) ? 'failed' : 'raced' };
    }
    let issued: IssuedRefund;
    try {
      issued = await processor.refund({
        intentId: row.intent_id,
        amountCents: Number(row.amount_cents),
        currency: row.currency,
        reason: `Kiosk checkout ${row.id}${row.order_number ? ` (order ${row.order_number})` : ''}: ${row.status === 'failed' ? 'the drop failed' : 'paid after the checkout ended'}`,
        idempotencyKey: refundKey(row.id, attempt),
      });
    } catch (err) {
      // a refusal is final for this key; anything else (503, a timeout, a bug) may have refunded: same key next time
      if (err instanceof AppError && err.code === 'upstream') return { outcome: (await this.failed(row, attempt, err.message, null)) ? 'failed' : 'raced' };
      return { outcome: 'unknown', error: err };
    }
    if (issued.status === 'failed') {
      const why = `The payment processor could not refund: ${issued.failureReason ?? 'no reason given'}`;
      return { outcome: (await this.failed(row, attempt, why, issued.refundId)) ? 'failed' : 'raced' };
    }
    // `pending` is issued: the processor accepted it and the money is on its way
    const now = this.deps.clock.now();
    const done = await this.deps.store.transaction(async (tx) => {
      if (!(await tx.kioskCheckouts.refundIssued(row.id, attempt, issued.refundId, now))) return false;
      if (row.order_number !== null) await this.deps.sales.refundIssued(tx, row.order_number, now);
      await this.deps.audit.record(tx, null, 'kiosk_checkout.refund', `checkout:${row.id} refund:${issued.refundId}`);
      return true;
    });
    return { outcome: done ? 'issued' : 'raced' };
  }

  /** Records attempt `attempt` refused and tells the operator, once. */
  private failed(row: CheckoutRecord, attempt: number, reason: string, refundId: string | null): Promise<boolean> {
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      if (!(await tx.kioskCheckouts.refundFailed(row.id, attempt, reason, refundId, now))) return false;
      await this.deps.audit.record(tx, null, 'kiosk_checkout.refund_failed', `checkout:${row.id} attempt:${attempt + 1}`);
      await this.deps.events.emit(tx, {
        operatorId: row.operator_id,
        type: 'order.refund_failed',
        machineNo: row.machine_no,
        data: {
          orderNumber: row.order_number,
          checkoutId: row.id,
          aisleNo: row.aisle_no,
          amountCents: Number(row.amount_cents),
          currency: row.currency,
          reason,
          attempts: attempt + 1,
          retries: Math.max(0, MAX_REFUND_ATTEMPTS - attempt - 1),
        },
      });
      return true;
    });
  }
}
