import { ApiError, unwrap, type Api } from './api.ts';
import { el, when } from './dom.ts';
import { confirmStep, flashLine, param, plural, sayFlash, table, wordsOf, type Flash, type Ok } from './fleet-parts.ts';

type MachinePage = Ok<'/api/v1/machines', 'get'>;
type Machine = MachinePage['records'][number];
type Alert = Ok<'/api/v1/alerts', 'get'>['records'][number];
type Inventory = Ok<'/api/v1/inventory', 'get'>;

/** Machines per page of the fleet (the API's page size). */
const PAGE_SIZE = 50;
const STATUSES = ['online', 'offline'] as const;
type Status = (typeof STATUSES)[number];

/** The fleet's filters, read from the address (the search form is a GET form, so the URL keeps them). */
interface Filters {
  q: string;
  status: Status | '';
  page: number;
}

function filtersOf(): Filters {
  const status = param('status');
  const page = Number(param('page'));
  return {
    q: param('q').trim(),
    status: (STATUSES as readonly string[]).includes(status) ? (status as Status) : '',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

interface Data {
  machines: MachinePage;
  alerts: Alert[];
  alertsTotal: number;
  inventory: Inventory | null;
}

/** One page of machines (the API filters by status and pages), the open alerts, and every machine's aisles — three calls. */
async function load(api: Api, f: Filters): Promise<Data> {
  const [machines, alerts, inventory] = await Promise.all([
    api.GET('/api/v1/machines', { params: { query: { size: PAGE_SIZE, page: f.page, ...(f.status ? { status: f.status } : {}) } } }),
    api.GET('/api/v1/alerts', { params: { query: { state: 'open', size: 100 } } }),
    api.GET('/api/v1/inventory'),
  ]);
  const data: Data = { machines: unwrap(machines), alerts: [], alertsTotal: 0, inventory: null };
  // a session the alert or inventory reads refuse (an access group, a key without the scope) still sees its machines
  try {
    const a = unwrap(alerts);
    data.alerts = a.records;
    data.alertsTotal = a.total;
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 403) throw e;
  }
  try {
    data.inventory = unwrap(inventory);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 403) throw e;
  }
  return data;
}

/** The search: a machine whose name, number or location holds the words (case-insensitive), on the loaded page. */
function matches(m: Machine, q: string): boolean {
  if (q === '') return true;
  const hay = `${m.name} ${m.machineNo} ${m.location}`.toLowerCase();
  return q
    .toLowerCase()
    .split(/\s+/)
    .every((w) => hay.includes(w));
}

/** `/console/`: the operator's machines with status, last seen, stock flags and open alerts; search, status filter, paging; resolve an alert. */
export async function fleetView(api: Api): Promise<HTMLElement> {
  return new FleetView(api, filtersOf()).mount();
}

class FleetView {
  private data: Data | null = null;
  private readonly root = el('section', { class: 'view fleet', 'aria-labelledby': 'fleet-h' });
  private readonly dialog = el('dialog', { class: 'dialog', 'aria-labelledby': 'dlg-h' });
  private message: Flash | null = null;

  constructor(
    private readonly api: Api,
    private readonly f: Filters,
  ) {}

  async mount(): Promise<HTMLElement> {
    this.data = await load(this.api, this.f);
    this.render();
    return el('div', {}, this.root, this.dialog);
  }

  private shown(): Machine[] {
    return this.data!.machines.records.filter((m) => matches(m, this.f.q));
  }

  private render(): void {
    const d = this.data!;
    const shown = this.shown();
    const names = new Map<string, string>([
      ...(d.inventory ?? []).map((m) => [m.machineNo, m.name] as const),
      ...d.machines.records.map((m) => [m.machineNo, m.name] as const),
    ]);
    const filtered = this.f.q !== '' || this.f.status !== '';
    // with a search or a filter on, the alerts of the machines shown; else every open alert
    const inView = new Set(shown.map((m) => m.machineNo));
    const alerts = filtered ? d.alerts.filter((a) => a.machineNo !== null && inView.has(a.machineNo)) : d.alerts;
    this.root.replaceChildren(
      el('h1', { id: 'fleet-h' }, 'Machines'),
      flashLine(this.message),
      this.searchForm(),
      this.machinesTable(shown),
      this.pager() ?? '',
      this.alertsSection(alerts, names),
    );
  }

  private searchForm(): HTMLElement {
    const q = el('input', { type: 'search', id: 'fleet-q', name: 'q', value: this.f.q, autocomplete: 'off' });
    const status = el(
      'select',
      { id: 'fleet-status', name: 'status' },
      el('option', { value: '', selected: this.f.status === '' }, 'Any status'),
      ...STATUSES.map((s) => el('option', { value: s, selected: this.f.status === s }, s)),
    );
    return el(
      'form',
      { method: 'get', action: '/console/', role: 'search', class: 'filters', 'aria-label': 'Find machines' },
      el('p', { class: 'field' }, el('label', { for: 'fleet-q' }, 'Search name, number or location'), q),
      el('p', { class: 'field' }, el('label', { for: 'fleet-status' }, 'Status'), status),
      el(
        'div',
        { class: 'actions' },
        el('button', { type: 'submit', class: 'primary' }, 'Search'),
        this.f.q !== '' || this.f.status !== '' ? el('a', { href: '/console/', class: 'clear' }, 'Clear filters') : null,
      ),
    );
  }

  private machinesTable(shown: Machine[]): HTMLElement {
    const d = this.data!;
    if (d.machines.total === 0 && this.f.status === '') return el('p', {}, 'No machines yet.');
    if (shown.length === 0) return el('p', { class: 'empty' }, 'No machine matches.');
    const stock = new Map((d.inventory ?? []).map((m) => [m.machineNo, m.aisles]));
    const open = new Map<string, Alert[]>();
    for (const a of d.alerts) if (a.machineNo !== null) open.set(a.machineNo, [...(open.get(a.machineNo) ?? []), a]);
    const caption =
      this.f.q === ''
        ? `${plural(d.machines.total, 'machine')}${this.f.status ? ` ${this.f.status}` : ''}`
        : `${plural(shown.length, 'machine')} matching “${this.f.q}” (of ${d.machines.records.length} on this page)`;
    const rows = shown.map((m) => [
      el('a', { href: `/console/machines/${encodeURIComponent(m.machineNo)}` }, m.name),
      m.machineNo,
      m.location,
      el('span', { class: `badge ${m.status}` }, m.status),
      when(m.lastSeen),
      this.stockCell(stock.get(m.machineNo)),
      this.alertCell(open.get(m.machineNo) ?? []),
    ]);
    return table(caption, ['Name', 'Machine', 'Location', 'Status', 'Last seen', 'Aisles', 'Open alerts'], rows, 'fleet-table');
  }

  /** The aisles the API flags: low (its `low`), out (no stock left) and fault (its `faulted`). */
  private stockCell(aisles: Inventory[number]['aisles'] | undefined): Node | string {
    if (!aisles) return '—';
    const low = aisles.filter((a) => a.low && a.currentStock > 0).length;
    const out = aisles.filter((a) => a.currentStock === 0).length;
    const fault = aisles.filter((a) => a.faulted).length;
    if (low + out + fault === 0) return 'all stocked';
    return el(
      'span',
      { class: 'flags' },
      low ? el('span', { class: 'badge low' }, `${low} low`) : null,
      out ? el('span', { class: 'badge out' }, `${out} out`) : null,
      fault ? el('span', { class: 'badge fault' }, `${fault} fault`) : null,
    );
  }

  private alertCell(alerts: Alert[]): Node | string {
    if (alerts.length === 0) return 'none';
    const kinds = [...new Set(alerts.map((a) => a.type))];
    return el('span', { class: 'alerts-cell' }, el('span', { class: 'badge alert' }, String(alerts.length)), ` ${kinds.join(', ')}`);
  }

  private pager(): HTMLElement | null {
    const d = this.data!.machines;
    const pages = Math.ceil(d.total / d.size);
    if (pages <= 1) return null;
    const href = (page: number) => {
      const u = new URLSearchParams();
      if (this.f.q) u.set('q', this.f.q);
      if (this.f.status) u.set('status', this.f.status);
      u.set('page', String(page));
      return `/console/?${u.toString()}`;
    };
    return el(
      'nav',
      { class: 'pager', 'aria-label': 'Pages of machines' },
      d.page > 1 ? el('a', { href: href(d.page - 1), rel: 'prev' }, 'Previous page') : null,
      el('span', {}, ` Page ${d.page} of ${pages} `),
      d.page < pages ? el('a', { href: href(d.page + 1), rel: 'next' }, 'Next page') : null,
    );
  }

  private alertsSection(alerts: Alert[], names: Map<string, string>): HTMLElement {
    const d = this.data!;
    const label = (a: Alert) => (a.machineNo === null ? 'the fleet' : `${names.get(a.machineNo) ?? a.machineNo} (${a.machineNo})`);
    const rows = alerts.map((a) => {
      const b = el('button', { type: 'button', 'aria-label': `Resolve ${a.type} on ${label(a)}` }, 'Resolve');
      b.addEventListener('click', () => this.confirmResolve(a, label(a)));
      return [a.type, label(a), a.condition, when(a.openedAt), String(a.occurrences), b];
    });
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'alerts-h' },
      el('h2', { id: 'alerts-h' }, 'Open alerts'),
      rows.length === 0
        ? el('p', {}, 'No open alerts.')
        : table(
            d.alertsTotal > d.alerts.length ? `${alerts.length} shown of ${d.alertsTotal} open alerts` : plural(alerts.length, 'open alert'),
            ['Alert', 'Machine', 'Condition', 'Opened', 'Times', 'Action'],
            rows,
            'alerts-table',
          ),
    );
  }

  private confirmResolve(a: Alert, machine: string): void {
    confirmStep(this.dialog, {
      title: 'Resolve this alert?',
      content: [
        el('p', { class: 'confirm' }, 'Close the ', el('b', {}, a.type), ` alert on ${machine}, opened ${when(a.openedAt)}?`),
        el('p', {}, 'It opens again if the condition is raised again.'),
      ],
      confirm: 'Resolve alert',
      call: () => this.api.POST('/api/v1/alerts/{id}/resolve', { params: { path: { id: a.id } } }),
      done: () => this.reload(`Alert ${a.type} on ${machine} resolved`),
    });
  }

  private async reload(done: string): Promise<void> {
    try {
      this.data = await load(this.api, this.f);
      this.message = { text: done, error: false };
    } catch (e) {
      this.message = { text: wordsOf(e), error: true };
    }
    this.render();
    sayFlash(this.root, this.message);
  }
}
