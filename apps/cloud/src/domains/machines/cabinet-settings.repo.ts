import type { Insertable, Kysely, Updateable } from 'kysely';
import type { CabinetSettingsTable, DB } from '../../db/schema.ts';

/** The one writer of `cabinet_settings`: the operator's per-cabinet settings and the cabinet's enrolment mode. */
export class CabinetSettingsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  settings(machineId: string) {
    return this.db.selectFrom('cabinet_settings').selectAll().where('machine_id', '=', machineId).executeTakeFirst();
  }

  async upsertSettings(machineId: string, set: Omit<Updateable<CabinetSettingsTable>, 'machine_id'> & { updated_at: number }): Promise<void> {
    await this.db
      .insertInto('cabinet_settings')
      .values({ features_json: '{}', ...set, machine_id: machineId } as Insertable<CabinetSettingsTable>)
      .onConflict((oc) => oc.column('machine_id').doUpdateSet(set))
      .execute();
  }

  async machineEnrolmentMode(machineId: string): Promise<string | null> {
    const r = await this.db.selectFrom('cabinet_settings').select('enrolment_mode').where('machine_id', '=', machineId).executeTakeFirst();
    return r?.enrolment_mode ?? null;
  }

  async setMachineEnrolmentMode(machineId: string, mode: string | null, now: number): Promise<void> {
    await this.db
      .insertInto('cabinet_settings')
      .values({ machine_id: machineId, features_json: '{}', enrolment_mode: mode, updated_at: now })
      .onConflict((oc) => oc.column('machine_id').doUpdateSet({ enrolment_mode: mode, updated_at: now }))
      .execute();
  }

  /** Sets (a hash) or clears (null) the service code. */
  async setServiceCode(machineId: string, hash: string | null, now: number): Promise<void> {
    const set = { service_code_hash: hash, service_code_set_at: hash === null ? null : now, updated_at: now };
    await this.db
      .insertInto('cabinet_settings')
      .values({ machine_id: machineId, features_json: '{}', ...set })
      .onConflict((oc) => oc.column('machine_id').doUpdateSet(set))
      .execute();
  }
}
