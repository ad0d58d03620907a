import express, { type Express } from 'express';
import { pinoHttp } from 'pino-http';
import { randomUUID } from 'node:crypto';
import type { AppContext } from './context.ts';
import type { Services } from './services.ts';
import { errorHandler, notFoundHandler } from './http/error-middleware.ts';
import { sandboxRoutes } from './domains/sandbox/sandbox.routes.ts';
import { metaRoutes } from './domains/meta/meta.routes.ts';
import { inventoryRoutes } from './domains/inventory/inventory.routes.ts';
import { ordersRoutes } from './domains/orders/orders.routes.ts';
import { paymentsRoutes, paymentsWebhookRoutes } from './domains/payments/payments.routes.ts';
import { authRoutes } from './domains/auth/auth.routes.ts';
import { accountsRoutes } from './domains/accounts/accounts.routes.ts';
import { machinesRoutes } from './domains/machines/machines.routes.ts';
import { operatorViewRoutes } from './domains/operator-view/operator-view.routes.ts';
import { commandsRoutes } from './domains/commands/commands.routes.ts';
import { jobsRoutes } from './jobs/jobs.routes.ts';
import { gatewayRoutes } from './domains/gateway/gateway.routes.ts';
import { apkRoutes } from './domains/apk/apk.routes.ts';
import { deviceCredentialsRoutes } from './domains/device-credentials/device-credentials.routes.ts';
import { factoryBuildsRoutes } from './domains/device-credentials/factory-builds.routes.ts';
import { releasesRoutes } from './domains/releases/releases.routes.ts';

/** Builds the HTTP application from an already-constructed context. No I/O happens here. */
export function createApp(ctx: AppContext, services: Services): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', 'loopback');

  app.use(
    pinoHttp({
      logger: ctx.logger,
      genReqId: (req, res) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug'),
    }),
  );
  // The payment webhook authenticates an HMAC over the exact bytes received: its router reads the raw
  // body itself, so it must come BEFORE the JSON parser below consumes the stream.
  app.use(paymentsWebhookRoutes(ctx));
  app.use(express.json({ limit: '1mb', type: ['application/json', 'application/*+json'] }));
  app.use(express.urlencoded({ extended: false, limit: '64kb' }));

  // One line per domain; each router declares its routes and their documentation together.
  app.use(gatewayRoutes(ctx)); // first: the cabinets' hot legs should not walk every other router's stack
  app.use(apkRoutes(ctx));
  app.use(deviceCredentialsRoutes(services.routes, services.credentialAdmin, services.enrolmentModes, services.credentialFleet));
  app.use(factoryBuildsRoutes(services.routes, services.factoryBuilds));
  app.use(metaRoutes(services.routes));
  app.use(sandboxRoutes(services.routes, services.sandbox));
  app.use(inventoryRoutes(ctx));
  app.use(ordersRoutes(ctx));
  app.use(paymentsRoutes(ctx));
  app.use(authRoutes(services.routes, services.auth, services.oauth, services.signIn)); // the router, then /oauth/token's RFC 6749 error handler
  app.use(accountsRoutes(services.routes, services.accounts));
  app.use(machinesRoutes(services.routes, services.machines));
  app.use(operatorViewRoutes(services.routes, services.operatorView));
  app.use(commandsRoutes(ctx));
  app.use(jobsRoutes(ctx));
  app.use(releasesRoutes(services.routes, services.releaseRegistry, services.rollouts, services.upgradeOffers, services.agentFleet));

  app.use(notFoundHandler);
  app.use(errorHandler(ctx.logger, ctx.metrics));
  return app;
}
