import type { Kysely } from 'kysely';
import type { DB, OrderRow } from '../../db/schema.ts';

/** What an order read is restricted to. `until` is exclusive; null bounds are open. */
export interface OrderFilter {
  /** Orders of this operator only; null for admins (every operator's). */
  ownerId: string | null;
  machineId: string | null;
  from: number | null;
  until: number | null;
  /** Only orders paid through a payment terminal. */
  cashlessOnly: boolean;
}

export interface FilterMachine {
  id: string;
  machine_no: string;
  time_zone: string | null;
}

/** SQL of the orders domain; the payments domain reads through `filtered` too, so one filter serves both. */
export class OrdersRepo {
  constructor(private readonly db: Kysely<DB>) {}

  findMachine(machineNo: string, ownerId: string | null): Promise<FilterMachine | undefined> {
    return this.db
      .selectFrom('machines')
      .select(['id', 'machine_no', 'time_zone'])
      .where('machine_no', '=', machineNo)
      .$if(ownerId !== null, (q) => q.where('operator_id', '=', ownerId))
      .executeTakeFirst();
  }

  /** Orders joined to their machine and the machine owner, restricted by the filter. */
  filtered(f: OrderFilter) {
    return this.db
      .selectFrom('orders')
      .innerJoin('machines', 'machines.id', 'orders.machine_id')
      .leftJoin('operators', 'operators.id', 'machines.operator_id')
      .$if(f.ownerId !== null, (q) => q.where('orders.operator_id', '=', f.ownerId))
      .$if(f.machineId !== null, (q) => q.where('orders.machine_id', '=', f.machineId ?? ''))
      .$if(f.from !== null, (q) => q.where('orders.created_at', '>=', f.from ?? 0))
      .$if(f.until !== null, (q) => q.where('orders.created_at', '<', f.until ?? 0))
      .$if(f.cashlessOnly, (q) => q.where('orders.terminal_id', 'is not', null));
  }

  private view(f: OrderFilter) {
    return this.filtered(f)
      .selectAll('orders')
      .select(['machines.machine_no', 'machines.sales_tax_rate as machine_tax_rate', 'operators.merchant_account as owner_account']);
  }

  /** Newest first. */
  async page(f: OrderFilter, limit: number, offset: number): Promise<{ total: number; rows: OrderView[] }> {
    const rows = await this.view(f).orderBy('orders.created_at', 'desc').orderBy('orders.order_number', 'desc').limit(limit).offset(offset).execute();
    const { n } = await this.filtered(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { total: Number(n), rows };
  }

  one(orderNumber: string, ownerId: string | null): Promise<OrderView | undefined> {
    return this.view({ ownerId, machineId: null, from: null, until: null, cashlessOnly: false })
      .where('orders.order_number', '=', orderNumber)
      .executeTakeFirst();
  }

  /**
   * Order counts grouped finely enough that tax can be computed per order exactly (tax is rounded per
   * sale and depends on the charged amount and the rate), yet the rows stay few: one per machine,
   * channel, status, rate and price.
   */
  async rollup(f: OrderFilter): Promise<RollupRow[]> {
    const rows = await this.filtered(f)
      .select((eb) => [
        'machines.machine_no',
        'orders.channel',
        'orders.pay_status',
        'orders.tax_rate',
        'machines.sales_tax_rate as machine_tax_rate',
        'orders.charged_cents',
        eb.fn.countAll<number>().as('n'),
      ])
      .groupBy(['machines.machine_no', 'orders.channel', 'orders.pay_status', 'orders.tax_rate', 'machines.sales_tax_rate', 'orders.charged_cents'])
      .execute();
    return rows.map((r) => ({ ...r, n: Number(r.n) }));
  }

  /**
   * Vends recorded while the machine was unclaimed move into the claiming operator's fleet; their
   * cashless payments settle to the new owner's merchant account (the settlement account is always
   * the machine owner's).
   */
  async adoptPoolOrders(machineId: string, operatorId: string, merchantAccount: string): Promise<number> {
    const r = await this.db
      .updateTable('orders')
      .set((eb) => ({
        operator_id: operatorId,
        settlement_account: eb.case().when('terminal_id', 'is not', null).then(merchantAccount).else(null).end(),
      }))
      .where('machine_id', '=', machineId)
      .where('operator_id', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** Writes whole order rows as they are (a sandbox reset re-applying the money records it kept), 200 per statement. */
  async insertOrders(rows: readonly OrderRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 200)
      await this.db
        .insertInto('orders')
        .values(rows.slice(i, i + 200))
        .execute();
  }
}

/** An order with its machine's serial and current tax rate, and the machine owner's merchant account. */
export type OrderView = OrderRow & { machine_no: string; machine_tax_rate: number | null; owner_account: string | null };

export interface RollupRow {
  machine_no: string;
  channel: string;
  pay_status: string;
  tax_rate: number | null;
  machine_tax_rate: number | null;
  charged_cents: number;
  n: number;
}
