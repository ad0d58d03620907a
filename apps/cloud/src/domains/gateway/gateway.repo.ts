import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { AdPlayRecordsTable, CabinetStatusTable, DB, DispenseReportsTable, MachinesTable, OrdersTable } from '../../db/schema.ts';

/** SQL of the cabinet gateway: presence and software, status (the one writer of `cabinet_status`), goods, cabinet orders, dispense reports, proof of play. */
export class GatewayRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** First contact and every later one (throttled by the caller): the machine is online now. */
  async markSeen(machineId: string, now: number, extra: Updateable<MachinesTable> = {}): Promise<void> {
    await this.db
      .updateTable('machines')
      .set({ status: 'online', last_seen: now, ...extra })
      .where('id', '=', machineId)
      .execute();
  }

  machine(machineId: string) {
    return this.db
      .selectFrom('machines')
      .select(['id', 'machine_no', 'name', 'operator_id', 'sales_tax_rate', 'agent_version', 'vmc_version', 'apk_version', 'platform', 'retired_at'])
      .where('id', '=', machineId)
      .executeTakeFirst();
  }

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
  reportMark(machineId: string) {
    return this.db.selectFrom('cabinet_status').select(['report_fp', 'report_at']).where('machine_id', '=', machineId).executeTakeFirst();
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

  aisles(machineId: string) {
    return this.db.selectFrom('aisles').selectAll().where('machine_id', '=', machineId).orderBy('aisle_no').execute();
  }

  async currencyOf(operatorId: string | null): Promise<string | null> {
    if (operatorId === null) return null;
    const r = await this.db.selectFrom('operators').select('currency').where('id', '=', operatorId).executeTakeFirst();
    return r?.currency ?? null;
  }

  terminalOf(machineId: string) {
    return this.db.selectFrom('payment_terminals').select(['id', 'merchant_account']).where('machine_id', '=', machineId).executeTakeFirst();
  }

  async insertOrder(row: Insertable<OrdersTable>): Promise<void> {
    await this.db.insertInto('orders').values(row).execute();
  }

  orderByRequestRef(machineId: string, requestRef: string) {
    return this.db.selectFrom('orders').selectAll().where('machine_id', '=', machineId).where('request_ref', '=', requestRef).executeTakeFirst();
  }

  order(orderNumber: string) {
    return this.db.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirst();
  }

  /** Settles a cabinet order still awaiting its vend; false when someone else settled it first. */
  async settleOrder(orderNumber: string, from: readonly string[], set: Updateable<OrdersTable>): Promise<boolean> {
    const r = await this.db
      .updateTable('orders')
      .set(set)
      .where('order_number', '=', orderNumber)
      .where('pay_status', 'in', [...from])
      .where('vended', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
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

  /** A proof-of-play row; false when this showing (machine, entry, time) was already recorded. */
  async insertPlay(row: Insertable<AdPlayRecordsTable>): Promise<boolean> {
    const r = await this.db
      .insertInto('ad_play_records')
      .values(row)
      .onConflict((oc) => oc.columns(['machine_id', 'entry_id', 'played_at']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  }
}
