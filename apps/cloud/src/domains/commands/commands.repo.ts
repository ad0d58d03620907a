import type { Insertable, Kysely } from 'kysely';
import type { DB, DispenseCommandsTable } from '../../db/schema.ts';
import { QueryTemplate } from '../../db/query-template.ts';

export type CommandStatus = 'pending' | 'acknowledged' | 'failed' | 'expired';

/** A command row with its machine's serial: everything the API shape needs. */
export interface CommandRecord {
  id: string;
  machine_id: string;
  machine_no: string;
  aisle_no: number;
  reason: string;
  external_ref: string | null;
  status: string;
  outcome: string | null;
  detail: string | null;
  order_number: string | null;
  created_at: number;
  acked_at: number | null;
  expired_at: number | null;
}

const COMMAND_COLUMNS = [
  'dispense_commands.id',
  'dispense_commands.machine_id',
  'machines.machine_no',
  'dispense_commands.aisle_no',
  'dispense_commands.reason',
  'dispense_commands.external_ref',
  'dispense_commands.status',
  'dispense_commands.outcome',
  'dispense_commands.detail',
  'dispense_commands.order_number',
  'dispense_commands.created_at',
  'dispense_commands.acked_at',
  'dispense_commands.expired_at',
] as const;

/** Command rows with their machine's serial. */
const commandsIn = (db: Kysely<DB>) =>
  db.selectFrom('dispense_commands').innerJoin('machines', 'machines.id', 'dispense_commands.machine_id').select(COMMAND_COLUMNS);

/** Every cabinet's pending poll runs it: compiled once per limit (the hot leg). */
const pendingTemplate = (limit: number) =>
  new QueryTemplate(1, (db: Kysely<DB>, machineId: string) =>
    commandsIn(db)
      .where('dispense_commands.machine_id', '=', machineId)
      .where('dispense_commands.status', '=', 'pending')
      .orderBy('dispense_commands.created_at', 'asc')
      .orderBy('dispense_commands.id', 'asc')
      .limit(limit),
  );
const PENDING = new Map<number, ReturnType<typeof pendingTemplate>>();
const ANY_PENDING = new QueryTemplate(1, (db: Kysely<DB>, machineId: string) =>
  db.selectFrom('dispense_commands').select('id').where('machine_id', '=', machineId).where('status', '=', 'pending').limit(1),
);

/** SQL of dispense commands (the one writer of `dispense_commands`). Takes a transaction or the database. */
export class CommandsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private commands() {
    return commandsIn(this.db);
  }

  commandById(machineId: string, commandId: string): Promise<CommandRecord | undefined> {
    return this.commands().where('dispense_commands.machine_id', '=', machineId).where('dispense_commands.id', '=', commandId).executeTakeFirst();
  }

  commandByRef(machineId: string, externalRef: string): Promise<CommandRecord | undefined> {
    return this.commands().where('dispense_commands.machine_id', '=', machineId).where('dispense_commands.external_ref', '=', externalRef).executeTakeFirst();
  }

  /** Which of these machines have at least one pending command (the long poll's cross-replica probe). */
  async machinesWithPending(machineIds: string[]): Promise<string[]> {
    if (machineIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('dispense_commands')
      .select('machine_id')
      .distinct()
      .where('status', '=', 'pending')
      .where('machine_id', 'in', machineIds)
      .execute();
    return rows.map((r) => r.machine_id);
  }

  /**
   * Pending commands of one machine, oldest first. Most polls find none: an index-only probe answers those
   * (on SQLite the full read with its join and sort costs several times the probe even when it finds nothing).
   */
  async pending(machineId: string, limit: number): Promise<CommandRecord[]> {
    if ((await ANY_PENDING.rows(this.db, machineId)).length === 0) return [];
    let q = PENDING.get(limit);
    if (!q) PENDING.set(limit, (q = pendingTemplate(limit)));
    return q.rows(this.db, machineId);
  }

  /** Commands of one machine, newest first, optionally by status and external reference. */
  async list(machineId: string, f: { status?: CommandStatus | undefined; externalRef?: string | undefined }, limit: number, offset: number) {
    let q = this.db.selectFrom('dispense_commands').where('dispense_commands.machine_id', '=', machineId);
    if (f.status) q = q.where('dispense_commands.status', '=', f.status);
    if (f.externalRef !== undefined) q = q.where('dispense_commands.external_ref', '=', f.externalRef);
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const records: CommandRecord[] = await q
      .innerJoin('machines', 'machines.id', 'dispense_commands.machine_id')
      .select(COMMAND_COLUMNS)
      .orderBy('dispense_commands.created_at', 'desc')
      .orderBy('dispense_commands.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(n), records };
  }

  /** Inserts unless the machine already has a command with this external reference; true when inserted. */
  async insertCommand(row: Insertable<DispenseCommandsTable>): Promise<boolean> {
    const inserted = await this.db
      .insertInto('dispense_commands')
      .values(row)
      .onConflict((oc) => oc.columns(['machine_id', 'external_ref']).where('external_ref', 'is not', null).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /**
   * Records an ack: only a command not yet acknowledged (pending, or expired by the dispense-decision
   * loop) changes. True when this call changed it; false when another ack got there first.
   */
  async recordAck(commandId: string, set: { status: 'acknowledged' | 'failed'; outcome: string; detail: string; acked_at: number }): Promise<boolean> {
    const r = await this.db
      .updateTable('dispense_commands')
      .set({ ...set, updated_at: set.acked_at })
      .where('id', '=', commandId)
      .where('status', 'in', ['pending', 'expired'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async setOrderNumber(commandId: string, orderNumber: string): Promise<void> {
    await this.db.updateTable('dispense_commands').set({ order_number: orderNumber }).where('id', '=', commandId).execute();
  }

  /** Pending commands created at or before `cutoff`, oldest first (the dispense-decision loop's work list). */
  overduePending(cutoff: number, limit: number) {
    return this.db
      .selectFrom('dispense_commands')
      .select(['id', 'machine_id', 'aisle_no'])
      .where('status', '=', 'pending')
      .where('created_at', '<=', cutoff)
      .orderBy('created_at', 'asc')
      .limit(limit)
      .execute();
  }

  /** pending → expired, only if still pending (a racing ack wins). True when this call expired it. */
  async expire(commandId: string, outcome: string, detail: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('dispense_commands')
      .set({ status: 'expired', outcome, detail, expired_at: now, updated_at: now })
      .where('id', '=', commandId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
