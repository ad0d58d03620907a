import { CHECKOUT_FINAL } from '@vend/protocol';
import { html, layout, type SafeHtml } from '../../http/html.ts';
import { money } from '../marketplace-pages/page-common.ts';
import { BUY_SCRIPT_PATH } from './buy-script.ts';
import { refundWords } from './checkout.rules.ts';
import { BUY_PATH, type BuyView } from './kiosk-checkout.service.ts';

/** "2 min 55 s" (the script counts down in the same words). */
function timeLeft(seconds: number): string {
  const m = Math.floor(seconds / 60);
  return `${m > 0 ? `${m} min ` : ''}${seconds % 60} s`;
}

/** What the page says in each state: its heading and the sentence under it. */
function wordsOf(v: BuyView, price: string): { heading: string; message: SafeHtml | string } {
  const c = v.checkout;
  const product = c.name ?? `the product of aisle ${c.aisleNo}`;
  const refund = c.refundState ?? null;
  const refundLine = refundWords(refund?.status ?? null, price, refund?.reason ?? null);
  const owed = refundLine === null ? '' : html` Your payment of ${price} arrived after that, so nothing was dropped. <b>${refundLine}</b>`;
  switch (c.status) {
    case 'awaiting_payment':
      return v.processorUrl
        ? { heading: `Pay for ${product}`, message: 'Pay on this phone: the machine drops your product as soon as the payment is confirmed.' }
        : { heading: `Pay for ${product}`, message: 'Preparing the payment… this page updates itself.' };
    case 'paid':
    case 'vending':
      return { heading: 'Paid: take your product from the machine', message: 'Your payment is confirmed. The machine is dropping your product now.' };
    case 'vended':
      return { heading: 'Take your product from the machine', message: 'Your product has dropped. Enjoy!' };
    case 'failed':
      return {
        heading:
          refund?.status === 'issued'
            ? 'Could not vend: your payment was refunded'
            : refund?.status === 'failed'
              ? 'Could not vend: we could not refund you automatically'
              : 'Could not vend: your refund is on its way',
        message:
          refundLine === null || refund?.status === 'owed'
            ? (c.detail ?? `The machine could not drop your product. Your payment of ${price} will be refunded.`)
            : html`The machine could not drop your product. <b>${refundLine}</b>`,
      };
    case 'expired':
      return { heading: 'This code expired: choose again on the screen', message: html`Nobody paid before the code's time ran out.${owed}` };
    case 'cancelled':
      return { heading: 'This purchase was cancelled: choose again on the screen', message: html`The purchase was stopped on the machine's screen.${owed}` };
  }
}

/**
 * The shopper's phone page of a checkout (`/buy/{checkoutId}`, the QR on the cabinet's screen), phone first: what is
 * bought, its price in the operator's currency, the machine and where it is, the time left and the button to the
 * processor's payment page; after paying, how the drop goes. While the checkout is not final the page's one
 * script (same origin) keeps it current; the Refresh link does the same without it.
 */
export function buyPage(v: BuyView): SafeHtml {
  const c = v.checkout;
  const price = money(c.amountCents, c.currency);
  const refund = c.refundState?.status ?? null;
  // a refund still owed is followed until the processor took it (or refused it)
  const final = CHECKOUT_FINAL.includes(c.status) && refund !== 'owed';
  const { heading, message } = wordsOf(v, price);
  const awaiting = c.status === 'awaiting_payment';
  return layout({
    title: heading,
    body: html`<div id="checkout" data-state="${c.status}:${refund ?? ''}:${v.processorUrl ? 'ready' : 'preparing'}" data-final="${final ? 'true' : 'false'}">
        <h1 id="checkout-heading" tabindex="-1">${heading}</h1>
        <div class="notice${(c.status === 'failed' && refund !== 'issued') || refund === 'owed' || refund === 'failed' ? ' warn' : ''}"><p>${message}</p></div>
        <div class="card">
          <dl class="facts">
            <dt>Product</dt>
            <dd>${c.name ?? `Aisle ${c.aisleNo}`}</dd>
            <dt>Price</dt>
            <dd class="total">${price}</dd>
            <dt>Machine</dt>
            <dd>${v.machineName}${v.machineLocation ? html`<br /><span class="muted">${v.machineLocation}</span>` : ''}</dd>
            ${
              awaiting
                ? html`<dt>Time left</dt>
                    <dd><span id="time-left" data-seconds="${c.secondsLeft}">${timeLeft(c.secondsLeft)}</span></dd>`
                : ''
            }
          </dl>
        </div>
        ${awaiting && v.processorUrl ? html`<p class="actions"><a class="button" href="${v.processorUrl}">Pay ${price}</a></p>` : ''}
      </div>
      ${final ? '' : html`<p class="muted small">This page updates itself. <a href="${BUY_PATH}/${c.checkoutId}">Refresh</a></p>`}
      <script src="${BUY_SCRIPT_PATH}" defer></script>`,
  });
}
