import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** SQL of the order sweeps. Every change is a compare-and-set from `paid`, so no order moves twice. */
export class SweepsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Paid orders not vended, created at or before `cutoff`, oldest first. `awaitingOutcome`: only those
   * no dispense report has reached and no remote command drives (a command's orders follow the command).
   */
  paidNotVended(cutoff: number, limit: number, awaitingOutcome: boolean) {
    let q = this.db.selectFrom('orders').select(['order_number']).where('pay_status', '=', 'paid').where('vended', '=', 0).where('created_at', '<=', cutoff);
    if (awaitingOutcome) q = q.where('dispense_id', 'is', null).where('command_id', 'is', null);
    return q.orderBy('created_at', 'asc').orderBy('order_number', 'asc').limit(limit).execute();
  }

  /** paid → `to`, only while the order is still paid and not vended. True when this call moved it. */
  async settle(orderNumber: string, to: 'refund_owed' | 'refunded', now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('orders')
      .set({ pay_status: to, updated_at: now })
      .where('order_number', '=', orderNumber)
      .where('pay_status', '=', 'paid')
      .where('vended', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
