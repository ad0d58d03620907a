import type { Kysely } from 'kysely';

/**
 * Signed agent releases, the fleet-wide rollout and per-machine pins (spec 2 §2.6, §2.7, §4.3, §4.5).
 *
 * - `agent_releases`: one row per published version, immutable. `version_key` is the version in a
 *   sortable, normalised form (four components, each zero-padded to nine digits), unique, so `1.0`
 *   and `1.0.0` are one version and SQL can order and compare releases. `sequence` is publish order.
 * - `agent_rollout`: at most one row (`id` = 'fleet'): the one rollout that exists fleet-wide.
 * - `agent_pins`: at most one pin per machine; it outranks the rollout in both directions.
 *
 * The cabinets' deferral and blocked reports stay where the gateway's heartbeat keeps them
 * (`cabinet_status`, 0004); the views here read them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('agent_releases')
    .addColumn('version', 'text', (c) => c.primaryKey())
    .addColumn('version_key', 'text', (c) => c.notNull().unique())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('migration', 'integer', (c) => c.notNull())
    .addColumn('min_from', 'text')
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('signature_alg', 'text', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull().unique())
    .addColumn('published_at', 'bigint', (c) => c.notNull())
    .addColumn('published_by', 'text')
    .addColumn('published_key', 'text')
    .execute();

  await db.schema
    .createTable('agent_rollout')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('target_version', 'text', (c) => c.notNull().references('agent_releases.version'))
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('canary_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('percent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('allow_downgrade', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('hold_reason', 'text')
    .addColumn('held_at', 'bigint')
    .addColumn('held_by', 'text')
    .addColumn('set_by', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('agent_pins')
    .addColumn('machine_id', 'text', (c) => c.primaryKey().references('machines.id').onDelete('cascade'))
    .addColumn('version', 'text', (c) => c.notNull().references('agent_releases.version'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('pinned_by', 'text')
    .addColumn('pinned_key', 'text')
    .addColumn('pinned_at', 'bigint', (c) => c.notNull())
    .execute();
}
