import { Router } from 'express';
import { z } from 'zod';
import { principalOf } from '../../../http/authenticate.ts';
import type { Principal } from '../../../http/principal.ts';
import { sendOk } from '../../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../../http/route.ts';
import { PAYMENT_WEBHOOK_ROUTING, PAYMENT_WEBHOOK_SIGNATURES, paymentEventOf, signedPaymentEvent } from '../../ad-purchases/ad-purchases.routes.ts';
import { RoutedPaymentEvent, type PaymentEventRouter } from '../../ad-purchases/payment-event-router.ts';
import { AdPaymentWebhookBody } from '../../ad-purchases/test-processor.ts';
import type { DealState } from './deal-model.ts';
import { DFY_PAYMENTS_WEBHOOK_PATH } from './deal-payments.ts';
import type { DfyInstallService } from '../shipping-install/install.service.ts';
import type { DfyPortfolioService } from '../portfolio/portfolio.service.ts';
import type { DfyService } from './dfy.service.ts';
import {
  AdvanceBody,
  AutopilotBody,
  CancelBody,
  CheckoutBody,
  CatalogData,
  Checkpoint,
  CheckpointPage,
  CheckpointParams,
  ConfirmBody,
  CreateDealBody,
  DealPage,
  DealParams,
  DealMoney,
  DealPaymentWebhookResult,
  DealView,
  ListCheckpointsQuery,
  ListDealsQuery,
  Portfolio,
  PreorderBody,
  RefundBody,
  Replay,
  ScoutAcceptBody,
  Securities,
  Settings,
  SettingsBody,
  TermsBody,
  TickResult,
  TrackingBody,
  WorkOrder,
  WorkOrderBody,
  WorkOrderParams,
} from './dfy.schemas.ts';

const P = '/api/v1/dfy';

/** What every answer carrying a deal says of paying through a real payment processor. */
const PAYING =
  'With a real payment processor (Stripe) the confirmed payment is not taken at once: the answer carries `payment` (status awaiting_payment, the catalog amount and `checkoutUrl`) — send the operator to checkoutUrl to pay; the deal moves only when the processor reports the payment (GET the deal to follow it; asking again answers the same payment). 502: the processor declined, 503: it is unavailable — nothing recorded either way. In the sandbox it is paid at once and `payment` is absent.';

/**
 * The autopilot's tick behind `POST /autopilot/tick`: the autopilot sits above negotiation and outreach
 * (domains/dfy-autopilot), so this layer names only what it calls and the composition root wires it.
 */
export interface AutopilotTick {
  tick(p: Principal): Promise<z.output<typeof TickResult>>;
}

/** The services behind the part-1 routes: the deal core, shipping and install, the portfolio, the autopilot's tick. */
export interface DfyRouteServices {
  deals: DfyService;
  install: DfyInstallService;
  portfolio: DfyPortfolioService;
  autopilot: AutopilotTick;
}

/**
 * The done-for-you placement pipeline, part 1 (spec 3; docs/decisions/dfy.md): reads need machines:read,
 * writes machines:write; every deal, checkpoint, work order and portfolio answer is the caller's own (404 otherwise).
 */
export function dfyRoutes(kit: RouteKit, { deals: dfy, install, portfolio, autopilot }: DfyRouteServices): Router {
  const r = Router();
  const tag = 'done-for-you';
  const R = { auth: 'operator' as const, scopes: ['machines:read' as const], tag };
  const W = { auth: 'operator' as const, scopes: ['machines:write' as const], tag };

  defineRoute(
    r,
    kit,
    { method: 'get', path: `${P}/catalog`, ...R, summary: 'Machine model tiers and prices (every checkout amount comes from here)', response: CatalogData },
    (_i, _req, res) => sendOk(res, dfy.catalog()),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/preorder`,
      ...W,
      summary: 'Confirmed pre-order checkout: a deal paid up front at the catalog price of its tier (refundable until shipped)',
      description: `${PAYING} Until then the deal waits at shortlisting (its scout raised); paid, it moves to pre_ordered.`,
      body: PreorderBody,
      response: DealView,
      errors: [502, 503],
    },
    async ({ body }, req, res) => sendOk(res, await dfy.payments.view(await dfy.preorder(principalOf(req), body))),
  );
  defineRoute(
    r,
    kit,
    { method: 'post', path: `${P}/deals`, ...W, summary: 'Ask for a machine to be placed: a deal at shortlisting', body: CreateDealBody, response: DealView },
    async ({ body }, req, res) => sendOk(res, await dfy.payments.view(await dfy.createDeal(principalOf(req), body))),
  );
  defineRoute(
    r,
    kit,
    { method: 'get', path: `${P}/deals`, ...R, summary: "The caller's deals, newest first", query: ListDealsQuery, response: DealPage },
    async ({ query }, req, res) => sendOk(res, await dfy.listDeals(principalOf(req), query)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: `${P}/deals/:dealId`,
      ...R,
      summary: 'One deal with its timeline (and the payment awaiting the operator, while one does)',
      params: DealParams,
      response: DealView,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await dfy.payments.view(await dfy.getDeal(principalOf(req), params.dealId))),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: `${P}/deals/:dealId/money`,
      ...R,
      summary:
        "The deal's money: the payment awaiting the operator, the payments taken and each one's refund (owed → issued, or failed with the processor's reason)",
      params: DealParams,
      response: DealMoney,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await dfy.payments.money(principalOf(req), params.dealId)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: `${P}/deals/:dealId/replay`,
      ...R,
      summary: "The deal's timeline re-applied from the first event (byte for byte the stored deal)",
      params: DealParams,
      response: Replay,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await dfy.replay(principalOf(req), params.dealId)),
  );

  const move = (
    path: string,
    summary: string,
    body:
      | typeof AdvanceBody
      | typeof ScoutAcceptBody
      | typeof TermsBody
      | typeof ConfirmBody
      | typeof CheckoutBody
      | typeof TrackingBody
      | typeof CancelBody
      | typeof RefundBody
      | typeof AutopilotBody
      | null,
    run: (p: ReturnType<typeof principalOf>, dealId: string, body: never) => Promise<DealState>,
    more: { description: string; errors: (502 | 503)[] } | null = null,
  ) =>
    defineRoute(
      r,
      kit,
      {
        method: 'post',
        path: `${P}/deals/:dealId/${path}`,
        ...W,
        summary,
        ...(more ? { description: more.description } : {}),
        params: DealParams,
        ...(body ? { body } : {}),
        response: DealView,
        errors: [404, 409, ...(more?.errors ?? [])],
      },
      async ({ params, body: b }, req, res) => sendOk(res, await dfy.payments.view(await run(principalOf(req), params.dealId, b as never))),
    );

  move(
    'preorder',
    'Confirmed pre-order payment for a requested deal at shortlisting (shortlisting → pre_ordered)',
    ConfirmBody,
    (p, id) => dfy.preorderDeal(p, id),
    { description: PAYING, errors: [502, 503] },
  );
  move(
    'advance',
    'Advance a pre-ordered deal: to shortlisting, or to outreach when its venue is named',
    AdvanceBody,
    (p, id, b: { to: 'shortlisting' | 'outreach' }) => dfy.advance(p, id, b),
  );
  move(
    'scout/accept',
    "Accept a venue from the scout's shortlist (resolves scout_outreach; shortlisting → outreach)",
    ScoutAcceptBody,
    (p, id, b: { venue: Parameters<DfyService['acceptScout']>[2] }) => dfy.acceptScout(p, id, b.venue),
  );
  move(
    'negotiation/terms',
    'Record the converged terms for review (raises negotiation_review, and terms_approval near the mandate edge)',
    TermsBody,
    (p, id, b: Parameters<DfyService['recordTerms']>[2]) => dfy.recordTerms(p, id, b),
  );
  move('negotiation/review', 'The terms reviewed: resolves negotiation_review (outreach → lease_chat)', null, (p, id) => dfy.reviewNegotiation(p, id));
  move('negotiation/approve-terms', 'Confirm gate: approve terms near the mandate edge (resolves terms_approval)', ConfirmBody, (p, id, b: { confirm: true }) =>
    dfy.approveTerms(p, id, b.confirm),
  );
  move('lease/send', 'Confirm gate: send the lease (resolves lease_send; 409 until terms_approval is resolved)', ConfirmBody, (p, id, b: { confirm: true }) =>
    dfy.sendLease(p, id, b.confirm),
  );
  move('lease/signature', 'The venue signed: lease_sent → signed, or → ready_to_ship when the machine is paid', null, (p, id) => dfy.recordSignature(p, id));
  move(
    'order/checkout',
    'Confirm gate: pay for the machine at the catalog price (resolves money; pre-provisions the fleet pin)',
    CheckoutBody,
    (p, id, b: { confirm: true }) => dfy.checkout(p, id, b.confirm),
    { description: PAYING, errors: [502, 503] },
  );
  move('shipping/tracking', 'Record the shipment tracking: ready_to_ship → shipped', TrackingBody, (p, id, b: { carrier: string; trackingNumber: string }) =>
    install.recordTracking(p, id, b),
  );
  move('autopilot', 'Per-deal autopilot override: true, false or null (follow the portfolio)', AutopilotBody, (p, id, b: { enabled: boolean | null }) =>
    dfy.setAutopilot(p, id, b),
  );
  move(
    'cancel',
    'Cancel the deal (the only correction); payments are refunded when it has not shipped',
    CancelBody,
    (p, id, b: { reason: string }) => dfy.cancel(p, id, b.reason),
    {
      description:
        "A payment taken through the payment processor is refunded through it at once; a refund it refuses or cannot take now stays on the deal's money (GET …/money: refund failed or owed) for POST …/refund to retry. The cancel stands either way.",
      errors: [],
    },
  );
  move(
    'refund',
    'Confirmed refund of every payment of a deal that has not shipped; the deal is cancelled',
    RefundBody,
    (p, id, b: { reason: string }) => dfy.refund(p, id, b.reason),
    {
      description:
        "A payment taken through the payment processor is refunded through it; each payment's refund shows on the deal's money (GET …/money: owed → issued, or failed with the processor's reason). 502: the processor refused (recorded failed), 503: it is unavailable (still owed); the deal is cancelled either way, and calling again retries what is owed or failed (never refunding twice).",
      errors: [502, 503],
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/deals/:dealId/install/dispatch`,
      ...W,
      summary: 'Confirmed install dispatch: creates a dfy_install work order',
      params: DealParams,
      body: ConfirmBody,
      response: WorkOrder,
      errors: [404, 409],
    },
    async ({ params }, req, res) => sendOk(res, await install.dispatchInstall(principalOf(req), params.dealId)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/install/orders/:id`,
      ...W,
      summary: 'Advance a work order forward only (open → assigned → scheduled → en_route → on_site → completed); on_site begins the install',
      params: WorkOrderParams,
      body: WorkOrderBody,
      response: WorkOrder,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await install.advanceWorkOrder(principalOf(req), params.id, body)),
  );
  defineRoute(
    r,
    kit,
    { method: 'get', path: `${P}/install/orders/:id`, ...R, summary: 'One work order', params: WorkOrderParams, response: WorkOrder, errors: [404] },
    async ({ params }, req, res) => sendOk(res, await install.workOrder(principalOf(req), params.id)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: `${P}/checkpoints`,
      ...R,
      summary: 'The checkpoint inbox, newest first',
      query: ListCheckpointsQuery,
      response: CheckpointPage,
      errors: [404],
    },
    async ({ query }, req, res) => sendOk(res, await dfy.checkpoints(principalOf(req), query)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/checkpoints/:checkpointId/acknowledge`,
      ...W,
      summary:
        'Resolve an acknowledgement checkpoint (call_outcome, contact_verify, reply_review, mode_resume, cashless_fail); others only by their action (409)',
      params: CheckpointParams,
      response: Checkpoint,
      errors: [404, 409],
    },
    async ({ params }, req, res) => sendOk(res, await dfy.acknowledge(principalOf(req), params.checkpointId)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/autopilot/tick`,
      ...W,
      summary: 'Advance what autonomy allows on the caller’s deals and DFY machines, within the portfolio settings (never past a confirm gate)',
      response: TickResult,
    },
    async (_i, req, res) => sendOk(res, await autopilot.tick(principalOf(req))),
  );

  defineRoute(
    r,
    kit,
    { method: 'get', path: `${P}/portfolio/settings`, ...R, summary: 'Portfolio settings (defaults until set)', response: Settings },
    async (_i, req, res) => sendOk(res, await portfolio.getSettings(principalOf(req))),
  );
  defineRoute(
    r,
    kit,
    { method: 'put', path: `${P}/portfolio/settings`, ...W, summary: 'Replace the portfolio settings (spec 3 §2)', body: SettingsBody, response: Settings },
    async ({ body }, req, res) => sendOk(res, await portfolio.putSettings(principalOf(req), body)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: `${P}/portfolio`,
      ...R,
      summary: 'Machines owned, deals in flight, capital, month-to-date revenue, costs, net, yield, inbox',
      response: Portfolio,
    },
    async (_i, req, res) => sendOk(res, await portfolio.portfolio(principalOf(req))),
  );
  defineRoute(
    r,
    kit,
    { method: 'get', path: `${P}/portfolio/securities`, ...R, summary: 'The portfolio with profit per machine, rollups and mode counts', response: Securities },
    async (_i, req, res) => sendOk(res, await portfolio.securities(principalOf(req))),
  );

  return r;
}

/**
 * The payment processor's webhook for DFY pre-orders and checkouts (docs/dfy.md): the ad payments webhook's scheme and
 * key (the same processor), mounted before the global JSON parser as it reads the raw body itself. With Stripe these
 * events arrive at the ad payments webhook and are routed here by their webhook path (`router`).
 */
export function dfyPaymentsWebhookRoutes(kit: RouteKit, dfy: DfyService, router: PaymentEventRouter): Router {
  const r = Router();
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: DFY_PAYMENTS_WEBHOOK_PATH,
      tag: 'done-for-you',
      summary: `Payment processor webhook for done-for-you pre-orders and checkouts, ${PAYMENT_WEBHOOK_SIGNATURES}`,
      description: `Idempotent on the event id. \`payment_intent.succeeded\` (data.purchaseId: the payment id of the deal's \`payment\`) with the payment's own amount and currency (400 otherwise, nothing recorded) moves the deal: a pre-order to pre_ordered, a checkout resolves money (at signed: ready_to_ship). A deal that can no longer take it keeps its stage and the money is owed back (refundOwed). Other types are recorded only. ${PAYMENT_WEBHOOK_ROUTING}`,
      auth: 'signature',
      body: AdPaymentWebhookBody,
      response: z.union([DealPaymentWebhookResult, RoutedPaymentEvent]),
      errors: [503],
    },
    signedPaymentEvent((raw, headers) => dfy.payments.verifyWebhook(raw, headers), { path: DFY_PAYMENTS_WEBHOOK_PATH, router }),
    async (_input, _req, res) => sendOk(res, await dfy.payments.receivePayment(...paymentEventOf(res))),
  );
  return r;
}
