import type { KioskCheckout } from '@vend/protocol';
import QRCode from 'qrcode';
import { h, money } from './dom.ts';

/** The step the shopper is at, from the cloud's status and the board's fresher view of the drop. */
export type Step = 'pay' | 'vending' | 'take' | 'failed' | 'expired' | 'cancelled';

export function stepOf(c: KioskCheckout): Step {
  if (c.local === 'vended' || c.status === 'vended') return 'take';
  if (c.local === 'failed' || c.status === 'failed') return 'failed';
  if (c.status === 'expired') return 'expired';
  if (c.status === 'cancelled') return 'cancelled';
  if (c.local === 'vending' || c.status === 'paid' || c.status === 'vending') return 'vending';
  return 'pay';
}

export const FINAL_STEPS: readonly Step[] = ['take', 'failed', 'expired', 'cancelled'];

const HEADINGS: Record<Step, string> = {
  pay: 'Scan to pay with your phone',
  vending: 'Payment received: vending…',
  take: 'Take your product',
  failed: 'Could not vend',
  expired: 'This code expired',
  cancelled: 'Purchase cancelled',
};

const TEXT: Record<Step, string> = {
  pay: 'Point your phone’s camera at the code and pay on the page it opens. Nothing is charged until you pay there.',
  vending: 'Your product is on its way down.',
  take: 'Your product is in the tray below. Thank you!',
  failed: 'The machine could not drop your product: your refund is on its way to the card you paid with.',
  expired: 'Nobody paid in time, so nothing was charged. Choose again to start over.',
  cancelled: 'Nothing was charged.',
};

/** The QR of the checkout page, drawn here from the address (no picture fetched from anywhere). */
export async function qrImage(url: string): Promise<HTMLImageElement> {
  const svg = await QRCode.toString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return h('img', { class: 'qr', alt: 'QR code: opens the checkout page on your phone', src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
}

export const countdownText = (seconds: number): string => `Code valid for ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/** The purchase's view for a step; `qr` only while paying. */
export function renderCheckout(
  c: KioskCheckout,
  step: Step,
  qr: HTMLImageElement | null,
  secondsLeft: number,
  onCancel: () => void,
  onDone: () => void,
): HTMLElement {
  const action =
    step === 'pay'
      ? h('button', { type: 'button', class: 'secondary' }, 'Cancel')
      : FINAL_STEPS.includes(step)
        ? h('button', { type: 'button', class: 'primary' }, 'Done')
        : null;
  action?.addEventListener('click', step === 'pay' ? onCancel : onDone);
  return h(
    'section',
    { class: `view checkout step-${step}`, 'aria-labelledby': 'checkout-title', 'data-step': step },
    h('h1', { id: 'checkout-title' }, HEADINGS[step]),
    h(
      'p',
      { class: 'product' },
      h('span', { class: 'product-name' }, c.name ?? `Aisle ${c.aisleNo}`),
      ' · ',
      h('strong', {}, money(c.amountCents, c.currency)),
    ),
    step === 'pay' && qr ? h('div', { class: 'qr-frame' }, qr) : null,
    step === 'vending' ? h('div', { class: 'spinner', 'aria-hidden': 'true' }) : null,
    h('p', { class: 'step-text', role: 'status', 'aria-live': 'polite' }, TEXT[step]),
    step === 'pay' ? h('p', { class: 'countdown', 'aria-live': 'off' }, countdownText(secondsLeft)) : null,
    c.stale && !FINAL_STEPS.includes(step) ? h('p', { class: 'notice' }, 'The network is slow; this screen updates as soon as it hears back.') : null,
    action,
  );
}
