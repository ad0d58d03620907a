import type { Kysely } from 'kysely';
import type { Clock } from '@vend/protocol';
import type { DB } from '../../db/schema.ts';
import { newId } from '../../crypto/ids.ts';
import type { AuditLog } from '../../http/audit.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import { AppError, badRequest, conflict } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import { offsetOf, type Page, type Paging } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { parseInput } from '../../http/validate.ts';
import { OrdersRepo, type OrderView } from '../orders/orders.repo.ts';
import type { OrderFilterInput } from '../orders/orders.schemas.ts';
import type { OrdersService } from '../orders/orders.service.ts';
import { PaymentsRepo } from './payments.repo.ts';
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
import { verifyWebhook } from './webhook-signature.ts';

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

/** Cashless payments (spec 1 §4.5): reconciliation reads and the provider webhook. */
export class PaymentsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly orders: OrdersService,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly webhookSecret: string,
  ) {}

  /** Every cashless transaction (orders paid through a terminal), newest first, with the order filters. */
  async list(p: Principal, q: OrderFilterInput & Paging): Promise<Page<PaymentRecord> & { timeZone: string }> {
    const { filter, timeZone } = await this.orders.resolveFilter(p, q, true);
    const { total, rows } = await new OrdersRepo(this.db).page(filter, q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, timeZone, records: rows.map(toPayment) };
  }

  /** Cashless totals grouped by the settlement account the money went to. */
  async summary(p: Principal, q: OrderFilterInput): Promise<PaymentsSummary> {
    const { filter, machineNo, timeZone } = await this.orders.resolveFilter(p, q, true);
    const accounts = new Map<string, AccountTotals>();
    const total = { count: 0, capturedCents: 0, refundedCents: 0, settledCents: 0 };
    for (const g of await new PaymentsRepo(this.db).totalsByAccount(filter)) {
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
    const rows = await new PaymentsRepo(this.db).terminals(ownerFilter(p));
    return rows.map((t) => ({
      terminalId: t.id,
      machineNo: t.machine_no,
      provider: t.provider,
      settlementAccount: t.merchant_account,
      boundAt: formatTimestamp(t.bound_at) ?? '',
    }));
  }

  /**
   * The provider webhook: authenticate the exact bytes (401), parse (400/422), then apply the event
   * in one transaction. The event id is claimed first, so a replay — even a concurrent one — changes
   * nothing; a refused event is rolled back with everything else and may be sent again.
   */
  async receive(req: WebhookRequest): Promise<WebhookResult> {
    const now = this.clock.now();
    const verdict = verifyWebhook({ secret: this.webhookSecret, timestamp: req.timestamp, signature: req.signature, rawBody: req.rawBody, nowMs: now });
    if (!verdict.ok) throw new AppError('unauthorized', undefined, { issues: [{ path: '', message: verdict.reason }] });
    const text = req.rawBody.toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw badRequest(undefined, [{ path: '', message: 'body is not valid JSON' }]);
    }
    const event = parseInput(WebhookEvent, json, 'body');
    return this.db.transaction().execute(async (trx) => {
      const repo = new PaymentsRepo(trx);
      const paymentRef = event.data.paymentId;
      const fresh = await repo.claimEvent({ id: event.id, type: event.type, payment_ref: paymentRef, order_number: null, payload: text, received_at: now });
      if (!fresh) {
        const seen = await repo.event(event.id);
        const order = seen?.order_number ? await repo.order(seen.order_number) : undefined;
        return {
          eventId: event.id,
          type: seen?.type ?? event.type,
          duplicate: true,
          orderNumber: seen?.order_number ?? null,
          payStatus: order?.pay_status ?? null,
        };
      }
      const result = event.type === 'payment.captured' ? await this.capture(trx, repo, event, now) : await this.refund(trx, repo, event, now);
      if (result.orderNumber) await repo.setEventOrder(event.id, result.orderNumber);
      return result;
    });
  }

  /**
   * A captured payment is a cashless sale on the reader's machine, settled to the machine owner's
   * merchant account. It attaches to the cabinet's order when `orderNumber` names one on that
   * machine, else records a new order. A payment already on file changes nothing.
   */
  private async capture(trx: Kysely<DB>, repo: PaymentsRepo, event: CapturedEvent, now: number): Promise<WebhookResult> {
    const d = event.data;
    const base = { eventId: event.id, type: event.type };
    const terminal = await repo.terminal(d.terminalId);
    if (!terminal) throw new AppError('validation', `Unknown payment terminal ${d.terminalId}`);
    const known = await repo.orderByPayment(d.paymentId);
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
    const existing = d.orderNumber !== undefined ? await repo.order(d.orderNumber) : undefined;
    if (existing) {
      if (existing.machine_id !== terminal.machine_id) throw conflict(`Order ${existing.order_number} was sold on another machine`);
      if (existing.payment_ref !== null) throw conflict(`Order ${existing.order_number} is already paid by another payment`);
      if (existing.charged_cents !== d.amountCents)
        throw conflict(`Order ${existing.order_number} charged ${existing.charged_cents} cents, the payment captured ${d.amountCents}`);
      await repo.attachPayment(existing.order_number, payment);
      await this.audit.record(trx, null, 'payments.webhook.captured', `order:${existing.order_number}`);
      return { ...base, duplicate: false, orderNumber: existing.order_number, payStatus: existing.pay_status };
    }

    if (d.aisleNo === undefined) throw badRequest(undefined, [{ path: 'body.data.aisleNo', message: 'is required when the payment records a new order' }]);
    if (!(await repo.hasAisle(terminal.machine_id, d.aisleNo)))
      throw badRequest(undefined, [{ path: 'body.data.aisleNo', message: `Machine ${terminal.machine_no} has no aisle ${d.aisleNo}` }]);
    const orderNumber = d.orderNumber ?? newId('ord', now);
    await repo.insertOrder({
      order_number: orderNumber,
      machine_id: terminal.machine_id,
      operator_id: terminal.machine_operator_id,
      aisle_no: d.aisleNo,
      quantity: d.quantity,
      // A reader captures only after the board reports the vend succeeded (MDB cashless flow): paid and dispensed.
      pay_status: 'shipped',
      paid_cents: d.amountCents,
      charged_cents: d.amountCents,
      tax_rate: terminal.machine_tax_rate,
      channel: 'walkup',
      command_id: null,
      dispense_id: null,
      vended: 1,
      created_at: now,
      ...payment,
    });
    await this.audit.record(trx, null, 'payments.webhook.captured', `order:${orderNumber}`);
    return { ...base, duplicate: false, orderNumber, payStatus: 'shipped' };
  }

  /** A refunded payment moves its order to `refunded`; refunding twice changes nothing more. */
  private async refund(trx: Kysely<DB>, repo: PaymentsRepo, event: RefundedEvent, now: number): Promise<WebhookResult> {
    const order = await repo.orderByPayment(event.data.paymentId);
    if (!order) throw new AppError('validation', `Unknown payment ${event.data.paymentId}`);
    if (order.pay_status !== 'refunded') {
      await repo.setPayStatus(order.order_number, 'refunded', now);
      await this.audit.record(trx, null, 'payments.webhook.refunded', `order:${order.order_number}`);
    }
    return { eventId: event.id, type: event.type, duplicate: false, orderNumber: order.order_number, payStatus: 'refunded' };
  }
}
