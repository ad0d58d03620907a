import type { Kysely } from 'kysely';

/**
 * Done-for-you placement, part 3: the managed investment pool (spec 3 §2, key rule 7; docs/decisions/dfy-modes.md).
 * `dfy_pools`: one operator's pool — the balance awaiting allocation, what was invested, machines funded and the
 * target tier. `dfy_pool_investments`: one investment, `awaiting_payment` → `paid` by the processor's event.
 * `dfy_pool_allocations`: one fully managed deal the pool funded, at the catalog price of its tier (`returned_at`:
 * the deal was cancelled before shipping and its price went back to the pool).
 * `dfy_pool_events`: each processor event id, claimed once (its primary key) in the transaction of its effects.
 * `test_payment_intents.webhook_path`: where the built-in test processor delivers an intent's event (null: the
 * ad payments webhook, as before).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dfy_pools')
    .addColumn('operator_id', 'text', (c) => c.primaryKey())
    .addColumn('balance_cents', 'bigint', (c) => c.notNull())
    .addColumn('invested_cents', 'bigint', (c) => c.notNull())
    .addColumn('machines_funded', 'integer', (c) => c.notNull())
    .addColumn('target_tier', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('dfy_pool_investments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
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
  await db.schema.createIndex('dfy_pool_investments_operator').on('dfy_pool_investments').columns(['operator_id', 'created_at']).execute();
  await db.schema
    .createTable('dfy_pool_allocations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('deal_id', 'text', (c) => c.notNull().references('dfy_deals.id').onDelete('cascade'))
    .addColumn('investment_id', 'text', (c) => c.notNull())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('balance_after_cents', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('returned_at', 'bigint')
    .execute();
  await db.schema.createIndex('dfy_pool_allocations_operator').on('dfy_pool_allocations').columns(['operator_id', 'created_at']).execute();
  await db.schema
    .createTable('dfy_pool_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('intent_id', 'text', (c) => c.notNull())
    .addColumn('investment_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('test_payment_intents').addColumn('webhook_path', 'text').execute();
}
