import type { Kysely } from 'kysely';

/**
 * `rollout_progress.no_artifact`: machines counted that the rollout cannot move because their release has no
 * artifact for their architecture, or they report none (docs/decisions/releases.md, "Views say so"). Snapshots
 * taken before this column existed read 0: the sweep did not count them then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('rollout_progress')
    .addColumn('no_artifact', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
