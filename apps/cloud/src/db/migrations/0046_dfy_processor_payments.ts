import type { Kysely } from 'kysely';

/**
 * Done-for-you money through a real payment processor (issue 34; docs/decisions/dfy.md "Pre-order and checkout
 * through Stripe"). With Stripe configured a confirmed pre-order or checkout is a payment awaiting the processor's
 * event; the sandbox's are still paid at once and keep every column below null.
 * - `dfy_payment_intents`: one payment asked of the processor for a deal (`preorder` or `checkout`), at the catalog
 *   amount, `awaiting_payment` → `paid` by the processor's event (`event_id`). Its id is the payment's: the paid
 *   `dfy_payments` row and the processor's idempotency key carry it.
 * - `dfy_payment_events`: each processor event id, claimed once (its primary key) in the transaction of its effects.
 * - `dfy_payments` gains where the money was taken (`processor`, `payment_intent_id`, `currency`; null: recorded
 *   without a processor — the sandbox, the investment pool's price) and its refund through that processor:
 *   `refund_status` (`owed` → `issued` | `failed`; null: nothing owed, or refunded without a processor), the
 *   processor's refund id, its reason for a failure, when, and how many attempts failed (each has its own key).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dfy_payment_intents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('deal_id', 'text', (c) => c.notNull().references('dfy_deals.id').onDelete('cascade'))
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('payment_intent_id', 'text', (c) => c.notNull())
    .addColumn('checkout_url', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .execute();
  await db.schema.createIndex('dfy_payment_intents_deal').on('dfy_payment_intents').columns(['deal_id', 'status']).execute();
  await db.schema
    .createTable('dfy_payment_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('intent_id', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('dfy_payments').addColumn('processor', 'text').execute();
  await db.schema.alterTable('dfy_payments').addColumn('payment_intent_id', 'text').execute();
  await db.schema.alterTable('dfy_payments').addColumn('currency', 'text').execute();
  await db.schema.alterTable('dfy_payments').addColumn('refund_status', 'text').execute();
  await db.schema.alterTable('dfy_payments').addColumn('refund_id', 'text').execute();
  await db.schema.alterTable('dfy_payments').addColumn('refund_failure', 'text').execute();
  await db.schema.alterTable('dfy_payments').addColumn('refund_at', 'bigint').execute();
  await db.schema
    .alterTable('dfy_payments')
    .addColumn('refund_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
