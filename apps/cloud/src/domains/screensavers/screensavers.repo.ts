import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, ScreensaverRow, ScreensaversTable } from '../../db/schema.ts';

export type ScreensaverWithOwner = ScreensaverRow & { operator_email: string };

/** SQL of operator screensavers: the one writer of `screensavers`. */
export class ScreensaversRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private withOwner() {
    return this.db
      .selectFrom('screensavers')
      .innerJoin('operators', 'operators.id', 'screensavers.operator_id')
      .selectAll('screensavers')
      .select('operators.email as operator_email');
  }

  async insert(row: Insertable<ScreensaversTable>): Promise<void> {
    await this.db.insertInto('screensavers').values(row).execute();
  }

  byId(id: string): Promise<ScreensaverWithOwner | undefined> {
    return this.withOwner().where('screensavers.id', '=', id).executeTakeFirst();
  }

  async page(
    f: { operatorId: string | null; status?: string | undefined },
    limit: number,
    offset: number,
  ): Promise<{ total: number; rows: ScreensaverWithOwner[] }> {
    let q = this.withOwner();
    if (f.operatorId !== null) q = q.where('screensavers.operator_id', '=', f.operatorId);
    if (f.status !== undefined) q = q.where('screensavers.status', '=', f.status);
    const [rows, count] = await Promise.all([
      q.orderBy('screensavers.created_at', 'desc').orderBy('screensavers.id', 'desc').limit(limit).offset(offset).execute(),
      q
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { total: Number(count.n), rows };
  }

  /** The operator's approved screensavers, oldest first: what its machines' loops may show. */
  approvedFor(operatorId: string): Promise<ScreensaverRow[]> {
    return this.db
      .selectFrom('screensavers')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .where('status', '=', 'approved')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Moves a screensaver on, only from one of `from`; false when it was not in one of them. */
  async update(id: string, patch: Updateable<ScreensaversTable>, from: readonly string[]): Promise<boolean> {
    const r = await this.db.updateTable('screensavers').set(patch).where('id', '=', id).where('status', 'in', from).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
