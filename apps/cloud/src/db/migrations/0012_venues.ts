import type { Kysely } from 'kysely';

/**
 * Venues and host commission (spec 1 §2.9, §4.3 rule 6, §4.8): each `venue_moves` row now records when
 * commission starts accruing for that attachment (`accrues_from`: the move itself, the venue's
 * deployment date or the machine's first sale), which rule chose it (`commission_rule`: `move`,
 * `deploymentDate`, `firstSale`; null for a detach) and its place in the machine's history (`seq`, so two
 * moves in the same millisecond still have an order). Rows written before this migration read as `move`
 * rules from `moved_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('venue_moves').addColumn('accrues_from', 'bigint').execute();
  await db.schema.alterTable('venue_moves').addColumn('commission_rule', 'text').execute();
  await db.schema.alterTable('venue_moves').addColumn('seq', 'integer').execute();
  await db.schema.createIndex('venue_moves_machine').on('venue_moves').columns(['machine_id', 'moved_at']).execute();
  await db.schema.createIndex('venue_moves_venue').on('venue_moves').columns(['venue_id']).execute();
  await db.schema.createIndex('venues_operator').on('venues').columns(['operator_id', 'created_at']).execute();
}
