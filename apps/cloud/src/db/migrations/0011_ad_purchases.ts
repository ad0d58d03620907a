import type { Kysely } from 'kysely';

/**
 * The self-serve ad marketplace (spec 1 §2.8, §3, §4.7, §6):
 * - `ad_creative_drafts`: a buyer's creative work before paying (studio generations counted, at most
 *   3), reached by a secret token stored hashed; used by at most one purchase.
 * - `ad_draft_creatives`: what a draft holds: media measured and stored by hash (uploads, generations).
 * - `ad_purchases`: a buyer's purchase: the brief, the server's quote (catalog version, factors, the
 *   per-operator split), the creative's measured media, the payment intent, the status token's hash.
 * - `ad_purchase_lines`: one per operator whose machines the reach resolved (created on payment), with
 *   its draft campaign, its approval and the refund owed when rejected.
 * - `ad_payment_events`: processed payment-webhook event ids (idempotency).
 * - `test_payment_intents`: the built-in test processor's own book (it stands in for an outside party).
 * - `campaigns` gains the purchase it was drafted for and the buyer's contact.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ad_creative_drafts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('generations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('uploads', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('purchase_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ad_draft_creatives')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('draft_id', 'text', (c) => c.notNull().references('ad_creative_drafts.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('duration_ms', 'integer')
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('contentx_ref', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ad_draft_creatives_draft').on('ad_draft_creatives').columns(['draft_id', 'seq']).execute();

  await db.schema
    .createTable('ad_purchases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_token_hash', 'text', (c) => c.notNull())
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    .addColumn('buyer_email', 'text', (c) => c.notNull())
    .addColumn('buyer_phone', 'text')
    .addColumn('sponsor_name', 'text', (c) => c.notNull())
    .addColumn('sponsor_type', 'text', (c) => c.notNull())
    .addColumn('reach_json', 'text', (c) => c.notNull())
    .addColumn('slots', 'integer', (c) => c.notNull())
    .addColumn('months', 'integer', (c) => c.notNull())
    .addColumn('flight_start', 'bigint', (c) => c.notNull())
    .addColumn('catalog_version', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('rate_cents', 'integer', (c) => c.notNull())
    .addColumn('multiplier_bps', 'integer', (c) => c.notNull())
    .addColumn('monthly_rate_cents', 'integer', (c) => c.notNull())
    .addColumn('machines', 'integer', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('parts_json', 'text', (c) => c.notNull())
    .addColumn('media_sha256', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('media_kind', 'text', (c) => c.notNull())
    .addColumn('media_width', 'integer', (c) => c.notNull())
    .addColumn('media_height', 'integer', (c) => c.notNull())
    .addColumn('media_duration_ms', 'integer')
    .addColumn('media_bytes', 'bigint', (c) => c.notNull())
    .addColumn('creative_source', 'text', (c) => c.notNull())
    .addColumn('contentx_ref', 'text')
    .addColumn('generations_used', 'integer', (c) => c.notNull())
    .addColumn('draft_id', 'text', (c) => c.notNull())
    .addColumn('payment_processor', 'text', (c) => c.notNull())
    .addColumn('payment_intent_id', 'text', (c) => c.notNull().unique())
    .addColumn('checkout_url', 'text', (c) => c.notNull())
    .addColumn('source_qr_id', 'text')
    .addColumn('source_machine_no', 'text')
    .addColumn('paid_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ad_purchases_status').on('ad_purchases').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('ad_purchase_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purchase_id', 'text', (c) => c.notNull().references('ad_purchases.id'))
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
    .addColumn('machines', 'integer', (c) => c.notNull())
    .addColumn('machine_nos_json', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('campaign_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('decided_at', 'bigint')
    .addColumn('decided_by', 'text')
    .addColumn('refund_owed_cents', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('ad_purchase_lines_purchase_operator', ['purchase_id', 'operator_id'])
    .execute();
  await db.schema.createIndex('ad_purchase_lines_operator').on('ad_purchase_lines').columns(['operator_id', 'status']).execute();

  await db.schema
    .createTable('ad_payment_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('processor', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('intent_id', 'text', (c) => c.notNull())
    .addColumn('purchase_id', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('test_payment_intents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purchase_id', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('succeeded_at', 'bigint')
    .addColumn('delivered_at', 'bigint')
    .addColumn('delivery_status', 'integer')
    .execute();

  await db.schema.alterTable('campaigns').addColumn('ad_purchase_id', 'text').execute();
  await db.schema.alterTable('campaigns').addColumn('buyer_contact_json', 'text').execute();
}
