import type { IncomingMessage, ServerResponse } from 'node:http';
import { KioskCheckout, KioskCheckoutRequest, KioskScreen, KioskServiceAnswer, KioskServiceRequest } from '@vend/protocol';
import { KioskRefused } from '../storefront/checkout-tracker.ts';
import { answer, readBody, refuse } from './respond.ts';

/** What the storefront routes need of the daemon (storefront/, docs/kiosk-screen.md). */
export interface KioskStorefrontApi {
  screen(signal: AbortSignal): Promise<KioskScreen>;
  startCheckout(aisleNo: number, signal: AbortSignal): Promise<KioskCheckout>;
  currentCheckout(signal: AbortSignal): Promise<KioskCheckout | null>;
  cancelCheckout(signal: AbortSignal): Promise<KioskCheckout | null>;
  /** The service code typed on the screen, through the cabinet's gate (its lockout applies). */
  service(code: string): Promise<KioskServiceAnswer>;
}

const MAX_BODY = 1024;
const SERVICE_STATUS = { ok: 200, wrong: 403, locked: 423, 'no-code': 409 } as const;

/**
 * The storefront's routes (kiosk.ts has checked Host, Origin and JSON bodies already):
 *
 *   GET   /v1/kiosk/screen                    goods, states, busy (KioskScreen)
 *   POST  /v1/kiosk/checkouts                 {aisleNo}: 201 the purchase's checkout (409 busy, 503 cloud away)
 *   GET   /v1/kiosk/checkouts/current         the purchase under way (204 none: not an error a browser logs)
 *   POST  /v1/kiosk/checkouts/current/cancel  the shopper gave up: an unpaid checkout is cancelled
 *   POST  /v1/kiosk/service                   {code}: the gate's verdict, and the status when it was right
 *
 * Nothing here dispenses: a drop comes only from a command the cloud made after a payment it confirmed.
 */
export async function handleStorefront(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  path: string,
  api: KioskStorefrontApi | null,
  signal: AbortSignal,
): Promise<void> {
  if (!api) return refuse(res, 404, 'not-found', 'the storefront is not running on this agent');
  try {
    if (method === 'GET' && path === '/v1/kiosk/screen') return answer(res, KioskScreen, await api.screen(signal));
    if (method === 'POST' && path === '/v1/kiosk/checkouts') {
      const body = await readBody(req, res, KioskCheckoutRequest, MAX_BODY);
      if (body === null) return;
      return answer(res, KioskCheckout, await api.startCheckout(body.aisleNo, signal), 201);
    }
    if (method === 'GET' && path === '/v1/kiosk/checkouts/current') return current(res, await api.currentCheckout(signal));
    if (method === 'POST' && path === '/v1/kiosk/checkouts/current/cancel') return current(res, await api.cancelCheckout(signal));
    if (method === 'POST' && path === '/v1/kiosk/service') {
      const body = await readBody(req, res, KioskServiceRequest, MAX_BODY);
      if (body === null) return;
      const verdict = await api.service(body.code);
      return answer(res, KioskServiceAnswer, verdict, SERVICE_STATUS[verdict.check.result]);
    }
  } catch (e) {
    if (e instanceof KioskRefused) return refuse(res, e.status, e.code, e.message);
    throw e;
  }
  return refuse(res, 404, 'not-found', `no ${method} ${path}; see GET /v1/kiosk/screen, POST /v1/kiosk/checkouts`);
}

function current(res: ServerResponse, checkout: KioskCheckout | null): void {
  if (!checkout) {
    res.writeHead(204, { 'cache-control': 'no-store' });
    res.end();
    return;
  }
  return answer(res, KioskCheckout, checkout);
}
