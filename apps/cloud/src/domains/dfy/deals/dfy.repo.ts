import type { Insertable, Kysely } from 'kysely';
import type { Dialect } from '../../../db/database.ts';
import type {
  DB,
  DfyCheckpointRow,
  DfyDealRow,
  DfyPaymentEventRow,
  DfyPaymentIntentRow,
  DfyPaymentRow,
  DfyPaymentsTable,
  DfyWorkOrderRow,
} from '../../../db/schema.ts';

/**
 * SQL of the done-for-you pipeline: the one writer of `dfy_deals`, `dfy_deal_events`, `dfy_checkpoints`,
 * `dfy_work_orders`, `dfy_payments`, `dfy_payment_intents`, `dfy_payment_events` and `dfy_portfolio_settings`.
 */
export class DfyRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async insertDeal(row: DfyDealRow): Promise<void> {
    await this.db.insertInto('dfy_deals').values(row).execute();
  }

  /** The deal row, locked for the rest of the transaction on PostgreSQL (SQLite serialises writers). */
  lockDeal(id: string): Promise<DfyDealRow | undefined> {
    return this.db
      .selectFrom('dfy_deals')
      .selectAll()
      .where('id', '=', id)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  deal(id: string): Promise<DfyDealRow | undefined> {
    return this.db.selectFrom('dfy_deals').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async deals(f: { operatorId: string | null; stage?: string | undefined }, limit: number, offset: number): Promise<{ total: number; rows: DfyDealRow[] }> {
    const base = this.db
      .selectFrom('dfy_deals')
      .$if(f.operatorId !== null, (q) => q.where('operator_id', '=', f.operatorId!))
      .$if(f.stage !== undefined, (q) => q.where('stage', '=', f.stage!));
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
    return { total: Number(n), rows };
  }

  /** Every deal of the operator (the portfolio views); all deals for null. */
  allDeals(operatorId: string | null): Promise<DfyDealRow[]> {
    return this.db
      .selectFrom('dfy_deals')
      .selectAll()
      .$if(operatorId !== null, (q) => q.where('operator_id', '=', operatorId!))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Deals at `stage`, oldest change first (the background loops). */
  dealsAt(stage: string, limit: number): Promise<DfyDealRow[]> {
    return this.db.selectFrom('dfy_deals').selectAll().where('stage', '=', stage).orderBy('updated_at').orderBy('id').limit(limit).execute();
  }

  async saveDeal(id: string, set: Pick<DfyDealRow, 'stage' | 'state_json' | 'seq' | 'updated_at'> & { machine_id?: string | null }): Promise<void> {
    await this.db.updateTable('dfy_deals').set(set).where('id', '=', id).execute();
  }

  async appendEvent(dealId: string, seq: number, at: number, eventJson: string): Promise<void> {
    await this.db.insertInto('dfy_deal_events').values({ deal_id: dealId, seq, at, event_json: eventJson }).execute();
  }

  events(dealId: string): Promise<{ seq: number; event_json: string }[]> {
    return this.db.selectFrom('dfy_deal_events').select(['seq', 'event_json']).where('deal_id', '=', dealId).orderBy('seq').execute();
  }

  async insertCheckpoint(row: DfyCheckpointRow): Promise<void> {
    await this.db.insertInto('dfy_checkpoints').values(row).execute();
  }

  checkpoint(id: string): Promise<DfyCheckpointRow | undefined> {
    return this.db.selectFrom('dfy_checkpoints').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Marks an open checkpoint resolved; false when it was not open. */
  async resolveCheckpoint(id: string, by: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('dfy_checkpoints')
      .set({ resolved: 1, resolved_by: by, resolved_at: now })
      .where('id', '=', id)
      .where('resolved', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async checkpoints(
    f: { operatorId: string | null; resolved?: boolean | undefined; dealId?: string | undefined; kind?: string | undefined },
    limit: number,
    offset: number,
  ): Promise<{ total: number; rows: DfyCheckpointRow[] }> {
    const base = this.db
      .selectFrom('dfy_checkpoints')
      .$if(f.operatorId !== null, (q) => q.where('operator_id', '=', f.operatorId!))
      .$if(f.resolved !== undefined, (q) => q.where('resolved', '=', f.resolved ? 1 : 0))
      .$if(f.dealId !== undefined, (q) => q.where('deal_id', '=', f.dealId!))
      .$if(f.kind !== undefined, (q) => q.where('kind', '=', f.kind!));
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base.selectAll().orderBy('raised_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
    return { total: Number(n), rows };
  }

  async insertWorkOrder(row: DfyWorkOrderRow): Promise<void> {
    await this.db.insertInto('dfy_work_orders').values(row).execute();
  }

  lockWorkOrder(id: string): Promise<DfyWorkOrderRow | undefined> {
    return this.db
      .selectFrom('dfy_work_orders')
      .selectAll()
      .where('id', '=', id)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  workOrdersOf(dealId: string): Promise<DfyWorkOrderRow[]> {
    return this.db.selectFrom('dfy_work_orders').selectAll().where('deal_id', '=', dealId).orderBy('created_at').orderBy('id').execute();
  }

  async updateWorkOrder(id: string, set: Partial<Pick<DfyWorkOrderRow, 'state' | 'assignee' | 'scheduled_for' | 'updated_at'>>): Promise<void> {
    await this.db.updateTable('dfy_work_orders').set(set).where('id', '=', id).execute();
  }

  async insertPayment(row: Insertable<DfyPaymentsTable>): Promise<void> {
    await this.db.insertInto('dfy_payments').values(row).execute();
  }

  payment(id: string): Promise<DfyPaymentRow | undefined> {
    return this.db.selectFrom('dfy_payments').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A payment asked of the processor; false when its id exists already (the same request again: its intent is the same). */
  async insertPaymentIntent(row: DfyPaymentIntentRow): Promise<boolean> {
    const r = await this.db
      .insertInto('dfy_payment_intents')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  paymentIntent(id: string): Promise<DfyPaymentIntentRow | undefined> {
    return this.db.selectFrom('dfy_payment_intents').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The deal's payments asked of the processor and not paid yet, oldest first. */
  awaitingIntents(dealId: string): Promise<DfyPaymentIntentRow[]> {
    return this.db
      .selectFrom('dfy_payment_intents')
      .selectAll()
      .where('deal_id', '=', dealId)
      .where('status', '=', 'awaiting_payment')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** The intent paid by `eventId` (expired too: the money was taken); false when it was paid already (another event of the same intent). */
  async markIntentPaid(id: string, eventId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('dfy_payment_intents')
      .set({ status: 'paid', event_id: eventId, paid_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['awaiting_payment', 'expired'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** An intent that can no longer be paid (the processor's expiry): false when it is not awaiting (paid meanwhile). */
  async markIntentExpired(id: string, eventId: string): Promise<boolean> {
    const r = await this.db
      .updateTable('dfy_payment_intents')
      .set({ status: 'expired', event_id: eventId })
      .where('id', '=', id)
      .where('status', '=', 'awaiting_payment')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Claims a processor event id for its effects (the primary key): false when it was claimed before. */
  async claimPaymentEvent(row: DfyPaymentEventRow): Promise<boolean> {
    const r = await this.db
      .insertInto('dfy_payment_events')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** The deal's processor payments whose refund is owed or failed (to issue), oldest first. */
  refundsToIssue(dealId: string): Promise<DfyPaymentRow[]> {
    return this.db
      .selectFrom('dfy_payments')
      .selectAll()
      .where('deal_id', '=', dealId)
      .where('refund_status', 'in', ['owed', 'failed'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** A payment's refund issued at the processor (once: false when recorded issued meanwhile). */
  async refundIssued(id: string, refundId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('dfy_payments')
      .set({ refund_status: 'issued', refund_id: refundId, refund_failure: null, refund_at: now })
      .where('id', '=', id)
      .where('refund_status', 'in', ['owed', 'failed'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** A payment's refund attempt `attempt` refused by the processor (once per attempt; never over an issued one). */
  async refundFailed(id: string, attempt: number, reason: string, refundId: string | null, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('dfy_payments')
      .set({ refund_status: 'failed', refund_id: refundId, refund_failure: reason, refund_at: now, refund_attempts: attempt + 1 })
      .where('id', '=', id)
      .where('refund_attempts', '=', attempt)
      .where('refund_status', 'in', ['owed', 'failed'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  paymentsOf(dealId: string): Promise<DfyPaymentRow[]> {
    return this.db.selectFrom('dfy_payments').selectAll().where('deal_id', '=', dealId).orderBy('created_at').orderBy('id').execute();
  }

  /**
   * Marks every unrefunded payment of the deal refunded; answers them. A payment taken through a processor is
   * then owed back through it (`refund_status` owed): the money leaves only when the processor issues it.
   */
  async refundPayments(dealId: string, now: number): Promise<DfyPaymentRow[]> {
    const open = await this.db.selectFrom('dfy_payments').selectAll().where('deal_id', '=', dealId).where('refunded_at', 'is', null).execute();
    if (open.length) {
      await this.db.updateTable('dfy_payments').set({ refunded_at: now }).where('deal_id', '=', dealId).where('refunded_at', 'is', null).execute();
      await this.db
        .updateTable('dfy_payments')
        .set({ refund_status: 'owed' })
        .where(
          'id',
          'in',
          open.map((x) => x.id),
        )
        .where('processor', 'is not', null)
        .where('refund_status', 'is', null)
        .execute();
    }
    return open;
  }

  async settings(operatorId: string): Promise<string | undefined> {
    const r = await this.db.selectFrom('dfy_portfolio_settings').select('settings_json').where('operator_id', '=', operatorId).executeTakeFirst();
    return r?.settings_json;
  }

  /** The operator's settings row, locked for the transaction (PostgreSQL): auto-approvals of one operator queue here. */
  async lockSettings(operatorId: string): Promise<string | undefined> {
    const r = await this.db
      .selectFrom('dfy_portfolio_settings')
      .select('settings_json')
      .where('operator_id', '=', operatorId)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    return r?.settings_json;
  }

  /** How many venues the autopilot chose alone for the operator's deals since `since` (its `venue_chosen` events). */
  async autoApprovalsSince(operatorId: string, since: number): Promise<number> {
    const r = await this.db
      .selectFrom('dfy_deal_events as e')
      .innerJoin('dfy_deals as d', 'd.id', 'e.deal_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('d.operator_id', '=', operatorId)
      .where('e.at', '>=', since)
      .where('e.event_json', 'like', '%"actor":"autopilot"%')
      .where('e.event_json', 'like', '%"type":"venue_chosen"%')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async putSettings(operatorId: string, json: string, now: number): Promise<void> {
    await this.db
      .insertInto('dfy_portfolio_settings')
      .values({ operator_id: operatorId, settings_json: json, updated_at: now })
      .onConflict((oc) => oc.column('operator_id').doUpdateSet({ settings_json: json, updated_at: now }))
      .execute();
  }

  /** Operators whose portfolio autopilot is on (the autopilot tick), plus every operator with a deal overriding it. */
  autopilotOperators(): Promise<{ operator_id: string; settings_json: string }[]> {
    return this.db.selectFrom('dfy_portfolio_settings').select(['operator_id', 'settings_json']).execute();
  }

  /** Month-to-date takings (charged cents of shipped orders since `since`) per machine id. */
  async revenueSince(machineIds: string[], since: number): Promise<Map<string, number>> {
    if (!machineIds.length) return new Map();
    const rows = await this.db
      .selectFrom('orders')
      .select(['machine_id', (eb) => eb.fn.sum<number>('charged_cents').as('cents')])
      .where('machine_id', 'in', machineIds)
      .where('pay_status', '=', 'shipped')
      .where('created_at', '>=', since)
      .groupBy('machine_id')
      .execute();
    return new Map(rows.map((r) => [r.machine_id, Number(r.cents ?? 0)]));
  }
}
