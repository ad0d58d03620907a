import type { Insertable, Kysely } from 'kysely';
import type { DB, TestPaymentIntentRow, TestPaymentIntentsTable, TestRefundRow, TestRefundsTable } from '../../db/schema.ts';

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

  refundByKey(idempotencyKey: string): Promise<TestRefundRow | undefined> {
    return this.db.selectFrom('test_refunds').selectAll().where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
  }

  /** Cents refunded so far of an intent. */
  async refundedCents(intentId: string): Promise<number> {
    const r = await this.db
      .selectFrom('test_refunds')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('total'))
      .where('intent_id', '=', intentId)
      .executeTakeFirst();
    return Number(r?.total ?? 0);
  }

  /** A refund, once per idempotency key: false when the key was taken meanwhile. */
  async insertRefund(row: Insertable<TestRefundsTable>): Promise<boolean> {
    const r = await this.db
      .insertInto('test_refunds')
      .values(row)
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    return r !== undefined;
  }
}
