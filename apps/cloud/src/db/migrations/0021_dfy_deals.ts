import type { Kysely } from 'kysely';

/**
 * Done-for-you placement, part 1 (spec 3; docs/decisions/dfy.md):
 * - `dfy_deals`: one row per deal: its owner, current stage (for the inbox and the loops' queries), the
 *   stored state (`state_json`, the fold of its events) and the last event's `seq`.
 * - `dfy_deal_events`: the deal's log, one row per event (`seq` from 1); the state is the fold of it.
 * - `dfy_checkpoints`: the checkpoint inbox: kind, linked deal, resolved flag, who resolved it and how.
 * - `dfy_work_orders`: install (`dfy_install`) and refill (`dfy_refill`, part 3) work orders; `state`
 *   moves forward only.
 * - `dfy_payments`: the money of a deal (pre-order and checkout) in cents, amounts from the server catalog;
 *   `refunded_at` set by a refund.
 * - `dfy_portfolio_settings`: one operator's portfolio settings (spec 3 §2) as JSON.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dfy_deals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('state_json', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('machine_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dfy_deals_operator').on('dfy_deals').columns(['operator_id', 'created_at']).execute();
  await db.schema.createIndex('dfy_deals_stage').on('dfy_deals').columns(['stage']).execute();

  await db.schema
    .createTable('dfy_deal_events')
    .addColumn('deal_id', 'text', (c) => c.notNull().references('dfy_deals.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('event_json', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dfy_deal_events_pk', ['deal_id', 'seq'])
    .execute();

  await db.schema
    .createTable('dfy_checkpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('deal_id', 'text', (c) => c.notNull().references('dfy_deals.id').onDelete('cascade'))
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('resolved', 'integer', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('raised_by', 'text', (c) => c.notNull())
    .addColumn('raised_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_by', 'text')
    .addColumn('resolved_at', 'bigint')
    .execute();
  await db.schema.createIndex('dfy_checkpoints_operator').on('dfy_checkpoints').columns(['operator_id', 'resolved', 'raised_at']).execute();
  await db.schema.createIndex('dfy_checkpoints_deal').on('dfy_checkpoints').columns(['deal_id']).execute();

  await db.schema
    .createTable('dfy_work_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('deal_id', 'text', (c) => c.notNull().references('dfy_deals.id').onDelete('cascade'))
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('assignee', 'text')
    .addColumn('scheduled_for', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dfy_work_orders_deal').on('dfy_work_orders').columns(['deal_id']).execute();

  await db.schema
    .createTable('dfy_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('deal_id', 'text', (c) => c.notNull().references('dfy_deals.id').onDelete('cascade'))
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('refunded_at', 'bigint')
    .execute();
  await db.schema.createIndex('dfy_payments_deal').on('dfy_payments').columns(['deal_id']).execute();

  await db.schema
    .createTable('dfy_portfolio_settings')
    .addColumn('operator_id', 'text', (c) => c.primaryKey())
    .addColumn('settings_json', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}
