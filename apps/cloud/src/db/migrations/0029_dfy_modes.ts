import { sql, type Kysely } from 'kysely';

/**
 * Done-for-you placement, part 3: operating modes and concierge (spec 3 key rules 4–5; docs/decisions/dfy-modes.md):
 * - `dfy_modes`: the capability toggles of one deal or machine (`kind`, `subject_id`: a deal id or a machine id)
 *   as JSON; an absent capability has no toggle and falls to the lower levels of the resolver.
 * - `dfy_concierge_enrolments`: one row per enrolment of a placement (`deal_id` and/or `machine_id`), from
 *   `enrolled_at` to its takeback (`ended_at`, null while active); the fee is computed from these rows.
 *   At most one active enrolment per subject (partial unique index); a deal and its machine are checked by
 *   the service under the deal's lock.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dfy_modes')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('toggles_json', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dfy_modes_pk', ['kind', 'subject_id'])
    .execute();

  await db.schema
    .createTable('dfy_concierge_enrolments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('deal_id', 'text')
    .addColumn('machine_id', 'text')
    .addColumn('enrolled_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('dfy_concierge_active')
    .on('dfy_concierge_enrolments')
    .columns(['kind', 'subject_id'])
    .unique()
    .where(sql<boolean>`ended_at is null`)
    .execute();
  await db.schema.createIndex('dfy_concierge_operator').on('dfy_concierge_enrolments').columns(['operator_id']).execute();
}
