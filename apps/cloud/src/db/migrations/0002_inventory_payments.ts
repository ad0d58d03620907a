import type { Kysely } from 'kysely';

/**
 * Inventory cost layers and the cashless payment ledger:
 * - `lots`: FIFO cost layers (one per received purchase-order line); empty until purchase orders exist.
 * - `payment_events`: every accepted provider webhook event, keyed by the provider's event id so a
 *   replay changes nothing.
 * - `orders.payment_ref`: the provider's payment id on a cashless order, unique, so a refund event
 *   finds its order and a second capture of the same payment is recognised.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('qty_received', 'integer', (c) => c.notNull())
    .addColumn('qty_remaining', 'integer', (c) => c.notNull())
    .addColumn('unit_cost_cents', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('purchase_order_ref', 'text')
    .execute();
  await db.schema.createIndex('lots_operator_fifo').on('lots').columns(['operator_id', 'sku', 'received_at', 'id']).execute();

  await db.schema
    .createTable('payment_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payment_ref', 'text', (c) => c.notNull())
    .addColumn('order_number', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('orders').addColumn('payment_ref', 'text').execute();
  await db.schema.createIndex('orders_payment_ref').unique().on('orders').column('payment_ref').execute();
}
