import type { Kysely } from 'kysely';

/**
 * The cabinet's service code (spec 2 §8; docs/decisions/agent.md "Service code"):
 * - `cabinet_settings.service_code_hash`, `service_code_set_at`: the scrypt hash of the code the
 *   operator set (`scrypt$N$r$p$salt$hash`, never the code) and when; delivered as is in the
 *   configuration block.
 * - `cabinet_status.service_lock_json`: the lock as the cabinet last reported it `{failures, lockedUntil}`.
 * - `service_code_attempts`: every attempt the cabinets reported, once per (machine, attempt id, at).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cabinet_settings').addColumn('service_code_hash', 'text').execute();
  await db.schema.alterTable('cabinet_settings').addColumn('service_code_set_at', 'bigint').execute();
  await db.schema.alterTable('cabinet_status').addColumn('service_lock_json', 'text').execute();
  await db.schema
    .createTable('service_code_attempts')
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('attempt_id', 'bigint', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('service_code_attempts_pk', ['machine_id', 'attempt_id', 'at'])
    .execute();
}
