import { Router } from 'express';
import type { Logger } from 'pino';
import { PAGE_CSP, setPageHeaders, type SafeHtml } from '../../http/html.ts';
import { notFoundPage, pageErrorHandler } from '../marketplace-pages/page-common.ts';
import { BUY_SCRIPT, BUY_SCRIPT_PATH } from './buy-script.ts';
import { buyPage } from './buy.page.ts';
import { BUY_PATH, type KioskCheckoutService } from './kiosk-checkout.service.ts';

/** The pages' policy, with this service's own scripts and reads allowed: the phone page's script fetches the page again. */
export const BUY_CSP = `${PAGE_CSP}; script-src 'self'; connect-src 'self'`;

function send(res: Parameters<typeof setPageHeaders>[0], status: number, page: SafeHtml): void {
  setPageHeaders(res).set('Content-Security-Policy', BUY_CSP).status(status).type('html').send(page.value);
}

/**
 * The shopper's phone page of a kiosk checkout (`GET /buy/{checkoutId}`) and its script: the page only reads (the
 * payment happens at the processor, the drop by the cabinet's command), so it holds no form and no secret but the
 * checkout id in its address. An unknown id is the not-found page.
 */
export function buyPageRoutes(checkouts: Pick<KioskCheckoutService, 'buyView'>, logger: Logger): Router {
  const r = Router();
  r.get(BUY_SCRIPT_PATH, (_req, res) => {
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=31536000, immutable' });
    res.type('text/javascript').send(BUY_SCRIPT);
  });
  r.get(`${BUY_PATH}/:checkoutId`, async (req, res) => {
    const view = await checkouts.buyView(req.params.checkoutId);
    if (!view) return send(res, 404, notFoundPage('Checkout'));
    send(res, 200, buyPage(view));
  });
  r.use(BUY_PATH, pageErrorHandler(logger));
  return r;
}
