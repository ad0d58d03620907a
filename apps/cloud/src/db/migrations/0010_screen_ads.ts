import type { Kysely } from 'kysely';

/**
 * Screen advertising (spec 1 §2.5–2.7, §4.7; spec 2 §4.2):
 * - `creatives`: media measured from its bytes and stored by content hash under DATA_DIR/media
 *   (the row says what the bytes are; the file holds them). Shared by campaigns and screensavers.
 * - `campaigns`: direct-sold campaigns of an operator, their targeting, flight, pricing and creative;
 *   `generations` counts studio generations (at most 3).
 * - `screensavers`: an operator's own attract-loop content, shown once approved.
 * - `ad_fills`: programmatic slots leased from a supply adapter for one machine, with the one-shot
 *   proof-of-play URL and whether it has been fired (`pop_claimed_at` is the exactly-once claim).
 * - `ssp_mock_leases`: the built-in mock SSP's own book (it stands in for an outside party).
 * - `ad_play_records` gains the fill it played (`lease_id`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('creatives')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
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
  await db.schema.createIndex('creatives_operator').on('creatives').columns(['operator_id', 'created_at']).execute();

  await db.schema
    .createTable('campaigns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sponsor_name', 'text', (c) => c.notNull())
    .addColumn('sponsor_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('target_machines_json', 'text')
    .addColumn('target_geo_json', 'text')
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('flight_start', 'bigint')
    .addColumn('flight_end', 'bigint')
    .addColumn('pricing_model', 'text', (c) => c.notNull())
    .addColumn('rate_cents', 'integer', (c) => c.notNull())
    .addColumn('creative_id', 'text', (c) => c.references('creatives.id'))
    .addColumn('creative_source', 'text')
    .addColumn('contentx_ref', 'text')
    .addColumn('generations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source_qr_id', 'text')
    .addColumn('source_machine_no', 'text')
    .addColumn('activated_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('campaigns_operator_status').on('campaigns').columns(['operator_id', 'status', 'created_at']).execute();

  await db.schema
    .createTable('screensavers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('creative_id', 'text', (c) => c.notNull().references('creatives.id'))
    .addColumn('machines_json', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reviewed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('screensavers_operator_status').on('screensavers').columns(['operator_id', 'status']).execute();

  await db.schema
    .createTable('ad_fills')
    .addColumn('lease_id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('asset_url', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text', (c) => c.notNull())
    .addColumn('pop_url', 'text', (c) => c.notNull())
    .addColumn('net_cpm_millis', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('played_at', 'bigint')
    .addColumn('pop_claimed_at', 'bigint')
    .addColumn('pop_fired_at', 'bigint')
    .addColumn('pop_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pop_error', 'text')
    .execute();
  await db.schema.createIndex('ad_fills_machine').on('ad_fills').columns(['machine_id', 'expires_at']).execute();

  await db.schema
    .createTable('ssp_mock_leases')
    .addColumn('lease_id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('venue_id', 'text')
    .addColumn('asset_url', 'text', (c) => c.notNull())
    .addColumn('net_cpm_millis', 'integer', (c) => c.notNull())
    .addColumn('issued_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('popped_at', 'bigint')
    .execute();
  await db.schema.createIndex('ssp_mock_leases_popped').on('ssp_mock_leases').columns(['popped_at']).execute();

  await db.schema.alterTable('ad_play_records').addColumn('lease_id', 'text').execute();
  await db.schema.createIndex('ad_play_records_campaign').on('ad_play_records').columns(['campaign_id', 'played_at']).execute();
  await db.schema.createIndex('ad_play_records_machine_played').on('ad_play_records').columns(['machine_id', 'played_at']).execute();
}
