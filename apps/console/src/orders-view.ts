import { ApiError, unwrap, type Api } from './api.ts';
import { el, when } from './dom.ts';
import {
  cents,
  machineChoices,
  machineHref,
  machinesOf,
  param,
  plural,
  selectField,
  table,
  type Order,
  type OrdersPage,
  type Summary,
} from './orders-parts.ts';

const SIZE = 20;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters in the page's address, as the form names them. */
interface Filters {
  machineNo: string;
  payStatus: string;
  channel: string;
  from: string;
  to: string;
  page: number;
}

function filtersOfAddress(): Filters {
  const page = Number(param('page'));
  return {
    machineNo: param('machineNo'),
    payStatus: param('payStatus'),
    channel: param('channel'),
    from: param('from'),
    to: param('to'),
    page: Number.isSafeInteger(page) && page > 0 ? page : 1,
  };
}

/** The orders query the API takes for these filters; the dates are whole days (the machine's time zone, else UTC). */
function queryOf(f: Filters) {
  return {
    page: f.page,
    size: SIZE,
    ...(f.machineNo ? { machineNo: f.machineNo } : {}),
    ...(f.payStatus ? { payStatus: f.payStatus } : {}),
    ...(f.channel ? { channel: f.channel } : {}),
    ...(f.from ? { startTime: `${f.from} 00:00:00` } : {}),
    ...(f.to ? { endTime: `${f.to} 23:59:59` } : {}),
  };
}

/** This page's address with the same filters on another page of results. */
function pageHref(f: Filters, page: number): string {
  const q = new URLSearchParams();
  for (const k of ['machineNo', 'payStatus', 'channel', 'from', 'to'] as const) if (f[k]) q.set(k, f[k]);
  if (page > 1) q.set('page', String(page));
  const s = q.toString();
  return `/console/orders${s ? `?${s}` : ''}`;
}

/** Choices of a filter: any, then each value the operator's orders have (and the one in the address, if not among them). */
function choicesOf(values: readonly string[], current: string, any: string): [string, string][] {
  const all = [...new Set([...values, ...(current ? [current] : [])])];
  return [['', any], ...all.map((v): [string, string] => [v, v.replace(/_/g, ' ')])];
}

/**
 * `/console/orders`: the operator's orders, newest first, from `GET /api/v1/orders` with the filters the API takes —
 * machine, pay status, channel, a range of days — as a GET form (the filters live in the address, a reload keeps
 * them), 20 a page with previous and next. The pay statuses and channels offered are those the operator's orders have
 * (`GET /api/v1/orders/summary`). An order's button opens its detail (`GET /api/v1/orders/{orderNumber}`) in a dialog.
 */
export async function ordersView(api: Api): Promise<HTMLElement> {
  const f = filtersOfAddress();
  const [machines, kinds] = await Promise.all([machinesOf(api), api.GET('/api/v1/orders/summary').then((r) => unwrap(r) as Summary)]);
  const dialog = el('dialog', { class: 'dialog order-detail', 'aria-labelledby': 'od-h' });
  const root = el(
    'section',
    { class: 'view orders', 'aria-labelledby': 'orders-h' },
    el('h1', { id: 'orders-h' }, 'Orders'),
    el(
      'form',
      { method: 'get', action: '/console/orders', class: 'filters', 'aria-label': 'Order filters' },
      selectField('of-machine', 'machineNo', 'Machine', machineChoices(machines), f.machineNo),
      selectField(
        'of-status',
        'payStatus',
        'Pay status',
        choicesOf(
          kinds.byPayStatus.map((s) => s.payStatus),
          f.payStatus,
          'Any status',
        ),
        f.payStatus,
      ),
      selectField(
        'of-channel',
        'channel',
        'Channel',
        choicesOf(
          kinds.byChannel.map((c) => c.channel),
          f.channel,
          'Any channel',
        ),
        f.channel,
      ),
      el(
        'div',
        { class: 'field' },
        el('label', { for: 'of-from' }, 'From day'),
        el('input', { type: 'date', id: 'of-from', name: 'from', value: DATE.test(f.from) ? f.from : '' }),
      ),
      el(
        'div',
        { class: 'field' },
        el('label', { for: 'of-to' }, 'To day'),
        el('input', { type: 'date', id: 'of-to', name: 'to', value: DATE.test(f.to) ? f.to : '' }),
      ),
      el(
        'div',
        { class: 'filter-actions' },
        el('button', { type: 'submit', class: 'primary' }, 'Filter'),
        el('a', { href: '/console/orders' }, 'Clear filters'),
      ),
    ),
  );
  let page: OrdersPage;
  try {
    page = unwrap(await api.GET('/api/v1/orders', { params: { query: queryOf(f) } }));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    root.append(el('p', { class: 'flash error', role: 'alert' }, e.message));
    return root;
  }
  const pages = Math.max(1, Math.ceil(page.total / SIZE));
  const firstNo = (page.page - 1) * SIZE + 1;
  root.append(
    el(
      'p',
      { class: 'sub', id: 'orders-count' },
      page.total === 0
        ? 'No orders match these filters.'
        : `${plural(page.total, 'order')}; ${firstNo}–${firstNo + page.records.length - 1} shown, newest first. Days read in ${page.timeZone}.`,
    ),
  );
  if (page.records.length > 0) {
    const open = (o: (typeof page.records)[number], button: HTMLButtonElement) => void showOrder(api, dialog, o.orderNumber, button, kinds.currency);
    const rows = page.records.map((o) => {
      const button = el('button', { type: 'button', class: 'link', 'aria-haspopup': 'dialog' }, o.orderNumber);
      button.addEventListener('click', () => open(o, button));
      return el(
        'tr',
        { 'data-order': o.orderNumber },
        el('th', { scope: 'row' }, button),
        el('td', {}, when(o.createdAt)),
        el('td', {}, el('a', { href: machineHref(o.machineNo) }, o.machineNo)),
        el('td', {}, `Aisle ${o.aisleNo} × ${o.quantity}`),
        el('td', { class: 'num' }, cents(o.chargedCents, kinds.currency)),
        el('td', {}, el('span', { class: `badge ${o.payStatus}` }, o.payStatus.replace(/_/g, ' '))),
      );
    });
    root.append(table(`Orders, page ${page.page} of ${pages}`, ['Order', 'Time', 'Machine', 'Item', 'Amount', 'Status'], rows, 'orders-table'));
  }
  if (pages > 1 || page.page > 1)
    root.append(
      el(
        'nav',
        { class: 'pager', 'aria-label': 'Pages of orders' },
        page.page > 1 ? el('a', { href: pageHref(f, page.page - 1), rel: 'prev' }, 'Previous page') : null,
        el('span', {}, `Page ${page.page} of ${pages}`),
        page.page < pages ? el('a', { href: pageHref(f, page.page + 1), rel: 'next' }, 'Next page') : null,
      ),
    );
  root.append(dialog);
  return root;
}

/** Reads one order and shows it in the dialog; Escape or Close closes it and focus returns to the order's button. */
async function showOrder(api: Api, dialog: HTMLDialogElement, orderNumber: string, from: HTMLElement, currency: string | null): Promise<void> {
  const close = el('form', { method: 'dialog', class: 'actions' }, el('button', { type: 'submit', class: 'primary' }, 'Close'));
  let body: HTMLElement;
  try {
    body = detail(currency, unwrap(await api.GET('/api/v1/orders/{orderNumber}', { params: { path: { orderNumber } } })));
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    body = el('p', { class: 'flash error', role: 'alert' }, e.message);
  }
  dialog.replaceChildren(el('h2', { id: 'od-h' }, `Order ${orderNumber}`), body, close);
  dialog.onclose = () => from.isConnected && from.focus();
  dialog.showModal();
}

function detail(cur: string | null, o: Order): HTMLElement {
  const row = (label: string, value: string | Node) => el('div', {}, el('dt', {}, label), el('dd', {}, value));
  const p = o.payment;
  return el(
    'dl',
    { class: 'terms order-terms' },
    row('Time', when(o.createdAt)),
    row('Machine', el('a', { href: machineHref(o.machineNo) }, o.machineNo)),
    row('Item', `Aisle ${o.aisleNo} × ${o.quantity}`),
    row('Status', o.payStatus.replace(/_/g, ' ')),
    row('Charged', cents(o.chargedCents, cur)),
    row('Tax', o.taxRate === null ? cents(o.taxCents, cur) : `${cents(o.taxCents, cur)} (${o.taxRate}%)`),
    row('Net', cents(o.netCents, cur)),
    row('Channel', o.channel.replace(/_/g, ' ')),
    row('Paid by', o.payMethod),
    p ? row('Payment', [p.cardBrand, p.last4 ? `•••• ${p.last4}` : null, `terminal ${p.terminalId}`].filter(Boolean).join(' · ')) : null,
  );
}
