import type { Kysely } from 'kysely';

/**
 * Release artifacts per architecture (docs/decisions/agent-upgrades.md, "One artifact per architecture"):
 * - `agent_releases.artifacts_json`: the release's artifacts `[{arch, sha256, size, url}]` in canonical
 *   order when it was signed in the v2 form; null for a single-artifact (x64) release, whose artifact is
 *   the row's own `sha256`/`size`/`url`. For a v2 release those columns repeat its first artifact.
 * - `machines.agent_arch`: the architecture the cabinet's agent reports (Node's `process.arch`), null
 *   until an agent that reports one registers or heartbeats.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('agent_releases').addColumn('artifacts_json', 'text').execute();
  await db.schema.alterTable('machines').addColumn('agent_arch', 'text').execute();
}
