import type { Clock } from '@vend/protocol';
import type { AuditLog } from '../../http/audit.ts';
import type { Repos, AppStore } from '../../repos.ts';
import {
  PAYMENT_EXPIRED,
  PAYMENT_SUCCEEDED,
  refuseUnlessAsked,
  verifiedEvent,
  type PaymentEvent,
  type PaymentProcessor,
  type WebhookHeaders,
} from '../ad-purchases/processor.ts';
import type { CommandsService } from '../commands/commands.service.ts';
import type { SalesService } from '../orders/sales.service.ts';
import { cabinetRefund, dropReason } from './checkout.rules.ts';
import type { CheckoutRecord } from './kiosk-checkout.repo.ts';
import type { KioskWebhookResult } from './kiosk-checkout.schemas.ts';

export interface KioskPaymentsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Verifies the webhook; null: no processor on this deployment (the webhook answers 503). */
  processor: PaymentProcessor | null;
  /** Writes the order a payment makes (the orders domain's own operation). */
  sales: Pick<SalesService, 'recordPrepaid'>;
  /** Enqueues the paid drop and wakes the cabinet's long poll (the commands domain's own operations). */
  commands: Pick<CommandsService, 'enqueuePaid' | 'wake'>;
}

/** What one event did, and the machine whose long poll waits for a new command (woken after the commit). */
interface Applied {
  result: KioskWebhookResult;
  wake: string | null;
}

/**
 * The processor's payments for kiosk checkouts (issue 32): its signed webhook, applied once per event id. A payment
 * for a checkout still awaiting it, with its amount and currency, makes in ONE transaction the checkout paid (a
 * conditional move: of two deliveries only one wins), the order paid and not vended with its payment, and the pending
 * drop for the aisle that order is linked to (externalRef = the checkout id); the cabinet's held long poll is woken
 * once that commits. A payment that comes after the checkout ended (expired, cancelled) is recorded as money owed
 * back — an order `refund_owed`, no drop.
 */
export class KioskPaymentsService {
  constructor(private readonly deps: KioskPaymentsDeps) {}

  /** Authenticates the exact bytes of a processor delivery (401) and reads its event (400), before anything else. */
  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders): { event: PaymentEvent; json: unknown } {
    return verifiedEvent(this.deps.processor, rawBody, headers, this.deps.clock.now());
  }

  /**
   * A verified event, in one transaction. Its id is claimed first (the primary key of `kiosk_checkout_events`), so a
   * replay, even a concurrent one, changes nothing. `payment_intent.succeeded` must name a checkout's own intent with
   * its amount and currency (400 otherwise, nothing recorded, so a corrected delivery may follow). Other types are
   * recorded only.
   */
  async receivePayment(event: PaymentEvent, payload: string): Promise<KioskWebhookResult> {
    const now = this.deps.clock.now();
    const processor = this.deps.processor?.name ?? 'none';
    const { result, wake } = await this.deps.store.transaction(async (tx): Promise<Applied> => {
      const repo = tx.kioskCheckouts;
      const fresh = await repo.claimEvent({
        id: event.id,
        processor,
        type: event.type,
        intent_id: event.intentId,
        checkout_id: event.purchaseId,
        payload,
        received_at: now,
      });
      const row = await repo.checkout(event.purchaseId);
      const answer = (duplicate: boolean, r: CheckoutRecord | undefined = row): Applied => ({ result: resultOf(event, duplicate, r), wake: null });
      if (!fresh) return answer(true);
      // the processor's page for the checkout's own intent can no longer be paid: a checkout still awaiting its
      // payment ends at once (the cabinet is free); a paid one, or one already ended, is left as it is (out of order)
      if (event.type === PAYMENT_EXPIRED && row?.status === 'awaiting_payment' && row.intent_id === event.intentId) {
        if (await repo.move(row.id, 'expire', {}, now)) await this.deps.audit.record(tx, null, 'kiosk_checkout.intent_expired', `checkout:${row.id}`);
        return answer(false, await repo.checkout(row.id));
      }
      if (event.type !== PAYMENT_SUCCEEDED) return answer(false);

      refuseUnlessAsked(event, 'checkout', row, (c) => ({ id: c.id, intentId: c.intent_id, amountCents: Number(c.amount_cents), currency: c.currency }));
      if (row.status === 'awaiting_payment' && now >= row.expires_at) await repo.move(row.id, 'expire', {}, now);
      else if (row.status === 'awaiting_payment' && (await repo.move(row.id, 'pay', { paid_at: now }, now))) {
        await this.drop(tx, row, event, now);
        return { result: resultOf(event, false, await repo.checkout(row.id)), wake: row.machine_id };
      }
      // ended unpaid (expired, cancelled — perhaps just now, by a racing cancel): the money is owed back, once
      if (await repo.owePayment(row.id, now)) {
        const order = await this.deps.sales.recordPrepaid(tx, this.sale(row, event, null, now));
        await repo.setOrder(row.id, order.orderNumber, now);
        await this.deps.audit.record(tx, null, 'kiosk_checkout.late_payment', `checkout:${row.id} order:${order.orderNumber}`);
        return answer(false, await repo.checkout(row.id));
      }
      // already paid (by another event of the same intent) or its late payment already recorded: nothing more to do
      return answer(true, await repo.checkout(row.id));
    });
    if (wake !== null) this.deps.commands.wake(wake);
    return result;
  }

  /** A paid checkout's drop: the pending command for its aisle, the paid order linked to it, both on the checkout. */
  private async drop(tx: Repos, row: CheckoutRecord, event: PaymentEvent, now: number): Promise<void> {
    const machine = { id: row.machine_id, machine_no: row.machine_no, operator_id: row.operator_id };
    const commandId = await this.deps.commands.enqueuePaid(tx, machine, { aisleNo: row.aisle_no, reason: dropReason(row.id), externalRef: row.id }, now);
    const order = await this.deps.sales.recordPrepaid(tx, this.sale(row, event, commandId, now));
    await tx.kioskCheckouts.linkDrop(row.id, order.orderNumber, commandId, now);
    await this.deps.audit.record(tx, null, 'kiosk_checkout.paid', `checkout:${row.id} order:${order.orderNumber} command:${commandId}`);
  }

  private sale(row: CheckoutRecord, event: PaymentEvent, commandId: string | null, now: number) {
    return {
      machineId: row.machine_id,
      aisleNo: row.aisle_no,
      amountCents: Number(row.amount_cents),
      processor: row.processor,
      paymentRef: event.intentId,
      commandId,
      now,
    };
  }
}

function resultOf(event: PaymentEvent, duplicate: boolean, row: CheckoutRecord | undefined): KioskWebhookResult {
  return {
    eventId: event.id,
    type: event.type,
    duplicate,
    checkoutId: event.purchaseId,
    status: (row?.status as KioskWebhookResult['status'] | undefined) ?? null,
    refund: cabinetRefund(row?.refund ?? null),
    orderNumber: row?.order_number ?? null,
    commandId: row?.command_id ?? null,
  };
}
