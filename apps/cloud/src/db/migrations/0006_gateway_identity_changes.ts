import type { Kysely } from 'kysely';

/**
 * The cabinet gateway's credential change feed: every replica asks once a second which machines'
 * device identities changed since its last look (docs/decisions/gateway-and-credentials.md); this
 * index keeps that a range read however large the fleet.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('device_identities_updated').on('device_identities').column('updated_at').execute();
}
