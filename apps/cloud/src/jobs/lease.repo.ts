import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** The one writer of `job_leases`: the leader lease row replicas sharing a PostgreSQL store compete for. */
export class LeaseRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * One atomic upsert: takes the row when it is free or lapsed, or extends it when `holder` holds it; otherwise
   * changes nothing. True when `holder` holds the lease now. Time is the database server's own clock
   * (`clock_timestamp()`), the one clock every replica shares: a replica whose clock steps (NTP after a suspend, a
   * wrong time zone on a host) can neither take a live lease early nor renew its own into the past.
   */
  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const now = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
    const row = await this.db
      .insertInto('job_leases')
      .values({ name, holder, expires_at: sql<number>`${now} + ${ttlMs}`, acquired_at: now })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet((eb) => ({
            holder: eb.ref('excluded.holder'),
            expires_at: eb.ref('excluded.expires_at'),
            acquired_at: eb.case().when('job_leases.holder', '=', holder).then(eb.ref('job_leases.acquired_at')).else(eb.ref('excluded.acquired_at')).end(),
          }))
          .where((eb) => eb.or([eb('job_leases.holder', '=', holder), eb('job_leases.expires_at', '<=', now)])),
      )
      .returning('holder')
      .executeTakeFirst();
    return row?.holder === holder;
  }

  /** Removes the lease only while `holder` holds it. */
  async release(name: string, holder: string): Promise<void> {
    await this.db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder).execute();
  }
}
