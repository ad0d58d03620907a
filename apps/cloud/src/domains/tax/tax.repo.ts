import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { DB, TaxRemittanceRow, TaxRestatementBlockRow, TaxScheduleRow } from '../../db/schema.ts';
import type { Period } from '../calendar/period.ts';

export type ScheduleView = TaxScheduleRow & { operator_email: string | null };
export type RemittanceView = TaxRemittanceRow & { operator_email: string | null };
export type BlockView = TaxRestatementBlockRow & { machine_no: string; operator_email: string | null };

/** SQL of the tax domain: the one writer of `tax_schedules`, `tax_remittances` and `tax_restatement_blocks`. */
export class TaxRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Serialises an operator's remittances with restatements of its machines on PostgreSQL (SQLite
   * serialises writers): a period cannot be remitted while a restatement that saw it open is writing.
   */
  async lockOperator(operatorId: string): Promise<void> {
    if (this.dialect === 'postgres') await this.db.selectFrom('operators').select('id').where('id', '=', operatorId).forUpdate().execute();
  }

  // --- schedules ---------------------------------------------------------------------------------

  async insertSchedule(row: TaxScheduleRow): Promise<void> {
    await this.db.insertInto('tax_schedules').values(row).execute();
  }

  /** The operator's row in effect at `at` (the latest not after it), if any. */
  scheduleAt(operatorId: string, at: number): Promise<TaxScheduleRow | undefined> {
    return this.db
      .selectFrom('tax_schedules')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .where('effective_at', '<=', at)
      .orderBy('effective_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Every row of the operator's schedule, oldest first. */
  scheduleOf(operatorId: string): Promise<TaxScheduleRow[]> {
    return this.db.selectFrom('tax_schedules').selectAll().where('operator_id', '=', operatorId).orderBy('effective_at').execute();
  }

  /** One page of schedule rows by `effectiveAt`, oldest first; `operatorId` null for every operator's (admin). */
  async schedulePage(operatorId: string | null, limit: number, offset: number): Promise<{ total: number; rows: ScheduleView[] }> {
    const { n } = await this.db
      .selectFrom('tax_schedules')
      .$if(operatorId !== null, (q) => q.where('operator_id', '=', operatorId!))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.db
      .selectFrom('tax_schedules as s')
      .leftJoin('operators as o', 'o.id', 's.operator_id')
      .selectAll('s')
      .select('o.email as operator_email')
      .$if(operatorId !== null, (q) => q.where('s.operator_id', '=', operatorId!))
      .orderBy('s.effective_at')
      .orderBy('s.operator_id')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(n), rows };
  }

  // --- remittances -------------------------------------------------------------------------------

  async insertRemittance(row: TaxRemittanceRow): Promise<void> {
    await this.db.insertInto('tax_remittances').values(row).execute();
  }

  remittance(operatorId: string, period: Period): Promise<TaxRemittanceRow | undefined> {
    return this.db.selectFrom('tax_remittances').selectAll().where('operator_id', '=', operatorId).where('period', '=', period).executeTakeFirst();
  }

  /** One page of remittances, newest period first. */
  async remittancePage(operatorId: string | null, limit: number, offset: number): Promise<{ total: number; rows: RemittanceView[] }> {
    const { n } = await this.db
      .selectFrom('tax_remittances')
      .$if(operatorId !== null, (q) => q.where('operator_id', '=', operatorId!))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.db
      .selectFrom('tax_remittances as r')
      .leftJoin('operators as o', 'o.id', 'r.operator_id')
      .selectAll('r')
      .select('o.email as operator_email')
      .$if(operatorId !== null, (q) => q.where('r.operator_id', '=', operatorId!))
      .orderBy('r.period', 'desc')
      .orderBy('r.operator_id')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(n), rows };
  }

  // --- closed periods ----------------------------------------------------------------------------

  /** The periods the operator marked remitted, oldest first. */
  async remittedPeriods(operatorId: string): Promise<Period[]> {
    const rows = await this.db.selectFrom('tax_remittances').select('period').where('operator_id', '=', operatorId).orderBy('period').execute();
    return rows.map((r) => r.period);
  }

  // --- refused restatements ----------------------------------------------------------------------

  async insertBlocks(rows: readonly TaxRestatementBlockRow[]): Promise<void> {
    if (rows.length > 0)
      await this.db
        .insertInto('tax_restatement_blocks')
        .values([...rows])
        .execute();
  }

  /** One page of refused restatements, newest first. */
  async blockPage(f: { operatorId: string | null; machineId: string | null }, limit: number, offset: number): Promise<{ total: number; rows: BlockView[] }> {
    const { n } = await this.db
      .selectFrom('tax_restatement_blocks')
      .$if(f.operatorId !== null, (q) => q.where('operator_id', '=', f.operatorId!))
      .$if(f.machineId !== null, (q) => q.where('machine_id', '=', f.machineId!))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.db
      .selectFrom('tax_restatement_blocks as b')
      .innerJoin('machines as m', 'm.id', 'b.machine_id')
      .leftJoin('operators as o', 'o.id', 'b.operator_id')
      .selectAll('b')
      .select(['m.machine_no', 'o.email as operator_email'])
      .$if(f.operatorId !== null, (q) => q.where('b.operator_id', '=', f.operatorId!))
      .$if(f.machineId !== null, (q) => q.where('b.machine_id', '=', f.machineId!))
      .orderBy('b.created_at', 'desc')
      .orderBy('m.machine_no')
      .orderBy('b.period')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(n), rows };
  }
}
