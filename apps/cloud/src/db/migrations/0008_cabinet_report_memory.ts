import type { Kysely } from 'kysely';

/**
 * Heartbeat reports held by the store rather than by one replica (docs/decisions/releases.md,
 * "Deferral and blocked blocks"; docs/decisions/gateway-and-credentials.md, "Keeping device-key
 * checks off the hot path").
 *
 * - `report_fp`, `report_at`: the fingerprint of the last heartbeat report written and when. An
 *   unchanged report is skipped only when the *stored* fingerprint matches and is fresh, so a report
 *   written by another replica (or a clearing heartbeat that lands on a replica that last saw the
 *   clear state) is never mistaken for "nothing changed".
 * - `deferring_kept_json`, `blocked_kept_json`: the last deferral / blocked block after it cleared,
 *   `{version, (minFrom,) firstAt, clearedAt}`, so the same block reappearing within one upgrade check
 *   interval (an agent restart: reports live in its memory) keeps its `firstReportedAt`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cabinet_status').addColumn('report_fp', 'text').execute();
  await db.schema.alterTable('cabinet_status').addColumn('report_at', 'bigint').execute();
  await db.schema.alterTable('cabinet_status').addColumn('deferring_kept_json', 'text').execute();
  await db.schema.alterTable('cabinet_status').addColumn('blocked_kept_json', 'text').execute();
}
