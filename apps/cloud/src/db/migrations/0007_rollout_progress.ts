import type { Kysely } from 'kysely';

/**
 * Snapshots of the fleet-wide rollout's progress, written by the rollout sweep (jobs.ts) when the
 * counts or the phase changed since the last one, so a quiet fleet writes nothing
 * (docs/decisions/releases.md, "Rollout sweep and /api/v1/rollouts").
 *
 * - `rollout_id`: the `agent_rollout` row measured ('fleet'); no foreign key, because snapshots are
 *   history and outlive the rollout they measured (a new PUT replaces that row).
 * - `taken_at`: strictly increasing per rollout (the sweep never writes two at the same millisecond),
 *   so "newest first" is one index range.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rollout_progress')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rollout_id', 'text', (c) => c.notNull())
    .addColumn('target_version', 'text', (c) => c.notNull())
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('eligible', 'integer', (c) => c.notNull())
    .addColumn('on_target', 'integer', (c) => c.notNull())
    .addColumn('pinned', 'integer', (c) => c.notNull())
    .addColumn('deferring', 'integer', (c) => c.notNull())
    .addColumn('blocked', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rollout_progress_taken').on('rollout_progress').columns(['taken_at', 'id']).execute();
}
