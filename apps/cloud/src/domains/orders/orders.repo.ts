import type { Insertable, Kysely, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { DB, OrderRow, OrdersTable } from '../../db/schema.ts';

/** What an order read is restricted to. `until` is exclusive; null bounds are open. */
export interface OrderFilter {
  /** Orders of this operator only; null for admins (every operator's). */
  ownerId: string | null;
  machineId: string | null;
  /** Only orders of these machines (an access-group session's); null: no such narrowing. */
  machineNos?: readonly string[] | null;
  from: number | null;
  until: number | null;
  /** Only orders paid through a payment terminal. */
  cashlessOnly: boolean;
  /** Only orders in this pay status; null or absent: any. */
  payStatus?: string | null;
  /** Only orders of this sales channel; null or absent: any. */
  channel?: string | null;
}

/** One calendar day of a series: the instants `[start, end)` it covers. */
export interface DayBounds {
  start: number;
  end: number;
}

/** SQL of the orders domain, the one writer of `orders`; the payments domain reads through `filtered` too, so one filter serves both. */
export class OrdersRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Orders joined to their machine and the machine owner, restricted by the filter. */
  filtered(f: OrderFilter) {
    return this.db
      .selectFrom('orders')
      .innerJoin('machines', 'machines.id', 'orders.machine_id')
      .leftJoin('operators', 'operators.id', 'machines.operator_id')
      .$if(f.ownerId !== null, (q) => q.where('orders.operator_id', '=', f.ownerId))
      .$if(f.machineId !== null, (q) => q.where('orders.machine_id', '=', f.machineId ?? ''))
      .$if(!!f.machineNos, (q) => (f.machineNos?.length ? q.where('machines.machine_no', 'in', f.machineNos) : q.where(sql<boolean>`1 = 0`)))
      .$if(f.from !== null, (q) => q.where('orders.created_at', '>=', f.from ?? 0))
      .$if(f.until !== null, (q) => q.where('orders.created_at', '<', f.until ?? 0))
      .$if(f.cashlessOnly, (q) => q.where('orders.terminal_id', 'is not', null))
      .$if(!!f.payStatus, (q) => q.where('orders.pay_status', '=', f.payStatus ?? ''))
      .$if(!!f.channel, (q) => q.where('orders.channel', '=', f.channel ?? ''));
  }

  /** With the refund of a pay-by-phone order (its kiosk checkout's, issue 34: a read join, the checkout's repo writes it). */
  private view(f: OrderFilter) {
    return this.filtered(f)
      .leftJoin('kiosk_checkouts', 'kiosk_checkouts.order_number', 'orders.order_number')
      .selectAll('orders')
      .select([
        'machines.machine_no',
        'machines.sales_tax_rate as machine_tax_rate',
        'operators.merchant_account as owner_account',
        'kiosk_checkouts.id as checkout_id',
        'kiosk_checkouts.refund as refund_status',
        'kiosk_checkouts.amount_cents as refund_cents',
        'kiosk_checkouts.refund_id',
        'kiosk_checkouts.refund_failure',
        'kiosk_checkouts.refund_at',
      ]);
  }

  /** Newest first. */
  async page(f: OrderFilter, limit: number, offset: number): Promise<{ total: number; rows: OrderView[] }> {
    const rows = await this.view(f).orderBy('orders.created_at', 'desc').orderBy('orders.order_number', 'desc').limit(limit).offset(offset).execute();
    const { n } = await this.filtered(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { total: Number(n), rows };
  }

  one(orderNumber: string, ownerId: string | null, machineNos: readonly string[] | null): Promise<OrderView | undefined> {
    return this.view({ ownerId, machineId: null, machineNos, from: null, until: null, cashlessOnly: false })
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
   * The rollup's groups per calendar day: `days` are consecutive `[start, end)` spans (local midnights the service
   * worked out in the summary's time zone, so daylight-saving days of 23 or 25 hours bucket exactly); each order
   * joins the span holding its time. The spans travel as a `VALUES` list of integer literals (columns `column1..3`
   * on SQLite and PostgreSQL alike), so the bucketing is the same plain range comparison on both.
   */
  async rollupByDay(f: OrderFilter, days: readonly DayBounds[]): Promise<(RollupRow & { day: number })[]> {
    if (days.length === 0) return [];
    for (const d of days) if (!Number.isSafeInteger(d.start) || !Number.isSafeInteger(d.end)) throw new Error('day bounds must be integers');
    const spans = sql.join(days.map((d, i) => sql`(${sql.lit(i)}, ${sql.lit(d.start)}, ${sql.lit(d.end)})`));
    const d = sql<{ column1: number; column2: number; column3: number }>`(values ${spans})`.as('d');
    const rows = await this.filtered(f)
      .innerJoin(d, (j) => j.onRef('orders.created_at', '>=', 'd.column2').onRef('orders.created_at', '<', 'd.column3'))
      .select((eb) => [
        'd.column1 as day',
        'machines.machine_no',
        'orders.channel',
        'orders.pay_status',
        'orders.tax_rate',
        'machines.sales_tax_rate as machine_tax_rate',
        'orders.charged_cents',
        eb.fn.countAll<number>().as('n'),
      ])
      .groupBy([
        'd.column1',
        'machines.machine_no',
        'orders.channel',
        'orders.pay_status',
        'orders.tax_rate',
        'machines.sales_tax_rate',
        'orders.charged_cents',
      ])
      .execute();
    return rows.map((r) => ({ ...r, day: Number(r.day), n: Number(r.n) }));
  }

  /** An operator's currency (null: none set, or no such operator). */
  async currencyOf(operatorId: string): Promise<string | null> {
    const row = await this.db.selectFrom('operators').select('currency').where('id', '=', operatorId).executeTakeFirst();
    return row?.currency ?? null;
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

  // --- writes: the one writer of `orders` --------------------------------------------------------

  async insertOrder(row: Insertable<OrdersTable>): Promise<void> {
    await this.db.insertInto('orders').values(row).execute();
  }

  order(orderNumber: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirst();
  }

  orderByRequestRef(machineId: string, requestRef: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('orders').selectAll().where('machine_id', '=', machineId).where('request_ref', '=', requestRef).executeTakeFirst();
  }

  orderByPayment(paymentRef: string): Promise<OrderRow | undefined> {
    return this.db.selectFrom('orders').selectAll().where('payment_ref', '=', paymentRef).executeTakeFirst();
  }

  /** Settles an order still awaiting its vend (pay status in `from`, not vended); false when someone else settled it first. */
  async settleOpen(orderNumber: string, from: readonly string[], set: Updateable<OrdersTable>): Promise<boolean> {
    const r = await this.db
      .updateTable('orders')
      .set(set)
      .where('order_number', '=', orderNumber)
      .where('pay_status', 'in', [...from])
      .where('vended', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  ordersOfCommand(commandId: string) {
    return this.db.selectFrom('orders').select(['order_number', 'pay_status']).where('command_id', '=', commandId).orderBy('order_number').execute();
  }

  /** Moves a command's still-paid orders to `to` (shipped: vended; refunded: not vended). Returns how many moved. */
  async settlePaidOfCommand(commandId: string, to: 'shipped' | 'refunded', now: number): Promise<number> {
    const r = await this.db
      .updateTable('orders')
      .set({ pay_status: to, vended: to === 'shipped' ? 1 : 0, updated_at: now })
      .where('command_id', '=', commandId)
      .where('pay_status', '=', 'paid')
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  async attachPayment(
    orderNumber: string,
    set: Pick<OrderRow, 'terminal_id' | 'card_brand' | 'card_last4' | 'settlement_account' | 'pay_method' | 'payment_ref' | 'updated_at'>,
  ): Promise<void> {
    await this.db.updateTable('orders').set(set).where('order_number', '=', orderNumber).execute();
  }

  async setPayStatus(orderNumber: string, payStatus: string, now: number): Promise<void> {
    await this.db.updateTable('orders').set({ pay_status: payStatus, updated_at: now }).where('order_number', '=', orderNumber).execute();
  }

  /**
   * The sweeps' work list: paid orders not vended, created at or before `cutoff`, oldest first.
   * `awaitingOutcome`: only those no dispense report has reached and no remote command drives (a
   * command's orders follow the command).
   */
  paidNotVended(cutoff: number, limit: number, awaitingOutcome: boolean) {
    let q = this.db.selectFrom('orders').select(['order_number']).where('pay_status', '=', 'paid').where('vended', '=', 0).where('created_at', '<=', cutoff);
    if (awaitingOutcome) q = q.where('dispense_id', 'is', null).where('command_id', 'is', null);
    return q.orderBy('created_at', 'asc').orderBy('order_number', 'asc').limit(limit).execute();
  }

  /** A sweep's paid → `to`, only while the order is still paid and not vended (so no order moves twice). True when this call moved it. */
  async settleUnvended(orderNumber: string, to: 'refund_owed' | 'refunded', now: number): Promise<boolean> {
    return this.settleOpen(orderNumber, ['paid'], { pay_status: to, updated_at: now });
  }

  // --- tax restatement (docs/decisions/finance.md "Tax"): the only writes of `tax_rate` after a sale --

  /**
   * Restates the machine's orders sold in `[from, until)` at `rate` (percent; 0 = no tax): their net
   * and tax follow, their charged amount never changes. Returns how many orders changed rate.
   */
  async restateTaxRate(machineId: string, from: number, until: number, rate: number): Promise<number> {
    const r = await this.db
      .updateTable('orders')
      .set({ tax_rate: rate })
      .where('machine_id', '=', machineId)
      .where('created_at', '>=', from)
      .where('created_at', '<', until)
      .where((eb) => eb.or([eb('tax_rate', 'is', null), eb('tax_rate', '!=', rate)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * Stamps the machine's unstamped orders sold in `[from, until)` at `rate`, the rate they were
   * reported at, so a change of the machine's rate cannot reach them. Returns how many were stamped.
   */
  async pinUnstampedTaxRate(machineId: string, from: number, until: number, rate: number): Promise<number> {
    const r = await this.db
      .updateTable('orders')
      .set({ tax_rate: rate })
      .where('machine_id', '=', machineId)
      .where('created_at', '>=', from)
      .where('created_at', '<', until)
      .where('tax_rate', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** How many orders the machine sold in `[from, until)`. */
  async countOfMachine(machineId: string, from: number, until: number): Promise<number> {
    const { n } = await this.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('machine_id', '=', machineId)
      .where('created_at', '>=', from)
      .where('created_at', '<', until)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** Writes whole order rows as they are (a sandbox reset re-applying the money records it kept), 200 per statement. */
  /** An operator's vended sales, oldest first: what the sandbox seed draws FIFO cost for. */
  vendedSalesOf(operatorId: string) {
    return this.db
      .selectFrom('orders')
      .select(['order_number', 'machine_id', 'aisle_no', 'quantity', 'created_at'])
      .where('operator_id', '=', operatorId)
      .where('vended', '=', 1)
      .orderBy('created_at')
      .orderBy('order_number')
      .execute();
  }

  async insertOrders(rows: readonly OrderRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 200)
      await this.db
        .insertInto('orders')
        .values(rows.slice(i, i + 200))
        .execute();
  }
}

/**
 * An order with its machine's serial and current tax rate, the machine owner's merchant account, and for a
 * pay-by-phone order its refund through the processor (all null otherwise, or while nothing is owed).
 */
export type OrderView = OrderRow & {
  machine_no: string;
  machine_tax_rate: number | null;
  owner_account: string | null;
  checkout_id: string | null;
  refund_status: string | null;
  refund_cents: number | null;
  refund_id: string | null;
  refund_failure: string | null;
  refund_at: number | null;
};

export interface RollupRow {
  machine_no: string;
  channel: string;
  pay_status: string;
  tax_rate: number | null;
  machine_tax_rate: number | null;
  charged_cents: number;
  n: number;
}
