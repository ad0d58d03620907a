import { sql, type Kysely } from 'kysely';

/**
 * Remote dispense commands (spec 1 §2.4, §4.6) and the leader lease of the background loops.
 *
 * - `dispense_commands`: one row per cloud-driven drop. `external_ref` is the caller's reference; a
 *   partial unique index on (machine_id, external_ref) makes a repeated reference one drop, even when
 *   the requests race. `order_number` is set when a successful ack wrote the shipped order.
 * - `job_leases`: one row per lease name; the replica whose `holder` is in the row and whose
 *   `expires_at` is in the future runs the loops (used when replicas share a PostgreSQL store).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dispense_commands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('aisle_no', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('external_ref', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('detail', 'text')
    .addColumn('order_number', 'text')
    .addColumn('requested_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('acked_at', 'bigint')
    .addColumn('expired_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The pending poll (per machine, oldest first) and the dispense-decision loop (every machine, by age).
  await db.schema.createIndex('dispense_commands_machine_status').on('dispense_commands').columns(['machine_id', 'status', 'created_at']).execute();
  await db.schema.createIndex('dispense_commands_status_time').on('dispense_commands').columns(['status', 'created_at']).execute();
  // Partial unique index: the same syntax on SQLite and PostgreSQL.
  await sql`create unique index dispense_commands_external_ref on dispense_commands (machine_id, external_ref) where external_ref is not null`.execute(db);

  // The refund sweep and the dispense-decision loop look for paid orders by age; acks find an order by command.
  await db.schema.createIndex('orders_pay_status_time').on('orders').columns(['pay_status', 'vended', 'created_at']).execute();
  await db.schema.createIndex('orders_command').on('orders').column('command_id').execute();

  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('acquired_at', 'bigint', (c) => c.notNull())
    .execute();
}
