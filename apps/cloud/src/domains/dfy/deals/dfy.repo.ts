import type { Kysely } from 'kysely';
import type { Dialect } from '../../../db/database.ts';
import type { DB, DfyCheckpointRow, DfyDealRow, DfyPaymentRow, DfyWorkOrderRow } from '../../../db/schema.ts';

/**
 * SQL of the done-for-you pipeline: the one writer of `dfy_deals`, `dfy_deal_events`, `dfy_checkpoints`,
 * `dfy_work_orders`, `dfy_payments` and `dfy_portfolio_settings`.
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

  async insertPayment(row: DfyPaymentRow): Promise<void> {
    await this.db.insertInto('dfy_payments').values(row).execute();
  }

  paymentsOf(dealId: string): Promise<DfyPaymentRow[]> {
    return this.db.selectFrom('dfy_payments').selectAll().where('deal_id', '=', dealId).orderBy('created_at').orderBy('id').execute();
  }

  /** Marks every unrefunded payment of the deal refunded; answers them. */
  async refundPayments(dealId: string, now: number): Promise<DfyPaymentRow[]> {
    const open = await this.db.selectFrom('dfy_payments').selectAll().where('deal_id', '=', dealId).where('refunded_at', 'is', null).execute();
    if (open.length)
      await this.db.updateTable('dfy_payments').set({ refunded_at: now }).where('deal_id', '=', dealId).where('refunded_at', 'is', null).execute();
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
