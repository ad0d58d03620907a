import type { Kysely } from 'kysely';

/**
 * Refunds that happen for pay-by-phone checkouts (issue 34): a checkout whose drop failed, or whose payment came after
 * it ended, is refunded through the processor it was paid with by the kiosk refund loop.
 * - `kiosk_checkouts.refund` grows a value: `owed` → `issued` | `failed` (a failed one is retried a few times, then
 *   left to the operator). With it: the processor's refund id, its reason for a failure, when it was issued or
 *   failed, and how many attempts failed (the idempotency key of an attempt is the checkout id and that count).
 * - `kiosk_checkouts_refund`: the loop's work list (owed and failed refunds) without reading every checkout.
 * - `kiosk_checkouts_order`: the orders views read a processor-paid order's refund by its order number.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('kiosk_checkouts').addColumn('refund_id', 'text').execute();
  await db.schema.alterTable('kiosk_checkouts').addColumn('refund_failure', 'text').execute();
  await db.schema.alterTable('kiosk_checkouts').addColumn('refund_at', 'bigint').execute();
  await db.schema
    .alterTable('kiosk_checkouts')
    .addColumn('refund_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('kiosk_checkouts_refund').on('kiosk_checkouts').columns(['refund', 'updated_at']).execute();
  await db.schema.createIndex('kiosk_checkouts_order').on('kiosk_checkouts').column('order_number').execute();
}
