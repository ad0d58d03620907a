import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import { newId } from '../../crypto/ids.ts';
import type { AuditLog } from '../../http/audit.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import { AppError, badRequest, conflict } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import { offsetOf, type Page, type Paging } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { parseInput } from '../../http/validate.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { OrderView } from '../orders/orders.repo.ts';
import type { OrderFilterInput } from '../orders/orders.schemas.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import type { SalesService } from '../orders/sales.service.ts';
import {
  WebhookEvent,
  type AccountTotals,
  type CapturedEvent,
  type PaymentRecord,
  type PaymentsSummary,
  type RefundedEvent,
  type Terminal,
  type WebhookResult,
} from './payments.schemas.ts';
import { verifyWebhook } from '../../http/webhook-signature.ts';

function toPayment(row: OrderView): PaymentRecord {
  return {
    orderNumber: row.order_number,
    machineNo: row.machine_no,
    terminalId: row.terminal_id ?? '',
    cardBrand: row.card_brand,
    last4: row.card_last4,
    settlementAccount: row.settlement_account ?? row.owner_account,
    payMethod: row.pay_method,
    amount: centsToDecimal(row.charged_cents),
    amountCents: row.charged_cents,
    status: row.pay_status === 'refunded' ? 'refunded' : 'captured',
    payStatus: row.pay_status,
    createdAt: formatTimestamp(row.created_at) ?? '',
  };
}

export interface WebhookRequest {
  rawBody: Buffer;
  timestamp: unknown;
  signature: unknown;
}

/** A webhook body whose signature held: its exact text and what it parses to as JSON. */
export interface SignedPayload {
  text: string;
  json: unknown;
}

export interface PaymentsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** The order filters (payments read orders with them). */
  orders: OrdersService;
  /** Records the sale a captured payment with no cabinet order makes. */
  sales: SalesService;
  config: Pick<Config, 'webhookSecret'>;
}

/** Cashless payments (spec 1 §4.5): reconciliation reads and the provider webhook. */
export class PaymentsService {
  constructor(private readonly deps: PaymentsDeps) {}

  /** Every cashless transaction (orders paid through a terminal), newest first, with the order filters. */
  async list(p: Principal, q: OrderFilterInput & Paging): Promise<Page<PaymentRecord> & { timeZone: string }> {
    const { filter, timeZone } = await this.deps.orders.resolveFilter(p, q, true);
    const { total, rows } = await this.deps.store.repos.orders.page(filter, q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, timeZone, records: rows.map(toPayment) };
  }

  /** Cashless totals grouped by the settlement account the money went to. */
  async summary(p: Principal, q: OrderFilterInput): Promise<PaymentsSummary> {
    const { filter, machineNo, timeZone } = await this.deps.orders.resolveFilter(p, q, true);
    const accounts = new Map<string, AccountTotals>();
    const total = { count: 0, capturedCents: 0, refundedCents: 0, settledCents: 0 };
    for (const g of await this.deps.store.repos.payments.totalsByAccount(filter)) {
      const account = g.settlement_account ?? g.owner_account ?? 'unassigned';
      let a = accounts.get(account);
      if (!a) accounts.set(account, (a = { settlementAccount: account, count: 0, capturedCents: 0, refundedCents: 0, settledCents: 0 }));
      for (const t of [a, total]) {
        t.count += g.n;
        t.capturedCents += g.cents;
        if (g.pay_status === 'refunded') t.refundedCents += g.cents;
        else t.settledCents += g.cents;
      }
    }
    return {
      machineNo,
      startTime: q.startTime ?? null,
      endTime: q.endTime ?? null,
      timeZone,
      ...total,
      accounts: [...accounts.values()].sort((a, b) => (a.settlementAccount < b.settlementAccount ? -1 : 1)),
    };
  }

  /** Which reader is on which machine, and which merchant account it feeds. */
  async terminals(p: Principal): Promise<Terminal[]> {
    const rows = await this.deps.store.repos.payments.terminals(ownerFilter(p));
    return rows.map((t) => ({
      terminalId: t.id,
      machineNo: t.machine_no,
      provider: t.provider,
      settlementAccount: t.merchant_account,
      boundAt: formatTimestamp(t.bound_at) ?? '',
    }));
  }

  /**
   * The provider webhook's first step, before its body is parsed: authenticate the exact bytes (401),
   * then read them as JSON (400).
   */
  verifyWebhook(req: WebhookRequest): SignedPayload {
    const verdict = verifyWebhook({
      secret: this.deps.config.webhookSecret,
      timestamp: req.timestamp,
      signature: req.signature,
      rawBody: req.rawBody,
      nowMs: this.deps.clock.now(),
    });
    if (!verdict.ok) throw new AppError('unauthorized', undefined, { issues: [{ path: '', message: verdict.reason }] });
    const text = req.rawBody.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw badRequest(undefined, [{ path: '', message: 'body is not valid JSON' }]);
    }
    // JSON null is not an absent body: judged here as the event it fails to be (a typed route reads an absent body as {}).
    if (json === null) parseInput(WebhookEvent, json, 'body');
    return { text, json };
  }

  /**
   * The provider webhook, once verified (`verifyWebhook`) and parsed: applies the event in one
   * transaction. The event id is claimed first, so a replay — even a concurrent one — changes
   * nothing; a refused event is rolled back with everything else and may be sent again.
   */
  async receive(event: WebhookEvent, payload: string): Promise<WebhookResult> {
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const repo = tx.payments;
      const paymentRef = event.data.paymentId;
      const fresh = await repo.claimEvent({ id: event.id, type: event.type, payment_ref: paymentRef, order_number: null, payload, received_at: now });
      if (!fresh) {
        const seen = await repo.event(event.id);
        const order = seen?.order_number ? await tx.orders.order(seen.order_number) : undefined;
        return {
          eventId: event.id,
          type: seen?.type ?? event.type,
          duplicate: true,
          orderNumber: seen?.order_number ?? null,
          payStatus: order?.pay_status ?? null,
        };
      }
      const result = event.type === 'payment.captured' ? await this.capture(tx, event, now) : await this.refund(tx, event, now);
      if (result.orderNumber) await repo.setEventOrder(event.id, result.orderNumber);
      return result;
    });
  }

  /**
   * A captured payment is a cashless sale on the reader's machine, settled to the machine owner's
   * merchant account. It attaches to the cabinet's order when `orderNumber` names one on that
   * machine, else records a new order. A payment already on file changes nothing.
   */
  private async capture(tx: Repos, event: CapturedEvent, now: number): Promise<WebhookResult> {
    const d = event.data;
    const base = { eventId: event.id, type: event.type };
    const terminal = await tx.payments.terminal(d.terminalId);
    if (!terminal) throw new AppError('not_found', `Unknown payment terminal ${d.terminalId}`);
    const known = await tx.orders.orderByPayment(d.paymentId);
    if (known) return { ...base, duplicate: true, orderNumber: known.order_number, payStatus: known.pay_status };

    const settlement = terminal.owner_account ?? terminal.merchant_account;
    const payment = {
      terminal_id: terminal.id,
      card_brand: d.cardBrand,
      card_last4: d.last4,
      settlement_account: settlement,
      pay_method: d.method,
      payment_ref: d.paymentId,
      updated_at: now,
    };
    const existing = d.orderNumber !== undefined ? await tx.orders.order(d.orderNumber) : undefined;
    if (existing) {
      if (existing.machine_id !== terminal.machine_id) throw conflict(`Order ${existing.order_number} was sold on another machine`);
      if (existing.payment_ref !== null) throw conflict(`Order ${existing.order_number} is already paid by another payment`);
      if (existing.charged_cents !== d.amountCents)
        throw conflict(`Order ${existing.order_number} charged ${existing.charged_cents} cents, the payment captured ${d.amountCents}`);
      await tx.orders.attachPayment(existing.order_number, payment);
      await this.deps.audit.record(tx, null, 'payments.webhook.captured', `order:${existing.order_number}`);
      return { ...base, duplicate: false, orderNumber: existing.order_number, payStatus: existing.pay_status };
    }

    if (d.aisleNo === undefined) throw badRequest(undefined, [{ path: 'body.data.aisleNo', message: 'is required when the payment records a new order' }]);
    if (!(await tx.inventory.aisle(terminal.machine_id, d.aisleNo)))
      throw badRequest(undefined, [{ path: 'body.data.aisleNo', message: `Machine ${terminal.machine_no} has no aisle ${d.aisleNo}` }]);
    const orderNumber = d.orderNumber ?? newId('ord', now);
    // A reader captures only after the board reports the vend succeeded (MDB cashless flow): paid and
    // dispensed. The board's own dispense report takes the stock.
    const row = {
      order_number: orderNumber,
      machine_id: terminal.machine_id,
      operator_id: terminal.machine_operator_id,
      aisle_no: d.aisleNo,
      quantity: d.quantity,
      paid_cents: d.amountCents,
      charged_cents: d.amountCents,
      channel: 'walkup',
      command_id: null,
      dispense_id: null,
      created_at: now,
      ...payment,
    };
    await this.deps.sales.recordSale(tx, {
      machineId: terminal.machine_id,
      aisleNo: d.aisleNo,
      quantity: d.quantity,
      takesStock: false,
      order: { kind: 'new', row },
      now,
    });
    await this.deps.audit.record(tx, null, 'payments.webhook.captured', `order:${orderNumber}`);
    return { ...base, duplicate: false, orderNumber, payStatus: 'shipped' };
  }

  /** A refunded payment moves its order to `refunded`; refunding twice changes nothing more. */
  private async refund(tx: Repos, event: RefundedEvent, now: number): Promise<WebhookResult> {
    const order = await tx.orders.orderByPayment(event.data.paymentId);
    if (!order) throw new AppError('not_found', `Unknown payment ${event.data.paymentId}`);
    if (order.pay_status !== 'refunded') {
      await tx.orders.setPayStatus(order.order_number, 'refunded', now);
      await this.deps.audit.record(tx, null, 'payments.webhook.refunded', `order:${order.order_number}`);
    }
    return { eventId: event.id, type: event.type, duplicate: false, orderNumber: order.order_number, payStatus: 'refunded' };
  }
}
