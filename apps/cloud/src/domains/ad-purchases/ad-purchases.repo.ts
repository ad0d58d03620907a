import type { Insertable, Kysely, Updateable } from 'kysely';
import type {
  AdCreativeDraftRow,
  AdCreativeDraftsTable,
  AdDraftCreativeRow,
  AdDraftCreativesTable,
  AdPaymentEventRow,
  AdPurchaseLineRow,
  AdPurchaseLinesTable,
  AdPurchaseRow,
  AdPurchasesTable,
  DB,
} from '../../db/schema.ts';

/** A line with its operator's email and name (admins and the buyer see them). */
export type LineWithOperator = AdPurchaseLineRow & { operator_email: string; operator_name: string };

/** A machine the marketplace may sell, as stored: with its operator and screen block. */
export interface SellableRow {
  id: string;
  machine_no: string;
  screen_json: string | null;
  operator_id: string;
  operator_name: string;
}

/**
 * SQL of the self-serve marketplace: the one writer of `ad_creative_drafts`, `ad_draft_creatives`,
 * `ad_purchases`, `ad_purchase_lines` and `ad_payment_events`. Reads machines and operators.
 */
export class AdPurchasesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  // ---- what may be sold

  private sellable() {
    return this.db
      .selectFrom('machines')
      .innerJoin('operators', 'operators.id', 'machines.operator_id')
      .select(['machines.id', 'machines.machine_no', 'machines.screen_json', 'operators.id as operator_id', 'operators.name as operator_name'])
      .where('operators.marketplace_opt_in', '=', 1)
      .where('machines.retired_at', 'is', null);
  }

  /** Every machine in service of an operator that opted in to the marketplace. */
  sellableMachines(): Promise<SellableRow[]> {
    return this.sellable().orderBy('machines.machine_no').execute();
  }

  /** One machine, if the marketplace may sell it. */
  sellableMachine(machineNo: string): Promise<SellableRow | undefined> {
    return this.sellable().where('machines.machine_no', '=', machineNo).executeTakeFirst();
  }

  // ---- creative drafts

  async insertDraft(row: Insertable<AdCreativeDraftsTable>): Promise<void> {
    await this.db.insertInto('ad_creative_drafts').values(row).execute();
  }

  draft(id: string): Promise<AdCreativeDraftRow | undefined> {
    return this.db.selectFrom('ad_creative_drafts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Takes one generation or upload of an unused draft: false when it has used `max` already or a
   * purchase has used it. Atomic, so concurrent calls cannot pass the cap together.
   */
  async reserve(id: string, what: 'generations' | 'uploads', max: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('ad_creative_drafts')
      .set((eb) => ({ [what]: eb(what, '+', 1), updated_at: now }))
      .where('id', '=', id)
      .where(what, '<', max)
      .where('purchase_id', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Gives back a generation or upload that produced nothing. */
  async release(id: string, what: 'generations' | 'uploads'): Promise<void> {
    await this.db
      .updateTable('ad_creative_drafts')
      .set((eb) => ({ [what]: eb(what, '-', 1) }))
      .where('id', '=', id)
      .where(what, '>', 0)
      .execute();
  }

  /** How many creatives a draft holds (the next one's `seq` is one more). */
  async draftCreativeCount(draftId: string): Promise<number> {
    const r = await this.db
      .selectFrom('ad_draft_creatives')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('draft_id', '=', draftId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insertDraftCreative(row: Insertable<AdDraftCreativesTable>): Promise<void> {
    await this.db.insertInto('ad_draft_creatives').values(row).execute();
  }

  draftCreatives(draftId: string): Promise<AdDraftCreativeRow[]> {
    return this.db.selectFrom('ad_draft_creatives').selectAll().where('draft_id', '=', draftId).orderBy('seq').orderBy('id').execute();
  }

  /** Marks the draft used by a purchase; false when one already used it. */
  async claimDraft(id: string, purchaseId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('ad_creative_drafts')
      .set({ purchase_id: purchaseId, updated_at: now })
      .where('id', '=', id)
      .where('purchase_id', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  // ---- purchases

  async insertPurchase(row: Insertable<AdPurchasesTable>): Promise<void> {
    await this.db.insertInto('ad_purchases').values(row).execute();
  }

  purchase(id: string): Promise<AdPurchaseRow | undefined> {
    return this.db.selectFrom('ad_purchases').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Changes a purchase; with `from`, only while it is in that status. False when nothing matched. */
  async updatePurchase(id: string, patch: Updateable<AdPurchasesTable>, from?: string): Promise<boolean> {
    let q = this.db.updateTable('ad_purchases').set(patch).where('id', '=', id);
    if (from !== undefined) q = q.where('status', '=', from);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * One page of purchases, newest first. `operatorId` null: every purchase (admins); else those with
   * a line of that operator. `lineStatus` keeps purchases with such a line (the operator's own, or
   * any for admins).
   */
  async page(
    f: { operatorId: string | null; status?: string | undefined; lineStatus?: string | undefined },
    limit: number,
    offset: number,
  ): Promise<{ total: number; rows: AdPurchaseRow[] }> {
    let q = this.db.selectFrom('ad_purchases');
    if (f.status !== undefined) q = q.where('ad_purchases.status', '=', f.status);
    if (f.operatorId !== null || f.lineStatus !== undefined) {
      const { operatorId, lineStatus } = f;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom('ad_purchase_lines')
            .select('ad_purchase_lines.id')
            .whereRef('ad_purchase_lines.purchase_id', '=', 'ad_purchases.id')
            .$if(operatorId !== null, (s) => s.where('ad_purchase_lines.operator_id', '=', operatorId))
            .$if(lineStatus !== undefined, (s) => s.where('ad_purchase_lines.status', '=', lineStatus!)),
        ),
      );
    }
    const [rows, count] = await Promise.all([
      q.selectAll('ad_purchases').orderBy('ad_purchases.created_at', 'desc').orderBy('ad_purchases.id', 'desc').limit(limit).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { total: Number(count.n), rows };
  }

  // ---- lines

  async insertLine(row: Insertable<AdPurchaseLinesTable>): Promise<void> {
    await this.db.insertInto('ad_purchase_lines').values(row).execute();
  }

  /** The lines of these purchases, each with its operator; by purchase, then operator name. */
  async linesOf(purchaseIds: readonly string[]): Promise<LineWithOperator[]> {
    if (purchaseIds.length === 0) return [];
    return this.db
      .selectFrom('ad_purchase_lines')
      .innerJoin('operators', 'operators.id', 'ad_purchase_lines.operator_id')
      .selectAll('ad_purchase_lines')
      .select(['operators.email as operator_email', 'operators.name as operator_name'])
      .where('ad_purchase_lines.purchase_id', 'in', [...new Set(purchaseIds)])
      .orderBy('ad_purchase_lines.purchase_id')
      .orderBy('operators.name')
      .orderBy('ad_purchase_lines.id')
      .execute();
  }

  /** Decides a line still pending; false when it was decided meanwhile. */
  async decideLine(id: string, patch: Updateable<AdPurchaseLinesTable>): Promise<boolean> {
    const r = await this.db.updateTable('ad_purchase_lines').set(patch).where('id', '=', id).where('status', '=', 'pending_approval').executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * A rejected line back to `pending_approval` with its new draft campaign (the buyer's resubmit): its decision and the
   * refund it owed are cleared (failed attempts are still counted, so a later refund's idempotency key is new). False
   * when it is no longer rejected, or its refund was issued meanwhile.
   */
  async reopenLine(id: string, campaignId: string): Promise<boolean> {
    const r = await this.db
      .updateTable('ad_purchase_lines')
      .set((eb) => ({
        status: 'pending_approval',
        campaign_id: campaignId,
        reason: null,
        decided_at: null,
        decided_by: null,
        refund_owed_cents: 0,
        refund_status: null,
        refund_id: null,
        refund_failure: null,
        refund_at: null,
        resubmissions: eb('resubmissions', '+', 1),
      }))
      .where('id', '=', id)
      .where('status', '=', 'rejected')
      .where((eb) => eb.or([eb('refund_status', 'is', null), eb('refund_status', '!=', 'issued')]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** A line's refund issued (once: false when it was issued meanwhile). */
  async refundIssued(id: string, refundId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('ad_purchase_lines')
      .set({ refund_status: 'issued', refund_id: refundId, refund_failure: null, refund_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('refund_status', 'is', null), eb('refund_status', '!=', 'issued')]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** A line's refund attempt `attempt` failed (once per attempt: false when recorded meanwhile, or issued). */
  async refundFailed(id: string, attempt: number, reason: string, refundId: string | null, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('ad_purchase_lines')
      .set({ refund_status: 'failed', refund_id: refundId, refund_failure: reason, refund_at: now, refund_attempts: attempt + 1 })
      .where('id', '=', id)
      .where('refund_attempts', '=', attempt)
      .where((eb) => eb.or([eb('refund_status', 'is', null), eb('refund_status', '!=', 'issued')]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  // ---- receipts

  /** Purchases whose receipt is queued and due, oldest due first. */
  async receiptsDue(now: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('ad_purchases')
      .select('id')
      .where('receipt_status', '=', 'queued')
      .where('receipt_next_at', '<=', now)
      .orderBy('receipt_next_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Claims a due receipt for one attempt (its due time moves to `until`); false when another attempt claimed it first. */
  async claimReceipt(id: string, dueAt: number, until: number): Promise<boolean> {
    const r = await this.db
      .updateTable('ad_purchases')
      .set({ receipt_next_at: until })
      .where('id', '=', id)
      .where('receipt_status', '=', 'queued')
      .where('receipt_next_at', '=', dueAt)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async receiptSent(id: string, now: number): Promise<void> {
    await this.db
      .updateTable('ad_purchases')
      .set({ receipt_status: 'sent', receipt_sent_at: now, receipt_next_at: null, receipt_error: null })
      .where('id', '=', id)
      .where('receipt_status', '=', 'queued')
      .execute();
  }

  /** An attempt failed: due again at `nextAt`, or given up (`failed`) when null. */
  async receiptFailed(id: string, attempts: number, nextAt: number | null, reason: string): Promise<void> {
    await this.db
      .updateTable('ad_purchases')
      .set({ receipt_status: nextAt === null ? 'failed' : 'queued', receipt_attempts: attempts, receipt_next_at: nextAt, receipt_error: reason })
      .where('id', '=', id)
      .where('receipt_status', '=', 'queued')
      .execute();
  }

  // ---- payment events

  /** Records a webhook event id; false when it was already recorded (a replay). */
  async claimEvent(row: AdPaymentEventRow): Promise<boolean> {
    const r = await this.db
      .insertInto('ad_payment_events')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  event(id: string): Promise<AdPaymentEventRow | undefined> {
    return this.db.selectFrom('ad_payment_events').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
