import type { Insertable, Kysely } from 'kysely';
import type { DB, TestPaymentIntentRow, TestPaymentIntentsTable } from '../../db/schema.ts';

/** SQL of the built-in test processor's book (the one writer of `test_payment_intents`). */
export class TestPaymentsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(row: Insertable<TestPaymentIntentsTable>): Promise<void> {
    await this.db.insertInto('test_payment_intents').values(row).execute();
  }

  intent(id: string): Promise<TestPaymentIntentRow | undefined> {
    return this.db.selectFrom('test_payment_intents').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** requires_payment → succeeded, once; false when it had already succeeded. */
  async markSucceeded(id: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('test_payment_intents')
      .set({ status: 'succeeded', succeeded_at: now })
      .where('id', '=', id)
      .where('status', '=', 'requires_payment')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** The outcome of the last webhook delivery (null status: no answer). */
  async recordDelivery(id: string, status: number | null, now: number): Promise<void> {
    await this.db.updateTable('test_payment_intents').set({ delivered_at: now, delivery_status: status }).where('id', '=', id).execute();
  }
}
