import { sql, type Kysely } from 'kysely';

/**
 * Done-for-you placement, part 3: inventory automation (spec 3 key rule 6; docs/decisions/dfy-modes.md).
 * `dfy_supplier_orders`: one supplier order of a DFY machine: its lines (aisle, SKU, quantity, retail and
 * estimated unit cost) as JSON, the estimated cost (55% of retail) and, once received, the actual cost;
 * status `queued` → `received`, or `pending_approval` (over the monthly cap) → `queued` on a confirmed
 * approval; `cancelled` when the machine's inventory capability goes off. At most one open order per
 * machine (partial unique index), so a repeated tick never doubles one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dfy_supplier_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('deal_id', 'text', (c) => c.notNull().references('dfy_deals.id').onDelete('cascade'))
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('lines_json', 'text', (c) => c.notNull())
    .addColumn('estimated_cost_cents', 'bigint', (c) => c.notNull())
    .addColumn('actual_cost_cents', 'bigint')
    .addColumn('work_order_id', 'text', (c) => c.notNull())
    .addColumn('purchase_order_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('dfy_supplier_orders_open_machine')
    .unique()
    .on('dfy_supplier_orders')
    .columns(['machine_id'])
    .where(sql<boolean>`status in ('queued', 'pending_approval')`)
    .execute();
  await db.schema.createIndex('dfy_supplier_orders_machine').on('dfy_supplier_orders').columns(['machine_id', 'created_at']).execute();
}
