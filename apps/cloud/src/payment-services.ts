import type { Clock } from '@vend/protocol';
import type { AppContext } from './context.ts';
import type { Config } from './config.ts';
import type { AuditLog } from './http/audit.ts';
import type { AppStore } from './repos.ts';
import type { PaymentProcessor } from './domains/ad-purchases/processor.ts';
import { PaymentEventRouter, type PaymentEventOwner } from './domains/ad-purchases/payment-event-router.ts';
import { AD_PAYMENTS_WEBHOOK_PATH, TestProcessor } from './domains/ad-purchases/test-processor.ts';
import { StripeProcessor } from './domains/ad-purchases/stripe-processor.ts';
import { AdPurchasesService, type AdPurchasesDeps } from './domains/ad-purchases/ad-purchases.service.ts';
import { AdReceipts } from './domains/ad-purchases/ad-receipts.ts';
import type { MailSender } from './mail/mail-sender.ts';
import { DFY_POOL_WEBHOOK_PATH, DfyFleetsService } from './domains/dfy/pool/dfy-fleets.service.ts';
import { DFY_PAYMENTS_WEBHOOK_PATH } from './domains/dfy/deals/deal-payments.ts';
import type { DfyService } from './domains/dfy/deals/dfy.service.ts';
import { KIOSK_CHECKOUT_WEBHOOK_PATH } from './domains/kiosk-checkout/kiosk-checkout.service.ts';
import { KioskPaymentsService, type KioskPaymentsDeps } from './domains/kiosk-checkout/kiosk-payments.service.ts';
import { KioskRefundsService, type KioskRefundsDeps } from './domains/kiosk-checkout/kiosk-refunds.service.ts';

/**
 * The composition root's part for money (issue 34): which processors this deployment has, and the services that take
 * payments through them, built once. It lives beside services.ts, not in a domain, because the ad purchases' domain
 * may not import the DFY pool (a tier above it) nor the kiosk checkouts (after it in its tier), and the router of
 * processor events needs all of them.
 */

export interface PaymentProcessors {
  /** The sandbox's built-in test processor (null outside the sandbox). */
  test: TestProcessor | null;
  /** What takes money here: Stripe when configured, else the sandbox's test processor, else none (503s). */
  main: PaymentProcessor | null;
  /** `main` when it is a real one (Stripe); DFY pre-orders and checkouts charge only a real one (docs/decisions/dfy.md). */
  real: PaymentProcessor | null;
}

export function paymentProcessorsFor(d: { store: AppStore; clock: Clock; config: Config }, noProcessor = false): PaymentProcessors {
  const { store, clock, config } = d;
  const test = config.mode === 'sandbox' && !noProcessor ? new TestProcessor({ store, clock, config }) : null;
  const main =
    config.stripe && config.publicBaseUrl && !noProcessor ? new StripeProcessor({ stripe: config.stripe, publicBaseUrl: config.publicBaseUrl }) : test;
  return { test, main, real: main === test ? null : main };
}

/** What the payment services need from the rest of the root. */
export interface PaymentServicesDeps {
  store: AppStore;
  mail: MailSender;
  processors: PaymentProcessors;
  campaigns: AdPurchasesDeps['campaigns'];
  creatives: AdPurchasesDeps['creatives'];
  events: AdPurchasesDeps['events'] & KioskRefundsDeps['events'];
  sales: KioskPaymentsDeps['sales'] & KioskRefundsDeps['sales'];
  commands: KioskPaymentsDeps['commands'];
  /** The DFY deals: the pool funds its deals there; pre-orders and checkouts apply their payments there. */
  dfy: DfyService;
}

/** The services of money the routes and loops reach (part of `Services`). */
export interface PaymentServices {
  /** The DFY investment pool: investments paid through the processor, funding deals. */
  dfyFleets: DfyFleetsService;
  /** Paid ad purchases: the payment webhook, operators' approvals and refunds. */
  adPurchases: AdPurchasesService;
  /** The buyer's receipt e-mails: sent after the payment's commit, retried by the receipt loop. */
  adReceipts: AdReceipts;
  /** The processor's payments for kiosk checkouts: the order, the paid drop, or the refund a late payment is owed. */
  kioskPayments: KioskPaymentsService;
  /** Routes a processor's event to the place its intent named (Stripe delivers all of them to one endpoint). */
  paymentEvents: PaymentEventRouter;
}

/** The places that take money, their receipts and refunds (the kiosk refund loop's work), and the one router of the processor's events. */
export function paymentServices(
  ctx: Pick<AppContext, 'clock' | 'audit' | 'logger' | 'config'>,
  d: PaymentServicesDeps,
): PaymentServices & { kioskRefunds: KioskRefundsService } {
  const { clock, audit } = ctx;
  const { store, events, sales } = d;
  const { main, test } = d.processors;
  const adReceipts = new AdReceipts({ store, clock, mail: d.mail, logger: ctx.logger, config: ctx.config });
  const adPurchases = new AdPurchasesService({
    store,
    clock,
    audit,
    campaigns: d.campaigns,
    creatives: d.creatives,
    processor: main,
    events,
    receipts: adReceipts,
  });
  const kioskPayments = new KioskPaymentsService({ store, clock, audit, processor: main, sales, commands: d.commands });
  const dfyFleets = new DfyFleetsService({ store, clock, audit, processor: main, deals: d.dfy });
  const kioskRefunds = new KioskRefundsService({ store, clock, audit, processors: [main, test], sales, events });
  const paymentEvents = paymentEventRouter({ store, audit, ads: adPurchases, pool: dfyFleets, kiosk: kioskPayments, dfy: d.dfy.payments });
  return { adReceipts, adPurchases, kioskPayments, dfyFleets, kioskRefunds, paymentEvents };
}

/** A place's service: its own application of a verified event. */
type Receiver = { receivePayment: PaymentEventOwner };

/** The router of processor events: each place that takes money, by its webhook path. */
export function paymentEventRouter(deps: {
  store: AppStore;
  audit: AuditLog;
  ads: Receiver;
  pool: Receiver;
  kiosk: Receiver;
  dfy: Receiver;
}): PaymentEventRouter {
  const { ads, pool, kiosk, dfy } = deps;
  return new PaymentEventRouter({
    store: deps.store,
    audit: deps.audit,
    owners: new Map<string, PaymentEventOwner>([
      [AD_PAYMENTS_WEBHOOK_PATH, (e, payload) => ads.receivePayment(e, payload)],
      [DFY_POOL_WEBHOOK_PATH, (e, payload) => pool.receivePayment(e, payload)],
      [KIOSK_CHECKOUT_WEBHOOK_PATH, (e, payload) => kiosk.receivePayment(e, payload)],
      [DFY_PAYMENTS_WEBHOOK_PATH, (e, payload) => dfy.receivePayment(e, payload)],
    ]),
  });
}
