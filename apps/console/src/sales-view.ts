import { ApiError, unwrap, type Api } from './api.ts';
import { barChart } from './chart.ts';
import { el } from './dom.ts';
import {
  MONEY_HEADS,
  cents,
  machineChoices,
  machineHref,
  machinesOf,
  moneyCells,
  param,
  plural,
  selectField,
  table,
  type Machine,
  type Summary,
} from './orders-parts.ts';
import { columnChart } from './sales-chart.ts';

const PERIODS = [
  ['7', 'Last 7 days'],
  ['30', 'Last 30 days'],
] as const;
const DAY = 86_400_000;

/** Today's date (YYYY-MM-DD) in `zone` (UTC when the browser does not know the zone). */
function today(zone: string): string {
  try {
    return new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short' }).format(new Date());
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}

const shiftDate = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** A date the API named (YYYY-MM-DD) as words: "Mon, Dec 7". */
const dayWords = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });

/**
 * `/console/sales`: the operator's sales over the last 7 or 30 days — totals, per day (a column chart and a table) and
 * per machine (a bar chart and a table) — from one `GET /api/v1/orders/summary` over the window, whose `byDay` series
 * is one entry per calendar day (the machine's time zone when one is chosen, else UTC). The period and the machine
 * are a GET form, so the choice lives in the address.
 */
export async function salesView(api: Api): Promise<HTMLElement> {
  const machines = await machinesOf(api);
  const days = PERIODS.some(([v]) => v === param('days')) ? Number(param('days')) : 7;
  const machineNo = param('machineNo');
  const machine = machines.find((m) => m.machineNo === machineNo);
  const zone = machine?.timeZone ?? 'UTC';
  const last = today(zone);
  const first = shiftDate(last, 1 - days);
  const root = el(
    'section',
    { class: 'view sales', 'aria-labelledby': 'sales-h' },
    el('h1', { id: 'sales-h' }, 'Sales'),
    el(
      'form',
      { method: 'get', action: '/console/sales', class: 'filters', 'aria-label': 'Sales period and machine' },
      selectField('sales-days', 'days', 'Period', PERIODS, String(days)),
      selectField('sales-machine', 'machineNo', 'Machine', machineChoices(machines), machineNo),
      el('div', { class: 'filter-actions' }, el('button', { type: 'submit', class: 'primary' }, 'Show')),
    ),
  );
  let summary: Summary;
  try {
    summary = unwrap(
      await api.GET('/api/v1/orders/summary', {
        params: { query: { ...(machineNo ? { machineNo } : {}), startTime: `${first} 00:00:00`, endTime: `${last} 23:59:59` } },
      }),
    );
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    root.append(el('p', { class: 'flash error', role: 'alert' }, e.message));
    return root;
  }
  const where = machine ? `${machine.name} (${machine.machineNo})` : 'all machines';
  root.append(
    el('p', { class: 'sub', id: 'sales-window' }, `${dayWords(first)} – ${dayWords(last)}, ${where}; days in ${summary.timeZone}`),
    totals(summary),
    perDay(summary, days),
    perMachine(summary, machines),
  );
  return root;
}

function totals(s: Summary): HTMLElement {
  const cur = s.currency;
  const fig = (label: string, value: string, key: string) => el('div', { 'data-figure': key }, el('dt', {}, label), el('dd', {}, value));
  return el(
    'section',
    { class: 'card totals', 'aria-labelledby': 'totals-h' },
    el('h2', { id: 'totals-h' }, 'Totals'),
    el(
      'dl',
      { class: 'rollup figures' },
      fig('Sales', cents(s.salesCents, cur), 'sales'),
      fig('Orders', String(s.count), 'count'),
      fig('Gross', cents(s.grossCents, cur), 'gross'),
      fig('Refunded', cents(s.refundedCents, cur), 'refunded'),
      fig('Tax', cents(s.taxCents, cur), 'tax'),
      fig('Net', cents(s.netCents, cur), 'net'),
    ),
  );
}

function perDay(s: Summary, days: number): HTMLElement {
  const cur = s.currency;
  const series = s.byDay ?? [];
  const rows = series.map((d) => el('tr', { 'data-date': d.date }, el('th', { scope: 'row' }, dayWords(d.date)), ...moneyCells(d, cur)));
  return el(
    'section',
    { class: 'card per-day', 'aria-labelledby': 'per-day-h' },
    el('h2', { id: 'per-day-h' }, 'Sales per day'),
    columnChart(
      `Sales per day, last ${days} days`,
      series.map((d) => ({ label: String(Number(d.date.slice(8))), name: dayWords(d.date), value: d.salesCents / 100, note: plural(d.count, 'order') })),
      cur,
    ),
    table(`Sales per day (${s.timeZone})`, ['Day', ...MONEY_HEADS], rows),
  );
}

/** A machine's name cut to what the bar chart's label column holds. */
const shortName = (n: string) => (n.length > 14 ? `${n.slice(0, 13)}…` : n);

function perMachine(s: Summary, machines: readonly Machine[]): HTMLElement {
  const cur = s.currency;
  const name = (no: string) => machines.find((m) => m.machineNo === no)?.name ?? no;
  const rows = s.byMachine.map((m) =>
    el(
      'tr',
      { 'data-machine': m.machineNo },
      el('th', { scope: 'row' }, el('a', { href: machineHref(m.machineNo) }, name(m.machineNo)), el('span', { class: 'sub' }, ` ${m.machineNo}`)),
      ...moneyCells(m, cur),
    ),
  );
  return el(
    'section',
    { class: 'card per-machine', 'aria-labelledby': 'per-machine-h' },
    el('h2', { id: 'per-machine-h' }, 'Sales per machine'),
    s.byMachine.length === 0
      ? el('p', {}, 'No sales in this period.')
      : barChart(
          'Sales per machine',
          s.byMachine.map((m) => ({ label: shortName(name(m.machineNo)), value: m.salesCents / 100, note: `${m.machineNo}, ${plural(m.count, 'order')}` })),
          cur,
        ),
    s.byMachine.length === 0 ? null : table('Sales per machine', ['Machine', ...MONEY_HEADS], rows),
  );
}
