import type { Insertable } from 'kysely';
import type { Clock, CreateOrderData, CreateOrderRequest } from '@vend/protocol';
import type { OrdersTable } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { newId } from '../../crypto/ids.ts';
import type { AuditLog } from '../../http/audit.ts';
import { AppError, badRequest, conflict } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { TaxService } from '../tax/tax.service.ts';
import type { EventSink } from '../webhooks/webhook-events.ts';

/** Order states a dispense report may settle: awaiting the vend, or flagged by the refund sweep meanwhile. */
const SETTLEABLE = ['paid', 'refund_owed'] as const;

/** The cabinet a walk-up sale happens on, as the gateway resolved it from its credential. */
export interface SaleMachine {
  machineId: string;
  machineNo: string;
}

/** The order a vend fulfils. */
export type SoldOrder =
  /** A new order, written as sold: shipped and vended; its tax rate is stamped by `recordSale` (the one sale-time rule). */
  | { kind: 'new'; row: Omit<Insertable<OrdersTable>, 'pay_status' | 'vended' | 'tax_rate'> }
  /** A walk-up order awaiting its vend (paid, or flagged refund_owed meanwhile), settled by its dispense report. */
  | { kind: 'open'; orderNumber: string; dispenseId: string }
  /** The orders paid before a remote drop (a cabinet sale driven by the command). */
  | { kind: 'command'; commandId: string };

/** A vend that happened: which order it fulfils and which units left which aisle. */
export interface Sale {
  machineId: string;
  aisleNo: number;
  quantity: number;
  /** The units leave the aisle here; false for a cashless capture (the board's own dispense report takes them). */
  takesStock: boolean;
  order: SoldOrder;
  now: number;
}

export interface SaleRecord {
  /** The order was written or moved to shipped; false: an open order someone else settled first (nothing was written). */
  recorded: boolean;
  /** The units left the aisle; false when the sale takes none or the machine has no such aisle. */
  stockTaken: boolean;
  /** The FIFO cost the sale drew (docs/fifo.md): 0 when nothing was recorded or no layer covered it. */
  fifoCogsCents: number;
}

/**
 * A sale paid through a payment processor before its drop (a kiosk checkout, issue 32): the processor holds the
 * money, so its payment names the processor (as the order's terminal) and the processor's payment id.
 */
export interface PrepaidSale {
  machineId: string;
  aisleNo: number;
  amountCents: number;
  /** The processor's name (`test`, `stripe`): the payment's terminal. */
  processor: string;
  /** The processor's payment (intent) id: unique among orders, so one payment never makes two orders. */
  paymentRef: string;
  /** The remote drop that delivers it; null when nothing will (the payment came after its checkout ended). */
  commandId: string | null;
  now: number;
}

/** What a walk-up order report brings: the order it names, the aisle that turned and whether the vend succeeded. */
export interface WalkupReport {
  orderNumber: string;
  aisleNo: number;
  success: boolean;
  dispenseId: string;
}

export interface SalesDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** The sale-time tax rate (`TaxService.saleRate`): every order this service writes is stamped through it. */
  tax: Pick<TaxService, 'saleRate'>;
  /** Fleet events: a paid walk-up order, and an aisle a sale leaves low or empty. */
  events: EventSink;
}

/**
 * Sales (spec 1 §2.3, spec 2 §4.1): opening a walk-up order and recording a vend. `recordSale` is the
 * one operation that writes a sold order — the walk-up dispense report, family A's vended createOrder,
 * the remote-dispense ack and the cashless webhook all go through it — and its stock leaves the aisle
 * through the inventory's one atomic decrement.
 */
export class SalesService {
  constructor(private readonly deps: SalesDeps) {}

  /**
   * Records a vend inside the caller's transaction: the order as sold, then its stock, then its FIFO
   * cost (the inventory's one `consumeFifo`, drawn whether or not this call moves the stock: a cashless
   * capture is still the sale). A remote drop's cost is recorded against the first order it ships.
   */
  async recordSale(tx: Repos, sale: Sale): Promise<SaleRecord> {
    const o = sale.order;
    let orderNumber: string | undefined;
    if (o.kind === 'new') {
      const machine = await tx.machines.machineById(sale.machineId);
      const taxRate = machine ? await this.deps.tax.saleRate(tx, machine, sale.now) : null;
      await tx.orders.insertOrder({ ...o.row, tax_rate: taxRate, pay_status: 'shipped', vended: 1 });
      orderNumber = o.row.order_number;
    } else if (o.kind === 'command') {
      orderNumber = (await tx.orders.ordersOfCommand(o.commandId))[0]?.order_number;
      await tx.orders.settlePaidOfCommand(o.commandId, 'shipped', sale.now);
    } else if (!(await tx.orders.settleOpen(o.orderNumber, SETTLEABLE, { pay_status: 'shipped', vended: 1, dispense_id: o.dispenseId, updated_at: sale.now })))
      return { recorded: false, stockTaken: false, fifoCogsCents: 0 };
    else orderNumber = o.orderNumber;
    const stockTaken = sale.takesStock && (await tx.inventory.takeStock(sale.machineId, sale.aisleNo, sale.quantity));
    if (stockTaken) await this.stockEvents(tx, sale);
    const cost =
      orderNumber === undefined
        ? undefined
        : await tx.inventory.consumeFifo({ orderNumber, machineId: sale.machineId, aisleNo: sale.aisleNo, quantity: sale.quantity, now: sale.now });
    return { recorded: true, stockTaken, fifoCogsCents: cost?.costCents ?? 0 };
  }

  /** An aisle this sale emptied raises aisle.out; one it took to its alert threshold or below (from above) raises aisle.low. */
  private async stockEvents(tx: Repos, sale: Sale): Promise<void> {
    const aisle = await tx.inventory.aisle(sale.machineId, sale.aisleNo);
    if (!aisle) return;
    const left = aisle.current_stock;
    const crossedLow = left > 0 && left <= aisle.alert_threshold && left + sale.quantity > aisle.alert_threshold;
    if (left > 0 && !crossedLow) return;
    const machine = await tx.machines.machineById(sale.machineId);
    await this.deps.events.emit(tx, {
      operatorId: machine?.operator_id ?? null,
      type: left === 0 ? 'aisle.out' : 'aisle.low',
      machineNo: machine?.machine_no ?? null,
      data: { aisleNo: sale.aisleNo, stock: left, alertThreshold: aisle.alert_threshold, sku: aisle.sku },
    });
  }

  /**
   * Opens a walk-up order on the machine's operator (the pool's while unclaimed): paid, awaiting its
   * vend. The dispense report settles it (shipped, or refunded on failure); a cashless payment
   * webhook naming the order attaches its payment. Stock moves when the vend is reported.
   * `vended`: family A (`/apk/createOrder`) has no report leg, so its call records a sale already
   * made: shipped, stock taken, nothing left for the refund sweep.
   */
  async openWalkup(m: SaleMachine, body: CreateOrderRequest, opts: { vended?: boolean } = {}): Promise<CreateOrderData> {
    const payStatus = opts.vended ? 'shipped' : 'paid';
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const machine = await tx.machines.machineById(m.machineId);
      if (!machine) throw new AppError('not_found', 'Unknown device');
      const aisle = await tx.inventory.lockAisle(m.machineId, body.aisleNo);
      if (!aisle) throw badRequest(`Machine ${m.machineNo} has no aisle ${body.aisleNo}`);
      // A retried call (its answer was lost) gets the order the first one opened. Looked up under the
      // aisle's lock, before the stock rules: the first call may have taken the last unit.
      if (body.requestRef) {
        const prior = await tx.orders.orderByRequestRef(m.machineId, body.requestRef);
        if (prior) {
          if (prior.aisle_no !== body.aisleNo || prior.quantity !== body.quantity)
            throw conflict(`requestRef ${body.requestRef} already opened order ${prior.order_number} (aisle ${prior.aisle_no}, quantity ${prior.quantity})`);
          return {
            orderNumber: prior.order_number,
            machineCode: m.machineNo,
            aisleNo: prior.aisle_no,
            quantity: prior.quantity,
            amount: centsToDecimal(prior.charged_cents),
            amountCents: prior.charged_cents,
            payStatus: prior.pay_status,
          };
        }
      }
      if (aisle.faulted === 1) throw conflict(`Aisle ${body.aisleNo} is faulted`);
      if (aisle.price_cents <= 0) throw conflict(`Aisle ${body.aisleNo} has no price`);
      if (aisle.current_stock < body.quantity) throw conflict(`Aisle ${body.aisleNo} has ${aisle.current_stock} in stock, ${body.quantity} ordered`);
      const amount = aisle.price_cents * body.quantity;
      const payMethod = body.payMethod ?? 'card';
      const cashless = payMethod !== 'cash';
      const terminal = cashless ? await tx.machines.terminalOf(m.machineId) : undefined;
      const orderNumber = newId('ord', now);
      const row = {
        order_number: orderNumber,
        machine_id: m.machineId,
        operator_id: machine.operator_id,
        aisle_no: body.aisleNo,
        quantity: body.quantity,
        paid_cents: amount,
        charged_cents: amount,
        channel: 'walkup',
        pay_method: payMethod,
        terminal_id: terminal?.id ?? null,
        card_brand: cashless ? (body.cardBrand ?? null) : null,
        card_last4: cashless ? (body.cardLast4 ?? null) : null,
        settlement_account: terminal?.merchant_account ?? null,
        command_id: null,
        dispense_id: null,
        request_ref: body.requestRef ?? null,
        created_at: now,
        updated_at: now,
      };
      try {
        // the aisle is locked and holds the units: the stock is taken whole
        if (opts.vended)
          await this.recordSale(tx, {
            machineId: m.machineId,
            aisleNo: body.aisleNo,
            quantity: body.quantity,
            takesStock: true,
            order: { kind: 'new', row },
            now,
          });
        else await tx.orders.insertOrder({ ...row, tax_rate: await this.deps.tax.saleRate(tx, machine, now), pay_status: payStatus, vended: 0 });
      } catch (e) {
        // the same requestRef racing in on another aisle (the same aisle waits on its lock above)
        if (body.requestRef && isUniqueViolation(e)) throw conflict(`requestRef ${body.requestRef} is already in use on this cabinet`);
        throw e;
      }
      await this.deps.audit.record(tx, null, 'cabinet.order', `order:${orderNumber} machine:${m.machineNo}`);
      await this.deps.events.emit(tx, {
        operatorId: machine.operator_id,
        type: 'order.paid',
        machineNo: m.machineNo,
        data: { orderNumber, aisleNo: body.aisleNo, quantity: body.quantity, chargedCents: amount, payMethod, vended: opts.vended === true },
      });
      return {
        orderNumber,
        machineCode: m.machineNo,
        aisleNo: body.aisleNo,
        quantity: body.quantity,
        amount: centsToDecimal(amount),
        amountCents: amount,
        payStatus,
      };
    });
  }

  /**
   * Records a prepaid sale inside the caller's transaction: an order of one unit, `paid` and not vended, linked to
   * the remote command that drops it (`api_drop`, pay method `phone`), its payment settled to the machine owner's
   * merchant account as a cashless order's is. Without a command the money came for a purchase that had ended: the
   * order is owed back at once (`refund_owed`) and nothing drops. Stock moves when the drop is acknowledged.
   */
  async recordPrepaid(tx: Repos, s: PrepaidSale): Promise<{ orderNumber: string; payStatus: 'paid' | 'refund_owed' }> {
    const machine = await tx.machines.machineById(s.machineId);
    if (!machine) throw new AppError('not_found', 'Unknown device');
    const terminal = await tx.machines.terminalOf(s.machineId);
    const orderNumber = newId('ord', s.now);
    const payStatus = s.commandId === null ? 'refund_owed' : 'paid';
    await tx.orders.insertOrder({
      order_number: orderNumber,
      machine_id: s.machineId,
      operator_id: machine.operator_id,
      aisle_no: s.aisleNo,
      quantity: 1,
      paid_cents: s.amountCents,
      charged_cents: s.amountCents,
      tax_rate: await this.deps.tax.saleRate(tx, machine, s.now),
      channel: 'api_drop',
      pay_method: 'phone',
      terminal_id: s.processor,
      card_brand: null,
      card_last4: null,
      settlement_account: terminal?.merchant_account ?? null,
      command_id: s.commandId,
      dispense_id: null,
      payment_ref: s.paymentRef,
      request_ref: null,
      pay_status: payStatus,
      vended: 0,
      created_at: s.now,
      updated_at: s.now,
    });
    await this.deps.audit.record(tx, null, payStatus === 'paid' ? 'order.prepaid' : 'order.refund_owed', `order:${orderNumber} machine:${machine.machine_no}`);
    await this.deps.events.emit(tx, {
      operatorId: machine.operator_id,
      type: payStatus === 'paid' ? 'order.paid' : 'order.refund_owed',
      machineNo: machine.machine_no,
      data: { orderNumber, aisleNo: s.aisleNo, quantity: 1, chargedCents: s.amountCents, payMethod: 'phone', vended: false },
    });
    return { orderNumber, payStatus };
  }

  /**
   * A remote drop failed (or no outcome came in time), inside its transaction: the orders paid for it beforehand
   * are settled. Money a payment processor holds (the order has its payment id: a kiosk checkout's) is owed back
   * (`refund_owed`: given back through the processor, issue 34); any other is refunded at once, as before.
   */
  async settleFailedDrop(tx: Repos, commandId: string, now: number): Promise<void> {
    for (const { order_number } of await tx.orders.ordersOfCommand(commandId)) {
      const order = await tx.orders.order(order_number);
      if (!order) continue;
      const owed = order.payment_ref !== null;
      if (!(await tx.orders.settleUnvended(order_number, owed ? 'refund_owed' : 'refunded', now)) || !owed) continue;
      await this.deps.audit.record(tx, null, 'order.refund_owed', `order:${order_number}`);
      const machine = await tx.machines.machineById(order.machine_id);
      await this.deps.events.emit(tx, {
        operatorId: order.operator_id,
        type: 'order.refund_owed',
        machineNo: machine?.machine_no ?? null,
        data: { orderNumber: order_number, aisleNo: order.aisle_no, chargedCents: order.charged_cents, payMethod: order.pay_method },
      });
    }
  }

  /**
   * A processor-paid order's money was given back through its processor (issue 34: the kiosk refund loop), inside the
   * refund's transaction: `refund_owed` → `refunded`, once (false when it was not owed, or already moved).
   */
  async refundIssued(tx: Repos, orderNumber: string, now: number): Promise<boolean> {
    if (!(await tx.orders.settleOpen(orderNumber, ['refund_owed'], { pay_status: 'refunded', updated_at: now }))) return false;
    await this.deps.audit.record(tx, null, 'order.refund', `order:${orderNumber}`);
    return true;
  }

  /**
   * A walk-up vend's dispense report, inside the report's transaction: success records the sale
   * (shipped, stock taken); failure refunds the order. Answers the order's new status. An order of
   * another cabinet is 404, one for another aisle 400, one already settled 409.
   */
  async settleWalkup(tx: Repos, m: SaleMachine, report: WalkupReport, now: number): Promise<'shipped' | 'refunded'> {
    const order = await tx.orders.order(report.orderNumber);
    if (!order || order.machine_id !== m.machineId) throw new AppError('not_found', `Order ${report.orderNumber} not found on this cabinet`);
    if (order.aisle_no !== report.aisleNo)
      throw badRequest(`Order ${order.order_number} is for aisle ${order.aisle_no}, the report names aisle ${report.aisleNo}`);
    const alreadySettled = () => conflict(`Order ${order.order_number} is already settled (${order.pay_status})`);
    if (!report.success) {
      const refunded = await tx.orders.settleOpen(order.order_number, SETTLEABLE, {
        pay_status: 'refunded',
        vended: 0,
        dispense_id: report.dispenseId,
        updated_at: now,
      });
      if (!refunded) throw alreadySettled();
      return 'refunded';
    }
    const sale = await this.recordSale(tx, {
      machineId: m.machineId,
      aisleNo: order.aisle_no,
      quantity: order.quantity,
      takesStock: true,
      order: { kind: 'open', orderNumber: order.order_number, dispenseId: report.dispenseId },
      now,
    });
    if (!sale.recorded) throw alreadySettled();
    if (!sale.stockTaken) throw badRequest(`Machine ${m.machineNo} has no aisle ${order.aisle_no}`);
    return 'shipped';
  }
}
