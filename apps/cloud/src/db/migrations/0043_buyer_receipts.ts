import type { Kysely } from 'kysely';

/**
 * The buyer who is never lost (issue 34): a receipt e-mail once the purchase is paid, and a rejected line the buyer may
 * change and resubmit.
 * - `ad_purchases.status_token_sealed`: the status token sealed (AES-256-GCM under a key derived from DATA_KEY), so the
 *   receipt sent later by the payment webhook can carry the status link; the token itself is never stored in clear
 *   (`status_token_hash` still authenticates it). Null for purchases made before this migration: no receipt link.
 * - `receipt_status` (`queued`, `sent`, `failed`; null: none owed), queued in the payment's own transaction;
 *   `receipt_attempts`, `receipt_next_at` (when the next attempt is due — also the claim of an attempt in flight),
 *   `receipt_error` (the last failure, never the address), `receipt_sent_at`.
 * - `ad_purchase_lines.resubmissions`: how many times the buyer sent a rejected line back for approval.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ad_purchases').addColumn('status_token_sealed', 'text').execute();
  await db.schema.alterTable('ad_purchases').addColumn('receipt_status', 'text').execute();
  await db.schema
    .alterTable('ad_purchases')
    .addColumn('receipt_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('ad_purchases').addColumn('receipt_next_at', 'bigint').execute();
  await db.schema.alterTable('ad_purchases').addColumn('receipt_error', 'text').execute();
  await db.schema.alterTable('ad_purchases').addColumn('receipt_sent_at', 'bigint').execute();
  await db.schema.createIndex('ad_purchases_receipt_due').on('ad_purchases').columns(['receipt_status', 'receipt_next_at']).execute();
  await db.schema
    .alterTable('ad_purchase_lines')
    .addColumn('resubmissions', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
