import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { QueryTemplate } from '../../db/query-template.ts';
import type { CabinetStatusTable, DB, DispenseReportsTable, ServiceCodeAttemptsTable } from '../../db/schema.ts';

/** Every heartbeat reads it: compiled once (the hot leg). */
const REPORT_MARK = new QueryTemplate(1, (db: Kysely<DB>, machineId: string) =>
  db.selectFrom('cabinet_status').select(['report_fp', 'report_at']).where('machine_id', '=', machineId),
);

/** SQL of the cabinet gateway, the one writer of `cabinet_status`, `dispense_reports` and `service_code_attempts`. */
export class GatewayRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  status(machineId: string) {
    return this.db.selectFrom('cabinet_status').selectAll().where('machine_id', '=', machineId).executeTakeFirst();
  }

  async upsertStatus(machineId: string, set: Omit<Updateable<CabinetStatusTable>, 'machine_id'> & { updated_at: number }): Promise<void> {
    await this.db
      .insertInto('cabinet_status')
      .values({ ...set, machine_id: machineId } as Insertable<CabinetStatusTable>)
      .onConflict((oc) => oc.column('machine_id').doUpdateSet(set))
      .execute();
  }

  /** The stored heartbeat report's fingerprint and time: what decides whether a heartbeat must write. */
  async reportMark(machineId: string) {
    return (await REPORT_MARK.rows(this.db, machineId))[0];
  }

  /** The machine's status row, locked for the rest of the transaction on PostgreSQL (SQLite serialises writers). */
  lockStatus(machineId: string) {
    return this.db
      .selectFrom('cabinet_status')
      .selectAll()
      .where('machine_id', '=', machineId)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  async markFleetSecretSeen(machineId: string, now: number): Promise<void> {
    await this.db
      .insertInto('cabinet_status')
      .values({ machine_id: machineId, fleet_secret_seen_at: now, updated_at: now })
      .onConflict((oc) => oc.column('machine_id').doUpdateSet({ fleet_secret_seen_at: now, updated_at: now }))
      .execute();
  }

  async currencyOf(operatorId: string | null): Promise<string | null> {
    if (operatorId === null) return null;
    const r = await this.db.selectFrom('operators').select('currency').where('id', '=', operatorId).executeTakeFirst();
    return r?.currency ?? null;
  }

  /** Claims a dispenseId: true when this call inserted it (first report), false when it was already there. */
  async claimReport(row: Insertable<DispenseReportsTable>): Promise<boolean> {
    const r = await this.db
      .insertInto('dispense_reports')
      .values(row)
      .onConflict((oc) => oc.column('dispense_id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  report(dispenseId: string) {
    return this.db.selectFrom('dispense_reports').selectAll().where('dispense_id', '=', dispenseId).executeTakeFirst();
  }

  async setReportStatus(dispenseId: string, status: string | null): Promise<void> {
    await this.db.updateTable('dispense_reports').set({ status }).where('dispense_id', '=', dispenseId).execute();
  }

  /** Keeps the service-code attempts a heartbeat carried, each once (a repeated heartbeat repeats them). */
  async recordServiceAttempts(rows: Insertable<ServiceCodeAttemptsTable>[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('service_code_attempts')
      .values(rows)
      .onConflict((oc) => oc.columns(['machine_id', 'attempt_id', 'at']).doNothing())
      .execute();
  }

  /** The newest service-code attempts of a machine. */
  serviceAttempts(machineId: string, limit: number) {
    return this.db
      .selectFrom('service_code_attempts')
      .selectAll()
      .where('machine_id', '=', machineId)
      .orderBy('at', 'desc')
      .orderBy('attempt_id', 'desc')
      .limit(limit)
      .execute();
  }
}
