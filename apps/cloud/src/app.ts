import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import { compressText } from './http/compress.ts';
import { pinoHttp } from 'pino-http';
import type { AppContext } from './context.ts';
import type { Services } from './services.ts';
import { SANDBOX_CREDENTIALS } from './db/seed.ts';
import { errorHandler, notFoundHandler } from './http/error-middleware.ts';
import { sandboxRoutes } from './domains/sandbox/sandbox.routes.ts';
import { metaRoutes } from './domains/meta/meta.routes.ts';
import { inventoryRoutes } from './domains/inventory/inventory.routes.ts';
import { ordersRoutes } from './domains/orders/orders.routes.ts';
import { paymentsRoutes, paymentsWebhookRoutes } from './domains/payments/payments.routes.ts';
import { authRoutes } from './domains/auth/auth.routes.ts';
import { accountsRoutes } from './domains/accounts/accounts.routes.ts';
import { machinesRoutes } from './domains/machines/machines.routes.ts';
import { cabinetSettingsRoutes } from './domains/machines/cabinet-settings.routes.ts';
import { kioskPageRoutes } from './domains/machines/kiosk-page.ts';
import { operatorViewRoutes } from './domains/operator-view/operator-view.routes.ts';
import { commandsRoutes } from './domains/commands/commands.routes.ts';
import { jobsRoutes } from './jobs/jobs.routes.ts';
import { gatewayHotLegs, gatewayRoutes } from './domains/gateway/gateway.routes.ts';
import { apkRoutes } from './domains/apk/apk.routes.ts';
import { deviceCredentialsRoutes } from './domains/device-credentials/device-credentials.routes.ts';
import { factoryBuildsRoutes } from './domains/device-credentials/factory-builds.routes.ts';
import { releasesRoutes } from './domains/releases/releases.routes.ts';
import { doohInventoryRoutes } from './domains/dooh/dooh-inventory.routes.ts';
import { mediaRoutes, uploadJsonParser } from './domains/creatives/media.routes.ts';
import { campaignsRoutes } from './domains/campaigns/campaigns.routes.ts';
import { screensaversRoutes } from './domains/screensavers/screensavers.routes.ts';
import { venuesRoutes } from './domains/venues/venues.routes.ts';
import { crewsRoutes } from './domains/crews/crews.routes.ts';
import { accessRoutes } from './domains/access/access.routes.ts';
import { restockRoutes } from './domains/restock/restock.routes.ts';
import { dfyPaymentsWebhookRoutes, dfyRoutes } from './domains/dfy/deals/dfy.routes.ts';
import { dfyModesRoutes } from './domains/dfy/modes/dfy-modes.routes.ts';
import { dfyInventoryRoutes } from './domains/dfy/inventory/dfy-inventory.routes.ts';
import { dfyFleetsRoutes, dfyFleetsWebhookRoutes } from './domains/dfy/pool/dfy-fleets.routes.ts';
import { negotiationRoutes } from './domains/negotiation/negotiation.routes.ts';
import { outreachRoutes } from './domains/outreach/outreach.routes.ts';
import { stateMachinesRoutes } from './domains/meta/state-machines.routes.ts';
import { financeRoutes } from './domains/finance/finance.routes.ts';
import { prizesCabinetRoutes, prizesRoutes } from './domains/prizes/prizes.routes.ts';
import { taxRoutes } from './domains/tax/tax.routes.ts';
import { proofOfPlayRoutes } from './domains/ad-delivery/proof-of-play.routes.ts';
import { mockSspRoutes } from './domains/ssp/mock-ssp.routes.ts';
import { marketplacePagesRoutes } from './domains/marketplace-pages/pages.routes.ts';
import { pageNotFoundHandler } from './domains/marketplace-pages/page-common.ts';
import { consoleRoutes } from './domains/console/console.routes.ts';
import { pricingRoutes } from './domains/pricing/pricing.routes.ts';
import { marketplaceRoutes } from './domains/ad-purchases/marketplace.routes.ts';
import { adPaymentsWebhookRoutes, adPurchasesRoutes } from './domains/ad-purchases/ad-purchases.routes.ts';
import { webhooksRoutes } from './domains/webhooks/webhooks.routes.ts';
import { kioskCheckoutRoutes, kioskPaymentsWebhookRoutes } from './domains/kiosk-checkout/kiosk-checkout.routes.ts';
import { buyPageRoutes } from './domains/kiosk-checkout/buy.routes.ts';
import { alertsRoutes } from './domains/alerts/alerts.routes.ts';
import { dexRoutes } from './domains/dex/dex.routes.ts';
import { redactUrl } from './logger.ts';
import { Metrics, metricsRoutes } from './http/metrics.ts';
import { leanDispatch, requestId } from './http/lean-dispatch.ts';

/**
 * Builds the HTTP application from an already-constructed context. No I/O happens here. `listener` is what
 * the server should call: the app, with the hot legs taken before Express's router (`leanDispatch`).
 */
export function createApp(ctx: AppContext, services: Services): Express & { listener: RequestListener } {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', 'loopback');
  const metrics = new Metrics({
    heldLongPolls: () => services.runtime.pendingNotifier.holding(),
    loops: () => services.jobs.all().map((l) => l.status(ctx.config.pod)),
    longestTicks: () => services.jobs.all().map((l) => ({ loop: l.name, ms: l.takeLongestTickMs() })),
    ...(ctx.database.checkpointer ? { longestCheckpoint: () => ctx.database.checkpointer!.takeLongestMs() } : {}),
    pool: () => ctx.database.poolStats?.() ?? null,
    pushListening: () => ({ pending: services.runtime.broadcast?.listening ?? null, credentials: services.runtime.credentialPush?.listening ?? null }),
    lifecycle: () => ({ inFlight: ctx.lifecycle.inFlight, draining: ctx.lifecycle.draining }),
  });
  const errors = errorHandler(ctx.logger, ctx.metrics);
  const bodyParsers = [
    // not strict: any JSON text is JSON (RFC 8259), a bare string or null included; a route that wants an object
    // refuses another type as a malformed body type (422, spec 1 §7), never as a body that is not JSON (400)
    express.json({ limit: '1mb', type: ['application/json', 'application/*+json'], strict: false }),
    express.urlencoded({ extended: false, limit: '64kb' }),
  ];
  // first: the cabinets' two hot legs (heartbeat, pending) answered without walking the stack below
  const lean = leanDispatch(gatewayHotLegs(services.cabinetGuard, services, bodyParsers), { lifecycle: ctx.lifecycle, metrics, logger: ctx.logger, errors });
  app.use(lean);
  app.use(compressText());
  app.use(ctx.lifecycle.middleware());
  app.use(metrics.middleware());

  app.use(
    pinoHttp({
      logger: ctx.logger,
      genReqId: requestId,
      // buyer pages carry their secret token in the path (/advertise/status/{token}): never in a log line
      serializers: { req: (req: { url?: string }) => Object.assign(req, req.url === undefined ? {} : { url: redactUrl(req.url) }) },
      customLogLevel: (_req, res, err) => (res.statusCode === 503 ? 'warn' : err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
      // a 503 (draining, the store down) is a state, not a fault: its line carries no made-up error and stack
      customErrorObject: (_req, res, _err, val: Record<string, unknown>) => (res.statusCode === 503 ? { ...val, err: undefined } : val),
    }),
  );
  // The payment webhook authenticates an HMAC over the exact bytes received: its router reads the raw
  // body itself, so it must come BEFORE the JSON parser below consumes the stream.
  app.use(paymentsWebhookRoutes(services.routes, services.payments));
  app.use(adPaymentsWebhookRoutes(services.routes, services.adPurchases, services.paymentEvents));
  app.use(dfyFleetsWebhookRoutes(services.routes, services.dfyFleets, services.paymentEvents));
  app.use(dfyPaymentsWebhookRoutes(services.routes, services.dfy, services.paymentEvents));
  app.use(kioskPaymentsWebhookRoutes(services.routes, services.kioskPayments, services.paymentEvents));
  // The buyer and approval pages read their own forms (the creative upload is multipart/form-data).
  app.use(marketplacePagesRoutes({ ...services, config: ctx.config, logger: ctx.logger, rateLimiter: ctx.rateLimiter, market: services.marketplace }));
  // the operator console: its built files, signed in through the pages' session (docs/decisions/console.md)
  app.use(
    consoleRoutes({
      consoleDir: ctx.config.consoleDir,
      auth: services.auth,
      sessionCsrf: services.sessionCsrf,
      rateLimiter: ctx.rateLimiter,
      access: services.access,
      signIn: services.signIn,
      config: ctx.config,
    }),
  );
  // the shopper's phone page of a kiosk checkout (the QR on the cabinet's screen)
  app.use(buyPageRoutes(services.kioskCheckouts, ctx.logger));
  // What /kiosk/<serial> (the configuration block's old default) says: the screen runs on the cabinet.
  app.use(kioskPageRoutes());
  // Creative and screensaver uploads carry their media as base64 (a 60 MB video is 80 MB of JSON).
  app.use(['/api/v1/campaigns/:id/creative/upload', '/api/v1/screensavers', '/api/v1/marketplace/drafts/upload'], uploadJsonParser());
  app.use(bodyParsers);

  // One line per domain; each router declares its routes and their documentation together.
  const kit = services.routes;
  const s = services;
  // first: the cabinets' hot legs should not walk every other router's stack
  app.use(
    gatewayRoutes(kit, s.cabinetGuard, {
      gateway: s.gateway,
      reports: s.dispenseReports,
      pendingPoll: s.pendingPoll,
      sales: s.sales,
      creds: s.enrolment,
      releases: s.upgradeOffers,
      devices: s.runtime.devices,
    }),
  );
  app.use(kioskCheckoutRoutes(kit, s.cabinetGuard, s.kioskCheckouts));
  app.use(apkRoutes(kit, s.cabinetGuard, s.apk, s.gateway, s.sales));
  app.use(prizesCabinetRoutes(kit, s.cabinetGuard, s.prizes));
  app.use(deviceCredentialsRoutes(kit, s.credentialAdmin, s.enrolmentModes, s.credentialFleet));
  app.use(factoryBuildsRoutes(kit, s.factoryBuilds));
  // in sandbox mode the interactive reference comes with alice's public key ready to try; never in production
  app.use(metaRoutes(kit, ctx.config.mode === 'sandbox' ? SANDBOX_CREDENTIALS.alice.apiKey : null));
  app.use(sandboxRoutes(kit, s.sandbox));
  app.use(metricsRoutes(kit, metrics));
  app.use(inventoryRoutes(kit, s.inventory));
  app.use(ordersRoutes(kit, s.orders));
  app.use(paymentsRoutes(kit, s.payments));
  app.use(authRoutes(kit, s.auth, s.oauth, s.signIn)); // the router, then /oauth/token's RFC 6749 error handler
  app.use(accountsRoutes(kit, s.accounts));
  app.use(machinesRoutes(kit, s.machines));
  app.use(cabinetSettingsRoutes(kit, s.cabinetSettings));
  app.use(operatorViewRoutes(kit, s.operatorView));
  app.use(commandsRoutes(kit, s.commands));
  app.use(jobsRoutes(kit, s.jobs));
  app.use(releasesRoutes(kit, s.releaseRegistry, s.rollouts, s.upgradeOffers, s.agentFleet));
  app.use(mediaRoutes(kit, s.creatives));
  app.use(campaignsRoutes(kit, s.campaigns, s.campaignReports));
  app.use(screensaversRoutes(kit, s.screensavers));
  app.use(venuesRoutes(kit, s.venues));
  app.use(crewsRoutes(kit, s.crews));
  app.use(accessRoutes(kit, s.access));
  app.use(restockRoutes(kit, s.restock));
  app.use(dfyRoutes(kit, { deals: s.dfy, install: s.dfyInstall, portfolio: s.dfyPortfolio, autopilot: s.dfyAutopilot }));
  app.use(dfyModesRoutes(kit, s.dfyModes));
  app.use(dfyInventoryRoutes(kit, s.dfyInventory));
  app.use(dfyFleetsRoutes(kit, s.dfyFleets));
  app.use(negotiationRoutes(kit, s.negotiation));
  app.use(outreachRoutes(kit, s.outreach));
  app.use(stateMachinesRoutes(kit));
  app.use(financeRoutes(kit, s.entries, s.pnl, s.payouts));
  app.use(prizesRoutes(kit, s.prizes));
  app.use(taxRoutes(kit, s.tax));
  app.use(proofOfPlayRoutes(kit, s.proofOfPlay));
  app.use(doohInventoryRoutes(kit, s.doohInventory));
  app.use(pricingRoutes(kit, s.pricing));
  app.use(marketplaceRoutes(kit, s.marketplace, s.testProcessor));
  app.use(adPurchasesRoutes(kit, s.adPurchases));
  app.use(webhooksRoutes(kit, s.webhooks));
  app.use(alertsRoutes(kit, s.alerts));
  app.use(dexRoutes(kit, s.dex));
  // the built-in mock SSP stands in for an outside one in the sandbox only
  if (ctx.config.mode === 'sandbox') app.use(mockSspRoutes(kit, s.sspMock));

  // the buyer's pages answer an unknown address with a page; everything else (the API) in the envelope
  app.use(['/advertise', '/pay', '/buy'], pageNotFoundHandler);
  app.use(notFoundHandler);
  app.use(errors);
  return Object.assign(app, { listener: lean.listener(app) });
}
