import type { KioskItem, KioskScreen } from '@vend/protocol';
import { h, money } from './dom.ts';

const STATE_TEXT: Record<KioskItem['state'], string> = {
  available: '',
  sold_out: 'Sold out',
  faulted: 'Unavailable',
  unpriced: 'Not for sale',
};

/** Two letters for an item without a picture. */
const initials = (name: string): string =>
  name
    .split(/\s+/)
    .filter((w) => /^\p{L}/u.test(w))
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

/**
 * The storefront: this cabinet's goods, live from the agent. A lane that cannot sell (sold out,
 * faulted, unpriced) is shown but cannot be chosen; while paying by phone is unavailable nothing can be
 * chosen, and the reason is said above the goods.
 */
export function renderStorefront(screen: KioskScreen, onChoose: (item: KioskItem) => void, onBack: () => void): HTMLElement {
  const canBuy = screen.payByPhone && !screen.busy;
  const notice = screen.busy
    ? 'Someone is paying at this machine right now. One moment, please.'
    : !screen.payByPhone
      ? (screen.payByPhoneReason ?? 'Paying by phone is unavailable right now')
      : screen.items.length > 0 && screen.items.every((i) => i.state !== 'available')
        ? 'Everything is sold out. The machine will be restocked soon.'
        : null;
  const grid = h(
    'ul',
    { class: 'goods', 'aria-label': 'Products' },
    ...screen.items.map((item) => {
      const available = item.state === 'available' && canBuy;
      const button = h(
        'button',
        {
          type: 'button',
          class: `item ${item.state}`,
          'data-aisle': item.aisleNo,
          'aria-disabled': available ? null : 'true',
        },
        item.imageUrl
          ? h('img', { src: item.imageUrl, alt: '', class: 'item-image' })
          : h('span', { class: 'item-image placeholder', 'aria-hidden': 'true' }, initials(item.name)),
        h('span', { class: 'item-name' }, item.name),
        h('span', { class: 'item-price' }, money(item.priceCents, screen.currency)),
        h('span', { class: 'item-stock' }, item.state === 'available' ? `${item.stock} left` : STATE_TEXT[item.state]),
      );
      button.addEventListener('click', () => {
        if (available) onChoose(item);
      });
      return h('li', {}, button);
    }),
  );
  const back = h('button', { type: 'button', class: 'back' }, '← Back');
  back.addEventListener('click', onBack);
  return h(
    'section',
    { class: 'view shop', 'aria-labelledby': 'shop-title' },
    h('header', { class: 'view-head' }, back, h('h1', { id: 'shop-title' }, 'Choose a product')),
    notice ? h('p', { class: 'notice', role: 'status' }, notice) : null,
    screen.items.length === 0 ? h('p', { class: 'notice' }, 'No products are loaded in this machine yet.') : grid,
    h('p', { class: 'hint' }, 'Pick a product, then pay with your phone.'),
  );
}
