import { sql, type Kysely } from 'kysely';

/**
 * Pay by phone on the kiosk's screen (issue 32, docs/kiosk-screen.md "Cloud: checkouts").
 * `kiosk_checkouts`: one purchase a cabinet asked for — the aisle at the server's price, the processor's intent,
 * its state (`awaiting_payment` → `paid` → `vended` | `failed`; or `expired`, `cancelled`), the order and the
 * remote command a payment made, the refund a failed drop or a late payment owes. `pay_url`: the phone page the
 * QR names; `checkout_url`: the processor's page (null until the intent exists).
 * `kiosk_checkouts_one_open`: at most one open checkout per machine, decided by the database (a partial unique
 * index, the same syntax on SQLite and PostgreSQL): of two racing creates one inserts, the other is busy.
 * `kiosk_checkout_events`: each processor event id, claimed once (its primary key) in the transaction of its effects.
 * `test_payment_intents.return_url`: where the built-in test processor sends the buyer after paying.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('kiosk_checkouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text')
    .addColumn('aisle_no', 'integer', (c) => c.notNull())
    .addColumn('product_name', 'text')
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('intent_id', 'text')
    .addColumn('checkout_url', 'text')
    .addColumn('pay_url', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .addColumn('order_number', 'text')
    .addColumn('command_id', 'text')
    .addColumn('refund', 'text')
    .addColumn('detail', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create unique index kiosk_checkouts_one_open on kiosk_checkouts (machine_id) where status in ('awaiting_payment', 'paid', 'vending')`.execute(db);
  await db.schema.createIndex('kiosk_checkouts_machine_time').on('kiosk_checkouts').columns(['machine_id', 'created_at']).execute();
  await db.schema
    .createTable('kiosk_checkout_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('intent_id', 'text', (c) => c.notNull())
    .addColumn('checkout_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('test_payment_intents').addColumn('return_url', 'text').execute();
}
