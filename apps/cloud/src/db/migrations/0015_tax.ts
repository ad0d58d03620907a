import type { Kysely } from 'kysely';

/**
 * Tax schedules, remittances and refused restatements (spec 1 §2.9, §3, §4.8; docs/decisions/finance.md "Tax"):
 * - `tax_schedules`: an operator's sales-tax rate in basis points from `effective_at` (UTC midnight of
 *   the date written); one row per operator and instant. A sale is stamped from it at sale time only.
 * - `tax_remittances`: a finance period (`YYYY-MM`) whose tax the operator marked remitted, with the
 *   amounts the server computed at that moment; one per operator and period. It closes the period.
 * - `tax_restatement_blocks`: a machine-rate change that could not restate a closed period of that machine.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tax_schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('bps', 'integer', (c) => c.notNull())
    .addColumn('effective_on', 'text', (c) => c.notNull())
    .addColumn('effective_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tax_schedules_operator_at').unique().on('tax_schedules').columns(['operator_id', 'effective_at']).execute();

  await db.schema
    .createTable('tax_remittances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('orders', 'integer', (c) => c.notNull())
    .addColumn('sales_cents', 'bigint', (c) => c.notNull())
    .addColumn('tax_cents', 'bigint', (c) => c.notNull())
    .addColumn('net_cents', 'bigint', (c) => c.notNull())
    .addColumn('remitted_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tax_remittances_operator_period').unique().on('tax_remittances').columns(['operator_id', 'period']).execute();

  await db.schema
    .createTable('tax_restatement_blocks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text')
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id').onDelete('cascade'))
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('requested_rate', 'double precision')
    .addColumn('kept_rate', 'double precision')
    .addColumn('orders', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tax_restatement_blocks_operator').on('tax_restatement_blocks').columns(['operator_id', 'created_at']).execute();
  await db.schema.createIndex('tax_restatement_blocks_machine').on('tax_restatement_blocks').columns(['machine_id', 'created_at']).execute();
}
