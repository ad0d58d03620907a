import { sql, type Kysely } from 'kysely';

/**
 * Restock runs (spec 1 §4.9; docs/decisions/restock.md):
 * - `restock_runs`: one driver visit to one machine of a crew's fleet. `status` is `planned`,
 *   `in_progress`, `done` or `cancelled`; who moved it and when are kept per step (`*_by` are emails).
 *   At most one open run (planned or in_progress) per machine: the partial unique index
 *   `restock_runs_open_machine`.
 * - `restock_run_lines`: the pick list, one line per aisle, frozen when the run is planned (`stock_at_plan`,
 *   `par`, `pick`, `faulted`); `filled` and `stock_after` stay null until the run is done.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('restock_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('crew_id', 'text', (c) => c.notNull().references('crews.id'))
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('machine_no', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_by', 'text')
    .addColumn('started_at', 'bigint')
    .addColumn('completed_by', 'text')
    .addColumn('completed_at', 'bigint')
    .addColumn('cancelled_by', 'text')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('cancel_reason', 'text')
    .execute();
  await db.schema.createIndex('restock_runs_crew_status').on('restock_runs').columns(['crew_id', 'status', 'created_at']).execute();
  await db.schema
    .createIndex('restock_runs_open_machine')
    .unique()
    .on('restock_runs')
    .columns(['machine_id'])
    .where(sql<boolean>`status in ('planned', 'in_progress')`)
    .execute();

  await db.schema
    .createTable('restock_run_lines')
    .addColumn('run_id', 'text', (c) => c.notNull().references('restock_runs.id').onDelete('cascade'))
    .addColumn('aisle_no', 'integer', (c) => c.notNull())
    .addColumn('sku', 'text')
    .addColumn('product_name', 'text')
    .addColumn('stock_at_plan', 'integer', (c) => c.notNull())
    .addColumn('par', 'integer', (c) => c.notNull())
    .addColumn('pick', 'integer', (c) => c.notNull())
    .addColumn('faulted', 'integer', (c) => c.notNull())
    .addColumn('filled', 'integer')
    .addColumn('stock_after', 'integer')
    .addPrimaryKeyConstraint('restock_run_lines_pk', ['run_id', 'aisle_no'])
    .execute();
}
