import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type {
  BuildRecordsTable,
  DB,
  DeviceCredentialRow,
  DeviceCredentialsTable,
  DeviceIdentitiesTable,
  DeviceIdentityRow,
  EnrolmentArmsTable,
} from '../../db/schema.ts';
import { newId } from '../../crypto/ids.ts';

/** A credential row joined with what a gateway call needs to know about its machine. */
export interface CredentialForAuth extends DeviceCredentialRow {
  cred_state: string;
  rotation_due_at: number | null;
  machine_no: string;
  operator_id: string | null;
  retired_at: number | null;
}

/** The fleet-wide enrolment mode's name in `gateway_settings`. */
export const FLEET_MODE_SETTING = 'enrolment_mode';

/**
 * SQL of a cabinet's credential life: its identity, credential generations, enrolment arms, the
 * enrolment budget, the fleet-wide gateway settings and factory build records. The one writer of
 * `device_identities`, `device_credentials`, `enrolment_arms`, `enrolment_attempts`, `gateway_settings`
 * and `build_records`.
 */
export class DeviceCredentialsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** The sandbox seed's machines (codes starting `SBX-`), in code order: the ones its demo arms. */
  sandboxMachines() {
    return this.db.selectFrom('machines').select(['id', 'machine_no']).where('machine_no', 'like', 'SBX-%').orderBy('machine_no').execute();
  }

  // --- identity ------------------------------------------------------------------------------

  async ensureIdentity(machineId: string, now: number): Promise<void> {
    await this.db
      .insertInto('device_identities')
      .values({ machine_id: machineId, binding: 'unbound', cred_state: 'fleet-secret', updated_at: now })
      .onConflict((oc) => oc.column('machine_id').doNothing())
      .execute();
  }

  /** The identity row, locked for the rest of the transaction on PostgreSQL (SQLite serialises writers). Every credential-state change takes it first. */
  lockIdentity(machineId: string): Promise<DeviceIdentityRow | undefined> {
    return this.db
      .selectFrom('device_identities')
      .selectAll()
      .where('machine_id', '=', machineId)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  identity(machineId: string): Promise<DeviceIdentityRow | undefined> {
    return this.db.selectFrom('device_identities').selectAll().where('machine_id', '=', machineId).executeTakeFirst();
  }

  /** Machines whose credential state changed after `since` (every change writes `updated_at`). */
  async identitiesChangedSince(since: number): Promise<string[]> {
    const rows = await this.db.selectFrom('device_identities').select('machine_id').where('updated_at', '>', since).execute();
    return rows.map((r) => r.machine_id);
  }

  async updateIdentity(machineId: string, set: Updateable<DeviceIdentitiesTable>): Promise<void> {
    await this.db.updateTable('device_identities').set(set).where('machine_id', '=', machineId).execute();
  }

  // --- credentials ---------------------------------------------------------------------------

  credentialForAuth(keyId: string): Promise<CredentialForAuth | undefined> {
    return this.db
      .selectFrom('device_credentials as c')
      .innerJoin('machines as m', 'm.id', 'c.machine_id')
      .leftJoin('device_identities as i', 'i.machine_id', 'c.machine_id')
      .selectAll('c')
      .select((eb) => [
        eb.fn.coalesce('i.cred_state', sql<string>`'fleet-secret'`).as('cred_state'),
        'i.rotation_due_at',
        'm.machine_no',
        'm.operator_id',
        'm.retired_at',
      ])
      .where('c.key_id', '=', keyId)
      .executeTakeFirst();
  }

  credential(keyId: string): Promise<DeviceCredentialRow | undefined> {
    return this.db.selectFrom('device_credentials').selectAll().where('key_id', '=', keyId).executeTakeFirst();
  }

  credentialsOf(machineId: string, states: string[]): Promise<DeviceCredentialRow[]> {
    return this.db
      .selectFrom('device_credentials')
      .selectAll()
      .where('machine_id', '=', machineId)
      .where('state', 'in', states)
      .orderBy('created_at', 'asc')
      .orderBy('key_id', 'asc')
      .execute();
  }

  async maxGeneration(machineId: string): Promise<number> {
    const r = await this.db
      .selectFrom('device_credentials')
      .select((eb) => eb.fn.max('generation').as('g'))
      .where('machine_id', '=', machineId)
      .executeTakeFirst();
    return Number(r?.g ?? 0);
  }

  async insertCredential(row: Insertable<DeviceCredentialsTable>): Promise<void> {
    await this.db.insertInto('device_credentials').values(row).execute();
  }

  /** Binds the machine's live generations (active, candidates) that were enrolled without a box to `deviceId`. */
  async bindCredentials(machineId: string, deviceId: string): Promise<void> {
    await this.db
      .updateTable('device_credentials')
      .set({ device_id: deviceId })
      .where('machine_id', '=', machineId)
      .where('state', 'in', ['active', 'candidate'])
      .where('device_id', 'is', null)
      .execute();
  }

  /** Moves one credential from `from` to `to`; false when it was not in `from` (someone else moved it). */
  async moveCredential(keyId: string, from: string, to: string, now: number, reason: string | null): Promise<boolean> {
    const r = await this.db
      .updateTable('device_credentials')
      .set(to === 'active' ? { state: to, activated_at: now } : { state: to, ended_at: now, ended_reason: reason })
      .where('key_id', '=', keyId)
      .where('state', '=', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Ends every credential of the machine in one of `states` (except `keep`). */
  async endCredentials(machineId: string, states: string[], to: 'retired' | 'revoked', now: number, reason: string, keep?: string): Promise<number> {
    const r = await this.db
      .updateTable('device_credentials')
      .set({ state: to, ended_at: now, ended_reason: reason })
      .where('machine_id', '=', machineId)
      .where('state', 'in', states)
      .$if(keep !== undefined, (q) => q.where('key_id', '!=', keep ?? ''))
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  // --- arms ----------------------------------------------------------------------------------

  openArm(machineId: string, now: number) {
    return this.db
      .selectFrom('enrolment_arms')
      .selectAll()
      .where('machine_id', '=', machineId)
      .where('closed_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  async insertArm(row: Insertable<EnrolmentArmsTable>): Promise<void> {
    await this.db.insertInto('enrolment_arms').values(row).execute();
  }

  /** Closes every arm of the machine still marked open (expired ones included, so the record says why it ended). */
  async closeArms(machineId: string, now: number, reason: string): Promise<number> {
    const r = await this.db
      .updateTable('enrolment_arms')
      .set((eb) => ({ closed_at: now, closed_reason: eb.case().when('expires_at', '<=', now).then('expired').else(reason).end() }))
      .where('machine_id', '=', machineId)
      .where('closed_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** Spends an arm; false when it was already closed (a concurrent enrolment spent it). */
  async spendArm(armId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('enrolment_arms')
      .set({ closed_at: now, closed_reason: 'enrolled' })
      .where('id', '=', armId)
      .where('closed_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  // --- enrolment budget ----------------------------------------------------------------------

  async attemptsSince(machineNo: string, since: number): Promise<{ n: number; oldest: number | null }> {
    const r = await this.db
      .selectFrom('enrolment_attempts')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('at').as('oldest')])
      .where('machine_no', '=', machineNo)
      .where('at', '>', since)
      .executeTakeFirstOrThrow();
    return { n: Number(r.n), oldest: r.oldest === null ? null : Number(r.oldest) };
  }

  async insertAttempt(machineNo: string, now: number, outcome: string): Promise<string> {
    const id = newId('ena', now);
    await this.db.insertInto('enrolment_attempts').values({ id, machine_no: machineNo, at: now, outcome }).execute();
    return id;
  }

  async setAttemptOutcome(id: string, outcome: string): Promise<void> {
    await this.db.updateTable('enrolment_attempts').set({ outcome }).where('id', '=', id).execute();
  }

  // --- settings ------------------------------------------------------------------------------

  async gatewaySetting(name: string): Promise<string | null> {
    const r = await this.db.selectFrom('gateway_settings').select('value').where('name', '=', name).executeTakeFirst();
    return r?.value ?? null;
  }

  async setGatewaySetting(name: string, value: string, by: string | null, now: number): Promise<void> {
    await this.db
      .insertInto('gateway_settings')
      .values({ name, value, updated_by: by, updated_at: now })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_by: by, updated_at: now }))
      .execute();
  }

  // --- build records -------------------------------------------------------------------------

  buildRecord(machineNo: string) {
    return this.db.selectFrom('build_records').selectAll().where('machine_no', '=', machineNo).executeTakeFirst();
  }

  async insertBuildRecord(row: Insertable<BuildRecordsTable>): Promise<void> {
    await this.db.insertInto('build_records').values(row).execute();
  }

  async updateBuildRecord(machineNo: string, set: Updateable<BuildRecordsTable>): Promise<void> {
    await this.db.updateTable('build_records').set(set).where('machine_no', '=', machineNo).execute();
  }

  async buildRecords(plant: string | null, limit: number, offset: number) {
    const base = this.db.selectFrom('build_records').$if(plant !== null, (q) => q.where('plant', '=', plant ?? ''));
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await base.selectAll().orderBy('built_at', 'desc').orderBy('machine_no').limit(limit).offset(offset).execute();
    return { total: Number(n), rows };
  }
}
