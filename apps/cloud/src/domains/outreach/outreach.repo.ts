import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { DB, OutreachDealRow, OutreachDirectoryRow, OutreachMessageRow } from '../../db/schema.ts';

/** SQL of the outreach domain: the one writer of `outreach_directory`, `outreach_deals`, `outreach_messages` and `outreach_opt_outs`. */
export class OutreachRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  // ---- directory

  /** Inserts or replaces (by operator and name) directory venues; returns how many were new. */
  async upsertVenues(rows: OutreachDirectoryRow[]): Promise<{ created: number; updated: number }> {
    let created = 0;
    let updated = 0;
    for (const row of rows) {
      const have = await this.db
        .selectFrom('outreach_directory')
        .select('id')
        .where('operator_id', '=', row.operator_id)
        .where('name', '=', row.name)
        .executeTakeFirst();
      if (have) {
        const { id: _id, operator_id: _op, created_at: _at, ...set } = row;
        await this.db.updateTable('outreach_directory').set(set).where('id', '=', have.id).execute();
        updated++;
      } else {
        await this.db.insertInto('outreach_directory').values(row).execute();
        created++;
      }
    }
    return { created, updated };
  }

  directory(operatorId: string): Promise<OutreachDirectoryRow[]> {
    return this.db.selectFrom('outreach_directory').selectAll().where('operator_id', '=', operatorId).orderBy('name').orderBy('id').execute();
  }

  venue(id: string): Promise<OutreachDirectoryRow | undefined> {
    return this.db.selectFrom('outreach_directory').selectAll().where('id', '=', id).executeTakeFirst();
  }

  // ---- a deal's outreach run

  run(dealId: string): Promise<OutreachDealRow | undefined> {
    return this.db
      .selectFrom('outreach_deals')
      .selectAll()
      .where('deal_id', '=', dealId)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  async putRun(row: OutreachDealRow): Promise<void> {
    const { deal_id, ...set } = row;
    const have = await this.db.selectFrom('outreach_deals').select('deal_id').where('deal_id', '=', deal_id).executeTakeFirst();
    if (have) await this.db.updateTable('outreach_deals').set(set).where('deal_id', '=', deal_id).execute();
    else await this.db.insertInto('outreach_deals').values(row).execute();
  }

  /** Deals whose outreach has started (the tick). */
  startedRuns(limit: number): Promise<OutreachDealRow[]> {
    return this.db.selectFrom('outreach_deals').selectAll().where('started_at', 'is not', null).orderBy('deal_id').limit(limit).execute();
  }

  // ---- messages

  async insertMessage(row: OutreachMessageRow): Promise<void> {
    await this.db.insertInto('outreach_messages').values(row).execute();
  }

  /** Messages to a venue on `channels` sent after `since` (the frequency caps' rolling window). */
  async countSince(venueId: string, channels: readonly string[], since: number): Promise<number> {
    const { n } = await this.db
      .selectFrom('outreach_messages')
      .where('venue_id', '=', venueId)
      .where('channel', 'in', [...channels])
      .where('sent_at', '>', since)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  messageByProviderRef(ref: string): Promise<OutreachMessageRow | undefined> {
    return this.db.selectFrom('outreach_messages').selectAll().where('provider_ref', '=', ref).executeTakeFirst();
  }

  messageByUnsubscribeHash(hash: string): Promise<OutreachMessageRow | undefined> {
    return this.db.selectFrom('outreach_messages').selectAll().where('unsubscribe_hash', '=', hash).executeTakeFirst();
  }

  /** The newest message sent to `address` (an inbound reply belongs to its conversation). */
  lastMessageTo(address: string): Promise<OutreachMessageRow | undefined> {
    return this.db
      .selectFrom('outreach_messages')
      .selectAll()
      .where('to_address', '=', address)
      .orderBy('sent_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  async setSent(id: string, providerRef: string, status: string, at: number): Promise<void> {
    await this.db.updateTable('outreach_messages').set({ provider_ref: providerRef, status, status_at: at }).where('id', '=', id).execute();
  }

  async setStatus(id: string, status: string, at: number): Promise<void> {
    await this.db.updateTable('outreach_messages').set({ status, status_at: at }).where('id', '=', id).execute();
  }

  messages(dealId: string): Promise<OutreachMessageRow[]> {
    return this.db.selectFrom('outreach_messages').selectAll().where('deal_id', '=', dealId).orderBy('sent_at').orderBy('id').execute();
  }

  // ---- opt-outs

  async optOut(operatorId: string, channel: string, address: string, source: string, now: number): Promise<boolean> {
    const have = await this.db
      .selectFrom('outreach_opt_outs')
      .select('address')
      .where('operator_id', '=', operatorId)
      .where('channel', '=', channel)
      .where('address', '=', address)
      .executeTakeFirst();
    if (have) return false;
    await this.db.insertInto('outreach_opt_outs').values({ operator_id: operatorId, channel, address, source, created_at: now }).execute();
    return true;
  }

  async optedOut(operatorId: string): Promise<{ channel: string; address: string }[]> {
    return this.db.selectFrom('outreach_opt_outs').select(['channel', 'address']).where('operator_id', '=', operatorId).execute();
  }
}
