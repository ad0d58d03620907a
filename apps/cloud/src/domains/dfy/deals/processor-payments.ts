import type { Clock } from '@vend/protocol';
import { newId } from '../../../crypto/ids.ts';
import type { AuditLog } from '../../../http/audit.ts';
import type { Principal } from '../../../http/principal.ts';
import type { Parsed } from '../../../http/route.ts';
import type { AppStore, Repos } from '../../../repos.ts';
import {
  PAYMENT_EXPIRED,
  PAYMENT_SUCCEEDED,
  refuseUnlessAsked,
  verifiedEvent,
  type PaymentEvent,
  type PaymentProcessor,
  type WebhookHeaders,
} from '../../ad-purchases/processor.ts';
import { priceOf } from './catalog.ts';
import type { ChangeScope, DealChanges } from './deal-changes.ts';
import type { DealEvent, DealOrigin, DealState } from './deal-model.ts';
import {
  DFY_PAID_RETURN_PATH,
  DFY_PAYMENTS_WEBHOOK_PATH,
  dealMoney,
  dealView,
  issueRefunds,
  recordPayment,
  type ProcessorPaymentKind,
} from './deal-payments.ts';
import type { DealWriter } from './deal-writer.ts';
import type { CreateDealBody, DealMoney, DealPaymentWebhookResult, DealView, PreorderBody } from './dfy.schemas.ts';

export interface ProcessorPaymentsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** A real payment processor (Stripe) that charges pre-orders and checkouts; null: they are paid at once (the sandbox). */
  processor: PaymentProcessor | null;
  /** The deployment's processor, which authenticates deliveries to the webhook (the sandbox's test processor too: 401 unsigned). */
  verifier: PaymentProcessor | null;
}

/** What the deal core lends: its `created` event and its fleet pin. */
export interface DealHooks {
  created(w: DealWriter, body: CreateDealBody | PreorderBody, origin: DealOrigin): void;
  provisionPin(tx: Repos, w: DealWriter): Promise<void>;
}

/** Thrown to roll back a rehearsal (`rehearse`): the change was allowed. */
const REHEARSED = Symbol('rehearsed');

const usd = (cents: number) => Math.round(cents) / 100;

function request(p: Principal, action: string): ChangeScope {
  return { p, actor: 'operator', audit: { action } };
}

function stateOf(row: { state_json: string }): DealState {
  return JSON.parse(row.state_json) as DealState;
}

/**
 * DFY pre-orders and checkouts through a real payment processor (issue 34; docs/decisions/dfy.md "Pre-order and
 * checkout through Stripe"): the payment asked, its event applied once, the refunds owed issued. DfyService hands
 * its pre-orders and checkouts here when the deployment has one (`processor`); every deal change goes through the
 * same `DealChanges` and tables as without one.
 */
export class ProcessorPayments {
  constructor(
    private readonly deps: ProcessorPaymentsDeps,
    private readonly changes: DealChanges,
    private readonly hooks: DealHooks,
  ) {}

  /** The charging processor (only called when there is one). */
  private get processor(): PaymentProcessor {
    return this.deps.processor!;
  }

  /**
   * The confirmed pre-order with a real processor: an intent for the catalog price of the tier first (a decline:
   * 502, the processor down: 503 — nothing recorded, no deal), then the deal (origin preorder, at shortlisting, its
   * scout raised, as a requested deal) and its payment awaiting the operator, in one transaction. The processor's
   * payment event moves it to pre_ordered (`receivePayment`).
   */
  async preorder(p: Principal, body: PreorderBody): Promise<DealState> {
    const processor = this.processor;
    const now = this.deps.clock.now();
    const paymentId = newId('dpay', now);
    const amount = priceOf(body.tier);
    const intent = await processor.createIntent({
      purchaseId: paymentId,
      amountCents: amount,
      currency: 'USD',
      description: `Done-for-you pre-order: ${body.tier} machine, ${usd(amount).toFixed(2)} USD`,
      webhookPath: DFY_PAYMENTS_WEBHOOK_PATH,
      returnUrl: DFY_PAID_RETURN_PATH,
    });
    // an intent whose deal failed to write is never shown to anyone (harmless at the processor)
    return this.changes.create(p.operatorId, request(p, 'dfy.preorder'), async (w, tx, at) => {
      this.hooks.created(w, body, 'preorder');
      await w.move('deal_created');
      await w.ensureRow();
      await tx.dfy.insertPaymentIntent({
        id: paymentId,
        deal_id: w.dealId,
        operator_id: w.operatorId,
        kind: 'preorder',
        amount_cents: amount,
        currency: 'USD',
        status: 'awaiting_payment',
        processor: processor.name,
        payment_intent_id: intent.intentId,
        checkout_url: intent.checkoutUrl,
        event_id: null,
        created_at: at,
        paid_at: null,
      });
    });
  }

  /** A requested deal's confirmed pre-order (`askPayment`): shortlisting → pre_ordered on its event. */
  preorderDeal(p: Principal, dealId: string): Promise<DealState> {
    return this.askPayment(p, dealId, 'preorder', async (w, paymentId) => {
      const amount = priceOf(w.deal.tier);
      await w.act('preorder', { confirm: true, event: { type: 'preorder_paid', amountCents: amount, paymentId } });
      return amount;
    });
  }

  /** Confirm gate 4 (`askPayment`): the machine's price less a pre-order paid; money resolved on its event. */
  checkout(p: Principal, dealId: string, confirmed: boolean): Promise<DealState> {
    return this.askPayment(p, dealId, 'checkout', async (w, paymentId) => {
      const due = priceOf(w.deal.tier) - Math.round(w.deal.money.preorderPaidUsd * 100);
      await w.act('payment', { confirm: confirmed, event: { type: 'machine_paid', amountCents: due, paymentId } });
      return due;
    });
  }

  /**
   * A confirmed payment of an existing deal with a real processor. A payment of that kind already awaiting the
   * operator is answered again (no second intent). Otherwise the change the payment will make is rehearsed (every
   * refusal exactly as without a processor, nothing kept); then the intent for the amount the rehearsal decided
   * (502/503: nothing recorded) and the payment awaiting the operator. The deal moves on its event. The payment's
   * id, minted here, is the intent's purchase id: the adapter's idempotency key (per purchase and amount) makes the
   * SDK's retries one intent. Two concurrent requests may each make one; a second payment is owed back when its
   * event finds the deal paid (`receivePayment`).
   */
  private async askPayment(
    p: Principal,
    dealId: string,
    kind: ProcessorPaymentKind,
    rehearsal: (w: DealWriter, paymentId: string) => Promise<number>,
  ): Promise<DealState> {
    const processor = this.processor;
    const repos = this.deps.store.repos;
    const row = await this.changes.owned(repos, p, dealId);
    if ((await repos.dfy.awaitingIntents(dealId)).some((x) => x.kind === kind)) return stateOf(row);
    const paymentId = newId('dpay', this.deps.clock.now());
    let amount = 0;
    await this.rehearse(p, dealId, `dfy.${kind}`, async (w) => {
      amount = await rehearsal(w, paymentId);
    });
    const intent = await processor.createIntent({
      purchaseId: paymentId,
      amountCents: amount,
      currency: 'USD',
      description: `Done-for-you ${kind === 'preorder' ? 'pre-order' : 'machine checkout'}: deal ${dealId}, ${usd(amount).toFixed(2)} USD`,
      webhookPath: DFY_PAYMENTS_WEBHOOK_PATH,
      returnUrl: DFY_PAID_RETURN_PATH,
    });
    // an intent whose payment failed to write is never shown to anyone (harmless at the processor)
    return this.deps.store.transaction(async (tx) => {
      await this.changes.owned(tx, p, dealId);
      const locked = (await tx.dfy.lockDeal(dealId))!;
      await tx.dfy.insertPaymentIntent({
        id: paymentId,
        deal_id: dealId,
        operator_id: locked.operator_id,
        kind,
        amount_cents: amount,
        currency: 'USD',
        status: 'awaiting_payment',
        processor: processor.name,
        payment_intent_id: intent.intentId,
        checkout_url: intent.checkoutUrl,
        event_id: null,
        created_at: this.deps.clock.now(),
        paid_at: null,
      });
      await this.deps.audit.record(tx, p, `dfy.${kind}_asked`, `deal:${dealId} payment:${paymentId}`);
      return stateOf(locked);
    });
  }

  /** Runs `change` on the deal as the operator's request and rolls it back: its refusals (404, 409) are the answer. */
  private async rehearse(p: Principal, dealId: string, action: string, change: (w: DealWriter) => Promise<void>): Promise<void> {
    try {
      await this.changes.change(dealId, request(p, action), async (w) => {
        await change(w);
        throw REHEARSED;
      });
    } catch (err) {
      if (err !== REHEARSED) throw err;
    }
  }

  /** The deal as single-deal answers show it: with the payment awaiting the operator, while one does. */
  async view(deal: DealState): Promise<Parsed<typeof DealView>> {
    return dealView(this.deps.store.repos, deal);
  }

  /** The caller's deal's money view: the payment awaiting the operator, the payments taken and their refunds. */
  async money(p: Principal, dealId: string): Promise<Parsed<typeof DealMoney>> {
    const repos = this.deps.store.repos;
    return dealMoney(repos, stateOf(await this.changes.owned(repos, p, dealId)));
  }

  /** Authenticates the exact bytes of a processor delivery (401) and reads its event (400), before anything else. */
  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders): { event: PaymentEvent; json: unknown } {
    return verifiedEvent(this.deps.verifier, rawBody, headers, this.deps.clock.now());
  }

  /**
   * A verified payment event of a pre-order or checkout, in one transaction. Its id is claimed first (the primary
   * key of `dfy_payment_events`), so a replay, even a concurrent one, changes nothing. `payment_intent.succeeded`
   * must name the payment's own intent with its amount and currency (400 otherwise, nothing recorded, so a corrected
   * delivery may follow). The payment is then the operator's confirmed request, made by the system channel: the
   * pre-order moves shortlisting → pre_ordered, the checkout resolves money (at signed: ready_to_ship, the fleet pin
   * provisioned). A deal that can no longer take it (cancelled, moved on, paid meanwhile) is left as it is; the
   * money is recorded and owed back, and its refund is tried at once. Other event types are recorded only.
   */
  async receivePayment(event: PaymentEvent, payload: string): Promise<Parsed<typeof DealPaymentWebhookResult>> {
    const now = this.deps.clock.now();
    const processor = this.deps.verifier?.name ?? 'none';
    const result = await this.deps.store.transaction(async (tx) => {
      const fresh = await tx.dfy.claimPaymentEvent({
        id: event.id,
        processor,
        type: event.type,
        intent_id: event.intentId,
        payment_id: event.purchaseId,
        payload,
        received_at: now,
      });
      const intent = await tx.dfy.paymentIntent(event.purchaseId);
      const base = { eventId: event.id, type: event.type, paymentId: event.purchaseId, dealId: intent?.deal_id ?? null, refundOwed: false };
      const status = (intent?.status as 'awaiting_payment' | 'paid' | 'expired' | undefined) ?? null;
      if (!fresh) return { ...base, duplicate: true, status };
      // the processor's page can no longer be paid: the operator may ask again (a new payment)
      if (event.type === PAYMENT_EXPIRED && intent && intent.payment_intent_id === event.intentId && (await tx.dfy.markIntentExpired(intent.id, event.id))) {
        return { ...base, duplicate: false, status: 'expired' as const };
      }
      if (event.type !== PAYMENT_SUCCEEDED) return { ...base, duplicate: false, status };

      refuseUnlessAsked(event, 'payment', intent, (i) => ({
        id: i.id,
        intentId: i.payment_intent_id,
        amountCents: Number(i.amount_cents),
        currency: i.currency,
      }));
      // paid by another event of the same intent: nothing more to do
      if (!(await tx.dfy.markIntentPaid(intent.id, event.id, now))) return { ...base, duplicate: true, status: 'paid' as const };
      const kind = intent.kind as ProcessorPaymentKind;
      const cents = Number(intent.amount_cents);
      const pay = { id: intent.id, kind, cents, taken: { processor: intent.processor, intentId: intent.payment_intent_id, currency: intent.currency } };
      const scope: ChangeScope = { tx, p: null, actor: 'operator', channel: 'system', audit: { action: `dfy.${kind}_paid` } };
      const { result: refundOwed } = await this.changes.change(intent.deal_id, scope, async (w, _tx, at) => {
        const paid: DealEvent['data'] =
          kind === 'preorder'
            ? { type: 'preorder_paid', amountCents: cents, paymentId: intent.id }
            : { type: 'machine_paid', amountCents: cents, paymentId: intent.id };
        const op = kind === 'preorder' ? 'preorder' : 'payment';
        if (!w.allows(op, { confirm: true, event: paid })) {
          await recordPayment(tx, w, pay, at, true);
          await this.deps.audit.record(tx, null, 'dfy.payment_refund_owed', `deal:${w.dealId} payment:${intent.id}`);
          return true;
        }
        const to = await w.act(op, { confirm: true, event: paid });
        await recordPayment(tx, w, pay, at);
        if (to === 'ready_to_ship') await this.hooks.provisionPin(tx, w);
        return false;
      });
      return { ...base, duplicate: false, status: 'paid' as const, refundOwed };
    });
    if (result.refundOwed && result.dealId) {
      // tried at once; a refusal or an outage stays on the deal's money view (failed / owed) for the operator's retry
      await this.issueOwed(null, result.dealId, 'paid after the deal could no longer take it').catch(() => undefined);
    }
    return result;
  }

  /** Issues the refunds the deal owes through the processor (deal-payments.ts `issueRefunds`), audited. */
  issueOwed(p: Principal | null, dealId: string, reason: string): Promise<void> {
    const repos = this.deps.store.repos;
    return issueRefunds(
      repos,
      this.deps.processor,
      dealId,
      reason,
      () => this.deps.clock.now(),
      (what, paymentId) =>
        this.deps.audit.record(repos, p, what === 'issued' ? 'dfy.refund_issued' : 'dfy.refund_failed', `deal:${dealId} payment:${paymentId}`),
    );
  }
}
