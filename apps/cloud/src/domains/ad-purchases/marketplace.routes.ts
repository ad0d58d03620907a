import { Router, type Request } from 'express';
import { z } from 'zod';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import {
  CreativeDraftView,
  CreatePurchaseBody,
  DraftLookupBody,
  DraftUploadBody,
  GenerateBody,
  IntentParams,
  KioskParams,
  KioskQuery,
  KioskView,
  PurchaseCreated,
  PurchaseStatusView,
  QuoteBody,
  QuoteView,
  ResubmitBody,
  StatusLookupBody,
} from './ad-purchases.schemas.ts';
import { buyerOf } from './buyer.ts';
import type { MarketplaceService } from './marketplace.service.ts';
import type { TestProcessor } from './test-processor.ts';

/** The request's own origin (where the test processor delivers its webhook when PUBLIC_BASE_URL is unset). */
function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}

const TestIntentView = z.object({
  intentId: z.string(),
  purchaseId: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
  description: z.string(),
  status: z.enum(['requires_payment', 'succeeded']),
  createdAt: z.string(),
  succeededAt: z.string().nullable(),
  returnUrl: z.string().nullable().describe('Where the buyer is sent once paid (the intent’s returnUrl); null: the checkout page says paid'),
});
const TestCompletionView = z.object({
  intent: TestIntentView,
  delivery: z.object({ url: z.string(), status: z.number().int().nullable(), answer: z.unknown(), error: z.string().nullable() }),
});

/**
 * The buyer's JSON routes (spec 1 §4.7), no API key; each is one call of the service the buyer
 * pages use. Secrets (the status and draft tokens) travel in bodies, never in URLs (which are logged).
 * `testProcessor`: the sandbox's built-in processor, whose intents a buyer can pay here.
 */
export function marketplaceRoutes(kit: RouteKit, market: MarketplaceService, testProcessor: TestProcessor | null): Router {
  const r = Router();
  const base = { tag: 'ad marketplace', auth: 'none' as const };
  const budgeted = [429];

  defineRoute(
    r,
    kit,
    {
      ...base,
      method: 'get',
      path: '/api/v1/marketplace/kiosks/:machineNo',
      summary: 'The kiosk an advertise QR leads to: whether the QR is its own and whether it is offered for advertising',
      params: KioskParams,
      query: KioskQuery,
      response: KioskView,
      errors: [404, ...budgeted],
    },
    async ({ params, query }, req, res) => sendOk(res, await market.kiosk(buyerOf(req), params.machineNo, query.qr)),
  );

  defineRoute(
    r,
    kit,
    {
      ...base,
      method: 'post',
      path: '/api/v1/marketplace/quote',
      summary: 'Price a brief now: the reach resolved over opted-in operators’ kiosks, the price list in force (any amount sent is ignored)',
      body: QuoteBody,
      response: QuoteView,
      errors: budgeted,
    },
    async ({ body }, req, res) => sendOk(res, await market.quote(buyerOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      ...base,
      method: 'post',
      path: '/api/v1/marketplace/drafts/generate',
      summary: 'One studio generation into a creative draft (a new draft without draftToken); at most 3 per purchase',
      body: GenerateBody,
      response: CreativeDraftView,
      errors: [404, 409, 502, ...budgeted],
    },
    async ({ body }, req, res) => sendOk(res, await market.generateCreative(buyerOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      ...base,
      method: 'post',
      path: '/api/v1/marketplace/drafts/upload',
      summary: 'Upload a creative into a draft (a new draft without draftToken): PNG/JPEG/WebP/MP4, portrait, at least 540×960',
      body: DraftUploadBody,
      response: CreativeDraftView,
      errors: [404, 409, ...budgeted],
    },
    async ({ body }, req, res) => sendOk(res, await market.uploadCreative(buyerOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      ...base,
      method: 'post',
      path: '/api/v1/marketplace/drafts/lookup',
      summary: 'A creative draft by its token',
      body: DraftLookupBody,
      response: CreativeDraftView,
      errors: [404, ...budgeted],
    },
    async ({ body }, req, res) => sendOk(res, await market.draftOf(buyerOf(req), body.draftToken)),
  );

  defineRoute(
    r,
    kit,
    {
      ...base,
      method: 'post',
      path: '/api/v1/marketplace/purchases',
      summary: 'Buy: the quote recomputed on the server, a payment intent for it, the status token (shown once) and where to pay',
      description: 'Fields the service does not read are ignored: an amount or a quote sent along changes nothing.',
      body: CreatePurchaseBody,
      response: PurchaseCreated,
      errors: [409, 502, 503, ...budgeted],
    },
    async ({ body }, req, res) => sendOk(res, await market.createPurchase(buyerOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      ...base,
      method: 'post',
      path: '/api/v1/marketplace/purchases/lookup',
      summary: 'A purchase’s status by its status token: each operator’s approval, reasons, refunds owed',
      body: StatusLookupBody,
      response: PurchaseStatusView,
      errors: [404, ...budgeted],
    },
    async ({ body }, req, res) => sendOk(res, await market.statusOf(buyerOf(req), body.statusToken)),
  );

  defineRoute(
    r,
    kit,
    {
      ...base,
      method: 'post',
      path: '/api/v1/marketplace/purchases/resubmit',
      summary: 'Change the ad of a rejected line and send it for approval again, by the status token, while its refund is not issued',
      description:
        'The new ad is a creative of a fresh draft (drafts/upload or drafts/generate without a draftToken); the draft is used up. The line goes back to pending_approval with a new draft campaign for its operator and owes no refund any more. 409: a line not rejected, a line already refunded (the money is gone: buy again), a flight over, a draft already used.',
      body: ResubmitBody,
      response: PurchaseStatusView,
      errors: [404, 409, ...budgeted],
    },
    async ({ body }, req, res) => sendOk(res, await market.resubmit(buyerOf(req), body)),
  );

  if (testProcessor) {
    defineRoute(
      r,
      kit,
      {
        ...base,
        method: 'get',
        path: '/api/v1/marketplace/test-payments/:intentId',
        summary: 'Sandbox: a payment intent of the built-in test processor (what its checkout page /pay/test/{intentId} shows)',
        params: IntentParams,
        response: TestIntentView,
        errors: [404],
      },
      async ({ params }, _req, res) => sendOk(res, await testProcessor.intent(params.intentId)),
    );
    defineRoute(
      r,
      kit,
      {
        ...base,
        method: 'post',
        path: '/api/v1/marketplace/test-payments/:intentId/complete',
        summary: 'Sandbox: pay a test intent — it succeeds and the processor delivers its signed webhook to this service over HTTP',
        params: IntentParams,
        response: TestCompletionView,
        errors: [404],
      },
      async ({ params }, req, res) => sendOk(res, await testProcessor.complete(params.intentId, originOf(req))),
    );
  }

  return r;
}
