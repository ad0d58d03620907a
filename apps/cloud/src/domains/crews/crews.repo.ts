import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { CrewInviteRow, CrewMemberRow, CrewRow, DB } from '../../db/schema.ts';

/** A crew as one of its members sees it: the crew, the caller's role and how many members it has. */
export interface CrewOfMember extends CrewRow {
  role: string;
  member_count: number;
}

/** SQL of the crews domain: the one writer of `crews`, `crew_members` and `crew_invites`. */
export class CrewsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** Inserts a crew; false when it is a default crew and that email already has one (a concurrent first visit). */
  async insertCrew(row: CrewRow): Promise<boolean> {
    const r = await this.db
      .insertInto('crews')
      .values(row)
      .onConflict((oc) => oc.column('default_for').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  defaultOf(email: string): Promise<CrewRow | undefined> {
    return this.db.selectFrom('crews').selectAll().where('default_for', '=', email).executeTakeFirst();
  }

  /** The crew row, locked for the rest of the transaction on PostgreSQL (SQLite serialises writers). */
  lockCrew(id: string): Promise<CrewRow | undefined> {
    return this.db
      .selectFrom('crews')
      .selectAll()
      .where('id', '=', id)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  /** Crews as `email` sees them: each with the role held there and how many members it has. */
  private asMember(email: string) {
    return this.db
      .selectFrom('crews as k')
      .innerJoin('crew_members as m', 'm.crew_id', 'k.id')
      .selectAll('k')
      .select('m.role')
      .select((eb) =>
        eb
          .selectFrom('crew_members as c')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('c.crew_id', '=', 'k.id')
          .as('member_count'),
      )
      .where('m.email', '=', email);
  }

  /** Every crew `email` belongs to, oldest first, with the role held there. */
  ofMember(email: string): Promise<CrewOfMember[]> {
    return this.asMember(email).orderBy('k.created_at').orderBy('k.id').execute() as Promise<CrewOfMember[]>;
  }

  /** The crew as `email` sees it; undefined when there is no such crew or they are not in it. */
  forMember(id: string, email: string): Promise<CrewOfMember | undefined> {
    return this.asMember(email).where('k.id', '=', id).executeTakeFirst() as Promise<CrewOfMember | undefined>;
  }

  /**
   * The crews `email` belongs to whose fleet holds the machine (a crew's fleet: the machines of the
   * operator account whose email is the crew's `created_by`), oldest first, with the role held there.
   */
  ofMemberOverMachine(email: string, machineId: string): Promise<CrewOfMember[]> {
    return this.asMember(email)
      .where((eb) =>
        eb(
          'k.created_by',
          '=',
          eb.selectFrom('machines as mc').innerJoin('operators as o', 'o.id', 'mc.operator_id').select('o.email').where('mc.id', '=', machineId),
        ),
      )
      .orderBy('k.created_at')
      .orderBy('k.id')
      .execute() as Promise<CrewOfMember[]>;
  }

  member(crewId: string, email: string): Promise<CrewMemberRow | undefined> {
    return this.db.selectFrom('crew_members').selectAll().where('crew_id', '=', crewId).where('email', '=', email).executeTakeFirst();
  }

  /** The members, owners first, then admins, then members, each group by joining time. */
  members(crewId: string): Promise<CrewMemberRow[]> {
    return this.db
      .selectFrom('crew_members')
      .selectAll()
      .where('crew_id', '=', crewId)
      .orderBy((eb) => eb.case().when('role', '=', 'owner').then(0).when('role', '=', 'admin').then(1).else(2).end())
      .orderBy('joined_at')
      .orderBy('email')
      .execute();
  }

  async owners(crewId: string): Promise<number> {
    const { n } = await this.db
      .selectFrom('crew_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('crew_id', '=', crewId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Adds a member; an existing membership is left as it is (its role unchanged). */
  async addMember(row: CrewMemberRow): Promise<void> {
    await this.db
      .insertInto('crew_members')
      .values(row)
      .onConflict((oc) => oc.columns(['crew_id', 'email']).doNothing())
      .execute();
  }

  async setRole(crewId: string, email: string, role: string): Promise<void> {
    await this.db.updateTable('crew_members').set({ role }).where('crew_id', '=', crewId).where('email', '=', email).execute();
  }

  async removeMember(crewId: string, email: string): Promise<void> {
    await this.db.deleteFrom('crew_members').where('crew_id', '=', crewId).where('email', '=', email).execute();
  }

  async insertInvite(row: CrewInviteRow): Promise<void> {
    await this.db.insertInto('crew_invites').values(row).execute();
  }

  /** The invitation, locked for the rest of the transaction on PostgreSQL. */
  lockInvite(id: string): Promise<CrewInviteRow | undefined> {
    return this.db
      .selectFrom('crew_invites')
      .selectAll()
      .where('id', '=', id)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  /** Marks every pending invitation of the crew past its expiry as expired. */
  async expireDue(crewId: string, now: number): Promise<void> {
    await this.db
      .updateTable('crew_invites')
      .set({ state: 'expired' })
      .where('crew_id', '=', crewId)
      .where('state', '=', 'pending')
      .where('expires_at', '<=', now)
      .execute();
  }

  /** Revokes the pending invitations of `email` to the crew (a new invitation supersedes them); their ids. */
  async revokePending(crewId: string, email: string): Promise<string[]> {
    const rows = await this.db
      .updateTable('crew_invites')
      .set({ state: 'revoked' })
      .where('crew_id', '=', crewId)
      .where('email', '=', email)
      .where('state', '=', 'pending')
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async markAccepted(id: string, now: number): Promise<void> {
    await this.db.updateTable('crew_invites').set({ state: 'accepted', accepted_at: now }).where('id', '=', id).execute();
  }

  /** The crew's invitations, newest first. */
  invitesOf(crewId: string): Promise<CrewInviteRow[]> {
    return this.db.selectFrom('crew_invites').selectAll().where('crew_id', '=', crewId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  /** Cancels one pending invitation; false when it was no longer pending. */
  async revokeInvite(id: string): Promise<boolean> {
    const r = await this.db.updateTable('crew_invites').set({ state: 'revoked' }).where('id', '=', id).where('state', '=', 'pending').executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
