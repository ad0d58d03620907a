import type { Kysely } from 'kysely';

/**
 * The finance ledger (spec 1 §2.9, §4.8; docs/decisions/finance.md "P&L, cost entries, payouts, balance sheet"):
 * - `finance_entries`: referrals, payroll and expenses the operator records, whole cents, dated
 *   `occurred_on` (YYYY-MM-DD, UTC day), optionally against one machine or one venue. Never edited or
 *   deleted: a correction is a reversing row (`reverses_id`, the negated amount, the original's date).
 * - `host_payouts`: a host statement frozen when recorded as paid, one per venue and period (unique).
 * - `host_payout_lines`: its lines, one per machine stay. A row with a `machine_id` and `period` closes
 *   that machine's period to tax restatement (the contract with the tax schedules).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('finance_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('occurred_on', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text')
    .addColumn('venue_id', 'text')
    .addColumn('memo', 'text')
    .addColumn('reverses_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('finance_entries_operator_day').on('finance_entries').columns(['operator_id', 'occurred_on']).execute();
  // one reversal per entry: a second one racing in fails here
  await db.schema.createIndex('finance_entries_reverses').unique().on('finance_entries').column('reverses_id').execute();

  await db.schema
    .createTable('host_payouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('venue_id', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('bps', 'integer', (c) => c.notNull())
    .addColumn('total_cents', 'bigint', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('paid_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('host_payouts_venue_period').unique().on('host_payouts').columns(['venue_id', 'period']).execute();
  await db.schema.createIndex('host_payouts_operator').on('host_payouts').columns(['operator_id', 'paid_at']).execute();

  await db.schema
    .createTable('host_payout_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payout_id', 'text', (c) => c.notNull())
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('venue_id', 'text', (c) => c.notNull())
    .addColumn('machine_id', 'text', (c) => c.notNull())
    .addColumn('machine_no', 'text', (c) => c.notNull())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('commission_rule', 'text', (c) => c.notNull())
    .addColumn('commission_from', 'bigint', (c) => c.notNull())
    .addColumn('window_from', 'bigint', (c) => c.notNull())
    .addColumn('window_to', 'bigint', (c) => c.notNull())
    .addColumn('vends', 'integer', (c) => c.notNull())
    .addColumn('net_cents', 'bigint', (c) => c.notNull())
    .addColumn('bps', 'integer', (c) => c.notNull())
    .addColumn('share_cents', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('host_payout_lines_payout').on('host_payout_lines').columns(['payout_id', 'line_no']).execute();
  await db.schema.createIndex('host_payout_lines_machine_period').on('host_payout_lines').columns(['machine_id', 'period']).execute();
}
