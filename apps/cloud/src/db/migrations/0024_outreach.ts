import type { Kysely } from 'kysely';

/**
 * Done-for-you outreach (spec 3 §1, §3, §4, key rule 8; docs/decisions/outreach.md):
 * - `outreach_directory`: an operator's venue directory (seeded in the sandbox, imported by the operator):
 *   the shortlist is scored from it; contact e-mail and phone, IANA time zone (the calling window), vertical.
 * - `outreach_deals`: a deal's outreach run: the directory venue, the channel order, the round-robin cursor,
 *   when it started and when the last touch went out (the 24 h cadence).
 * - `outreach_messages`: every message sent: channel, address, script id and version, the provider's id,
 *   its delivery status, and the SHA-256 of its unsubscribe token (never the token).
 * - `outreach_opt_outs`: an address that said STOP or unsubscribed, per operator and channel: never contacted again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('outreach_directory')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('lat', 'double precision', (c) => c.notNull())
    .addColumn('lng', 'double precision', (c) => c.notNull())
    .addColumn('vertical', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('daily_visitors', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outreach_directory_operator').on('outreach_directory').columns(['operator_id', 'name']).unique().execute();

  await db.schema
    .createTable('outreach_deals')
    .addColumn('deal_id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('venue_id', 'text', (c) => c.notNull())
    .addColumn('channel_order', 'text', (c) => c.notNull())
    .addColumn('cursor', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('last_touch_at', 'bigint')
    .execute();

  await db.schema
    .createTable('outreach_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('deal_id', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('venue_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('script_id', 'text', (c) => c.notNull())
    .addColumn('script_version', 'text', (c) => c.notNull())
    .addColumn('provider_ref', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('unsubscribe_hash', 'text')
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .addColumn('status_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outreach_messages_venue').on('outreach_messages').columns(['venue_id', 'sent_at']).execute();
  await db.schema.createIndex('outreach_messages_provider').on('outreach_messages').columns(['provider_ref']).execute();
  await db.schema.createIndex('outreach_messages_to').on('outreach_messages').columns(['to_address', 'sent_at']).execute();
  await db.schema.createIndex('outreach_messages_unsubscribe').on('outreach_messages').columns(['unsubscribe_hash']).execute();

  await db.schema
    .createTable('outreach_opt_outs')
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('outreach_opt_outs_pk', ['operator_id', 'channel', 'address'])
    .execute();
}
