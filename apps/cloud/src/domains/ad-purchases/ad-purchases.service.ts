import type { EventSink } from '../webhooks/webhook-events.ts';
import type { Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import type { AdDraftCreativeRow, AdPurchaseRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { canSeeOwned, ownerFilter } from '../../http/authenticate.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { offsetOf, type Page } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { CampaignsService } from '../campaigns/campaigns.service.ts';
import type { CreativesService } from '../creatives/creatives.service.ts';
import type { LineWithOperator } from './ad-purchases.repo.ts';
import type { AdReceipts } from './ad-receipts.ts';
import type { AdPurchase, AdPurchaseListQuery, DecisionBody, RefundBody, WebhookResult } from './ad-purchases.schemas.ts';
import { PAYMENT_SUCCEEDED, refuseUnlessAsked, verifiedEvent, type PaymentEvent, type PaymentProcessor, type WebhookHeaders } from './processor.ts';
import { flightOf, purchaseStatusOf, resubmitRefusal, targetingOf, type PurchaseStatus } from './purchase.rules.ts';
import { operatorView, partsOf, purchaseMedia, reachOf } from './purchase-views.ts';

export interface AdPurchasesDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Drafts each operator's campaign on payment; activates or removes it on the decision. */
  campaigns: Pick<CampaignsService, 'draftForPurchase' | 'activateForPurchase' | 'discardForPurchase'>;
  /** Makes each operator's creative row from the purchase's measured media. */
  creatives: Pick<CreativesService, 'row'>;
  /** Verifies the payment webhook; null: no processor on this deployment (the webhook answers 503). */
  processor: PaymentProcessor | null;
  /** Fleet events: each operator's decision reaches its webhooks (campaign.approved / campaign.rejected). */
  events: EventSink;
  /** Sends the buyer's receipt queued with the payment, right after its commit (absent: the receipt loop alone). */
  receipts?: Pick<AdReceipts, 'sendNow'>;
}

const purchaseNotFound = () => notFound('Ad purchase');

/**
 * Paid self-serve purchases (spec 1 §2.8, §3, §6): the payment webhook that moves a purchase to
 * `pending_approval` and drafts one campaign per operator, and the operators' approvals. An
 * operator sees and decides only its own line; an admin every line.
 */
export class AdPurchasesService {
  constructor(private readonly deps: AdPurchasesDeps) {}

  /** The payment processor's name (`stripe`, `test`), `none` without one: what the startup line says. */
  get processorName(): string {
    return this.deps.processor?.name ?? 'none';
  }

  // ---- the payment webhook

  /** Authenticates the exact bytes (401) and reads the event (400), before anything else. */
  verifyWebhook(rawBody: Buffer, headers: WebhookHeaders): { event: PaymentEvent; json: unknown } {
    return verifiedEvent(this.deps.processor, rawBody, headers, this.deps.clock.now());
  }

  /**
   * A verified payment event, in one transaction. Its id is claimed first, so a replay (even a
   * concurrent one) changes nothing. `payment_intent.succeeded` must name the purchase's own intent
   * with its quoted amount and currency (400 otherwise, nothing recorded, so a corrected delivery
   * may follow); the purchase moves to `pending_approval` and each operator the reach resolved to
   * gets its creative and one draft campaign, on its own line. Other event types are recorded only.
   */
  async receivePayment(event: PaymentEvent, payload: string): Promise<WebhookResult> {
    const result = await this.recordPayment(event, payload);
    // after the commit: the receipt goes now if the sender takes it, else the receipt loop retries it
    if (!result.duplicate && result.status === 'pending_approval' && event.type === PAYMENT_SUCCEEDED) await this.deps.receipts?.sendNow(event.purchaseId);
    return result;
  }

  private async recordPayment(event: PaymentEvent, payload: string): Promise<WebhookResult> {
    const now = this.deps.clock.now();
    const processor = this.deps.processor?.name ?? 'none';
    return this.deps.store.transaction(async (tx) => {
      const repo = tx.adPurchases;
      const base = { eventId: event.id, type: event.type, purchaseId: event.purchaseId };
      const fresh = await repo.claimEvent({
        id: event.id,
        processor,
        type: event.type,
        intent_id: event.intentId,
        purchase_id: event.purchaseId,
        payload,
        received_at: now,
      });
      const purchase = await repo.purchase(event.purchaseId);
      if (!fresh) return { ...base, duplicate: true, status: (purchase?.status as PurchaseStatus | undefined) ?? null };
      if (event.type !== PAYMENT_SUCCEEDED) return { ...base, duplicate: false, status: (purchase?.status as PurchaseStatus | undefined) ?? null };

      refuseUnlessAsked(event, 'purchase', purchase, (p) => ({
        id: p.id,
        intentId: p.payment_intent_id,
        amountCents: Number(p.total_cents),
        currency: p.currency,
      }));
      // the purchase was paid by another event of the same intent: nothing more to do
      // the receipt is queued with the payment itself: a duplicate or late event never queues a second one
      const paid = { status: 'pending_approval', paid_at: now, updated_at: now, receipt_status: 'queued', receipt_next_at: now };
      if (!(await repo.updatePurchase(purchase.id, paid, 'awaiting_payment'))) {
        return { ...base, duplicate: true, status: purchase.status as PurchaseStatus };
      }
      await this.draftCampaigns(tx, purchase, now);
      await this.deps.audit.record(tx, null, 'ad_purchases.paid', `ad_purchase:${purchase.id}`);
      return { ...base, duplicate: false, status: 'pending_approval' };
    });
  }

  /** For each operator of the quote: its creative row, one draft campaign on its own fleet, its line. */
  private async draftCampaigns(tx: Repos, purchase: AdPurchaseRow, now: number): Promise<void> {
    for (const part of partsOf(purchase)) {
      const campaignId = await this.draftCampaign(tx, purchase, part.operatorId, now);
      await tx.adPurchases.insertLine({
        id: newId('apl', now),
        purchase_id: purchase.id,
        operator_id: part.operatorId,
        machines: part.machines,
        machine_nos_json: JSON.stringify(part.machineNos),
        amount_cents: part.amountCents,
        campaign_id: campaignId,
        status: 'pending_approval',
        created_at: now,
      });
    }
  }

  /** One operator's creative row (the purchase's ad as it now stands) and its draft campaign on its own fleet. */
  private async draftCampaign(tx: Repos, purchase: AdPurchaseRow, operatorId: string, now: number): Promise<string> {
    const reach = reachOf(purchase);
    const flight = flightOf(purchase.flight_start, purchase.months);
    const media = purchaseMedia(purchase);
    const source = purchase.creative_source === 'contentx' ? 'contentx' : 'upload';
    const creative = this.deps.creatives.row(operatorId, media, source, purchase.contentx_ref, now);
    await tx.creatives.insert(creative);
    return this.deps.campaigns.draftForPurchase(
      tx,
      {
        adPurchaseId: purchase.id,
        operatorId,
        name: `Self-serve: ${purchase.sponsor_name}`,
        sponsorName: purchase.sponsor_name,
        sponsorType: purchase.sponsor_type as 'local-business' | 'brand-coop',
        targeting: targetingOf(reach),
        weight: purchase.slots,
        flightStart: flight.start,
        flightEnd: flight.end,
        monthlyRatePerMachineCents: purchase.monthly_rate_cents,
        creativeId: creative.id,
        creativeSource: source,
        contentxRef: purchase.contentx_ref,
        sourceQrId: purchase.source_qr_id,
        sourceMachineNo: purchase.source_machine_no,
        buyerContact: { name: purchase.buyer_name, email: purchase.buyer_email, phone: purchase.buyer_phone },
      },
      now,
    );
  }

  // ---- the buyer

  /**
   * The buyer's rejected line sent back for approval with a new ad (the marketplace service has checked the status
   * token and the buyer's draft): the purchase's ad becomes that creative, the line's operator gets a fresh creative
   * row and draft campaign and the line is `pending_approval` again, owing nothing. Refused (409) by
   * `resubmitRefusal`: a line not rejected, one whose refund was issued (the money is gone), a flight over. The line is
   * moved only while still rejected and not refunded, so a concurrent decision or refund record wins cleanly.
   */
  async resubmitLine(purchaseId: string, lineId: string, ad: { draftId: string; creative: AdDraftCreativeRow }): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.store.transaction(async (tx) => {
      const purchase = await tx.adPurchases.purchase(purchaseId);
      if (!purchase) throw purchaseNotFound();
      const lines = await tx.adPurchases.linesOf([purchaseId]);
      const line = lines.find((l) => l.id === lineId);
      if (!line) throw badRequest(undefined, [{ path: 'lineId', message: 'names no line of this purchase' }]);
      const why = resubmitRefusal(line, flightOf(purchase.flight_start, purchase.months).end, now);
      if (why) throw conflict(why);
      if (!(await tx.adPurchases.claimDraft(ad.draftId, purchaseId, now))) throw conflict('This creative draft was already used for a purchase');
      const c = ad.creative;
      const media = {
        media_sha256: c.sha256,
        media_type: c.media_type,
        media_kind: c.kind,
        media_width: c.width,
        media_height: c.height,
        media_duration_ms: c.duration_ms,
        media_bytes: c.bytes,
        creative_source: c.source,
        contentx_ref: c.contentx_ref,
      };
      await tx.adPurchases.updatePurchase(purchaseId, { ...media, updated_at: now });
      const campaignId = await this.draftCampaign(tx, { ...purchase, ...media }, line.operator_id, now);
      if (!(await tx.adPurchases.reopenLine(line.id, campaignId))) throw conflict('This line was decided or refunded meanwhile');
      line.status = 'pending_approval';
      await tx.adPurchases.updatePurchase(purchaseId, { status: purchaseStatusOf(lines), updated_at: now });
      await this.deps.audit.record(tx, null, 'ad_purchases.resubmit', `ad_purchase:${purchaseId}:${line.operator_email}`);
    });
  }

  // ---- operators

  /** Purchases with a line of the caller's (admins: every purchase), newest first, each with the lines the caller may see. */
  async list(p: Principal, q: AdPurchaseListQuery): Promise<Page<AdPurchase>> {
    const repo = this.deps.store.repos.adPurchases;
    const { total, rows } = await repo.page({ operatorId: ownerFilter(p), status: q.status, lineStatus: q.lineStatus }, q.size, offsetOf(q));
    const lines = await repo.linesOf(rows.map((r) => r.id));
    return {
      page: q.page,
      size: q.size,
      total,
      records: rows.map((r) =>
        operatorView(
          r,
          this.visibleLines(
            p,
            lines.filter((l) => l.purchase_id === r.id),
          ),
          this.deps.clock.now(),
        ),
      ),
    };
  }

  async get(p: Principal, id: string): Promise<AdPurchase> {
    const { purchase, lines } = await this.visible(this.deps.store.repos, p, id);
    return operatorView(purchase, this.visibleLines(p, lines), this.deps.clock.now());
  }

  /**
   * Approves the caller's line (an admin: every pending line, or the one of `operatorEmail`): its
   * campaign goes on air at once, while other operators' lines still wait. 409 before payment and for
   * a line already decided.
   */
  approve(p: Principal, id: string, body: { operatorEmail?: string | undefined }): Promise<AdPurchase> {
    return this.decide(p, id, body, 'approve');
  }

  /** Rejects the caller's line with a reason the buyer sees: its draft campaign is removed, its amount is owed back (by hand). */
  reject(p: Principal, id: string, body: DecisionBody): Promise<AdPurchase> {
    return this.decide(p, id, body, 'reject');
  }

  private async decide(
    p: Principal,
    id: string,
    body: { operatorEmail?: string | undefined; reason?: string },
    action: 'approve' | 'reject',
  ): Promise<AdPurchase> {
    if (body.operatorEmail !== undefined && !p.admin) throw new AppError('forbidden', 'operatorEmail is accepted only from admin credentials');
    const now = this.deps.clock.now();
    await this.deps.store.transaction(async (tx) => {
      const { purchase, lines } = await this.visible(tx, p, id);
      if (purchase.status === 'awaiting_payment') throw conflict(`Purchase ${id} is not paid yet`);
      const targets = this.linesToDecide(p, lines, body.operatorEmail);
      for (const line of targets) {
        if (line.status !== 'pending_approval') throw conflict(`The line of ${line.operator_email} is already ${line.status}`);
        const decided =
          action === 'approve'
            ? { status: 'approved', decided_at: now, decided_by: p.operatorId }
            : {
                status: 'rejected',
                reason: body.reason ?? null,
                decided_at: now,
                decided_by: p.operatorId,
                refund_owed_cents: Number(line.amount_cents),
                refund_status: 'owed',
                campaign_id: null,
              };
        if (!(await tx.adPurchases.decideLine(line.id, decided))) throw conflict(`The line of ${line.operator_email} was decided meanwhile`);
        await this.deps.events.emit(tx, {
          operatorId: line.operator_id,
          type: action === 'approve' ? 'campaign.approved' : 'campaign.rejected',
          machineNo: null,
          data: {
            purchaseId: id,
            campaignId: line.campaign_id,
            amountCents: Number(line.amount_cents),
            reason: action === 'reject' ? (body.reason ?? null) : null,
          },
        });
        if (line.campaign_id !== null) {
          if (action === 'approve') await this.deps.campaigns.activateForPurchase(tx, p, line.campaign_id, now);
          else await this.deps.campaigns.discardForPurchase(tx, p, line.campaign_id);
        }
        line.status = decided.status;
      }
      await tx.adPurchases.updatePurchase(id, { status: purchaseStatusOf(lines), updated_at: now });
      await this.deps.audit.record(tx, p, `ad_purchases.${action}`, `ad_purchase:${id}${targets.length === 1 ? `:${targets[0]!.operator_email}` : ''}`);
    });
    return this.get(p, id);
  }

  /**
   * Issues the refund owed of the caller's rejected line (an admin: of operatorEmail's line, or of every line owing
   * one) through the processor the purchase was paid with, and records it: owed/failed → issued, once. The
   * idempotency key is the line's and its failed attempts' count (`vend-refund-<line>-<n>`): a repeat, a concurrent
   * call or a lost answer gets the same refund; an issued line is answered as it is, with no processor call. The
   * processor's refusal is recorded as failed with its reason and answered 502 (a retry is a new attempt);
   * the processor unreachable is 503 with nothing recorded (a retry uses the same key). 409: nothing owed, or a
   * purchase paid through another processor than this deployment's.
   */
  async refund(p: Principal, id: string, body: RefundBody): Promise<AdPurchase> {
    if (body.operatorEmail !== undefined && !p.admin) throw new AppError('forbidden', 'operatorEmail is accepted only from admin credentials');
    const { purchase, lines } = await this.visible(this.deps.store.repos, p, id);
    const mine = p.admin
      ? body.operatorEmail !== undefined
        ? lines.filter((l) => l.operator_email.toLowerCase() === body.operatorEmail!.toLowerCase())
        : lines
      : lines.filter((l) => canSeeOwned(p, l.operator_id));
    if (p.admin && body.operatorEmail !== undefined && mine.length === 0) {
      throw badRequest(undefined, [{ path: 'operatorEmail', message: 'names no operator of this purchase' }]);
    }
    const owed = mine.filter((l) => Number(l.refund_owed_cents) > 0);
    if (owed.length === 0) throw conflict(`No refund is owed on purchase ${id}: only a rejected line owes one`);
    const pending = owed.filter((l) => l.refund_status !== 'issued');
    const processor = this.deps.processor;
    if (pending.length > 0 && !processor) throw new AppError('unavailable', 'Payments are not configured on this deployment');
    if (pending.length > 0 && processor!.name !== purchase.payment_processor) {
      throw conflict(`Purchase ${id} was paid through ${purchase.payment_processor}, not this deployment's ${processor!.name}: refund it there by hand`);
    }
    for (const line of pending) {
      const attempt = Number(line.refund_attempts);
      const amountCents = Number(line.refund_owed_cents);
      const repo = this.deps.store.repos.adPurchases;
      let issued;
      try {
        issued = await processor!.refund({
          intentId: purchase.payment_intent_id,
          amountCents,
          currency: purchase.currency,
          reason: `Ad purchase ${id} rejected by ${line.operator_name}: ${line.reason ?? 'no reason given'}`,
          idempotencyKey: `vend-refund-${line.id}-${attempt}`,
        });
      } catch (err) {
        if (err instanceof AppError && err.code === 'upstream') {
          await repo.refundFailed(line.id, attempt, err.message, null, this.deps.clock.now());
          await this.deps.audit.record(this.deps.store.repos, p, 'ad_purchases.refund_failed', `ad_purchase:${id}:${line.operator_email}`);
        }
        throw err;
      }
      const now = this.deps.clock.now();
      if (issued.status === 'failed') {
        const why = `The payment processor could not refund: ${issued.failureReason ?? 'no reason given'}`;
        await repo.refundFailed(line.id, attempt, why, issued.refundId, now);
        await this.deps.audit.record(this.deps.store.repos, p, 'ad_purchases.refund_failed', `ad_purchase:${id}:${line.operator_email}`);
        throw new AppError('upstream', why);
      }
      if (await repo.refundIssued(line.id, issued.refundId, now)) {
        await this.deps.audit.record(this.deps.store.repos, p, 'ad_purchases.refund', `ad_purchase:${id}:${line.operator_email}`);
      }
    }
    return this.get(p, id);
  }

  /** The lines a decision applies to: the caller's own; an admin's pick by email, or every pending one. */
  private linesToDecide(p: Principal, lines: LineWithOperator[], operatorEmail: string | undefined): LineWithOperator[] {
    if (!p.admin) return lines.filter((l) => canSeeOwned(p, l.operator_id));
    if (operatorEmail !== undefined) {
      const picked = lines.filter((l) => l.operator_email.toLowerCase() === operatorEmail.toLowerCase());
      if (picked.length === 0) throw badRequest(undefined, [{ path: 'operatorEmail', message: 'names no operator of this purchase' }]);
      return picked;
    }
    const pending = lines.filter((l) => l.status === 'pending_approval');
    if (pending.length === 0) throw conflict('Every line of this purchase is already decided');
    return pending;
  }

  /** The purchase and all its lines, if the caller may see it (a line of theirs, or admin); 404 otherwise. */
  private async visible(tx: Repos, p: Principal, id: string): Promise<{ purchase: AdPurchaseRow; lines: LineWithOperator[] }> {
    const purchase = await tx.adPurchases.purchase(id);
    if (!purchase) throw purchaseNotFound();
    const lines = await tx.adPurchases.linesOf([id]);
    if (!p.admin && !lines.some((l) => canSeeOwned(p, l.operator_id))) throw purchaseNotFound();
    return { purchase, lines };
  }

  private visibleLines(p: Principal, lines: LineWithOperator[]): LineWithOperator[] {
    return lines.filter((l) => canSeeOwned(p, l.operator_id));
  }
}
