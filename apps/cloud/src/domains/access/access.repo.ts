import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { AccessGroupRow, AccessSessionsTable, DB } from '../../db/schema.ts';

/** A group with its machine numbers and the people assigned to it. */
export interface GroupView extends AccessGroupRow {
  machine_nos: string[];
  usernames: string[];
}

/** What a live access session resolves to on each request. */
export interface SessionFence {
  username: string;
  operator_id: string;
  group_id: string;
  group_name: string;
  scopes: string;
  machine_nos: string[];
}

/** A fleet a person may open a session on. */
export interface Grant {
  operator_id: string;
  operator_email: string;
  operator_name: string;
  group_id: string;
  group_name: string;
}

/**
 * SQL of the access domain: the one writer of `access_groups`, `access_group_machines`,
 * `access_assignments` and `access_sessions`. Reads crews to tell who the operator's people are.
 */
export class AccessRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async insertGroup(row: AccessGroupRow): Promise<boolean> {
    const r = await this.db
      .insertInto('access_groups')
      .values(row)
      .onConflict((oc) => oc.columns(['operator_id', 'name']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** False when another group of the operator already has that name. */
  async updateGroup(id: string, set: Pick<AccessGroupRow, 'name' | 'scopes' | 'updated_at'>): Promise<boolean> {
    const clash = await this.db
      .selectFrom('access_groups as g')
      .innerJoin('access_groups as o', 'o.operator_id', 'g.operator_id')
      .select('o.id')
      .where('g.id', '=', id)
      .where('o.name', '=', set.name)
      .where('o.id', '!=', id)
      .executeTakeFirst();
    if (clash) return false;
    await this.db.updateTable('access_groups').set(set).where('id', '=', id).execute();
    return true;
  }

  /** The group's machines become exactly these. */
  async setMachines(groupId: string, machineIds: readonly string[]): Promise<void> {
    await this.db.deleteFrom('access_group_machines').where('group_id', '=', groupId).execute();
    if (machineIds.length) {
      await this.db
        .insertInto('access_group_machines')
        .values(machineIds.map((machine_id) => ({ group_id: groupId, machine_id })))
        .execute();
    }
  }

  /** The group row of this operator, locked for the rest of the transaction on PostgreSQL. */
  lockGroup(operatorId: string, id: string): Promise<AccessGroupRow | undefined> {
    return this.db
      .selectFrom('access_groups')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .where('id', '=', id)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  /** The operator's groups (one when `id` is given), oldest first, with machines and people. */
  async groupsOf(operatorId: string, id?: string): Promise<GroupView[]> {
    const groups = await this.db
      .selectFrom('access_groups')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .$if(id !== undefined, (q) => q.where('id', '=', id ?? ''))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    if (!groups.length) return [];
    const ids = groups.map((g) => g.id);
    const [machines, people] = await Promise.all([
      this.db
        .selectFrom('access_group_machines as gm')
        .innerJoin('machines as m', 'm.id', 'gm.machine_id')
        .select(['gm.group_id', 'm.machine_no'])
        .where('gm.group_id', 'in', ids)
        .orderBy('m.machine_no')
        .execute(),
      this.db.selectFrom('access_assignments').select(['group_id', 'username']).where('group_id', 'in', ids).orderBy('username').execute(),
    ]);
    return groups.map((g) => ({
      ...g,
      machine_nos: machines.filter((m) => m.group_id === g.id).map((m) => m.machine_no),
      usernames: people.filter((a) => a.group_id === g.id).map((a) => a.username),
    }));
  }

  /** Of these machine numbers, the ones the operator owns (id and number). */
  ownedMachines(operatorId: string, machineNos: readonly string[]): Promise<{ id: string; machine_no: string }[]> {
    if (!machineNos.length) return Promise.resolve([]);
    return this.db.selectFrom('machines').select(['id', 'machine_no']).where('operator_id', '=', operatorId).where('machine_no', 'in', machineNos).execute();
  }

  /** Whether `username` is a member of a crew the operator (by its account email) created: one of the operator's people. */
  async isPersonOf(operatorEmail: string, username: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('crew_members as m')
      .innerJoin('crews as k', 'k.id', 'm.crew_id')
      .select('m.email')
      .where('k.created_by', '=', operatorEmail.toLowerCase())
      .where('m.email', '=', username)
      .executeTakeFirst();
    return row !== undefined;
  }

  assignment(operatorId: string, username: string) {
    return this.db.selectFrom('access_assignments').selectAll().where('operator_id', '=', operatorId).where('username', '=', username).executeTakeFirst();
  }

  async assign(operatorId: string, username: string, groupId: string, now: number): Promise<void> {
    await this.db
      .insertInto('access_assignments')
      .values({ operator_id: operatorId, username, group_id: groupId, assigned_at: now })
      .onConflict((oc) => oc.columns(['operator_id', 'username']).doUpdateSet({ group_id: groupId, assigned_at: now }))
      .execute();
  }

  /** The machine numbers of the group `username` holds on the operator's fleet; null when they hold none. */
  async assignedMachines(operatorId: string, username: string): Promise<string[] | null> {
    const a = await this.assignment(operatorId, username);
    if (!a) return null;
    const rows = await this.db
      .selectFrom('access_group_machines as gm')
      .innerJoin('machines as m', 'm.id', 'gm.machine_id')
      .select('m.machine_no')
      .where('gm.group_id', '=', a.group_id)
      .execute();
    return rows.map((r) => r.machine_no);
  }

  async unassign(operatorId: string, username: string): Promise<void> {
    await this.db.deleteFrom('access_assignments').where('operator_id', '=', operatorId).where('username', '=', username).execute();
  }

  /** Every fleet `username` holds a group on, while still one of that operator's people. */
  grantsOf(username: string): Promise<Grant[]> {
    return this.db
      .selectFrom('access_assignments as a')
      .innerJoin('access_groups as g', 'g.id', 'a.group_id')
      .innerJoin('operators as o', 'o.id', 'a.operator_id')
      .select(['a.operator_id', 'o.email as operator_email', 'o.name as operator_name', 'g.id as group_id', 'g.name as group_name'])
      .where('a.username', '=', username)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('crew_members as m')
            .innerJoin('crews as k', 'k.id', 'm.crew_id')
            .select('m.email')
            .whereRef('m.email', '=', 'a.username')
            .where((e) => e(e.fn('lower', ['o.email']), '=', e.ref('k.created_by'))),
        ),
      )
      .orderBy('o.email')
      .execute();
  }

  async insertSession(row: Selectable<AccessSessionsTable>): Promise<void> {
    await this.db.insertInto('access_sessions').values(row).execute();
  }

  /**
   * The fence of a live session, looked up afresh on each request: undefined once the session has expired,
   * its person lost the assignment, or left the operator's crews.
   */
  async sessionFence(sessionId: string, now: number): Promise<SessionFence | undefined> {
    const s = await this.db
      .selectFrom('access_sessions as s')
      .innerJoin('access_assignments as a', (j) => j.onRef('a.operator_id', '=', 's.operator_id').onRef('a.username', '=', 's.username'))
      .innerJoin('access_groups as g', 'g.id', 'a.group_id')
      .innerJoin('operators as o', 'o.id', 's.operator_id')
      .select(['s.username', 's.operator_id', 'g.id as group_id', 'g.name as group_name', 'g.scopes', 'o.email as operator_email'])
      .where('s.id', '=', sessionId)
      .where('s.expires_at', '>', now)
      .executeTakeFirst();
    if (!s || !(await this.isPersonOf(s.operator_email, s.username))) return undefined;
    const machines = await this.db
      .selectFrom('access_group_machines as gm')
      .innerJoin('machines as m', 'm.id', 'gm.machine_id')
      .select('m.machine_no')
      .where('gm.group_id', '=', s.group_id)
      .where('m.operator_id', '=', s.operator_id)
      .execute();
    return {
      username: s.username,
      operator_id: s.operator_id,
      group_id: s.group_id,
      group_name: s.group_name,
      scopes: s.scopes,
      machine_nos: machines.map((m) => m.machine_no),
    };
  }

  /** Housekeeping when a session opens: the operator's ended sessions are of no further use. */
  async deleteEndedSessions(operatorId: string, now: number): Promise<void> {
    await this.db.deleteFrom('access_sessions').where('operator_id', '=', operatorId).where('expires_at', '<=', now).execute();
  }
}
