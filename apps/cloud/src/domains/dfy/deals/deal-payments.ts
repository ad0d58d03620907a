import type { DfyPaymentIntentRow, DfyPaymentRow } from '../../../db/schema.ts';
import type { DealWriter } from './deal-writer.ts';
import { AppError } from '../../../http/errors.ts';
import { formatTimestamp } from '../../../http/time-format.ts';
import type { Parsed } from '../../../http/route.ts';
import type { Repos } from '../../../repos.ts';
import type { PaymentProcessor } from '../../ad-purchases/processor.ts';
import type { DealState } from './deal-model.ts';
import type { AwaitingPayment, DealMoney, DealPayment, DealView } from './dfy.schemas.ts';

/**
 * A deal's money at the payment processor (issue 34; docs/decisions/dfy.md "Pre-order and checkout through
 * Stripe"): the payment awaiting the operator, the payments taken and their refunds, and issuing a refund owed.
 */

/** Where the processor delivers the events of DFY pre-orders and checkouts (signed as docs/ad-payments-webhook.md says). */
export const DFY_PAYMENTS_WEBHOOK_PATH = '/api/v1/dfy/payments/webhook';
/** Where the processor's page sends the operator back once paid: the console's placements page, which shows the deal. */
export const DFY_PAID_RETURN_PATH = '/console/placements';

export type ProcessorPaymentKind = 'preorder' | 'checkout';

const usd = (cents: number) => Math.round(cents) / 100;

/** The deal as its single-deal answers show it: the stored deal, and the payment awaiting the operator if one does. */
export async function dealView(repos: Repos, deal: DealState): Promise<Parsed<typeof DealView>> {
  const due = await dueOf(repos, deal);
  return due ? { ...deal, payment: awaitingView(due) } : deal;
}

/** The deal's money view: the payment awaiting the operator, the payments taken and their refunds. */
export async function dealMoney(repos: Repos, deal: DealState): Promise<Parsed<typeof DealMoney>> {
  const due = await dueOf(repos, deal);
  const paid = await repos.dfy.paymentsOf(deal.id);
  return { dealId: deal.id, payment: due ? awaitingView(due) : null, payments: paid.map(paymentView) };
}

async function dueOf(repos: Repos, deal: DealState): Promise<DfyPaymentIntentRow | undefined> {
  // a cancelled deal asks for nothing (a payment made anyway is owed back: ProcessorPayments.receivePayment)
  if (deal.stage === 'cancelled') return undefined;
  return (await repos.dfy.awaitingIntents(deal.id))[0];
}

function awaitingView(row: DfyPaymentIntentRow): Parsed<typeof AwaitingPayment> {
  return {
    id: row.id,
    kind: row.kind as ProcessorPaymentKind,
    status: 'awaiting_payment',
    amountUsd: usd(Number(row.amount_cents)),
    currency: row.currency,
    processor: row.processor,
    paymentIntentId: row.payment_intent_id,
    checkoutUrl: row.checkout_url,
    createdAt: formatTimestamp(Number(row.created_at))!,
  };
}

function paymentView(row: DfyPaymentRow): Parsed<typeof DealPayment> {
  const at = (v: number | null) => formatTimestamp(v === null ? null : Number(v));
  return {
    id: row.id,
    kind: row.kind as 'preorder' | 'checkout' | 'pool',
    amountUsd: usd(Number(row.amount_cents)),
    currency: row.currency ?? 'USD',
    processor: row.processor,
    paidAt: at(row.created_at)!,
    refundedAt: at(row.refunded_at),
    refund:
      row.refund_status === null
        ? null
        : {
            status: row.refund_status as 'owed' | 'issued' | 'failed',
            refundId: row.refund_id,
            reason: row.refund_failure,
            at: at(row.refund_at),
          },
  };
}

/**
 * Issues each refund the deal owes through the processor its payment was taken with (owed or failed → issued), once.
 * The idempotency key is the payment's and its failed attempts' count (`vend-dfy-refund-<payment>-<n>`): a repeat, a
 * concurrent call or a lost answer gets the same refund. The processor's refusal is recorded failed with its reason
 * and answered 502 (a retry is a new attempt); the processor unreachable is 503 with it left owed (a retry uses the
 * same key). A payment taken through another processor than this deployment's is 409 (refund it there by hand).
 * `onRecorded`: the audit entry of each recorded outcome.
 */
export async function issueRefunds(
  repos: Repos,
  processor: PaymentProcessor | null,
  dealId: string,
  reason: string,
  now: () => number,
  onRecorded: (what: 'issued' | 'failed', paymentId: string) => Promise<void>,
): Promise<void> {
  const owed = await repos.dfy.refundsToIssue(dealId);
  if (!owed.length) return;
  if (!processor) throw new AppError('unavailable', 'Payments are not configured on this deployment');
  for (const pay of owed) {
    if (pay.processor !== processor.name) {
      throw new AppError('conflict', `Payment ${pay.id} was taken through ${pay.processor}, not this deployment's ${processor.name}: refund it there by hand`);
    }
    const attempt = Number(pay.refund_attempts);
    let issued;
    try {
      issued = await processor.refund({
        intentId: pay.payment_intent_id!,
        amountCents: Number(pay.amount_cents),
        currency: pay.currency ?? 'USD',
        reason: `Done-for-you deal ${dealId}: ${reason}`,
        idempotencyKey: `vend-dfy-refund-${pay.id}-${attempt}`,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'upstream') {
        if (await repos.dfy.refundFailed(pay.id, attempt, err.message, null, now())) await onRecorded('failed', pay.id);
      }
      throw err;
    }
    if (issued.status === 'failed') {
      const why = `The payment processor could not refund: ${issued.failureReason ?? 'no reason given'}`;
      if (await repos.dfy.refundFailed(pay.id, attempt, why, issued.refundId, now())) await onRecorded('failed', pay.id);
      throw new AppError('upstream', why);
    }
    if (await repos.dfy.refundIssued(pay.id, issued.refundId, now())) await onRecorded('issued', pay.id);
  }
}

/** A payment taken for the deal (`taken`: through a processor; `refundOwed`: the deal could no longer take it, owed back). */
export async function recordPayment(
  tx: Repos,
  w: DealWriter,
  pay: { id: string; kind: 'preorder' | 'pool' | 'checkout'; cents: number; taken?: { processor: string; intentId: string; currency: string } },
  now: number,
  refundOwed = false,
): Promise<void> {
  // the deal row must exist before its payment (foreign key): a new deal is written first
  await w.ensureRow();
  await tx.dfy.insertPayment({
    id: pay.id,
    deal_id: w.dealId,
    operator_id: w.operatorId,
    kind: pay.kind,
    amount_cents: pay.cents,
    created_at: now,
    refunded_at: refundOwed ? now : null,
    processor: pay.taken?.processor ?? null,
    payment_intent_id: pay.taken?.intentId ?? null,
    currency: pay.taken?.currency ?? null,
    refund_status: refundOwed ? 'owed' : null,
  });
}
