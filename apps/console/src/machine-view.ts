import { ApiError, unwrap, type Api } from './api.ts';
import type { paths } from './api-schema.d.ts';
import { barChart } from './chart.ts';
import { announce, el, money, when } from './dom.ts';

type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } }
  ? D
  : never;
type View = Ok<'/api/v1/machines/{machineNo}/operator-view', 'get'>;
type Inventory = Ok<'/api/v1/inventory/machines/{machineNo}', 'get'>;
type Aisle = Inventory['aisles'][number];
type Run = Ok<'/api/v1/restock/{runId}', 'get'>;
type Command = Ok<'/api/v1/machines/{machineNo}/commands', 'get'>['records'][number];
/** What any call of the client answers. */
type Answer = { data?: { data: unknown }; error?: unknown; response: Response };
type AislePatch = NonNullable<paths['/api/v1/inventory/machines/{machineNo}/aisles/{aisleNo}']['put']['requestBody']>['content']['application/json'];

/** What the operator view shows, each read from its own operation. */
interface Data {
  view: View;
  inventory: Inventory;
  runs: Run[];
  commands: Command[];
}

async function load(api: Api, machineNo: string): Promise<Data> {
  const path = { machineNo };
  const [view, inventory, runs, commands] = await Promise.all([
    api.GET('/api/v1/machines/{machineNo}/operator-view', { params: { path } }),
    api.GET('/api/v1/inventory/machines/{machineNo}', { params: { path } }),
    api.GET('/api/v1/restock', { params: { query: { machineNo, size: 5 } } }),
    api.GET('/api/v1/machines/{machineNo}/commands', { params: { path, query: { size: 5 } } }),
  ]);
  // the view first: its 404 is the page's answer for a machine that is missing or someone else's
  const data = { view: unwrap(view), inventory: unwrap(inventory), commands: unwrap(commands).records, runs: [] as Run[] };
  // the restock-run list is for operators and their crews; a session it refuses simply has no runs to show
  try {
    data.runs = unwrap(runs).records;
  } catch (e) {
    if (!(e instanceof ApiError) || e.status === 404) throw e;
  }
  return data;
}

const orders = (n: number) => `${n} order${n === 1 ? '' : 's'}`;

function wordsOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The page for a machine that is missing or not the reader's: the same words either way. */
export function notFound(): HTMLElement {
  return el(
    'section',
    { class: 'view', 'aria-labelledby': 'nf-h' },
    el('h1', { id: 'nf-h' }, 'Machine not found'),
    el('p', {}, 'No machine with this number is in your fleet.'),
    el('p', {}, el('a', { href: '/console/' }, 'All machines')),
  );
}

/**
 * `/console/machines/<machineNo>`: the hosted operator view the machine's QR opens, for a route driver at the kiosk.
 * Everything shown is what the API answered; every action is one API call, then the view is read again.
 */
export class MachineView {
  private data: Data | null = null;
  private readonly root = el('section', { class: 'view', 'aria-labelledby': 'mv-h' });
  private readonly dialog = el('dialog', { class: 'dialog', 'aria-labelledby': 'dlg-h' });
  private message: { text: string; error: boolean } | null = null;

  constructor(
    private readonly api: Api,
    private readonly machineNo: string,
  ) {}

  async mount(): Promise<HTMLElement> {
    try {
      this.data = await load(this.api, this.machineNo);
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return notFound();
      throw e;
    }
    this.render();
    const wrap = el('div', {}, this.root, this.dialog);
    return wrap;
  }

  private render(): void {
    const d = this.data!;
    const m = d.view.machine;
    this.root.replaceChildren(
      el('h1', { id: 'mv-h' }, m.name),
      el('p', { class: 'sub' }, `${m.location} · ${m.machineNo}`),
      el(
        'p',
        { class: 'status-line' },
        el('span', { class: `badge ${m.effectivelyDown ? 'down' : m.status}` }, m.effectivelyDown ? 'down' : m.status),
        ` Last seen ${when(m.lastSeen)}`,
        m.effectivelyDown ? el('span', { class: 'warn' }, ' — not heard from for more than ten minutes') : null,
      ),
      el(
        'div',
        { id: 'flash', role: 'status', tabindex: -1, class: this.message ? (this.message.error ? 'flash error' : 'flash ok') : 'flash' },
        this.message?.text ?? '',
      ),
      this.salesSection(),
      this.aislesSection(),
      this.runSection(),
      this.dropsSection(),
      this.moneySection(),
    );
  }

  private salesSection(): HTMLElement {
    const { sales } = this.data!.view;
    const cur = this.data!.view.money.currency;
    const bar = (label: string, b: View['sales']['today']) => ({ label, value: b.gross, note: orders(b.orders) });
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'sales-h' },
      el('h2', { id: 'sales-h' }, 'Sales'),
      el(
        'dl',
        { class: 'figures' },
        el('div', {}, el('dt', {}, 'Today'), el('dd', {}, money(sales.today.gross, cur), el('small', {}, ` ${orders(sales.today.orders)}`))),
        el('div', {}, el('dt', {}, 'Last 7 days'), el('dd', {}, money(sales.last7Days.gross, cur), el('small', {}, ` ${orders(sales.last7Days.orders)}`))),
      ),
      barChart('Gross sales', [bar('Today', sales.today), bar('Last 7 days', sales.last7Days), bar('Last 30 days', sales.last30Days)], cur),
    );
  }

  private aislesSection(): HTMLElement {
    const { aisles } = this.data!.view;
    const list = (nos: number[]) => (nos.length ? nos.join(', ') : 'none');
    const items = this.data!.inventory.aisles.map((a) => this.aisleItem(a));
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'aisles-h' },
      el('h2', { id: 'aisles-h' }, 'Aisles'),
      el(
        'dl',
        { class: 'rollup' },
        el(
          'div',
          {},
          el('dt', {}, 'Filled'),
          el('dd', {}, `${aisles.fillPercent}% (${aisles.stockUnits} of ${aisles.capacityUnits} units, ${aisles.total} aisles)`),
        ),
        el('div', {}, el('dt', {}, 'Low'), el('dd', {}, list(aisles.low))),
        el('div', {}, el('dt', {}, 'Out'), el('dd', {}, list(aisles.out))),
        el('div', {}, el('dt', {}, 'Fault'), el('dd', {}, list(aisles.faulted))),
      ),
      el(
        'form',
        { class: 'restock', 'aria-label': 'Restock' },
        el('fieldset', {}, el('legend', {}, 'Choose aisles to restock, or restock all'), el('ul', { class: 'aisles' }, ...items)),
        el(
          'div',
          { class: 'actions' },
          this.button('Restock selected', () => this.restock(true)),
          this.button('Restock all', () => this.restock(false)),
        ),
      ),
    );
  }

  private aisleItem(a: Aisle): HTMLElement {
    const d = this.data!.view;
    const flags = [d.aisles.out.includes(a.aisleNo) ? 'out' : a.low ? 'low' : null, a.faulted ? 'fault' : null].filter((f) => f !== null);
    const product = a.productName ?? 'No product';
    return el(
      'li',
      { class: `aisle ${flags.join(' ')}`, 'data-aisle': a.aisleNo },
      el('input', { type: 'checkbox', id: `pick-${a.aisleNo}`, name: 'aisle', value: a.aisleNo }),
      el('label', { for: `pick-${a.aisleNo}`, class: 'aisle-name' }, el('b', {}, `Aisle ${a.aisleNo}`), ` ${product}`),
      el(
        'span',
        { class: 'aisle-facts' },
        `${a.currentStock}/${a.maxStock} · `,
        el('span', { class: 'price' }, money(a.sellingPrice, d.money.currency)),
        ...flags.map((f) => el('span', { class: `badge ${f}` }, f)),
      ),
      el(
        'span',
        { class: 'aisle-actions' },
        this.button('Edit', () => this.editAisle(a), `Edit aisle ${a.aisleNo}`),
        this.button('Drop', () => this.confirmDrop(a), `Drop from aisle ${a.aisleNo}`),
      ),
    );
  }

  private runSection(): HTMLElement {
    const open = this.data!.runs.find((r) => r.status === 'in_progress') ?? this.data!.runs.find((r) => r.status === 'planned');
    const body: (Node | string)[] = [];
    if (!open) {
      body.push(
        el('p', {}, 'No restock run is planned for this machine.'),
        this.button('Plan a restock run', () => this.act('Restock run planned', this.api.POST('/api/v1/restock', { body: { machineNo: this.machineNo } }))),
      );
    } else {
      body.push(el('p', {}, `Run ${open.id}: ${open.status.replace('_', ' ')} (planned by ${open.createdBy})`));
      const picks = open.lines.filter((l) => l.pick > 0);
      body.push(el('p', {}, 'To load: ', open.totals.length ? open.totals.map((t) => `${t.pick} × ${t.productName}`).join(', ') : 'nothing'));
      if (open.status === 'planned') {
        body.push(
          this.button('Start the run', () =>
            this.act('Restock run started', this.api.POST('/api/v1/restock/{runId}/start', { params: { path: { runId: open.id } } })),
          ),
        );
      } else {
        const inputs = picks.map((l) => ({
          aisleNo: l.aisleNo,
          input: el('input', { type: 'number', inputmode: 'numeric', min: 0, id: `fill-${l.aisleNo}`, value: l.pick }),
        }));
        body.push(
          el(
            'form',
            { class: 'complete', 'aria-label': 'Complete the run' },
            el(
              'fieldset',
              {},
              el('legend', {}, 'Units put in each aisle'),
              ...inputs.map(({ aisleNo, input }) => el('p', { class: 'field' }, el('label', { for: input.id }, `Aisle ${aisleNo}`), input)),
            ),
            this.button('Complete the run', () =>
              this.act(
                'Restock run completed',
                this.api.POST('/api/v1/restock/{runId}/complete', {
                  params: { path: { runId: open.id } },
                  body: { aisles: inputs.map(({ aisleNo, input }) => ({ aisleNo, filled: Number(input.value) })) },
                }),
              ),
            ),
          ),
        );
      }
    }
    return el('section', { class: 'card', 'aria-labelledby': 'run-h' }, el('h2', { id: 'run-h' }, 'Restock run'), ...body);
  }

  private dropsSection(): HTMLElement {
    const rows = this.data!.commands.map((c) =>
      el('li', { 'data-command': c.commandId }, `Aisle ${c.aisleNo}: ${c.status}`, el('small', {}, ` ${when(c.createdAt)} · ${c.reason}`)),
    );
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'drops-h' },
      el('h2', { id: 'drops-h' }, 'Remote drops'),
      rows.length ? el('ul', { class: 'drops' }, ...rows) : el('p', {}, 'No remote drops yet.'),
    );
  }

  private moneySection(): HTMLElement {
    const mv = this.data!.view.money;
    const cur = mv.currency;
    const row = (k: string, v: string) => el('div', {}, el('dt', {}, k), el('dd', {}, v));
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'money-h' },
      el('h2', { id: 'money-h' }, 'Money (last 30 days)'),
      el(
        'dl',
        { class: 'rollup' },
        row('Sales', money(mv.sales30Days, cur)),
        row('Screen ads', `${money(mv.screenAds.estRevenue30Days, cur)} est. · ${mv.screenAds.activeCampaigns} active campaigns`),
        row('Free product', `${mv.freeProduct.drops30Days} drops · ${money(mv.freeProduct.cost30Days, cur)} cost`),
        row(
          'Game',
          `${mv.game.plays30Days} plays · ${mv.game.wins30Days} wins · ${money(mv.game.prizeCost30Days, cur)} prizes` +
            (mv.game.budgetLeft !== null ? ` · ${money(mv.game.budgetLeft, cur)} budget left` : ''),
        ),
      ),
    );
  }

  private button(label: string, onClick: () => void, ariaLabel?: string): HTMLButtonElement {
    const b = el('button', { type: 'button', 'aria-label': ariaLabel }, label);
    b.addEventListener('click', onClick);
    return b;
  }

  private restock(selected: boolean): void {
    const picked = [...this.root.querySelectorAll<HTMLInputElement>('input[name="aisle"]:checked')].map((i) => Number(i.value));
    if (selected && picked.length === 0) return this.show('Choose at least one aisle first.', true);
    const body = selected ? { aisles: picked } : {};
    void this.act(
      selected ? `Aisle${picked.length === 1 ? '' : 's'} ${picked.join(', ')} restocked` : 'All aisles restocked',
      this.api.POST('/api/v1/inventory/machines/{machineNo}/restock', { params: { path: { machineNo: this.machineNo } }, body }),
    );
  }

  /** Runs one API call; on success reads the view again and says so, on refusal says the API's words. */
  private async act(done: string, call: Promise<Answer>): Promise<void> {
    try {
      unwrap(await call);
    } catch (e) {
      return this.show(wordsOf(e), true);
    }
    await this.reload(done);
  }

  /** A dialog's call: a refusal is said inside the dialog, which stays open; success closes it and reads the view again. */
  private async submitDialog(err: HTMLElement, done: string, call: () => Promise<Answer>): Promise<void> {
    try {
      unwrap(await call());
    } catch (e) {
      err.textContent = wordsOf(e);
      return;
    }
    this.dialog.onclose = null;
    this.dialog.close();
    await this.reload(done);
  }

  private async reload(done: string): Promise<void> {
    try {
      this.data = await load(this.api, this.machineNo);
      this.show(done, false);
    } catch (e) {
      this.show(wordsOf(e), true);
    }
  }

  private show(text: string, error: boolean): void {
    this.message = { text, error };
    this.render();
    this.root.querySelector<HTMLElement>('#flash')?.focus();
    announce(text);
  }

  /** Opens the dialog with `content`; Escape or Cancel closes it and focus returns to `from`. */
  private openDialog(title: string, content: HTMLElement[], from: HTMLElement | null): void {
    this.dialog.replaceChildren(el('h2', { id: 'dlg-h' }, title), ...content);
    this.dialog.onclose = () => from?.isConnected && from.focus();
    this.dialog.showModal();
  }

  private editAisle(a: Aisle): void {
    const from = document.activeElement as HTMLElement | null;
    const field = (id: string, label: string, input: HTMLInputElement) => el('p', { class: 'field' }, el('label', { for: id }, label), input);
    const stock = el('input', { id: 'ed-stock', type: 'number', inputmode: 'numeric', min: 0, value: a.currentStock });
    const price = el('input', { id: 'ed-price', type: 'text', inputmode: 'decimal', value: a.sellingPrice.toFixed(2) });
    const fault = el('input', { id: 'ed-fault', type: 'checkbox', checked: a.faulted });
    const err = el('p', { class: 'error', role: 'alert' });
    const form = el(
      'form',
      { method: 'dialog' },
      el('p', {}, a.productName ?? 'No product'),
      field('ed-stock', 'Stock (units)', stock),
      field('ed-price', 'Price', price),
      el('p', { class: 'field check' }, fault, el('label', { for: 'ed-fault' }, 'Out of order (fault)')),
      err,
      el(
        'div',
        { class: 'actions' },
        el('button', { type: 'submit', value: 'save', class: 'primary' }, 'Save'),
        el('button', { type: 'button', value: 'cancel', class: 'cancel' }, 'Cancel'),
      ),
    );
    form.querySelector<HTMLButtonElement>('.cancel')!.addEventListener('click', () => this.dialog.close());
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const patch: AislePatch = {};
      if (stock.value !== String(a.currentStock)) patch.currentStock = Number(stock.value);
      if (Number(price.value) !== a.sellingPrice) patch.sellingPrice = Number(price.value);
      if (fault.checked !== a.faulted) patch.faulted = fault.checked;
      if (price.value.trim() === '' || Number.isNaN(Number(price.value))) return void (err.textContent = 'Enter the price as a number, e.g. 2.50.');
      if (Object.keys(patch).length === 0) return this.dialog.close();
      void this.submitDialog(err, `Aisle ${a.aisleNo} saved`, () =>
        this.api.PUT('/api/v1/inventory/machines/{machineNo}/aisles/{aisleNo}', {
          params: { path: { machineNo: this.machineNo, aisleNo: a.aisleNo } },
          body: patch,
        }),
      );
    });
    this.openDialog(`Edit aisle ${a.aisleNo}`, [form], from);
  }

  private confirmDrop(a: Aisle): void {
    const from = document.activeElement as HTMLElement | null;
    const reason = el('input', { id: 'drop-reason', type: 'text', value: 'Driver test drop', required: true, maxlength: 200 });
    const err = el('p', { class: 'error', role: 'alert' });
    const form = el(
      'form',
      { method: 'dialog' },
      el(
        'p',
        { class: 'confirm' },
        'Drop one ',
        el('b', {}, a.productName ?? 'unnamed product'),
        ` from aisle ${a.aisleNo} of ${this.data!.view.machine.name}?`,
      ),
      el('p', { class: 'field' }, el('label', { for: 'drop-reason' }, 'Reason'), reason),
      err,
      el(
        'div',
        { class: 'actions' },
        el('button', { type: 'submit', class: 'primary' }, 'Confirm drop'),
        el('button', { type: 'button', class: 'cancel' }, 'Cancel'),
      ),
    );
    form.querySelector<HTMLButtonElement>('.cancel')!.addEventListener('click', () => this.dialog.close());
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.submitDialog(err, `Drop from aisle ${a.aisleNo} sent to the machine`, () =>
        this.api.POST('/api/v1/machines/{machineNo}/commands/dispense', {
          params: { path: { machineNo: this.machineNo } },
          body: { aisleNo: a.aisleNo, reason: reason.value },
        }),
      );
    });
    this.openDialog('Confirm the remote drop', [form], from);
    reason.focus();
  }
}
