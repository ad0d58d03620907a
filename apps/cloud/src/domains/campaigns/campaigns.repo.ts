import type { Insertable, Kysely, Updateable } from 'kysely';
import type { CampaignRow, CampaignsTable, DB } from '../../db/schema.ts';

/** A campaign with its operator's email (admins see it). */
export type CampaignWithOwner = CampaignRow & { operator_email: string };

/** SQL of direct-sold campaigns: the one writer of `campaigns`. */
export class CampaignsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private withOwner() {
    return this.db
      .selectFrom('campaigns')
      .innerJoin('operators', 'operators.id', 'campaigns.operator_id')
      .selectAll('campaigns')
      .select('operators.email as operator_email');
  }

  async insert(row: Insertable<CampaignsTable>): Promise<void> {
    await this.db.insertInto('campaigns').values(row).execute();
  }

  async byId(id: string): Promise<CampaignWithOwner | undefined> {
    return this.withOwner().where('campaigns.id', '=', id).executeTakeFirst();
  }

  /** One page, newest first; `operatorId` null = every operator (admins). */
  async page(
    f: { operatorId: string | null; status?: string | undefined },
    limit: number,
    offset: number,
  ): Promise<{ total: number; rows: CampaignWithOwner[] }> {
    let q = this.withOwner();
    if (f.operatorId !== null) q = q.where('campaigns.operator_id', '=', f.operatorId);
    if (f.status !== undefined) q = q.where('campaigns.status', '=', f.status);
    const [rows, count] = await Promise.all([
      q.orderBy('campaigns.created_at', 'desc').orderBy('campaigns.id', 'desc').limit(limit).offset(offset).execute(),
      q
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { total: Number(count.n), rows };
  }

  /** Every campaign of some operators (all when null), oldest first: the reports summary. */
  async ofOperator(operatorId: string | null): Promise<CampaignWithOwner[]> {
    let q = this.withOwner();
    if (operatorId !== null) q = q.where('campaigns.operator_id', '=', operatorId);
    return q.orderBy('campaigns.created_at', 'asc').orderBy('campaigns.id', 'asc').execute();
  }

  /** The active campaigns of one operator that have a creative: what a loop of one of its machines may show. */
  async activeWithCreative(operatorId: string): Promise<CampaignRow[]> {
    return this.db
      .selectFrom('campaigns')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .where('status', '=', 'active')
      .where('creative_id', 'is not', null)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
  }

  /** The operator's machines in service, with their screen blocks: what targeting resolves against. */
  fleetScreens(operatorId: string): Promise<{ id: string; machine_no: string; screen_json: string | null }[]> {
    return this.db
      .selectFrom('machines')
      .select(['id', 'machine_no', 'screen_json'])
      .where('operator_id', '=', operatorId)
      .where('retired_at', 'is', null)
      .orderBy('machine_no')
      .execute();
  }

  /** Which of these campaign ids are the operator's. */
  async idsOf(operatorId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('campaigns').select('id').where('operator_id', '=', operatorId).where('id', 'in', ids).execute();
    return rows.map((r) => r.id);
  }

  /** Changes a campaign; with `fromStatus`, only while it is still in one of those states. False when nothing matched. */
  async update(id: string, patch: Updateable<CampaignsTable>, fromStatus?: readonly string[]): Promise<boolean> {
    let q = this.db.updateTable('campaigns').set(patch).where('id', '=', id);
    if (fromStatus) q = q.where('status', 'in', fromStatus);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Deletes a draft; false when it is not (any longer) a draft. */
  async deleteDraft(id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('campaigns').where('id', '=', id).where('status', '=', 'draft').executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }

  /**
   * Reserves one studio generation: false when the campaign has used `max` already. Atomic, so
   * concurrent requests cannot pass the cap together.
   */
  async reserveGeneration(id: string, max: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('campaigns')
      .set((eb) => ({ generations: eb('generations', '+', 1), updated_at: now }))
      .where('id', '=', id)
      .where('generations', '<', max)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Gives back a generation the studio failed to deliver. */
  async releaseGeneration(id: string): Promise<void> {
    await this.db
      .updateTable('campaigns')
      .set((eb) => ({ generations: eb('generations', '-', 1) }))
      .where('id', '=', id)
      .where('generations', '>', 0)
      .execute();
  }
}
