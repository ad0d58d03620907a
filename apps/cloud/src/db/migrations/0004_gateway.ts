import type { Kysely } from 'kysely';

/**
 * Cabinet gateway and per-cabinet device credentials (spec 2 §2–§5):
 * - `device_identities`: one row per machine that ever met the gateway or an admin credential call:
 *   the bound box (`device_id`, `binding`), the credential state, rotation and revocation, the last reset.
 * - `device_credentials`: one row per minted key generation; only a salted SHA-256 of the secret.
 * - `enrolment_arms`, `enrolment_attempts` (the per-serial budget), `identity_conflicts`,
 *   `copy_suspicions` (stale witness echoes), `unclaimable_serials`, `build_records` (factory).
 * - `cabinet_settings` (per-machine configuration and feature settings), `gateway_settings` (fleet-wide).
 * - `cabinet_status`: what heartbeats report (capabilities, deferral and blocked blocks).
 * - `dispense_reports`: exactly-once on `dispense_id`; `ad_play_records`: family-A proof of play.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_identities')
    .addColumn('machine_id', 'text', (c) => c.primaryKey().references('machines.id').onDelete('cascade'))
    .addColumn('device_id', 'text')
    .addColumn('binding', 'text', (c) => c.notNull().defaultTo('unbound'))
    .addColumn('bound_at', 'bigint')
    .addColumn('cred_state', 'text', (c) => c.notNull().defaultTo('fleet-secret'))
    .addColumn('rotation_due_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoked_by', 'text')
    .addColumn('revoke_reason', 'text')
    .addColumn('reset_at', 'bigint')
    .addColumn('reset_by', 'text')
    .addColumn('reset_reason', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('device_credentials')
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id').onDelete('cascade'))
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('activated_at', 'bigint')
    .addColumn('ended_at', 'bigint')
    .addColumn('ended_reason', 'text')
    .execute();
  await db.schema.createIndex('device_credentials_machine').on('device_credentials').columns(['machine_id', 'state']).execute();

  await db.schema
    .createTable('enrolment_arms')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id').onDelete('cascade'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text')
    .addColumn('armed_by_kind', 'text', (c) => c.notNull())
    .addColumn('armed_by_key', 'text')
    .addColumn('armed_by_operator', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('closed_at', 'bigint')
    .addColumn('closed_reason', 'text')
    .execute();
  await db.schema.createIndex('enrolment_arms_machine').on('enrolment_arms').columns(['machine_id', 'closed_at']).execute();

  await db.schema
    .createTable('enrolment_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_no', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('enrolment_attempts_serial').on('enrolment_attempts').columns(['machine_no', 'at']).execute();

  await db.schema
    .createTable('identity_conflicts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id').onDelete('cascade'))
    .addColumn('binding', 'text', (c) => c.notNull())
    .addColumn('bound_device_id', 'text')
    .addColumn('presented_device_id', 'text', (c) => c.notNull())
    .addColumn('leg', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .execute();
  await db.schema.createIndex('identity_conflicts_time').on('identity_conflicts').columns(['at', 'id']).execute();

  await db.schema
    .createTable('copy_suspicions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id').onDelete('cascade'))
    .addColumn('key_id', 'text')
    .addColumn('leg', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('first_at', 'bigint', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('copy_suspicions_machine').on('copy_suspicions').columns(['machine_id', 'last_at']).execute();

  await db.schema
    .createTable('unclaimable_serials')
    .addColumn('serial', 'text', (c) => c.primaryKey())
    .addColumn('faults', 'text', (c) => c.notNull())
    .addColumn('leg', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('build_records')
    .addColumn('machine_no', 'text', (c) => c.primaryKey())
    .addColumn('plant', 'text', (c) => c.notNull())
    .addColumn('built_at', 'bigint', (c) => c.notNull())
    .addColumn('qa_passed_at', 'bigint')
    .addColumn('shipped_at', 'bigint')
    .addColumn('recorded_by_key', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('cabinet_settings')
    .addColumn('machine_id', 'text', (c) => c.primaryKey().references('machines.id').onDelete('cascade'))
    .addColumn('features_json', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('module', 'text')
    .addColumn('rows', 'integer')
    .addColumn('columns_per_row', 'integer')
    .addColumn('poll_interval', 'integer')
    .addColumn('heartbeat_interval', 'integer')
    .addColumn('dispatch_mode', 'text')
    .addColumn('kiosk_ui_url', 'text')
    .addColumn('admin_pin_enc', 'text')
    .addColumn('enrolment_mode', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('gateway_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('cabinet_status')
    .addColumn('machine_id', 'text', (c) => c.primaryKey().references('machines.id').onDelete('cascade'))
    .addColumn('capabilities_json', 'text')
    .addColumn('deferring_json', 'text')
    .addColumn('deferring_first_at', 'bigint')
    .addColumn('blocked_json', 'text')
    .addColumn('blocked_first_at', 'bigint')
    .addColumn('fleet_secret_seen_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('dispense_reports')
    .addColumn('dispense_id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('command_id', 'text')
    .addColumn('order_number', 'text')
    .addColumn('aisle_no', 'integer', (c) => c.notNull())
    .addColumn('success', 'integer', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('status', 'text')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dispense_reports_machine').on('dispense_reports').columns(['machine_id', 'received_at']).execute();

  await db.schema
    .createTable('ad_play_records')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('entry_id', 'text', (c) => c.notNull())
    .addColumn('campaign_id', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('played_at', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'integer')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ad_play_records_once').unique().on('ad_play_records').columns(['machine_id', 'entry_id', 'played_at']).execute();
}
