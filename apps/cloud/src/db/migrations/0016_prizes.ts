import type { Kysely } from 'kysely';

/**
 * The kiosk prize game (spec 1 §4.3 `PUT …/prize-mechanics`, §4.8 `/prizes/report`; docs/decisions/finance.md "Prizes"):
 * - `prize_settings`: one row per machine whose operator set up the game: its monthly prize budget
 *   (`monthly_budget_cents`, null: none).
 * - `prize_mechanics`: one row per (machine, mechanic) sent: on/off and its caps (null: no cap).
 * - `prize_events`: every scan, entry, play and win a cabinet reported, once per (machine, `event_id`),
 *   with the cloud's verdict (`refusal` null when accepted) and, for an accepted win, its prize cost
 *   fixed at that moment (`prize_cents`). The funnel and the budget are sums over it by `at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('prize_settings')
    .addColumn('machine_id', 'text', (c) => c.primaryKey())
    .addColumn('monthly_budget_cents', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('prize_mechanics')
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('mechanic', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('max_wins_per_day', 'integer')
    .addColumn('max_prize_cents', 'bigint')
    .addPrimaryKeyConstraint('prize_mechanics_pk', ['machine_id', 'mechanic'])
    .execute();

  await db.schema
    .createTable('prize_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('mechanic', 'text')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('aisle_no', 'integer')
    .addColumn('prize_cents', 'bigint')
    .addColumn('refusal', 'text')
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('prize_events_machine_event').unique().on('prize_events').columns(['machine_id', 'event_id']).execute();
  await db.schema.createIndex('prize_events_machine_at').on('prize_events').columns(['machine_id', 'at']).execute();
}
