import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, SspMockLeasesTable } from '../../db/schema.ts';

export type MockLeaseRow = Selectable<SspMockLeasesTable>;

/** SQL of the mock SSP's book (the one writer of `ssp_mock_leases`). Takes a transaction or the database. */
export class MockSspRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async insertLeases(rows: Insertable<SspMockLeasesTable>[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.insertInto('ssp_mock_leases').values(rows).execute();
  }

  lease(leaseId: string): Promise<MockLeaseRow | undefined> {
    return this.db.selectFrom('ssp_mock_leases').selectAll().where('lease_id', '=', leaseId).executeTakeFirst();
  }

  /**
   * The one-shot proof of play: marks the lease popped at `now` if it is not popped yet and has not
   * expired (`now <= expires_at`). One conditional UPDATE, so of concurrent calls exactly one wins.
   */
  async claimPop(leaseId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('ssp_mock_leases')
      .set({ popped_at: now })
      .where('lease_id', '=', leaseId)
      .where('popped_at', 'is', null)
      .where('expires_at', '>=', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Popped leases, newest pop first (then lease id), optionally of one device. */
  async receipts(f: { deviceId?: string | undefined }, limit: number, offset: number): Promise<{ total: number; rows: MockLeaseRow[] }> {
    let q = this.db.selectFrom('ssp_mock_leases').where('popped_at', 'is not', null);
    if (f.deviceId !== undefined) q = q.where('device_id', '=', f.deviceId);
    const [count, rows] = await Promise.all([
      q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
      q.selectAll().orderBy('popped_at', 'desc').orderBy('lease_id', 'desc').limit(limit).offset(offset).execute(),
    ]);
    return { total: Number(count.n), rows };
  }
}
