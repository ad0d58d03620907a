import type { Kysely } from 'kysely';

/**
 * Orders of one operator's machine over a time range (the P&L's host lines and machine filter, host
 * statements, the orders summary of one machine): with only `orders_operator_time` and
 * `orders_machine_time`, SQLite chose the operator's index and read every order of the operator in the
 * range for each machine. With this one it reads just the machine's: `/pnl` over 90 days × 5 machines
 * went from 26 to 15 ms of queries (docs/benchmarks.md "P&L").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('orders_operator_machine_time').on('orders').columns(['operator_id', 'machine_id', 'created_at']).execute();
}
