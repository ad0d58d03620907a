import type { Kysely } from 'kysely';

/**
 * Purchase orders and FIFO cost (spec 1 §2.9, §4.8; docs/fifo.md, docs/decisions/finance.md "FIFO cost"):
 * - `purchase_orders`: a received purchase order, its `po_ref` unique per operator (a repeat is 409).
 *   Each of its lines became one `lots` row (`lots.purchase_order_id`, `lots.line_no`).
 * - `lot_consumptions`: what each sale drew from which layer, at the layer's unit cost; the P&L sums
 *   `cost_cents` per order, machine and period (`consumed_at`). One row per (order, layer) touched.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('purchase_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('po_ref', 'text', (c) => c.notNull())
    .addColumn('vendor', 'text', (c) => c.notNull())
    .addColumn('ordered_on', 'text', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('purchase_orders_operator_ref').unique().on('purchase_orders').columns(['operator_id', 'po_ref']).execute();

  await db.schema.alterTable('lots').addColumn('purchase_order_id', 'text').execute();
  await db.schema
    .alterTable('lots')
    .addColumn('line_no', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('lot_consumptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('order_number', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('lot_id', 'text', (c) => c.notNull())
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('qty', 'integer', (c) => c.notNull())
    .addColumn('unit_cost_cents', 'integer', (c) => c.notNull())
    .addColumn('cost_cents', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('lot_consumptions_order').on('lot_consumptions').column('order_number').execute();
  await db.schema.createIndex('lot_consumptions_period').on('lot_consumptions').columns(['operator_id', 'consumed_at']).execute();
}
