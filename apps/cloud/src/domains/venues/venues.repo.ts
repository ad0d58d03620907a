import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { DB, NewVenue, VenueRow, VenueUpdate } from '../../db/schema.ts';
import type { MoveRecord } from './venues.rules.ts';

export interface VenueWithOwner extends VenueRow {
  operator_email: string | null;
}

/** SQL of the venues domain: the one writer of `venues` (moves are the machines domain's `venue_moves`). */
export class VenuesRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async insert(row: NewVenue): Promise<void> {
    await this.db.insertInto('venues').values(row).execute();
  }

  async update(id: string, set: VenueUpdate): Promise<void> {
    if (Object.keys(set).length === 0) return;
    await this.db.updateTable('venues').set(set).where('id', '=', id).execute();
  }

  private view() {
    return this.db.selectFrom('venues as v').leftJoin('operators as o', 'o.id', 'v.operator_id').selectAll('v').select('o.email as operator_email');
  }

  byId(id: string): Promise<VenueWithOwner | undefined> {
    return this.view().where('v.id', '=', id).executeTakeFirst();
  }

  /** The venue row locked for the rest of the transaction on PostgreSQL (SQLite serialises writers). */
  lock(id: string): Promise<VenueRow | undefined> {
    return this.db
      .selectFrom('venues')
      .selectAll()
      .where('id', '=', id)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  /** One page of venues, oldest first; `operatorId` null for every operator's (admin). */
  async page(operatorId: string | null, limit: number, offset: number): Promise<{ total: number; rows: VenueWithOwner[] }> {
    const { n } = await this.db
      .selectFrom('venues')
      .$if(operatorId !== null, (q) => q.where('operator_id', '=', operatorId!))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.view()
      .$if(operatorId !== null, (q) => q.where('v.operator_id', '=', operatorId!))
      .orderBy('v.created_at')
      .orderBy('v.id')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(n), rows };
  }

  /** Every venue of the operator (null: of every operator), oldest first: what the P&L and host statements read. */
  ofOperator(operatorId: string | null): Promise<VenueRow[]> {
    return this.db
      .selectFrom('venues')
      .selectAll()
      .$if(operatorId !== null, (q) => q.where('operator_id', '=', operatorId!))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** The machines attached to these venues now (`machines.venue_id`), by code. */
  attached(venueIds: readonly string[]): Promise<{ id: string; machine_no: string; venue_id: string | null }[]> {
    if (venueIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('machines').select(['id', 'machine_no', 'venue_id']).where('venue_id', 'in', venueIds).orderBy('machine_no').execute();
  }

  /** The whole venue history of every machine that was ever at one of these venues. */
  async history(venueIds: readonly string[]): Promise<MoveRecord[]> {
    if (venueIds.length === 0) return [];
    const ever = this.db.selectFrom('venue_moves').select('machine_id').where('venue_id', 'in', venueIds);
    const rows = await this.db
      .selectFrom('venue_moves as vm')
      .innerJoin('machines as m', 'm.id', 'vm.machine_id')
      .select(['vm.id', 'm.machine_no', 'vm.venue_id', 'vm.moved_at', 'vm.accrues_from', 'vm.commission_rule', 'vm.seq'])
      .where('vm.machine_id', 'in', ever)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      machineNo: r.machine_no,
      venueId: r.venue_id,
      movedAt: Number(r.moved_at),
      accruesFrom: r.accrues_from === null ? null : Number(r.accrues_from),
      rule: r.commission_rule,
      seq: r.seq === null ? null : Number(r.seq),
    }));
  }

  /** When the machine last moved (its latest `venue_moves` row); null if never. */
  async lastMoveAt(machineId: string): Promise<number | null> {
    const { last } = await this.db
      .selectFrom('venue_moves')
      .select((eb) => eb.fn.max<number | null>('moved_at').as('last'))
      .where('machine_id', '=', machineId)
      .executeTakeFirstOrThrow();
    return last === null ? null : Number(last);
  }

  /** The machine's first sale: its earliest order (any status); null if it never sold. */
  async firstSaleAt(machineId: string): Promise<number | null> {
    const { first } = await this.db
      .selectFrom('orders')
      .select((eb) => eb.fn.min<number | null>('created_at').as('first'))
      .where('machine_id', '=', machineId)
      .executeTakeFirstOrThrow();
    return first === null ? null : Number(first);
  }
}
