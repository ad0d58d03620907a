import { sql, type Insertable, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { DB, IdentityConflictsTable } from '../../db/schema.ts';
import { newId } from '../../crypto/ids.ts';

/**
 * SQL of what the gateway remembers about suspicious callers: identity conflicts (a serial claimed by
 * two boxes), copy suspicions (stale witness echoes) and serials refused for breaking the claim rule.
 * The one writer of `identity_conflicts`, `copy_suspicions` and `unclaimable_serials`.
 */
export class IdentityIncidentsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async insertConflict(row: Insertable<IdentityConflictsTable>): Promise<void> {
    await this.db.insertInto('identity_conflicts').values(row).execute();
  }

  async resolveConflicts(machineId: string, now: number): Promise<void> {
    await this.db.updateTable('identity_conflicts').set({ resolved_at: now }).where('machine_id', '=', machineId).where('resolved_at', 'is', null).execute();
  }

  async conflicts(operatorId: string | null, limit: number, offset: number) {
    const base = this.db
      .selectFrom('identity_conflicts as c')
      .innerJoin('machines as m', 'm.id', 'c.machine_id')
      .$if(operatorId !== null, (q) => q.where('m.operator_id', '=', operatorId));
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base.selectAll('c').select('m.machine_no').orderBy('c.at', 'desc').orderBy('c.id', 'desc').limit(limit).offset(offset).execute();
    return { total: Number(n), rows };
  }

  /** One row per machine and key, counting stale echoes. */
  async recordSuspicion(machineId: string, keyId: string | null, leg: string, now: number): Promise<void> {
    const existing = await this.db
      .selectFrom('copy_suspicions')
      .select(['id'])
      .where('machine_id', '=', machineId)
      .$if(keyId === null, (q) => q.where('key_id', 'is', null))
      .$if(keyId !== null, (q) => q.where('key_id', '=', keyId ?? ''))
      .executeTakeFirst();
    if (existing) {
      await this.db
        .updateTable('copy_suspicions')
        .set((eb) => ({ count: eb('count', '+', 1), last_at: now, leg }))
        .where('id', '=', existing.id)
        .execute();
      return;
    }
    await this.db
      .insertInto('copy_suspicions')
      .values({ id: newId('sus', now), machine_id: machineId, key_id: keyId, leg, count: 1, first_at: now, last_at: now })
      .execute();
  }

  async suspicions(operatorId: string | null, limit: number, offset: number) {
    const base = this.db
      .selectFrom('copy_suspicions as s')
      .innerJoin('machines as m', 'm.id', 's.machine_id')
      .$if(operatorId !== null, (q) => q.where('m.operator_id', '=', operatorId));
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base.selectAll('s').select('m.machine_no').orderBy('s.last_at', 'desc').orderBy('s.id', 'desc').limit(limit).offset(offset).execute();
    return { total: Number(n), rows };
  }

  async suspicionCounts(machineIds: string[]): Promise<Map<string, number>> {
    if (machineIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('copy_suspicions')
      .select((eb) => ['machine_id', eb.fn.sum<number>('count').as('n')])
      .where('machine_id', 'in', machineIds)
      .groupBy('machine_id')
      .execute();
    return new Map(rows.map((r) => [r.machine_id, Number(r.n)]));
  }

  async recordUnclaimable(serial: string, faults: string, leg: string, now: number): Promise<void> {
    await this.db
      .insertInto('unclaimable_serials')
      .values({ serial, faults, leg, attempts: 1, first_seen_at: now, last_seen_at: now })
      .onConflict((oc) => oc.column('serial').doUpdateSet((eb) => ({ attempts: eb('unclaimable_serials.attempts', '+', 1), last_seen_at: now, leg, faults })))
      .execute();
  }

  unclaimableSeen() {
    return this.db.selectFrom('unclaimable_serials').selectAll().orderBy('last_seen_at', 'desc').orderBy('serial', 'asc').execute();
  }

  /** Machine records whose serial breaks the claim rule (letters, digits, hyphens; 8–32). */
  unclaimableMachines(operatorId: string | null) {
    const broken =
      this.dialect === 'postgres'
        ? sql<boolean>`(length(m.machine_no) < 8 or length(m.machine_no) > 32 or m.machine_no ~ '[^A-Za-z0-9-]')`
        : sql<boolean>`(length(m.machine_no) < 8 or length(m.machine_no) > 32 or m.machine_no glob '*[^A-Za-z0-9-]*')`;
    return this.db
      .selectFrom('machines as m')
      .select(['m.id', 'm.machine_no', 'm.operator_id', 'm.created_at'])
      .where(broken)
      .$if(operatorId !== null, (q) => q.where('m.operator_id', '=', operatorId))
      .orderBy('m.machine_no')
      .execute();
  }
}
