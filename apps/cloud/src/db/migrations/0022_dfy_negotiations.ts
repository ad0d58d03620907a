import type { Kysely } from 'kysely';

/**
 * Done-for-you placement, part 2: the negotiation (spec 3 §2 mandate and turns; docs/decisions/negotiation.md):
 * - `dfy_negotiation_mandates`: the operator's mandate (envelope) of a deal, versioned from 1; a new PUT adds
 *   a version, none is ever changed. The venue's vertical travels with it.
 * - `dfy_negotiations`: one row per started negotiation: status, who answers for the venue, the mandate version
 *   it runs under, the rollup counts and the outcome.
 * - `dfy_negotiation_turns`: the turns, in order (`seq` from 1), each its actor, channel and the turn as JSON.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dfy_negotiation_mandates')
    .addColumn('deal_id', 'text', (c) => c.notNull().references('dfy_deals.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('vertical', 'text', (c) => c.notNull())
    .addColumn('mandate_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dfy_negotiation_mandates_pk', ['deal_id', 'version'])
    .execute();

  await db.schema
    .createTable('dfy_negotiations')
    .addColumn('deal_id', 'text', (c) => c.primaryKey().references('dfy_deals.id').onDelete('cascade'))
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('vertical', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('counterparty', 'text', (c) => c.notNull())
    .addColumn('mandate_version', 'integer', (c) => c.notNull())
    .addColumn('rounds', 'integer', (c) => c.notNull())
    .addColumn('out_of_mandate_asks', 'integer', (c) => c.notNull())
    .addColumn('outcome_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dfy_negotiations_operator').on('dfy_negotiations').columns(['operator_id', 'vertical', 'status']).execute();

  await db.schema
    .createTable('dfy_negotiation_turns')
    .addColumn('deal_id', 'text', (c) => c.notNull().references('dfy_deals.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('mandate_version', 'integer', (c) => c.notNull())
    .addColumn('turn_json', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dfy_negotiation_turns_pk', ['deal_id', 'seq'])
    .execute();
}
