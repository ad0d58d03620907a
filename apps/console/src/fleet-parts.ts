import { unwrap } from './api.ts';
import type { paths } from './api-schema.d.ts';
import { announce, el } from './dom.ts';

// What the fleet, pick-list and agents pages share: the answer types, a flash line, tables, and one
// confirmation dialog whose confirm button makes one API call (the dialog stays open with the API's words
// when it refuses).

/** The data of a 200 answer of operation `M` on path `P`. */
export type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': { data: infer D } } } };
}
  ? D
  : never;

/** What any call of the client answers. */
export type Answer = { data?: { data: unknown }; error?: unknown; response: Response };

export interface Flash {
  text: string;
  error: boolean;
}

export function wordsOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The page's status line (focusable, role=status), empty when there is nothing to say. */
export function flashLine(message: Flash | null): HTMLElement {
  return el('div', { id: 'flash', role: 'status', tabindex: -1, class: message ? (message.error ? 'flash error' : 'flash ok') : 'flash' }, message?.text ?? '');
}

/** Puts `message` in the page's status line, moves focus there and says it in the live region. */
export function sayFlash(root: HTMLElement, message: Flash): void {
  const line = root.querySelector<HTMLElement>('#flash');
  if (line) {
    line.replaceWith(flashLine(message));
    root.querySelector<HTMLElement>('#flash')?.focus();
  }
  announce(message.text);
}

/** A table with a caption and column headers (scope=col); each row's first cell is its row header (scope=row). */
export function table(caption: string, heads: string[], rows: (Node | string)[][], cls = ''): HTMLElement {
  return el(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-label': caption, tabindex: 0 },
    el(
      'table',
      { class: cls || null },
      el('caption', {}, caption),
      el('thead', {}, el('tr', {}, ...heads.map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...rows.map(([first, ...rest]) => el('tr', {}, el('th', { scope: 'row' }, first ?? ''), ...rest.map((c) => el('td', {}, c))))),
    ),
  );
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Opens `dialog` as a confirmation: `content` says what will happen (the terms), the confirm button makes `call`.
 * A refusal is said inside the dialog in the API's words and it stays open; success closes it and runs `done`.
 * Escape or Cancel closes it; focus returns to the control that opened it.
 */
export function confirmStep(
  dialog: HTMLDialogElement,
  o: { title: string; content: (Node | string)[]; confirm: string; call: () => Promise<Answer>; done: () => void | Promise<void> },
): void {
  const from = document.activeElement as HTMLElement | null;
  const err = el('p', { class: 'error', role: 'alert' });
  const form = el(
    'form',
    { method: 'dialog' },
    ...o.content,
    err,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary' }, o.confirm), el('button', { type: 'button', class: 'cancel' }, 'Cancel')),
  );
  form.querySelector<HTMLButtonElement>('.cancel')!.addEventListener('click', () => dialog.close());
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    void (async () => {
      try {
        unwrap(await o.call());
      } catch (e) {
        err.textContent = wordsOf(e);
        return;
      }
      dialog.onclose = null;
      dialog.close();
      await o.done();
    })();
  });
  dialog.replaceChildren(el('h2', { id: 'dlg-h' }, o.title), form);
  dialog.onclose = () => from?.isConnected && from.focus();
  dialog.showModal();
  const first = form.querySelector<HTMLElement>('input, select, textarea');
  (first ?? form.querySelector<HTMLElement>('button.primary'))?.focus();
}

/** The current address's query parameter `name` ('' when absent). */
export function param(name: string): string {
  return new URLSearchParams(location.search).get(name) ?? '';
}
