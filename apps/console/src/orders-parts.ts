import { unwrap, type Api } from './api.ts';
import type { paths } from './api-schema.d.ts';
import { el, money } from './dom.ts';

// What the sales and orders pages share: the answers' types, the operator's machines for the filters, a labelled
// select, the amounts the API gives in cents, and a table with a caption and column headers.

type Ok<P extends keyof paths> = paths[P]['get'] extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : never;
export type Summary = Ok<'/api/v1/orders/summary'>;
export type OrdersPage = Ok<'/api/v1/orders'>;
export type Order = Ok<'/api/v1/orders/{orderNumber}'>;
export type Machine = Ok<'/api/v1/machines'>['records'][number];
export type Money = Pick<Summary, 'count' | 'grossCents' | 'refundedCents' | 'salesCents' | 'taxCents' | 'netCents'>;

/** The operator's machines (the ones this session may see), for the machine filter and the machines' names. */
export async function machinesOf(api: Api): Promise<Machine[]> {
  return unwrap(await api.GET('/api/v1/machines', { params: { query: { size: 100 } } })).records;
}

/** An amount the API answered in cents, in the currency it named. */
export function cents(amount: number, currency: string | null): string {
  return money(amount / 100, currency);
}

/** One query parameter of the page's own address ('' when absent). */
export function param(name: string): string {
  return new URLSearchParams(location.search).get(name) ?? '';
}

/** A labelled select of a GET form: its choices as [value, label], the current value chosen. */
export function selectField(id: string, name: string, label: string, choices: readonly (readonly [string, string])[], value: string): HTMLElement {
  return el(
    'div',
    { class: 'field' },
    el('label', { for: id }, label),
    el('select', { id, name }, ...choices.map(([v, text]) => el('option', { value: v, selected: v === value }, text))),
  );
}

/** The machine filter's choices: every machine, then each of the operator's by name and number. */
export function machineChoices(machines: readonly Machine[]): [string, string][] {
  return [['', 'All machines'], ...machines.map((m): [string, string] => [m.machineNo, `${m.name} (${m.machineNo})`])];
}

/**
 * A table with a caption, column headers (scope=col) and body rows, in a wrapper that scrolls sideways on a phone —
 * a focusable, named region, so a keyboard can scroll it too.
 */
export function table(caption: string, heads: readonly string[], rows: readonly HTMLTableRowElement[], cls = ''): HTMLElement {
  return el(
    'div',
    { class: `table-wrap ${cls}`.trim(), tabindex: 0, role: 'region', 'aria-label': caption },
    el('table', {}, el('caption', {}, caption), el('thead', {}, el('tr', {}, ...heads.map((h) => el('th', { scope: 'col' }, h)))), el('tbody', {}, ...rows)),
  );
}

/** The money columns of a rollup row: orders, gross, refunded, sales, tax, net. */
export function moneyCells(r: Money, currency: string | null): HTMLTableCellElement[] {
  return [
    el('td', { class: 'num' }, String(r.count)),
    el('td', { class: 'num' }, cents(r.grossCents, currency)),
    el('td', { class: 'num' }, cents(r.refundedCents, currency)),
    el('td', { class: 'num' }, cents(r.salesCents, currency)),
    el('td', { class: 'num' }, cents(r.taxCents, currency)),
    el('td', { class: 'num' }, cents(r.netCents, currency)),
  ];
}

export const MONEY_HEADS = ['Orders', 'Gross', 'Refunded', 'Sales', 'Tax', 'Net'] as const;

export const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** A machine's page in the console. */
export const machineHref = (machineNo: string) => `/console/machines/${encodeURIComponent(machineNo)}`;
