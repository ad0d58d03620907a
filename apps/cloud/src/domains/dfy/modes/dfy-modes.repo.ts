import type { Kysely } from 'kysely';
import type { DB, DfyConciergeEnrolmentRow, DfyDealRow } from '../../../db/schema.ts';

export type ModeKind = 'deal' | 'machine';

/** SQL of DFY operating modes and concierge: the one writer of `dfy_modes` and `dfy_concierge_enrolments`. */
export class DfyModesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async toggles(kind: ModeKind, subjectId: string): Promise<string | undefined> {
    const r = await this.db.selectFrom('dfy_modes').select('toggles_json').where('kind', '=', kind).where('subject_id', '=', subjectId).executeTakeFirst();
    return r?.toggles_json;
  }

  async putToggles(kind: ModeKind, subjectId: string, operatorId: string, json: string, now: number): Promise<void> {
    await this.db
      .insertInto('dfy_modes')
      .values({ kind, subject_id: subjectId, operator_id: operatorId, toggles_json: json, updated_at: now })
      .onConflict((oc) => oc.columns(['kind', 'subject_id']).doUpdateSet({ toggles_json: json, updated_at: now }))
      .execute();
  }

  /** The deal a machine was placed by (its fleet pin), if any. */
  dealOfMachine(machineId: string): Promise<DfyDealRow | undefined> {
    return this.db.selectFrom('dfy_deals').selectAll().where('machine_id', '=', machineId).orderBy('created_at', 'desc').executeTakeFirst();
  }

  /** Every enrolment of a placement: rows naming the deal or the machine (either may be null). */
  enrolmentsOf(dealId: string | null, machineId: string | null): Promise<DfyConciergeEnrolmentRow[]> {
    return this.db
      .selectFrom('dfy_concierge_enrolments')
      .selectAll()
      .where((eb) => eb.or([...(dealId ? [eb('deal_id', '=', dealId)] : []), ...(machineId ? [eb('machine_id', '=', machineId)] : [])]))
      .orderBy('enrolled_at')
      .orderBy('id')
      .execute();
  }

  /** Every enrolment of an operator that overlaps [since, ∞) (the month-to-date cost line). */
  enrolmentsSince(operatorId: string, since: number): Promise<DfyConciergeEnrolmentRow[]> {
    return this.db
      .selectFrom('dfy_concierge_enrolments')
      .selectAll()
      .where('operator_id', '=', operatorId)
      .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>=', since)]))
      .execute();
  }

  async enrol(row: DfyConciergeEnrolmentRow): Promise<void> {
    await this.db.insertInto('dfy_concierge_enrolments').values(row).execute();
  }

  /** Ends the subject's active enrolment; false when none was active. */
  async takeBack(kind: ModeKind, subjectId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('dfy_concierge_enrolments')
      .set({ ended_at: now })
      .where('kind', '=', kind)
      .where('subject_id', '=', subjectId)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
}
