import { sql, type Insertable, type Kysely } from 'kysely';
import type { AdFillRow, AdFillsTable, AdPlayRecordsTable, DB } from '../../db/schema.ts';

export interface PlayFilter {
  /** Only machines of this operator; null = every operator (admins). */
  operatorId: string | null;
  machineId?: string | undefined;
  campaignId?: string | undefined;
  source?: string | undefined;
  since?: number | undefined;
}

export type PlayWithMachine = {
  id: string;
  machine_no: string;
  entry_id: string;
  campaign_id: string | null;
  source: string;
  played_at: number;
  duration_ms: number | null;
  received_at: number;
  lease_id: string | null;
};

/** `pop_attempts` of a proof of play the SSP refused for good: beyond any retry limit. */
export const POP_GAVE_UP = 1_000_000;

/** SQL of ad delivery: the one writer of the play ledger (`ad_play_records`) and of programmatic fills (`ad_fills`). */
export class AdDeliveryRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * The machine's screen block (the loop's shape and its place), and whether its screen is for sale: in
   * service and its operator opted in to the marketplace (the rule the marketplace sells by, ad-purchases.repo.ts).
   */
  async machineScreen(machineId: string): Promise<{ screen_json: string | null; forSale: boolean } | undefined> {
    const row = await this.db
      .selectFrom('machines')
      .leftJoin('operators', 'operators.id', 'machines.operator_id')
      .select(['machines.screen_json', 'machines.retired_at', 'operators.marketplace_opt_in'])
      .where('machines.id', '=', machineId)
      .executeTakeFirst();
    return row && { screen_json: row.screen_json, forSale: row.retired_at === null && Number(row.marketplace_opt_in ?? 0) === 1 };
  }

  /** A proof-of-play row; false when this showing (machine, entry, time) was already recorded. */
  async insertPlay(row: Insertable<AdPlayRecordsTable>): Promise<boolean> {
    const r = await this.db
      .insertInto('ad_play_records')
      .values(row)
      .onConflict((oc) => oc.columns(['machine_id', 'entry_id', 'played_at']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Many new plays at once (the sandbox seed); in chunks the drivers' parameter limits allow. */
  async insertPlays(rows: Insertable<AdPlayRecordsTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500)
      await this.db
        .insertInto('ad_play_records')
        .values(rows.slice(i, i + 500))
        .execute();
  }

  async playsPage(f: PlayFilter, limit: number, offset: number): Promise<{ total: number; rows: PlayWithMachine[] }> {
    let q = this.db.selectFrom('ad_play_records as p').innerJoin('machines as m', 'm.id', 'p.machine_id');
    if (f.operatorId !== null) q = q.where('m.operator_id', '=', f.operatorId);
    if (f.machineId !== undefined) q = q.where('p.machine_id', '=', f.machineId);
    if (f.campaignId !== undefined) q = q.where('p.campaign_id', '=', f.campaignId);
    if (f.source !== undefined) q = q.where('p.source', '=', f.source);
    if (f.since !== undefined) q = q.where('p.played_at', '>=', f.since);
    const [rows, count] = await Promise.all([
      q
        .select(['p.id', 'm.machine_no', 'p.entry_id', 'p.campaign_id', 'p.source', 'p.played_at', 'p.duration_ms', 'p.received_at', 'p.lease_id'])
        .orderBy('p.played_at', 'desc')
        .orderBy('p.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { total: Number(count.n), rows };
  }

  /** Plays per campaign and machine (with the last play), for some campaigns; `since` bounds the window. */
  async playsByCampaignMachine(
    campaignIds: readonly string[],
    since?: number,
  ): Promise<{ campaign_id: string; machine_id: string; machine_no: string; screen_json: string | null; plays: number; last_play: number }[]> {
    if (campaignIds.length === 0) return [];
    let q = this.db.selectFrom('ad_play_records as p').innerJoin('machines as m', 'm.id', 'p.machine_id').where('p.campaign_id', 'in', campaignIds);
    if (since !== undefined) q = q.where('p.played_at', '>=', since);
    const rows = await q
      .select(['p.campaign_id', 'p.machine_id', 'm.machine_no', 'm.screen_json'])
      .select((eb) => [eb.fn.countAll<number>().as('plays'), eb.fn.max('p.played_at').as('last_play')])
      .groupBy(['p.campaign_id', 'p.machine_id', 'm.machine_no', 'm.screen_json'])
      .orderBy('m.machine_no')
      .execute();
    return rows.map((r) => ({ ...r, campaign_id: r.campaign_id!, plays: Number(r.plays), last_play: Number(r.last_play) }));
  }

  /** Plays per source and machine for an operator's machines (all when null), from `since`. */
  async playsBySourceMachine(
    operatorId: string | null,
    since?: number,
    machineId?: string,
  ): Promise<{ source: string; machine_id: string; screen_json: string | null; plays: number; cpm_millis: number }[]> {
    let q = this.db.selectFrom('ad_play_records as p').innerJoin('machines as m', 'm.id', 'p.machine_id').leftJoin('ad_fills as f', 'f.lease_id', 'p.lease_id');
    if (operatorId !== null) q = q.where('m.operator_id', '=', operatorId);
    if (since !== undefined) q = q.where('p.played_at', '>=', since);
    if (machineId !== undefined) q = q.where('p.machine_id', '=', machineId);
    const rows = await q
      .select(['p.source', 'p.machine_id', 'm.screen_json'])
      .select((eb) => [eb.fn.countAll<number>().as('plays'), eb.fn.sum<number>(sql`coalesce(${sql.ref('f.net_cpm_millis')}, 0)`).as('cpm_millis')])
      .groupBy(['p.source', 'p.machine_id', 'm.screen_json'])
      .execute();
    return rows.map((r) => ({ ...r, plays: Number(r.plays), cpm_millis: Number(r.cpm_millis ?? 0) }));
  }

  async insertFill(row: Insertable<AdFillsTable>): Promise<void> {
    await this.db.insertInto('ad_fills').values(row).execute();
  }

  /** A machine's leased fills still good until `until` and not yet played: reused before new ones are leased. */
  openFills(machineId: string, until: number): Promise<AdFillRow[]> {
    return this.db
      .selectFrom('ad_fills')
      .selectAll()
      .where('machine_id', '=', machineId)
      .where('expires_at', '>', until)
      .where('played_at', 'is', null)
      .orderBy('created_at')
      .orderBy('lease_id')
      .execute();
  }

  fillOf(machineId: string, leaseId: string): Promise<AdFillRow | undefined> {
    return this.db.selectFrom('ad_fills').selectAll().where('machine_id', '=', machineId).where('lease_id', '=', leaseId).executeTakeFirst();
  }

  /**
   * Marks a fill played and claims its proof of play: true for exactly one caller (the conditional
   * update), who then fires the URL.
   */
  async claimPop(leaseId: string, playedAt: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('ad_fills')
      .set({ played_at: playedAt, pop_claimed_at: now })
      .where('lease_id', '=', leaseId)
      .where('pop_claimed_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async popFired(leaseId: string, now: number): Promise<void> {
    await this.db
      .updateTable('ad_fills')
      .set((eb) => ({ pop_fired_at: now, pop_error: null, pop_attempts: eb('pop_attempts', '+', 1) }))
      .where('lease_id', '=', leaseId)
      .execute();
  }

  /** A failed proof-of-play call; `giveUp` (the SSP refused it for good) ends the retries. */
  async popFailed(leaseId: string, error: string, giveUp: boolean): Promise<void> {
    await this.db
      .updateTable('ad_fills')
      .set((eb) => ({ pop_error: error.slice(0, 500), pop_attempts: giveUp ? POP_GAVE_UP : eb('pop_attempts', '+', 1) }))
      .where('lease_id', '=', leaseId)
      .execute();
  }

  /** Claimed fills whose proof of play has not gone out yet (a failed first try), oldest first. */
  unfiredPops(maxAttempts: number, claimedBefore: number, limit: number): Promise<AdFillRow[]> {
    return this.db
      .selectFrom('ad_fills')
      .selectAll()
      .where('pop_claimed_at', 'is not', null)
      .where('pop_claimed_at', '<', claimedBefore)
      .where('pop_fired_at', 'is', null)
      .where('pop_attempts', '<', maxAttempts)
      .orderBy('pop_claimed_at')
      .limit(limit)
      .execute();
  }
}
