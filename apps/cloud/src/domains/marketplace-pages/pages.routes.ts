import { Router } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { stylesheetRouter } from '../../http/html.ts';
import type { Authenticator } from '../../http/principal.ts';
import type { SignInService } from '../auth/signin.service.ts';
import { pageErrorHandler } from './page-common.ts';
import { PageSession } from './page-session.ts';
import { signInRoutes } from './signin.routes.ts';

export interface MarketplacePagesDeps {
  config: Pick<Config, 'mode' | 'dataKey'>;
  logger: Logger;
  /** Resolves the session cookie to the signed-in operator. */
  auth: Authenticator;
  signIn: SignInService;
}

/**
 * The server-rendered pages (spec 1 §4.7 "buyer-facing pages"): the stylesheet, the buyer's brief, quote,
 * checkout and status pages, and the operator's sign-in and approvals queue. Forms are read by the pages
 * themselves (multipart for the creative upload), so this router is mounted before the JSON parser.
 * Every handler parses its form, calls a service, and renders; errors render as pages.
 */
export function marketplacePagesRoutes(deps: MarketplacePagesDeps): Router {
  const r = Router();
  const session = new PageSession({ config: deps.config, auth: deps.auth });
  r.use(stylesheetRouter());
  r.use(signInRoutes(deps.signIn, session));
  r.use(['/advertise', '/pay'], pageErrorHandler(deps.logger));
  return r;
}
