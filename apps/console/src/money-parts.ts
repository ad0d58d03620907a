import { ApiError, unwrap, type Api } from './api.ts';
import type { paths } from './api-schema.d.ts';
import { announce, el, money, svg } from './dom.ts';

// What the campaigns and money pages share: the answer types, the page's status line and its one dialog, a
// confirmation that shows the facts (amount, terms) before the explicit click, tables, and a bar chart of counts.

/** The `data` of an operation's 200 answer. */
export type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': { data: infer D } } } };
}
  ? D
  : never;

/** What any call of the client answers. */
export type Answer = { data?: { data: unknown }; error?: unknown; response: Response };

export type Cell = Node | string | null;

/** The operator's currency (`GET /api/v1/auth/me`; null for a full admin, shown as USD). */
export async function currencyOf(api: Api): Promise<string | null> {
  return unwrap(await api.GET('/api/v1/auth/me')).currency;
}

/** An integer-cents amount the API answered, shown in its currency (a display conversion, not a money rule). */
export function cents(amount: number, currency: string | null): string {
  return money(amount / 100, currency);
}

/** A UTC day or timestamp the API answered, as a date only (`2026-12-06`), or `none`. */
export function day(stamp: string | null | undefined): string {
  return stamp ? stamp.slice(0, 10) : 'none';
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function wordsOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** A table with a caption, column headers (scope=col) and rows whose first cell is the row's header (scope=row). */
export function table(caption: string, head: readonly string[], rows: readonly Cell[][], foot?: Cell[]): HTMLElement {
  const row = (cells: Cell[], tag: 'td' | 'th' = 'td') => el('tr', {}, ...cells.map((c, i) => (i === 0 ? el('th', { scope: 'row' }, c) : el(tag, {}, c))));
  // the frame scrolls sideways on a phone: a keyboard reaches it (tabindex) and a screen reader hears its name
  return el(
    'div',
    { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': caption },
    el(
      'table',
      {},
      el('caption', {}, caption),
      el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...rows.map((r) => row(r))),
      foot ? el('tfoot', {}, row(foot)) : null,
    ),
  );
}

/** A definition list of label → value pairs. */
export function facts(pairs: readonly [string, Cell][], cls = 'rollup'): HTMLElement {
  return el('dl', { class: cls }, ...pairs.map(([k, v]) => el('div', {}, el('dt', {}, k), el('dd', {}, v))));
}

export interface CountBar {
  label: string;
  value: number;
}

/**
 * A bar chart of counts the API answered (plays), drawn as SVG by the page: one bar per row, scaled to the largest,
 * with a title and a description naming every figure for screen readers (the figures are in the page's table too).
 */
export function countChart(title: string, unit: string, bars: readonly CountBar[]): SVGElement {
  const width = 320;
  const rowH = 30;
  const labelW = 124;
  const height = bars.length * rowH + 8;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const id = `chart-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return svg(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': `${id}-t ${id}-d`, class: 'chart', width: '100%' },
    svg('title', { id: `${id}-t` }, title),
    svg('desc', { id: `${id}-d` }, bars.map((b) => `${b.label}: ${plural(b.value, unit)}`).join('; ')),
    ...bars.map((b, i) => {
      const y = 4 + i * rowH;
      const w = Math.max(2, Math.round(((width - labelW - 48) * b.value) / max));
      return svg(
        'g',
        { 'aria-hidden': 'true' },
        svg('text', { x: 0, y: y + 18, class: 'chart-label' }, b.label),
        svg('rect', { x: labelW, y: y + 4, width: w, height: 20, rx: 3, class: 'chart-bar' }),
        svg('text', { x: labelW + w + 4, y: y + 18, class: 'chart-value' }, String(b.value)),
      );
    }),
  );
}

/** What a confirmation shows and does: the facts first, then one API call on the explicit click. */
export interface Confirmation {
  title: string;
  /** A sentence saying what the click does. */
  lead: string;
  facts: readonly [string, Cell][];
  /** More content between the facts and the buttons (a preview, a form field). */
  extra?: Node[];
  /** The confirm button's words (naming the amount where money moves). */
  confirm: string;
  /** The status line's words after the API accepted the call (from its answer's data, where it names what was done). */
  done: string | ((data: unknown) => string);
  call: () => Promise<Answer>;
  /**
   * Words for a refusal, where its status says more than the service's message: `close` ends the dialog and
   * shows them on the page read again (the refusal was recorded), else they are said inside the dialog.
   */
  refused?: (e: ApiError) => { text: string; close: boolean } | null;
  /** Checked before the call; a string is said in the dialog and nothing is sent. */
  check?: () => string | null;
}

/**
 * The page scaffold of the campaigns and money views: a status line (`#flash`, role=status) that takes focus after an
 * action, and one native `<dialog>` for confirmations (focus moves in, Escape closes it, focus returns to the button).
 * Every action is one API call; on success the view is read again and redrawn.
 */
export class Screen {
  readonly dialog = el('dialog', { class: 'dialog ledger-dialog', 'aria-labelledby': 'dlg-h' });
  private message: { text: string; error: boolean } | null = null;

  constructor(
    /** Reads the page's data again (after an action). */
    private readonly reload: () => Promise<void>,
    /** Draws the page from the data last read. */
    private readonly render: () => void,
    private readonly root: HTMLElement,
  ) {}

  /** The status line, to put under the page's heading on each render. */
  flash(): HTMLElement {
    const m = this.message;
    return el('div', { id: 'flash', role: 'status', tabindex: -1, class: m ? (m.error ? 'flash error' : 'flash ok') : 'flash' }, m?.text ?? '');
  }

  show(text: string, error: boolean): void {
    this.message = { text, error };
    this.render();
    this.root.querySelector<HTMLElement>('#flash')?.focus();
    announce(text);
  }

  button(label: string, onClick: () => void, ariaLabel?: string, cls?: string): HTMLButtonElement {
    const b = el('button', { type: 'button', 'aria-label': ariaLabel, class: cls }, label);
    b.addEventListener('click', onClick);
    return b;
  }

  /** One API call without a confirmation; the view is read again on success. */
  async act(done: string, call: Promise<Answer>): Promise<void> {
    try {
      unwrap(await call);
    } catch (e) {
      return this.show(wordsOf(e), true);
    }
    await this.after(done);
  }

  private async after(done: string, error = false): Promise<void> {
    try {
      await this.reload();
      this.show(done, error);
    } catch (e) {
      this.show(wordsOf(e), true);
    }
  }

  /** Opens the confirmation: the facts and the buttons; Cancel (focused first) or Escape closes it and nothing is sent. */
  confirm(c: Confirmation): void {
    const from = document.activeElement as HTMLElement | null;
    const err = el('p', { class: 'error', role: 'alert' });
    const cancel = el('button', { type: 'button', class: 'cancel', autofocus: true }, 'Cancel');
    const form = el(
      'form',
      { method: 'dialog', class: 'confirm-form' },
      el('p', { class: 'confirm' }, c.lead),
      facts(c.facts, 'ledger-terms'),
      ...(c.extra ?? []),
      err,
      el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary' }, c.confirm), cancel),
    );
    cancel.addEventListener('click', () => this.dialog.close());
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const refused = c.check?.() ?? null;
      if (refused !== null) return void (err.textContent = refused);
      void this.submit(err, c);
    });
    this.dialog.replaceChildren(el('h2', { id: 'dlg-h' }, c.title), form);
    this.dialog.onclose = () => from?.isConnected && from.focus();
    this.dialog.showModal();
    cancel.focus();
  }

  /** The confirmation's call: a refusal is said inside the dialog, which stays open; success closes it. */
  private async submit(err: HTMLElement, c: Confirmation): Promise<void> {
    let data: unknown;
    try {
      data = unwrap(await c.call());
    } catch (e) {
      const said = e instanceof ApiError ? (c.refused?.(e) ?? null) : null;
      if (!said?.close) return void (err.textContent = said?.text ?? wordsOf(e));
      this.dialog.onclose = null;
      this.dialog.close();
      return this.after(said.text, true);
    }
    this.dialog.onclose = null;
    this.dialog.close();
    await this.after(typeof c.done === 'string' ? c.done : c.done(data));
  }
}

/** `from – to` of a flight or a period the API answered (`open-ended` without an end, `not set` without a start). */
export function span(from: string | null, to: string | null): string {
  if (!from) return 'not set';
  return `${day(from)} – ${to ? day(to) : 'open-ended'}`;
}
