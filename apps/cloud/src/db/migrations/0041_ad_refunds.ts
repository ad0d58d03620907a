import type { Kysely } from 'kysely';

/**
 * Refunds that happen (issue 34): a rejected line's refund owed is issued through the payment processor by one
 * operator action.
 * - `ad_purchase_lines` gains the refund's state: `refund_status` (`owed`, `issued`, `failed`; null: nothing owed —
 *   or a line rejected before this migration, which the views read as owed), the processor's refund id, its reason
 *   for a failure, when, and how many attempts failed (each attempt has its own idempotency key).
 * - `test_refunds`: the built-in test processor's book of refunds (an outside party's state, like its intents),
 *   unique on the idempotency key so a repeated request answers the same refund.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ad_purchase_lines').addColumn('refund_status', 'text').execute();
  await db.schema.alterTable('ad_purchase_lines').addColumn('refund_id', 'text').execute();
  await db.schema.alterTable('ad_purchase_lines').addColumn('refund_failure', 'text').execute();
  await db.schema.alterTable('ad_purchase_lines').addColumn('refund_at', 'bigint').execute();
  await db.schema
    .alterTable('ad_purchase_lines')
    .addColumn('refund_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('test_refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('intent_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
