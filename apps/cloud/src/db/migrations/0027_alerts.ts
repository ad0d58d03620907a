import type { Kysely } from 'kysely';

/**
 * Fleet presence and alert rules (issue 20; docs/alerts.md):
 * - `machine_presence`: what the presence sweep last concluded for each machine (online or offline,
 *   spec 1 §8: unseen more than 10 minutes is down), so it raises machine.online/offline once per change.
 * - `alert_rules`: an operator's rule: which event types raise an alert, on which machines (the fleet,
 *   one machine or an access group), quiet hours in a time zone, and where it is sent (webhook, e-mail).
 * - `alerts`: one row per raised condition and rule; at most one is open per (rule, condition).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('machine_presence')
    .addColumn('machine_id', 'text', (c) => c.primaryKey().references('machines.id').onDelete('cascade'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('alert_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scope_ref', 'text')
    .addColumn('quiet_start_min', 'integer')
    .addColumn('quiet_end_min', 'integer')
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('webhook', 'integer', (c) => c.notNull())
    .addColumn('emails', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_rules_operator').on('alert_rules').columns(['operator_id']).execute();

  await db.schema
    .createTable('alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'text', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('machine_no', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('occurrences', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('opened_at', 'bigint', (c) => c.notNull())
    .addColumn('notify_at', 'bigint')
    .addColumn('notified_at', 'bigint')
    .addColumn('clear_at', 'bigint')
    .addColumn('cleared_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alerts_condition').on('alerts').columns(['rule_id', 'condition', 'state']).execute();
  await db.schema.createIndex('alerts_due').on('alerts').columns(['state', 'notify_at']).execute();
}
