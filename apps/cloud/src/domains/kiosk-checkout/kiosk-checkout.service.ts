import { CHECKOUT_TTL_SECONDS, type CheckoutData, type CheckoutRefund, type CheckoutRequest, type CheckoutStatus, type Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import { randomHex } from '../../crypto/secrets.ts';
import type { AuditLog } from '../../http/audit.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { PaymentProcessor } from '../ad-purchases/processor.ts';
import type { CabinetCaller } from '../gateway/device-auth.ts';
import { CHECKOUT_ID, cabinetRefund, failureDetail, moveOfCommand, secondsLeft } from './checkout.rules.ts';
import type { CheckoutRecord } from './kiosk-checkout.repo.ts';

/** Where the payment processor delivers checkout payments (signed as docs/ad-payments-webhook.md says). */
export const KIOSK_CHECKOUT_WEBHOOK_PATH = '/api/v1/kiosk-checkouts/webhook';
/** The shopper's phone page of a checkout: `/buy/{checkoutId}` (the QR's content). */
export const BUY_PATH = '/buy';
/** The currency of a cabinet whose operator names none (an unclaimed pool machine): the price lists' own. */
export const DEFAULT_CURRENCY = 'USD';

export interface KioskCheckoutDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Takes the payments; null: this deployment has none (creating a checkout answers 503). */
  processor: PaymentProcessor | null;
  config: Pick<Config, 'publicBaseUrl'>;
  /** How long a checkout's QR stays payable (default CHECKOUT_TTL_SECONDS). */
  ttlSeconds?: number;
}

/** A checkout as the cabinet hears it (`CheckoutData`), at `now`. */
export function checkoutView(r: CheckoutRecord, now: number): CheckoutData {
  const amountCents = Number(r.amount_cents);
  return {
    checkoutId: r.id,
    aisleNo: r.aisle_no,
    name: r.product_name,
    amountCents,
    amount: centsToDecimal(amountCents),
    currency: r.currency,
    payUrl: r.pay_url,
    status: r.status as CheckoutStatus,
    createdAt: formatTimestamp(r.created_at)!,
    expiresAt: formatTimestamp(r.expires_at)!,
    secondsLeft: secondsLeft(r.expires_at, now),
    paidAt: formatTimestamp(r.paid_at),
    orderNumber: r.order_number,
    commandId: r.command_id,
    refund: cabinetRefund(r.refund),
    detail: r.detail,
    refundState: refundStateOf(r),
  };
}

/** How a checkout's refund stands (null: nothing owed). */
export function refundStateOf(r: CheckoutRecord): CheckoutRefund | null {
  if (r.refund === null) return null;
  return {
    status: r.refund as CheckoutRefund['status'],
    amountCents: Number(r.amount_cents),
    refundId: r.refund_id,
    reason: r.refund === 'failed' ? r.refund_failure : null,
    at: formatTimestamp(r.refund_at),
    attempts: Number(r.refund_attempts),
  };
}

/** What the shopper's phone page shows: the checkout, where the cabinet is, and where to pay. */
export interface BuyView {
  checkout: CheckoutData;
  machineName: string;
  machineLocation: string;
  /** The processor's page (null while the intent is being made). */
  processorUrl: string | null;
}

const checkoutNotFound = () => notFound('Checkout');

/**
 * Pay by phone (issue 32, docs/kiosk-screen.md "Cloud: checkouts"): a cabinet asks for a checkout of one aisle,
 * at the price on the server's planogram, paid through the payment processor; at most one open per cabinet. The
 * payment itself arrives by the processor's webhook (`KioskPaymentsService`). A checkout's time and its drop are
 * settled lazily, by whoever reads it next: an unpaid one past its expiry is written `expired`, a paid one takes
 * its command's outcome (acknowledged → `vended`; failed or expired → `failed`, its money owed back).
 */
export class KioskCheckoutService {
  constructor(private readonly deps: KioskCheckoutDeps) {}

  private get ttlMs(): number {
    return (this.deps.ttlSeconds ?? CHECKOUT_TTL_SECONDS) * 1000;
  }

  /**
   * A new checkout for the aisle: its name and price from the planogram (never the cabinet's), the operator's
   * currency, a processor intent for exactly that amount. Refused: no processor (503), no such aisle (400), the
   * aisle faulted, unpriced or sold out (409), the cabinet busy with another open checkout (409, even when two
   * race: the database's one-open index lets one in). `origin`: the calling request's, for the phone page's
   * address when PUBLIC_BASE_URL is unset.
   */
  async create(caller: CabinetCaller, body: CheckoutRequest, origin: string): Promise<CheckoutData> {
    const { store, clock, processor } = this.deps;
    if (!processor) throw new AppError('unavailable', 'Paying by phone is not available: this deployment has no payment processor');
    const repos = store.repos;
    const machine = await repos.machines.machineById(caller.machineId);
    if (!machine) throw new AppError('not_found', 'Unknown device');
    const aisle = (await repos.inventory.aislesOf([machine.id])).find((a) => a.aisle_no === body.aisleNo);
    if (!aisle) throw badRequest(undefined, [{ path: 'body.aisleNo', message: `machine ${machine.machine_no} has no aisle ${body.aisleNo}` }]);
    const what = aisle.product_name ?? `Aisle ${aisle.aisle_no}`;
    if (aisle.faulted === 1) throw conflict(`${what} is out of order on this machine (aisle ${aisle.aisle_no} is faulted)`);
    if (aisle.price_cents <= 0) throw conflict(`${what} has no price yet (aisle ${aisle.aisle_no})`);
    if (aisle.current_stock <= 0) throw conflict(`${what} is sold out (aisle ${aisle.aisle_no})`);
    const now = clock.now();
    await this.refuseBusy(machine.id, now);

    const id = `chk_${randomHex(16)}`;
    const payUrl = `${this.deps.config.publicBaseUrl ?? origin}${BUY_PATH}/${id}`;
    const amountCents = aisle.price_cents;
    const currency = (await repos.gateway.currencyOf(machine.operator_id)) ?? DEFAULT_CURRENCY;
    const inserted = await repos.kioskCheckouts.insert({
      id,
      machine_id: machine.id,
      operator_id: machine.operator_id,
      aisle_no: aisle.aisle_no,
      product_name: aisle.product_name,
      amount_cents: amountCents,
      currency,
      processor: processor.name,
      intent_id: null,
      checkout_url: null,
      pay_url: payUrl,
      status: 'awaiting_payment',
      created_at: now,
      expires_at: now + this.ttlMs,
      paid_at: null,
      order_number: null,
      command_id: null,
      refund: null,
      detail: null,
      updated_at: now,
    });
    // another checkout got in between the check above and this insert
    if (!inserted) await this.refuseBusy(machine.id, now, true);

    let intent;
    try {
      intent = await processor.createIntent({
        purchaseId: id,
        amountCents,
        currency,
        description: `${what} from machine ${machine.machine_no} (aisle ${aisle.aisle_no})`,
        webhookPath: KIOSK_CHECKOUT_WEBHOOK_PATH,
        returnUrl: payUrl,
      });
    } catch (err) {
      // the cabinet is free again at once: nobody can pay a checkout without an intent
      await repos.kioskCheckouts.move(id, 'cancel', { detail: 'The payment service did not answer. Choose again on the screen.' }, clock.now());
      throw new AppError('upstream', 'The payment processor did not create the payment; nothing was charged', { cause: err });
    }
    await store.transaction(async (tx) => {
      await tx.kioskCheckouts.setIntent(id, intent.intentId, intent.checkoutUrl, clock.now());
      await this.deps.audit.record(
        tx,
        { credentialId: caller.keyId ?? 'fleet-secret', operatorId: machine.operator_id ?? '' },
        'kiosk_checkout.create',
        `checkout:${id}`,
      );
    });
    return checkoutView((await repos.kioskCheckouts.checkout(id))!, clock.now());
  }

  /** The cabinet's own checkout, settled to now; another cabinet's (or none) is 404. */
  async get(caller: CabinetCaller, checkoutId: string): Promise<CheckoutData> {
    const now = this.deps.clock.now();
    return checkoutView(await this.settle(await this.own(caller, checkoutId), now), now);
  }

  /**
   * The cabinet gave up: a checkout still awaiting payment is cancelled (its QR pays nothing any more: a payment
   * that arrives anyway is owed back). Any other checkout is answered as it stands — a paid one goes on to its drop.
   */
  async cancel(caller: CabinetCaller, checkoutId: string): Promise<CheckoutData> {
    const now = this.deps.clock.now();
    const row = await this.settle(await this.own(caller, checkoutId), now);
    if (row.status === 'awaiting_payment') await this.deps.store.repos.kioskCheckouts.move(row.id, 'cancel', {}, now);
    return checkoutView((await this.deps.store.repos.kioskCheckouts.checkout(row.id))!, now);
  }

  /** The phone page's view of a checkout, settled to now; null when no checkout has this id. */
  async buyView(checkoutId: string): Promise<BuyView | null> {
    if (!CHECKOUT_ID.test(checkoutId)) return null;
    const row = await this.deps.store.repos.kioskCheckouts.checkout(checkoutId);
    if (!row) return null;
    const now = this.deps.clock.now();
    const settled = await this.settle(row, now);
    return {
      checkout: checkoutView(settled, now),
      machineName: settled.machine_name,
      machineLocation: settled.machine_location,
      processorUrl: settled.checkout_url,
    };
  }

  private async own(caller: CabinetCaller, checkoutId: string): Promise<CheckoutRecord> {
    if (!CHECKOUT_ID.test(checkoutId)) throw checkoutNotFound();
    const row = await this.deps.store.repos.kioskCheckouts.checkout(checkoutId);
    if (!row || row.machine_id !== caller.machineId) throw checkoutNotFound();
    return row;
  }

  /** 409 when the machine still has an open checkout once each is settled to now; `raced`: the insert just lost to one. */
  private async refuseBusy(machineId: string, now: number, raced = false): Promise<void> {
    const repos = this.deps.store.repos;
    for (const open of await repos.kioskCheckouts.openOf(machineId)) {
      const settled = await this.settle(open, now);
      if (settled.status === 'awaiting_payment' || settled.status === 'paid' || settled.status === 'vending') {
        const doing = settled.status === 'awaiting_payment' ? 'waiting for its payment' : 'dropping a paid product';
        throw conflict(`This machine is busy with another purchase (${doing}); one purchase at a time, please try again shortly`);
      }
    }
    if (raced) throw conflict('This machine is busy with another purchase; one purchase at a time, please try again shortly');
  }

  private settle(row: CheckoutRecord, now: number): Promise<CheckoutRecord> {
    return settleCheckout(this.deps.store.repos, row, now);
  }
}

/**
 * A checkout as it stands at `now`, with what time and its drop have decided written down: unpaid past its expiry →
 * expired; paid and its command acknowledged → vended, failed or expired → failed with its money owed back. Each is
 * the repo's conditional move, so concurrent readers settle it once. The refund loop settles paid checkouts too, so
 * a failed drop is refunded even when nobody reads its checkout.
 */
export async function settleCheckout(repos: Repos, row: CheckoutRecord, now: number): Promise<CheckoutRecord> {
  const repo = repos.kioskCheckouts;
  if (row.status === 'awaiting_payment' && now >= row.expires_at) {
    await repo.move(row.id, 'expire', {}, now);
    return (await repo.checkout(row.id))!;
  }
  if ((row.status === 'paid' || row.status === 'vending') && row.command_id !== null) {
    const command = await repos.commands.commandById(row.machine_id, row.command_id);
    const move = command ? moveOfCommand(command) : null;
    if (!command || move === null) return row;
    await repo.move(row.id, move, move === 'fail' ? { refund: 'owed', detail: failureDetail(command) } : {}, now);
    return (await repo.checkout(row.id))!;
  }
  return row;
}
