import type { Clock } from '@vend/protocol';
import { newId } from '../../../crypto/ids.ts';
import type { DfyPoolInvestmentRow } from '../../../db/schema.ts';
import type { AuditLog } from '../../../http/audit.ts';
import { AppError } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { formatTimestamp } from '../../../http/time-format.ts';
import type { Parsed } from '../../../http/route.ts';
import type { AppStore, Repos } from '../../../repos.ts';
import {
  PAYMENT_SUCCEEDED,
  refuseUnlessAsked,
  verifiedEvent,
  type PaymentEvent,
  type PaymentProcessor,
  type WebhookHeaders,
} from '../../ad-purchases/processor.ts';
import { priceOf, type Tier } from '../deals/catalog.ts';
import type { DfyService } from '../deals/dfy.service.ts';
import { DFY_PAID_RETURN_PATH } from '../deals/deal-payments.ts';
import type { FleetPool, FleetWebhookResult, InvestBody, Investment } from './dfy-fleets.schemas.ts';
import { POOL_FEE_PCT } from './pool-fee.ts';

/** Where the payment processor delivers the pool's payment events (signed as docs/ad-payments-webhook.md says). */
export const DFY_POOL_WEBHOOK_PATH = '/api/v1/dfy/fleets/webhook';
/** The tier a pool funds until its operator names another (docs/decisions/dfy-modes.md). */
export const DEFAULT_TARGET: Tier = 'pro';

export interface DfyFleetsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Charges investments and verifies the processor's webhook; null: no processor (investing answers 503). */
  processor: PaymentProcessor | null;
  /** A funded deal is the DFY service's own deal creation. */
  deals: Pick<DfyService, 'createPoolDealIn'>;
}

const usd = (cents: number) => Math.round(cents) / 100;

/**
 * The managed investment pool (spec 3 §2, key rule 7, §8; docs/decisions/dfy-modes.md). An investment is charged
 * through the payment processor; its payment event (applied once per event id) puts the capital in the
 * operator's own pool, and in the same transaction, while the balance covers the target tier's catalog price, a
 * fully managed deal is funded and the price taken. The remainder waits for the next investment.
 */
export class DfyFleetsService {
  constructor(private readonly deps: DfyFleetsDeps) {}

  /** Confirmed investment: a payment intent for the amount at the processor, and the investment awaiting its payment. */
  async invest(p: Principal, body: InvestBody): Promise<Parsed<typeof Investment>> {
    const { processor, clock, store } = this.deps;
    if (!processor) throw new AppError('unavailable', 'Payments are not configured on this deployment');
    const now = clock.now();
    const id = newId('dinv', now);
    const amountCents = Math.round(body.investUsd * 100);
    const intent = await processor.createIntent({
      purchaseId: id,
      amountCents,
      currency: 'USD',
      description: `DFY investment pool: ${usd(amountCents).toFixed(2)} USD`,
      webhookPath: DFY_POOL_WEBHOOK_PATH,
      returnUrl: DFY_PAID_RETURN_PATH,
    });
    // an intent whose investment failed to write is never shown to anyone (harmless at the processor)
    const target = await store.transaction(async (tx) => {
      await tx.dfyFleets.ensurePool(p.operatorId, body.targetModel ?? DEFAULT_TARGET, now);
      if (body.targetModel) await tx.dfyFleets.setTarget(p.operatorId, body.targetModel, now);
      await tx.dfyFleets.insertInvestment({
        id,
        operator_id: p.operatorId,
        amount_cents: amountCents,
        currency: 'USD',
        status: 'awaiting_payment',
        processor: processor.name,
        payment_intent_id: intent.intentId,
        checkout_url: intent.checkoutUrl,
        event_id: null,
        created_at: now,
        paid_at: null,
      });
      await this.deps.audit.record(tx, p, 'dfy.pool_invest', `investment:${id}`);
      return (await tx.dfyFleets.pool(p.operatorId))!.target_tier as Tier;
    });
    const row = (await store.repos.dfyFleets.investment(id))!;
    return investmentView(row, target);
  }

  /** Authenticates the exact bytes of a processor delivery (401) and reads its event (400), before anything else. */
  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders): { event: PaymentEvent; json: unknown } {
    return verifiedEvent(this.deps.processor, rawBody, headers, this.deps.clock.now());
  }

  /**
   * A verified payment event, in one transaction. Its id is claimed first (the primary key of
   * `dfy_pool_events`), so a replay, even a concurrent one, changes nothing. `payment_intent.succeeded` must
   * name the investment's own intent with its amount and currency (400 otherwise, nothing recorded, so a
   * corrected delivery may follow); the investment is paid, the capital credited to its operator's pool and
   * allocated. Other event types are recorded only.
   */
  async receivePayment(event: PaymentEvent, payload: string): Promise<FleetWebhookResult> {
    const now = this.deps.clock.now();
    const processor = this.deps.processor?.name ?? 'none';
    return this.deps.store.transaction(async (tx) => {
      const repo = tx.dfyFleets;
      const base = { eventId: event.id, type: event.type, investmentId: event.purchaseId, dealsFunded: [] as string[] };
      const fresh = await repo.claimEvent({
        id: event.id,
        processor,
        type: event.type,
        intent_id: event.intentId,
        investment_id: event.purchaseId,
        payload,
        received_at: now,
      });
      const inv = await repo.investment(event.purchaseId);
      const status = (inv?.status as 'awaiting_payment' | 'paid' | undefined) ?? null;
      if (!fresh) return { ...base, duplicate: true, status };
      if (event.type !== PAYMENT_SUCCEEDED) return { ...base, duplicate: false, status };

      refuseUnlessAsked(event, 'investment', inv, (i) => ({
        id: i.id,
        intentId: i.payment_intent_id,
        amountCents: Number(i.amount_cents),
        currency: i.currency,
      }));
      // paid by another event of the same intent: nothing more to do
      if (!(await repo.markPaid(inv.id, event.id, now))) return { ...base, duplicate: true, status: 'paid' };
      await repo.move(inv.operator_id, Number(inv.amount_cents), { invested: Number(inv.amount_cents) }, now);
      const dealsFunded = await this.allocate(tx, inv.operator_id, inv.id, now);
      await this.deps.audit.record(tx, null, 'dfy.pool_paid', `investment:${inv.id} deals:${dealsFunded.length}`);
      return { ...base, duplicate: false, status: 'paid', dealsFunded };
    });
  }

  /** While the locked balance covers the target tier's price: a fully managed deal, the price taken. Answers the deals. */
  private async allocate(tx: Repos, operatorId: string, investmentId: string, now: number): Promise<string[]> {
    const funded: string[] = [];
    for (;;) {
      const pool = await tx.dfyFleets.lockPool(operatorId);
      if (!pool) return funded;
      const tier = pool.target_tier as Tier;
      const price = priceOf(tier);
      const balance = Number(pool.balance_cents);
      if (balance < price) return funded;
      const deal = await this.deps.deals.createPoolDealIn(tx, operatorId, tier, `funded by the investment pool (investment ${investmentId})`);
      await tx.dfyFleets.move(operatorId, -price, { funded: 1 }, now);
      await tx.dfyFleets.insertAllocation({
        id: newId('dalloc', now),
        operator_id: operatorId,
        deal_id: deal.id,
        investment_id: investmentId,
        tier,
        amount_cents: price,
        balance_after_cents: balance - price,
        created_at: now,
        returned_at: null,
      });
      funded.push(deal.id);
    }
  }

  /** The caller's own pool and its history (an operator that never invested: an empty pool at the default target). */
  async pool(p: Principal): Promise<Parsed<typeof FleetPool>> {
    const repo = this.deps.store.repos.dfyFleets;
    const row = await repo.pool(p.operatorId);
    const target = (row?.target_tier as Tier | undefined) ?? DEFAULT_TARGET;
    const investments = await repo.investmentsOf(p.operatorId);
    const allocations = await repo.allocationsOf(p.operatorId);
    const history: Parsed<typeof FleetPool>['history'] = [
      ...allocations.map((a) => ({
        kind: 'allocation' as const,
        id: a.id,
        at: formatTimestamp(Number(a.created_at))!,
        amountUsd: usd(Number(a.amount_cents)),
        dealId: a.deal_id,
        tier: a.tier as Tier,
        investmentId: a.investment_id,
        balanceAfterUsd: usd(Number(a.balance_after_cents)),
        returnedAt: formatTimestamp(a.returned_at === null ? null : Number(a.returned_at)),
        sort: Number(a.created_at),
      })),
      ...investments.map((i) => ({
        kind: 'investment' as const,
        id: i.id,
        at: formatTimestamp(Number(i.created_at))!,
        amountUsd: usd(Number(i.amount_cents)),
        status: i.status as 'awaiting_payment' | 'paid',
        paidAt: formatTimestamp(i.paid_at === null ? null : Number(i.paid_at)),
        paymentIntentId: i.payment_intent_id,
        sort: Number(i.created_at),
      })),
    ]
      // newest first; at the same instant an allocation (the consequence) before its investment, then by id
      .sort((a, b) => b.sort - a.sort || (a.kind === b.kind ? b.id.localeCompare(a.id) : a.kind === 'allocation' ? -1 : 1))
      .map(({ sort: _, ...entry }) => entry);
    return {
      balanceUsd: usd(Number(row?.balance_cents ?? 0)),
      totalInvestedUsd: usd(Number(row?.invested_cents ?? 0)),
      machinesFunded: Number(row?.machines_funded ?? 0),
      feePercentage: POOL_FEE_PCT,
      targetModel: target,
      targetPriceUsd: usd(priceOf(target)),
      history,
    };
  }
}

function investmentView(row: DfyPoolInvestmentRow, target: Tier): Parsed<typeof Investment> {
  return {
    id: row.id,
    status: row.status as 'awaiting_payment' | 'paid',
    investUsd: usd(Number(row.amount_cents)),
    currency: 'USD',
    processor: row.processor,
    paymentIntentId: row.payment_intent_id,
    checkoutUrl: row.checkout_url,
    targetModel: target,
    createdAt: formatTimestamp(Number(row.created_at))!,
    paidAt: formatTimestamp(row.paid_at === null ? null : Number(row.paid_at)),
  };
}
