import { ApiError, unwrap, type Api } from './api.ts';
import type { paths } from './api-schema.d.ts';
import { el, when } from './dom.ts';
import { confirmStep, flashLine, param, plural, sayFlash, table, wordsOf, type Answer, type Flash, type Ok } from './fleet-parts.ts';

type Run = Ok<'/api/v1/restock', 'get'>['records'][number];
type Crew = Ok<'/api/v1/crew/{crewId}', 'get'>;
type Status = NonNullable<NonNullable<paths['/api/v1/restock']['get']['parameters']['query']>['status']>;

/** The run states the list can be narrowed to (the API's `status` query; a drift breaks the build). */
const STATUSES: readonly Status[] = ['planned', 'in_progress', 'done', 'cancelled'];
const words = (s: Status) => s.replace('_', ' ');

/** What the page shows: the runs the API lists for the caller, their crews (the caller's role in each), and who calls. */
interface Data {
  runs: Run[];
  total: number;
  crews: Map<string, Crew>;
  me: string;
}

async function load(api: Api, status: Status | undefined): Promise<Data> {
  const [list, me] = await Promise.all([
    api.GET('/api/v1/restock', { params: { query: { size: 50, ...(status ? { status } : {}) } } }),
    api.GET('/api/v1/access/me'),
  ]);
  const page = unwrap(list);
  const crews = new Map<string, Crew>();
  // the caller's role in each run's crew (GET /crew/{id}: members only), so the page offers what the API allows
  const ids = [...new Set(page.records.map((r) => r.crewId))];
  const answers = await Promise.all(ids.map((crewId) => api.GET('/api/v1/crew/{crewId}', { params: { path: { crewId } } })));
  for (const a of answers) {
    try {
      const c = unwrap(a);
      crews.set(c.id, c);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404) throw e;
    }
  }
  return { runs: page.records, total: page.total, crews, me: unwrap(me).operatorEmail.toLowerCase() };
}

/**
 * `/console/runs`: the restock runs of the caller's crews, newest first (`GET /api/v1/restock`, the API's `status`
 * filter as a GET form) — for an operator every run of their crews, for a crew member the runs of the crews they are
 * in. Each run: its machine, status and people, its pick list per aisle and what to bring; the moves the API allows
 * the caller: start (planned), complete with the units put in each aisle (a dialog, the pick as the default), cancel
 * (the run's planner, the crew's owners and admins). Each move is one call, then the list is read again.
 */
export async function runsView(api: Api): Promise<HTMLElement> {
  const chosen = param('status');
  const status = STATUSES.find((s) => s === chosen);
  const page = new RunsPage(api, status, await load(api, status));
  return page.mount();
}

class RunsPage {
  private readonly root = el('section', { class: 'view runs', 'aria-labelledby': 'runs-h' });
  private readonly dialog = el('dialog', { class: 'dialog', 'aria-labelledby': 'dlg-h' });
  private message: Flash | null = null;

  constructor(
    private readonly api: Api,
    private readonly status: Status | undefined,
    private data: Data,
  ) {}

  mount(): HTMLElement {
    this.render();
    return el('div', {}, this.root, this.dialog);
  }

  private render(): void {
    const { runs, total } = this.data;
    const shown = this.status ? `${words(this.status)} ` : '';
    this.root.replaceChildren(
      el('h1', { id: 'runs-h' }, 'Restock runs'),
      el(
        'p',
        { class: 'sub' },
        `The runs of your crews, newest first: ${plural(total, `${shown}run`)}${total > runs.length ? ` (the newest ${runs.length} shown)` : ''}.`,
      ),
      this.filterForm(),
      flashLine(this.message),
      runs.length ? el('div', { class: 'run-list' }, ...runs.map((r) => this.runCard(r))) : el('p', { class: 'empty' }, this.emptyWords()),
    );
  }

  private emptyWords(): string {
    return this.status ? `No ${words(this.status)} restock run in your crews.` : 'No restock runs in your crews yet.';
  }

  private filterForm(): HTMLElement {
    const select = el(
      'select',
      { id: 'runs-status', name: 'status' },
      el('option', { value: '', selected: !this.status }, 'Any status'),
      ...STATUSES.map((s) => el('option', { value: s, selected: s === this.status }, words(s))),
    );
    return el(
      'form',
      { method: 'get', action: '/console/runs', class: 'filters', 'aria-label': 'Filter runs' },
      el('p', { class: 'field' }, el('label', { for: 'runs-status' }, 'Status'), select),
      el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary' }, 'Show')),
    );
  }

  private runCard(r: Run): HTMLElement {
    const crew = this.data.crews.get(r.crewId);
    const hId = `run-${r.id}-h`;
    const people = [
      `Planned by ${r.createdBy} ${when(r.createdAt)}`,
      r.startedBy ? `started by ${r.startedBy} ${when(r.startedAt)}` : null,
      r.completedBy ? `completed by ${r.completedBy} ${when(r.completedAt)}` : null,
      r.cancelledBy ? `cancelled by ${r.cancelledBy} ${when(r.cancelledAt)}${r.cancelReason ? `: ${r.cancelReason}` : ''}` : null,
    ].filter((p): p is string => p !== null);
    return el(
      'article',
      { class: 'card run', 'data-run': r.id, 'data-status': r.status, 'aria-labelledby': hId },
      el('h2', { id: hId }, `${r.machineNo} `, el('span', { class: `badge ${r.status}` }, words(r.status))),
      el('p', { class: 'sub' }, `Run ${r.id} · crew ${crew ? `${crew.name} (your role: ${crew.myRole})` : r.crewId}`),
      el('p', { class: 'people' }, `${people.join(', ')}.`),
      r.notes ? el('p', { class: 'notes' }, `Notes: ${r.notes}`) : null,
      el(
        'p',
        { class: 'to-load' },
        el('b', {}, 'To bring: '),
        r.totals.length ? r.totals.map((t) => `${t.pick} × ${t.productName}`).join(', ') : 'nothing, every aisle is full',
      ),
      this.lines(r),
      this.actions(r),
    );
  }

  /** The pick list as the API froze it at planning: per aisle the stock then, the par and the pick (and, once done, what went in). */
  private lines(r: Run): HTMLElement {
    const done = r.status === 'done';
    const heads = ['Aisle', 'Product', 'Stock at plan', 'Par', 'Pick', ...(done ? ['Filled', 'Stock after'] : [])];
    const rows = r.lines.map((l) => [
      String(l.aisleNo),
      el('span', {}, l.productName ?? l.sku ?? 'no product', l.faulted ? el('span', { class: 'badge fault' }, 'faulted') : null),
      String(l.stockAtPlan),
      String(l.par),
      el('span', { class: 'pick' }, String(l.pick)),
      ...(done ? [String(l.filled ?? 0), String(l.stockAfter ?? '')] : []),
    ]);
    return table(`Pick list of ${r.machineNo} (run ${r.id})`, heads, rows, 'run-lines');
  }

  /** The moves the API allows this caller on this run (it still decides: a refusal is said in its words). */
  private actions(r: Run): HTMLElement | null {
    const open = r.status === 'planned' || r.status === 'in_progress';
    if (!open) return null;
    const role = this.data.crews.get(r.crewId)?.myRole;
    const buttons: HTMLButtonElement[] = [];
    if (r.status === 'planned') {
      buttons.push(
        this.button('Start', `Start the run on ${r.machineNo}`, () =>
          this.act(`Run on ${r.machineNo} started`, this.api.POST('/api/v1/restock/{runId}/start', { params: { path: { runId: r.id } } })),
        ),
      );
    }
    buttons.push(this.button('Complete', `Complete the run on ${r.machineNo}`, () => this.complete(r)));
    if (role === 'owner' || role === 'admin' || r.createdBy.toLowerCase() === this.data.me) {
      buttons.push(this.button('Cancel', `Cancel the run on ${r.machineNo}`, () => this.cancel(r)));
    }
    return el('div', { class: 'actions' }, ...buttons);
  }

  private complete(r: Run): void {
    const inputs = r.lines.map((l) => ({
      aisleNo: l.aisleNo,
      input: el('input', { type: 'number', inputmode: 'numeric', min: 0, step: 1, id: `fill-${l.aisleNo}`, value: l.pick, required: true }),
      label: `Aisle ${l.aisleNo}${l.productName ? ` — ${l.productName}` : ''} (pick ${l.pick})`,
    }));
    confirmStep(this.dialog, {
      title: `Complete the run on ${r.machineNo}?`,
      content: [
        el('p', { class: 'confirm' }, 'The units you put in each aisle go into its stock once (up to its capacity). An aisle left at 0 keeps its stock.'),
        el(
          'fieldset',
          {},
          el('legend', {}, 'Units put in each aisle'),
          ...inputs.map(({ input, label }) => el('p', { class: 'field' }, el('label', { for: input.id }, label), input)),
        ),
      ],
      confirm: 'Complete the run',
      call: () =>
        this.api.POST('/api/v1/restock/{runId}/complete', {
          params: { path: { runId: r.id } },
          body: { aisles: inputs.map(({ aisleNo, input }) => ({ aisleNo, filled: Number(input.value) })) },
        }),
      done: () => this.reload(`Run on ${r.machineNo} completed`),
    });
  }

  private cancel(r: Run): void {
    const reason = el('input', { id: 'cancel-reason', type: 'text', maxlength: 255 });
    confirmStep(this.dialog, {
      title: `Cancel the run on ${r.machineNo}?`,
      content: [
        el('p', { class: 'confirm' }, `Run ${r.id} is ${words(r.status)}. Cancelled, it moves no stock and cannot be started again.`),
        el('p', { class: 'field' }, el('label', { for: 'cancel-reason' }, 'Reason (optional)'), reason),
      ],
      confirm: 'Cancel the run',
      call: () =>
        this.api.POST('/api/v1/restock/{runId}/cancel', {
          params: { path: { runId: r.id } },
          body: reason.value.trim() ? { reason: reason.value } : {},
        }),
      done: () => this.reload(`Run on ${r.machineNo} cancelled`),
    });
  }

  private button(label: string, aria: string, onClick: () => void): HTMLButtonElement {
    const b = el('button', { type: 'button', 'aria-label': aria }, label);
    b.addEventListener('click', onClick);
    return b;
  }

  /** One API call; on success the list is read again and says so, on refusal the API's words. */
  private async act(done: string, call: Promise<Answer>): Promise<void> {
    try {
      unwrap(await call);
    } catch (e) {
      return this.show({ text: wordsOf(e), error: true });
    }
    await this.reload(done);
  }

  private async reload(done: string): Promise<void> {
    try {
      this.data = await load(this.api, this.status);
      this.show({ text: done, error: false });
    } catch (e) {
      this.show({ text: wordsOf(e), error: true });
    }
  }

  private show(message: Flash): void {
    this.message = message;
    this.render();
    sayFlash(this.root, message);
  }
}
