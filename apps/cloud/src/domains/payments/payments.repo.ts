import type { Kysely } from 'kysely';
import type { DB, PaymentEventRow } from '../../db/schema.ts';
import { OrdersRepo, type OrderFilter } from '../orders/orders.repo.ts';

export interface TerminalView {
  id: string;
  machine_id: string;
  machine_no: string;
  machine_operator_id: string | null;
  provider: string;
  merchant_account: string;
  owner_account: string | null;
  bound_at: number;
}

/** SQL of the payments domain (the one writer of `payment_events`). Takes the database or a transaction. */
export class PaymentsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private terminalsQuery() {
    return this.db
      .selectFrom('payment_terminals')
      .innerJoin('machines', 'machines.id', 'payment_terminals.machine_id')
      .leftJoin('operators', 'operators.id', 'machines.operator_id')
      .select([
        'payment_terminals.id',
        'payment_terminals.machine_id',
        'machines.machine_no',
        'machines.operator_id as machine_operator_id',
        'payment_terminals.provider',
        'payment_terminals.merchant_account',
        'operators.merchant_account as owner_account',
        'payment_terminals.bound_at',
      ]);
  }

  /** Readers on the machines `ownerId` owns (null: every reader). */
  terminals(ownerId: string | null): Promise<TerminalView[]> {
    return this.terminalsQuery()
      .$if(ownerId !== null, (q) => q.where('machines.operator_id', '=', ownerId))
      .orderBy('machines.machine_no')
      .execute();
  }

  terminal(id: string): Promise<TerminalView | undefined> {
    return this.terminalsQuery().where('payment_terminals.id', '=', id).executeTakeFirst();
  }

  /** Cashless totals per (settlement account, owner account, status) for the filtered orders. */
  async totalsByAccount(f: OrderFilter) {
    const rows = await new OrdersRepo(this.db)
      .filtered({ ...f, cashlessOnly: true })
      .select((eb) => [
        'orders.settlement_account',
        'operators.merchant_account as owner_account',
        'orders.pay_status',
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>('orders.charged_cents').as('cents'),
      ])
      .groupBy(['orders.settlement_account', 'operators.merchant_account', 'orders.pay_status'])
      .execute();
    return rows.map((r) => ({ ...r, n: Number(r.n), cents: Number(r.cents) }));
  }

  /** Records the event id; false when it was already recorded (a replay). */
  async claimEvent(row: PaymentEventRow): Promise<boolean> {
    const r = await this.db
      .insertInto('payment_events')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  event(id: string): Promise<PaymentEventRow | undefined> {
    return this.db.selectFrom('payment_events').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async setEventOrder(id: string, orderNumber: string): Promise<void> {
    await this.db.updateTable('payment_events').set({ order_number: orderNumber }).where('id', '=', id).execute();
  }
}
