import { sql, type Insertable, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { AgentPinsTable, AgentReleasesTable, AgentRolloutTable, DB, RolloutProgressTable } from '../../db/schema.ts';

/** The single row of `agent_rollout`: one rollout exists fleet-wide at a time. */
export const FLEET_ROLLOUT_ID = 'fleet';
/** The advisory-lock key that serialises publications on PostgreSQL (any constant unique to this use). */
const REGISTRY_LOCK = 0x7e1ea5e;

/** SQL of agent releases, the rollout and pins; the cabinets' deferral/blocked reports are read from the gateway's `cabinet_status`. */
export class ReleasesRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  // --- registry ------------------------------------------------------------------------------

  /**
   * Serialises publications for the rest of the transaction, so the rules see every release
   * published before and sequence numbers follow publish order. PostgreSQL: a transaction-scoped
   * advisory lock; SQLite: its one writer already serialises write transactions.
   */
  async lockRegistry(): Promise<void> {
    if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${REGISTRY_LOCK})`.execute(this.db);
  }

  releases() {
    return this.db.selectFrom('agent_releases').selectAll().orderBy('sequence', 'asc').execute();
  }

  releaseByKey(versionKey: string) {
    return this.db.selectFrom('agent_releases').selectAll().where('version_key', '=', versionKey).executeTakeFirst();
  }

  async nextSequence(): Promise<number> {
    const r = await this.db
      .selectFrom('agent_releases')
      .select((eb) => eb.fn.max<number>('sequence').as('n'))
      .executeTakeFirst();
    return Number(r?.n ?? 0) + 1;
  }

  async insertRelease(row: Insertable<AgentReleasesTable>): Promise<void> {
    await this.db.insertInto('agent_releases').values(row).execute();
  }

  async countReleases(): Promise<number> {
    const r = await this.db
      .selectFrom('agent_releases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  // --- rollout -------------------------------------------------------------------------------

  rollout() {
    return this.db.selectFrom('agent_rollout').selectAll().where('id', '=', FLEET_ROLLOUT_ID).executeTakeFirst();
  }

  /** Replaces the fleet's rollout with `row` (insert or overwrite the single row). */
  async putRollout(row: Omit<Insertable<AgentRolloutTable>, 'id'>): Promise<void> {
    const { created_at: _created, ...update } = row;
    await this.db
      .insertInto('agent_rollout')
      .values({ ...row, id: FLEET_ROLLOUT_ID })
      .onConflict((oc) => oc.column('id').doUpdateSet(update))
      .execute();
  }

  async setPhase(phase: string, set: { hold_reason: string | null; held_at: number | null; held_by: string | null; updated_at: number }): Promise<void> {
    await this.db
      .updateTable('agent_rollout')
      .set({ phase, ...set })
      .where('id', '=', FLEET_ROLLOUT_ID)
      .execute();
  }

  // --- canary codes and pins ---------------------------------------------------------------------

  /** Which of these machine codes name a machine (for canary lists). */
  async existingMachineNos(machineNos: readonly string[]): Promise<Set<string>> {
    if (machineNos.length === 0) return new Set();
    const found = new Set<string>();
    for (let i = 0; i < machineNos.length; i += 500) {
      const rows = await this.db
        .selectFrom('machines')
        .select('machine_no')
        .where('machine_no', 'in', machineNos.slice(i, i + 500))
        .execute();
      for (const r of rows) found.add(r.machine_no);
    }
    return found;
  }

  pin(machineId: string) {
    return this.db.selectFrom('agent_pins').selectAll().where('machine_id', '=', machineId).executeTakeFirst();
  }

  async upsertPin(row: Insertable<AgentPinsTable>): Promise<void> {
    const { machine_id: _id, ...update } = row;
    await this.db
      .insertInto('agent_pins')
      .values(row)
      .onConflict((oc) => oc.column('machine_id').doUpdateSet(update))
      .execute();
  }

  async deletePin(machineId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('agent_pins').where('machine_id', '=', machineId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /** Versions a pin names (for the registry's `offered` flag). */
  async pinnedVersions(): Promise<string[]> {
    const rows = await this.db.selectFrom('agent_pins').select('version').distinct().execute();
    return rows.map((r) => r.version);
  }

  /**
   * Every non-retired machine in view with what the fleet view needs: software, pin and the
   * gateway's stored deferral/blocked reports. `operatorId` null means every machine (admin).
   */
  fleetRows(operatorId: string | null) {
    return this.db
      .selectFrom('machines as m')
      .leftJoin('agent_pins as p', 'p.machine_id', 'm.id')
      .leftJoin('cabinet_status as s', 's.machine_id', 'm.id')
      .select([
        'm.id',
        'm.machine_no',
        'm.agent_version',
        'm.agent_arch',
        'm.last_seen',
        'p.version as pin_version',
        'p.reason as pin_reason',
        'p.pinned_at',
        'p.pinned_by',
        's.deferring_json',
        's.deferring_first_at',
        's.blocked_json',
        's.blocked_first_at',
      ])
      .where('m.retired_at', 'is', null)
      .$if(operatorId !== null, (q) => q.where('m.operator_id', '=', operatorId))
      .orderBy('m.machine_no')
      .execute();
  }

  /** The gateway's stored reports for one machine (null row when it never reported any). */
  reports(machineId: string) {
    return this.db
      .selectFrom('cabinet_status')
      .select(['deferring_json', 'deferring_first_at', 'blocked_json', 'blocked_first_at'])
      .where('machine_id', '=', machineId)
      .executeTakeFirst();
  }

  // --- progress snapshots (the rollout sweep) ------------------------------------------------

  /** The newest snapshot of any rollout (the one the sweep compares with). */
  latestProgress() {
    return this.db.selectFrom('rollout_progress').selectAll().orderBy('taken_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  }

  async insertProgress(row: Insertable<RolloutProgressTable>): Promise<void> {
    await this.db.insertInto('rollout_progress').values(row).execute();
  }

  /** One page of snapshots, newest first. */
  progressPage(offset: number, limit: number) {
    return this.db.selectFrom('rollout_progress').selectAll().orderBy('taken_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }

  async countProgress(): Promise<number> {
    const r = await this.db
      .selectFrom('rollout_progress')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
