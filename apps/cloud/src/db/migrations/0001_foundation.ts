import type { Kysely } from 'kysely';

/** Operators, credentials, machines, aisles, orders, payment terminals, venues and the audit log. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('operators')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text')
    .addColumn('mfa_secret_enc', 'text')
    .addColumn('mfa_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('currency', 'text')
    .addColumn('merchant_account', 'text', (c) => c.notNull())
    .addColumn('marketplace_opt_in', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('rate_limit', 'integer')
    .addColumn('plant', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();

  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('rate_limit', 'integer')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();

  // Bearer tokens (OAuth and sign-in) are opaque; only their SHA-256 is stored.
  await db.schema
    .createTable('access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mfa_tickets')
    .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('auth_method', 'text', (c) => c.notNull())
    .addColumn('pending_secret_enc', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('totp_uses')
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('totp_uses_pk', ['operator_id', 'counter'])
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_time').on('audit_log').columns(['timestamp', 'id']).execute();

  await db.schema
    .createTable('venues')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('rev_share_bps', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deployment_date', 'text')
    .addColumn('kiosk_machine_no', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('machines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_no', 'text', (c) => c.notNull().unique())
    .addColumn('operator_id', 'text', (c) => c.references('operators.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('offline'))
    .addColumn('last_seen', 'bigint')
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lat', 'double precision')
    .addColumn('lng', 'double precision')
    .addColumn('address', 'text')
    .addColumn('place_id', 'text')
    .addColumn('geocode_status', 'text')
    .addColumn('geocode_detail', 'text')
    .addColumn('placement_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('address_confirmed_at', 'bigint')
    .addColumn('installation_confirmed_at', 'bigint')
    .addColumn('notes', 'text')
    .addColumn('expire_date', 'bigint')
    .addColumn('rent_state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('time_zone', 'text')
    .addColumn('sales_tax_rate', 'double precision')
    .addColumn('venue_id', 'text', (c) => c.references('venues.id'))
    .addColumn('agent_version', 'text')
    .addColumn('vmc_version', 'text')
    .addColumn('apk_version', 'text')
    .addColumn('platform', 'text')
    .addColumn('screen_json', 'text')
    .addColumn('retired_at', 'bigint')
    .addColumn('claimed_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('machines_operator').on('machines').columns(['operator_id', 'machine_no']).execute();

  await db.schema
    .createTable('venue_moves')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('venue_id', 'text')
    .addColumn('moved_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('aisles')
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id').onDelete('cascade'))
    .addColumn('aisle_no', 'integer', (c) => c.notNull())
    .addColumn('current_stock', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_stock', 'integer', (c) => c.notNull())
    .addColumn('alert_threshold', 'integer', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sku', 'text')
    .addColumn('product_name', 'text')
    .addColumn('faulted', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('aisles_pk', ['machine_id', 'aisle_no'])
    .execute();

  await db.schema
    .createTable('payment_terminals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().unique().references('machines.id'))
    .addColumn('operator_id', 'text', (c) => c.references('operators.id'))
    .addColumn('merchant_account', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('bound_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('order_number', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id'))
    .addColumn('operator_id', 'text', (c) => c.references('operators.id'))
    .addColumn('aisle_no', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('pay_status', 'text', (c) => c.notNull())
    .addColumn('paid_cents', 'integer', (c) => c.notNull())
    .addColumn('charged_cents', 'integer', (c) => c.notNull())
    .addColumn('tax_rate', 'double precision')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('pay_method', 'text', (c) => c.notNull())
    .addColumn('terminal_id', 'text')
    .addColumn('card_brand', 'text')
    .addColumn('card_last4', 'text')
    .addColumn('settlement_account', 'text')
    .addColumn('command_id', 'text')
    .addColumn('dispense_id', 'text', (c) => c.unique())
    .addColumn('vended', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('orders_machine_time').on('orders').columns(['machine_id', 'created_at']).execute();
  await db.schema.createIndex('orders_operator_time').on('orders').columns(['operator_id', 'created_at']).execute();
}
