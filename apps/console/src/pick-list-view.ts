import { ApiError, unwrap, type Api } from './api.ts';
import { el } from './dom.ts';
import { notFound } from './machine-view.ts';
import { param, plural, table, type Ok } from './fleet-parts.ts';

type PickList = Ok<'/api/v1/restock/pick-list', 'get'>;
type Machines = Ok<'/api/v1/machines', 'get'>['records'];

/**
 * `/console/pick-list`: what to load on the truck across the fleet — per product the units to bring and each
 * machine's aisles, as `GET /api/v1/restock/pick-list` answers it (the fill rule is the service's); `?machine=`
 * narrows it to one machine (a GET form, so the address keeps it). Printable.
 */
export async function pickListView(api: Api): Promise<HTMLElement> {
  const machineNo = param('machine').trim();
  const [list, machines] = await Promise.all([
    api.GET('/api/v1/restock/pick-list', { params: { query: machineNo ? { machineNo } : {} } }),
    api.GET('/api/v1/machines', { params: { query: { size: 100 } } }),
  ]);
  let data: PickList;
  try {
    data = unwrap(list);
  } catch (e) {
    // a machine that is missing or someone else's: the same page as the operator view's
    if (e instanceof ApiError && e.status === 404) return notFound();
    throw e;
  }
  let fleet: Machines = [];
  try {
    fleet = unwrap(machines).records;
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 403) throw e;
  }
  const chosen = fleet.find((m) => m.machineNo === machineNo);
  return el(
    'section',
    { class: 'view pick-list', 'aria-labelledby': 'pick-h' },
    el('h1', { id: 'pick-h' }, 'Pick list'),
    el(
      'p',
      { class: 'sub' },
      machineNo
        ? `What to load for ${chosen ? `${chosen.name} (${machineNo})` : machineNo}`
        : `What to load on the truck for ${plural(data.machines, 'machine')}`,
      ': every aisle filled to its capacity; faulted aisles get nothing until repaired.',
    ),
    machineForm(fleet, machineNo),
    el('p', { class: 'pick-total' }, el('b', {}, plural(data.units, 'unit')), ` of ${plural(data.products.length, 'product')} to bring`),
    data.products.length === 0 ? el('p', { class: 'empty' }, 'Nothing to load: every aisle is full.') : productsTable(data),
    ...data.products.map((p) => productDetail(p)),
    faultedSection(data),
  );
}

function machineForm(fleet: Machines, machineNo: string): HTMLElement {
  const select = el(
    'select',
    { id: 'pick-machine', name: 'machine' },
    el('option', { value: '', selected: machineNo === '' }, 'All machines'),
    ...fleet.map((m) => el('option', { value: m.machineNo, selected: m.machineNo === machineNo }, `${m.name} (${m.machineNo})`)),
  );
  const print = el('button', { type: 'button', class: 'print' }, 'Print');
  print.addEventListener('click', () => window.print());
  return el(
    'form',
    { method: 'get', action: '/console/pick-list', class: 'filters no-print', 'aria-label': 'Choose a machine' },
    el('p', { class: 'field' }, el('label', { for: 'pick-machine' }, 'Machine'), select),
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary' }, 'Show'), print),
  );
}

/** The summary: one row per product with its units and the machines that take it. */
function productsTable(data: PickList): HTMLElement {
  const rows = data.products.map((p) => [
    p.productName,
    p.sku,
    el('span', { class: 'units' }, String(p.units)),
    p.machines.map((m) => `${m.name} ${m.units}`).join(', '),
  ]);
  return table(`${plural(data.products.length, 'product')} to load`, ['Product', 'SKU', 'Units', 'Machines'], rows, 'pick-table');
}

/** One product's breakdown: each machine and the aisles it fills. */
function productDetail(p: PickList['products'][number]): HTMLElement {
  const rows = p.machines.map((m) => [`${m.name} (${m.machineNo})`, m.aisles.map((a) => `aisle ${a.aisleNo}: ${a.units}`).join(', '), String(m.units)]);
  return el(
    'section',
    { class: 'card pick-product', 'data-sku': p.sku },
    el('h2', {}, `${p.productName}: ${plural(p.units, 'unit')}`),
    table(`${p.productName} by machine`, ['Machine', 'Aisles', 'Units'], rows),
  );
}

function faultedSection(data: PickList): HTMLElement | null {
  if (data.faulted.length === 0) return null;
  return el(
    'section',
    { class: 'card', 'aria-labelledby': 'pick-fault-h' },
    el('h2', { id: 'pick-fault-h' }, 'Not loaded: faulted aisles'),
    el('ul', {}, ...data.faulted.map((f) => el('li', {}, `${f.machineNo} aisle ${f.aisleNo}${f.productName ? ` (${f.productName})` : ''}`))),
  );
}
