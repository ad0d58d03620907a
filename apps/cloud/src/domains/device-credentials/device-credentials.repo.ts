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
  IdentityConflictsTable,
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

export interface MachineRef {
  id: string;
  machine_no: string;
  operator_id: string | null;
  retired_at: number | null;
}

export type FleetState = 'enrolled' | 'fleet-secret' | 'revoked';

export interface FleetFilter {
  operatorId: string | null;
  state?: FleetState | undefined;
}

/** SQL of device identities, credentials, arms, the enrolment budget, conflicts, suspicions, unclaimable serials and build records. */
export class DeviceCredentialsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  // --- machines ------------------------------------------------------------------------------

  machineByNo(machineNo: string): Promise<MachineRef | undefined> {
    return this.db.selectFrom('machines').select(['id', 'machine_no', 'operator_id', 'retired_at']).where('machine_no', '=', machineNo).executeTakeFirst();
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

  /** Moves one credential from `from` to `to`; false when it was not in `from` (someone else moved it). */
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

  // --- conflicts, suspicions, unclaimable serials ---------------------------------------------

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

  // --- fleet view ----------------------------------------------------------------------------

  private fleetBase(f: FleetFilter) {
    const state = sql<FleetState>`coalesce(i.cred_state, 'fleet-secret')`;
    return this.db
      .selectFrom('machines as m')
      .leftJoin('device_identities as i', 'i.machine_id', 'm.id')
      .where('m.retired_at', 'is', null)
      .$if(f.operatorId !== null, (q) => q.where('m.operator_id', '=', f.operatorId))
      .$if(f.state !== undefined, (q) => q.where(state, '=', f.state ?? 'enrolled'));
  }

  async fleetCounts(f: FleetFilter, now: number) {
    const base = this.fleetBase({ operatorId: f.operatorId });
    const row = await base
      .leftJoin('cabinet_status as s', 's.machine_id', 'm.id')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.sum<number>(sql`case when coalesce(i.cred_state, 'fleet-secret') = 'fleet-secret' then 1 else 0 end`).as('reachable'),
        eb.fn
          .sum<number>(sql`case when coalesce(i.cred_state, 'fleet-secret') = 'fleet-secret' and s.fleet_secret_seen_at is not null then 1 else 0 end`)
          .as('on_fleet'),
        eb.fn
          .sum<number>(
            sql`case when exists (select 1 from enrolment_arms a where a.machine_id = m.id and a.closed_at is null and a.expires_at > ${now}) then 1 else 0 end`,
          )
          .as('armed'),
      ])
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), reachable: Number(row.reachable ?? 0), onFleet: Number(row.on_fleet ?? 0), armed: Number(row.armed ?? 0) };
  }

  async fleetPage(f: FleetFilter, limit: number, offset: number) {
    const { n } = await this.fleetBase(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.fleetBase(f)
      .select([
        'm.id',
        'm.machine_no',
        'm.operator_id',
        'i.cred_state',
        'i.binding',
        'i.device_id',
        'i.rotation_due_at',
        'i.revoked_at',
        'i.revoked_by',
        'i.revoke_reason',
      ])
      .orderBy('m.machine_no')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(n), rows };
  }

  activeCredentials(machineIds: string[]) {
    if (machineIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('device_credentials')
      .select(['machine_id', 'key_id', 'generation', 'activated_at', 'created_at'])
      .where('machine_id', 'in', machineIds)
      .where('state', '=', 'active')
      .execute();
  }

  openArms(machineIds: string[], now: number) {
    if (machineIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('enrolment_arms')
      .selectAll()
      .where('machine_id', 'in', machineIds)
      .where('closed_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'asc')
      .execute();
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
