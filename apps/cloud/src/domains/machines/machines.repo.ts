import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { DB, MachineRow, MachineUpdate, NewMachine } from '../../db/schema.ts';

/** Which rule chose when host commission starts for an attachment (spec 1 §4.3 rule 6, §4.8). */
export type CommissionRule = 'move' | 'deploymentDate' | 'firstSale';

/** A machine row with its owner's email and its payment-terminal binding: everything the API shows. */
export interface MachineRecord extends MachineRow {
  operator_email: string | null;
  terminal_id: string | null;
  terminal_merchant_account: string | null;
  terminal_provider: string | null;
  terminal_bound_at: number | null;
}

export interface MachineFilter {
  /** Only this operator's machines; null for every machine (admin), including unclaimed ones. */
  operatorId: string | null;
  status?: 'online' | 'offline' | undefined;
  operatorEmail?: string | undefined;
  /** Only these machines (an access-group session's); null or absent: no such narrowing. */
  machineNos?: readonly string[] | null;
}

export interface TerminalBinding {
  id: string;
  machine_id: string;
  operator_id: string | null;
  merchant_account: string;
  provider: string;
  bound_at: number;
}

export interface ScreenFilter {
  /** Only this operator's screens; null for every operator's (admin). */
  operatorId: string | null;
  operatorEmail?: string | undefined;
}

/** A machine of the screen inventory: what the DOOH export shows besides the block itself. */
export interface ScreenRecord {
  machine_no: string;
  name: string;
  status: string;
  last_seen: number | null;
  lat: number | null;
  lng: number | null;
  time_zone: string | null;
  screen_json: string | null;
  operator_email: string | null;
}

/** A machine as other domains look it up by its code: who owns it, whether it is retired, what it runs. */
export interface MachineRef {
  id: string;
  machine_no: string;
  name: string;
  operator_id: string | null;
  retired_at: number | null;
  sales_tax_rate: number | null;
  time_zone: string | null;
  platform: string | null;
  agent_version: string | null;
  /** The architecture its agent reports (migration 0037). */
  agent_arch: string | null;
  last_seen: number | null;
}

const MACHINE_REF_COLUMNS = [
  'id',
  'machine_no',
  'name',
  'operator_id',
  'retired_at',
  'sales_tax_rate',
  'time_zone',
  'platform',
  'agent_version',
  'agent_arch',
  'last_seen',
] as const;

/** SQL of the machines domain (the one writer of `machines`). Takes a Kysely instance or a transaction. */
export class MachinesRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** The machine with this code, whoever owns it: the one lookup by code every domain uses (ownership is the caller's rule). */
  machineByNo(machineNo: string): Promise<MachineRef | undefined> {
    return this.db.selectFrom('machines').select(MACHINE_REF_COLUMNS).where('machine_no', '=', machineNo).executeTakeFirst();
  }

  machineById(machineId: string): Promise<MachineRef | undefined> {
    return this.db.selectFrom('machines').select(MACHINE_REF_COLUMNS).where('id', '=', machineId).executeTakeFirst();
  }

  private view() {
    return this.db
      .selectFrom('machines as m')
      .leftJoin('operators as o', 'o.id', 'm.operator_id')
      .leftJoin('payment_terminals as t', 't.machine_id', 'm.id')
      .selectAll('m')
      .select([
        'o.email as operator_email',
        't.id as terminal_id',
        't.merchant_account as terminal_merchant_account',
        't.provider as terminal_provider',
        't.bound_at as terminal_bound_at',
      ]);
  }

  findView(machineNo: string): Promise<MachineRecord | undefined> {
    return this.view().where('m.machine_no', '=', machineNo).executeTakeFirst();
  }

  private filtered(f: MachineFilter) {
    let q = this.db.selectFrom('machines as m').leftJoin('operators as o', 'o.id', 'm.operator_id');
    if (f.operatorId !== null) q = q.where('m.operator_id', '=', f.operatorId);
    if (f.status) q = q.where('m.status', '=', f.status);
    if (f.operatorEmail !== undefined) q = q.where((eb) => eb(eb.fn('lower', ['o.email']), '=', f.operatorEmail!.toLowerCase()));
    if (f.machineNos) q = f.machineNos.length ? q.where('m.machine_no', 'in', f.machineNos) : q.where(sql<boolean>`1 = 0`);
    return q;
  }

  async list(f: MachineFilter, limit: number, offset: number): Promise<{ total: number; records: MachineRecord[] }> {
    const { n } = await this.filtered(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const ids = this.filtered(f).select('m.id');
    const records = await this.view().where('m.id', 'in', ids).orderBy('m.machine_no').limit(limit).offset(offset).execute();
    return { total: Number(n), records };
  }

  /** The bare row, locked for the rest of the transaction on PostgreSQL (SQLite serialises writers). */
  lockByNo(machineNo: string): Promise<MachineRow | undefined> {
    return this.db
      .selectFrom('machines')
      .selectAll()
      .where('machine_no', '=', machineNo)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
  }

  operatorById(id: string) {
    return this.db.selectFrom('operators').select(['id', 'email', 'merchant_account']).where('id', '=', id).executeTakeFirst();
  }

  operatorByEmail(email: string) {
    return this.db
      .selectFrom('operators')
      .select(['id', 'email', 'merchant_account'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
  }

  async insertMachine(row: NewMachine): Promise<void> {
    await this.db.insertInto('machines').values(row).execute();
  }

  async update(machineId: string, set: MachineUpdate): Promise<void> {
    await this.db.updateTable('machines').set(set).where('id', '=', machineId).execute();
  }

  /** Claims an unclaimed machine; false when someone else claimed it first. */
  async claim(machineId: string, operatorId: string, set: MachineUpdate): Promise<boolean> {
    const r = await this.db
      .updateTable('machines')
      .set({ ...set, operator_id: operatorId })
      .where('id', '=', machineId)
      .where('operator_id', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Applies a geocoder outcome only if no newer placement was written since it was asked for. */
  async applyIfVersion(machineId: string, version: number, set: MachineUpdate): Promise<boolean> {
    const r = await this.db.updateTable('machines').set(set).where('id', '=', machineId).where('placement_version', '=', version).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  terminalOf(machineId: string): Promise<TerminalBinding | undefined> {
    return this.db.selectFrom('payment_terminals').selectAll().where('machine_id', '=', machineId).executeTakeFirst();
  }

  async insertTerminal(t: TerminalBinding): Promise<void> {
    await this.db.insertInto('payment_terminals').values(t).execute();
  }

  async rebindTerminal(terminalId: string, operatorId: string, merchantAccount: string, boundAt: number): Promise<void> {
    await this.db
      .updateTable('payment_terminals')
      .set({ operator_id: operatorId, merchant_account: merchantAccount, bound_at: boundAt })
      .where('id', '=', terminalId)
      .execute();
  }

  venueOf(venueId: string, operatorId: string) {
    return this.db.selectFrom('venues').select(['id']).where('id', '=', venueId).where('operator_id', '=', operatorId).executeTakeFirst();
  }

  /**
   * Records a move in the machine's venue history (rule 6: attaching or detaching is a move) and points
   * `machines.venue_id` at the new venue (null: detached). `accrual` is when host commission starts and
   * which rule chose it; null for a detach. The caller holds the machine's row lock (`lockByNo`), so the
   * move number `seq` is the machine's next.
   */
  async moveToVenue(
    move: { id: string; machine_id: string; venue_id: string | null; moved_at: number },
    accrual: { from: number; rule: CommissionRule } | null,
  ): Promise<void> {
    const { last } = await this.db
      .selectFrom('venue_moves')
      .select((eb) => eb.fn.max<number | null>('seq').as('last'))
      .where('machine_id', '=', move.machine_id)
      .executeTakeFirstOrThrow();
    await this.db
      .insertInto('venue_moves')
      .values({ ...move, seq: Number(last ?? 0) + 1, accrues_from: accrual?.from ?? null, commission_rule: accrual?.rule ?? null })
      .execute();
    await this.db.updateTable('machines').set({ venue_id: move.venue_id, updated_at: move.moved_at }).where('id', '=', move.machine_id).execute();
  }

  /** Sets (a JSON block) or clears (null) the machine's advertising screen block. */
  async setScreen(machineId: string, screenJson: string | null, now: number): Promise<void> {
    await this.db.updateTable('machines').set({ screen_json: screenJson, updated_at: now }).where('id', '=', machineId).execute();
  }

  private screened(f: ScreenFilter) {
    let q = this.db
      .selectFrom('machines as m')
      .leftJoin('operators as o', 'o.id', 'm.operator_id')
      .where('m.screen_json', 'is not', null)
      .where('m.retired_at', 'is', null);
    if (f.operatorId !== null) q = q.where('m.operator_id', '=', f.operatorId);
    if (f.operatorEmail !== undefined) q = q.where((eb) => eb(eb.fn('lower', ['o.email']), '=', f.operatorEmail!.toLowerCase()));
    return q;
  }

  /** The screen inventory: live (not retired) machines with a screen block, by machine code, one page. */
  async screens(f: ScreenFilter, limit: number, offset: number): Promise<{ total: number; records: ScreenRecord[] }> {
    const { n } = await this.screened(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const records = await this.screened(f)
      .select(['m.machine_no', 'm.name', 'm.status', 'm.last_seen', 'm.lat', 'm.lng', 'm.time_zone', 'm.screen_json', 'o.email as operator_email'])
      .orderBy('m.machine_no')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(n), records };
  }

  /** A cabinet's contact (throttled by the caller): the machine is online now, with whatever software it reported. */
  async markSeen(machineId: string, now: number, software: MachineUpdate = {}): Promise<void> {
    await this.db
      .updateTable('machines')
      .set({ status: 'online', last_seen: now, ...software })
      .where('id', '=', machineId)
      .execute();
  }

  /** The software a cabinet last reported, and the platform it runs. */
  softwareOf(machineId: string) {
    return this.db.selectFrom('machines').select(['platform', 'agent_version', 'vmc_version', 'apk_version']).where('id', '=', machineId).executeTakeFirst();
  }
}
