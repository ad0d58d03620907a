import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

export interface SalesBucketRow {
  orders: number;
  grossCents: number;
  refundedCents: number;
}

/** SQL for the operator's one-screen view of a machine. */
export class OperatorViewRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** The machine's id and last contact, with its owner's currency (null for a pool machine). */
  machineWithCurrency(machineNo: string) {
    return this.db
      .selectFrom('machines')
      .leftJoin('operators', 'operators.id', 'machines.operator_id')
      .select(['machines.id', 'machines.operator_id', 'machines.last_seen', 'operators.currency'])
      .where('machines.machine_no', '=', machineNo)
      .executeTakeFirstOrThrow();
  }

  /** Shipped sales and refunds of one machine since `from` (inclusive). */
  async sales(machineId: string, from: number): Promise<SalesBucketRow> {
    const row = await this.db
      .selectFrom('orders')
      .select((eb) => [
        eb.fn.countAll<number>().as('orders'),
        eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('pay_status', '=', 'shipped').then(eb.ref('charged_cents')).else(0).end()), eb.lit(0)).as('gross'),
        eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('pay_status', '=', 'refunded').then(eb.ref('charged_cents')).else(0).end()), eb.lit(0)).as('refunded'),
      ])
      .where('machine_id', '=', machineId)
      .where('created_at', '>=', from)
      .executeTakeFirstOrThrow();
    return { orders: Number(row.orders), grossCents: Number(row.gross), refundedCents: Number(row.refunded) };
  }
}
