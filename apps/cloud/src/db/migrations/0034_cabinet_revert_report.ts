import type { Kysely } from 'kysely';

/**
 * The last boot-guard revert a cabinet reported (docs/decisions/webhooks.md, "agent.upgrade_reverted"):
 * `cabinet_status.reverted_json` `{version, from, reason, at}`. The agent carries its journal's last revert
 * in every heartbeat until another upgrade outcome replaces it; a revert not seen before is news once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cabinet_status').addColumn('reverted_json', 'text').execute();
}
