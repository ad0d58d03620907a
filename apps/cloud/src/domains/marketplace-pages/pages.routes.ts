import { Router } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { stylesheetRouter } from '../../http/html.ts';
import type { SessionCsrf } from '../../http/page-session-auth.ts';
import type { Authenticator } from '../../http/principal.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import type { SignInService } from '../auth/signin.service.ts';
import type { MarketplaceService } from '../ad-purchases/marketplace.service.ts';
import type { TestProcessor } from '../ad-purchases/test-processor.ts';
import type { PricingCatalog } from '../pricing/catalog.ts';
import type { AdPurchasesService } from '../ad-purchases/ad-purchases.service.ts';
import { approvalsRoutes } from './approvals.routes.ts';
import { buyerRoutes } from './buyer.routes.ts';
import { buyerResubmitRoutes } from './buyer-resubmit.routes.ts';
import { pageErrorHandler } from './page-common.ts';
import { PageSession } from './page-session.ts';
import { QuoteLinks } from './quote-link.ts';
import { signInRoutes } from './signin.routes.ts';

export interface MarketplacePagesDeps {
  config: Pick<Config, 'mode' | 'dataKey'>;
  logger: Logger;
  /** Resolves the session cookie to the signed-in operator. */
  auth: Authenticator;
  /** The session's own CSRF token (the console's meta tag): accepted by the sign-out form too. */
  sessionCsrf: SessionCsrf;
  rateLimiter: Pick<RateLimiter, 'consume'>;
  signIn: SignInService;
  market: MarketplaceService;
  /** Paid purchases and the operators' decisions (the approvals queue). */
  adPurchases: AdPurchasesService;
  pricing: { current(): PricingCatalog };
  /** The sandbox's built-in payment processor (its checkout page); null elsewhere. */
  testProcessor: TestProcessor | null;
}

/**
 * The server-rendered pages (spec 1 §4.7 "buyer-facing pages"): the stylesheet, the buyer's brief, quote,
 * checkout and status pages, and the operator's sign-in and approvals queue. Forms are read by the pages
 * themselves (multipart for the creative upload), so this router is mounted before the JSON parser.
 * Every handler parses its form, calls a service, and renders; errors render as pages.
 */
export function marketplacePagesRoutes(deps: MarketplacePagesDeps): Router {
  const r = Router();
  const session = new PageSession({ config: deps.config, auth: deps.auth, sessionCsrf: deps.sessionCsrf, rateLimiter: deps.rateLimiter });
  r.use(stylesheetRouter());
  r.use(signInRoutes(deps.signIn, session, '/signin'));
  r.use(signInRoutes(deps.signIn, session, '/advertise/signin'));
  r.use(approvalsRoutes(deps.adPurchases, session));
  const quoteLinks = new QuoteLinks(deps.config.dataKey);
  r.use(buyerRoutes({ market: deps.market, pricing: deps.pricing, testProcessor: deps.testProcessor, session, quoteLinks }));
  r.use(buyerResubmitRoutes({ market: deps.market, session }));
  r.use(['/advertise', '/pay', '/signin', '/signout'], pageErrorHandler(deps.logger));
  return r;
}
