import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { html, layout, sendPage, type SafeHtml } from '../../http/html.ts';
import { AppError } from '../../http/errors.ts';
import { readCookies } from '../../http/page-session-auth.ts';

/** Pieces every marketplace page shares: money and dates for people, the error pages, the sign-in return address. */

/** 12345 → "$123.45" (integer cents in, US dollars out; the catalog's currency is USD). */
export function usd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}

/** Integer cents in an ISO 4217 currency, for people: 175 GBP → "£1.75" (an unknown code: "1.75 XYZ"). */
export function money(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

/** A multiplier in basis points for people: 9000 → "0.9×". */
export function multiplier(bps: number): string {
  return `${(bps / 10000).toString()}×`;
}

/** Epoch ms or an ISO string → "2026-12-01" (UTC: a flight's dates are calendar days). */
export function day(t: number | string | null | undefined): string {
  if (t === null || t === undefined) return '—';
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? String(t) : d.toISOString().slice(0, 10);
}

export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/**
 * The page a sign-in returns to: a path of this service only — absolute, never `//host`, a scheme, a
 * backslash or a control character (an open redirect) — else `fallback`.
 */
export function safeNext(next: unknown, fallback = '/advertise/approvals'): string {
  if (typeof next === 'string' && next.length <= 512 && /^\/(?![/\\])[A-Za-z0-9_\-/.~%]*(\?[A-Za-z0-9_=&%.~\-/]*)?$/.test(next)) return next;
  return fallback;
}

/** A page that says what went wrong and where to go next. */
export function messagePage(title: string, message: string | SafeHtml, links: { href: string; label: string }[] = []): SafeHtml {
  return layout({
    title,
    body: html`<h1>${title}</h1>
      <div class="notice warn"><p>${message}</p></div>
      ${links.length ? html`<p>${links.map((l, i) => html`${i ? ' · ' : ''}<a href="${l.href}">${l.label}</a>`)}</p>` : ''}`,
  });
}

export const notFoundPage = (what: string) =>
  messagePage(`${what} not found`, 'This address does not lead anywhere. Check that the link is complete, or scan the code on the screen again.');

/**
 * The kiosk whose ad form this browser last opened (`<machineNo>.<qrId>`, path /): where a lost buyer starts again. The
 * QR id is printed on the kiosk's screen, so the cookie holds nothing secret.
 */
export const KIOSK_COOKIE = 'vend_kiosk';
const KIOSK_VALUE = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{1,64})$/;

/** `machineNo.qrId` for the kiosk cookie; null when either is not of the plain shape the cookie holds. */
export function kioskCookieValue(machineNo: string, qrId: string): string | null {
  const v = `${machineNo}.${qrId}`;
  return KIOSK_VALUE.test(v) ? v : null;
}

/** The ad form of a kiosk: the start of the buyer's journey. */
export const briefPath = (machineNo: string, qrId: string) => `/advertise?machine=${encodeURIComponent(machineNo)}&qr=${encodeURIComponent(qrId)}`;

/** Where this browser starts again: the ad form of the kiosk it last opened, if it did. */
export function startLinks(req: Request): { href: string; label: string }[] {
  const m = KIOSK_VALUE.exec(readCookies(req).get(KIOSK_COOKIE) ?? '');
  return m ? [{ href: briefPath(m[1]!, m[2]!), label: `Back to the ad form of kiosk ${m[1]!}` }] : [];
}

/**
 * Any address under the buyer's pages (`/advertise`, `/pay`, `/buy`) no route answered: a 404 page in the pages' style,
 * not the API's JSON envelope, with the way back to the start.
 */
export const pageNotFoundHandler: RequestHandler = (req, res) => {
  sendPage(
    res,
    404,
    messagePage(
      'Page not found',
      'This address does not lead anywhere: the link may be incomplete, or the page was a form answer that cannot be opened again. To start again, scan the code on the kiosk’s screen.',
      startLinks(req),
    ),
  );
};

export const csrfRefusedPage = () =>
  messagePage(
    'This form has expired',
    'The page was open too long or came from somewhere else, so nothing was changed. Go back, reload the page and try again.',
  );

/**
 * The pages' error handler: an AppError becomes a page with its status and message (404s as the
 * friendly not-found page); anything else is a 500 page, its cause logged and never shown.
 */
export function pageErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    if (err instanceof AppError) {
      if (err.options.headers) res.set(err.options.headers);
      if (err.status === 404) return sendPage(res, 404, notFoundPage('Page'));
      const title = err.status === 429 ? 'Too many attempts' : err.status >= 500 ? 'Something went wrong on our side' : 'That did not work';
      return sendPage(res, err.status, messagePage(title, err.message, [{ href: '/advertise/approvals', label: 'Operators: approvals' }]));
    }
    (req.log ?? logger).error({ err }, 'page failed');
    return sendPage(res, 500, messagePage('Something went wrong on our side', 'Nothing was charged by this step. Please try again in a moment.'));
  };
}
