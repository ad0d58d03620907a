import { html, type SafeHtml } from '../../http/html.ts';
import { CSRF_FIELD } from './page-session.ts';

/**
 * Accessible form pieces shared by the pages: every control has a <label>; a field's hint and error are
 * tied to it with aria-describedby; errors are also summarised at the top with links to their fields.
 */

/** Field name → the message shown next to it (and in the summary). Order is the summary's order. */
export type FieldErrors = Record<string, string>;

/** The id of a field's control (the summary links to it). */
export const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

export function csrfInput(token: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}" />`;
}

/** "There is a problem": the list of errors, each a link to its field; focusable so a reader lands on it. */
export function errorSummary(errors: FieldErrors, targets: Record<string, string> = {}): SafeHtml {
  const entries = Object.entries(errors);
  if (entries.length === 0) return html``;
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" id="error-summary">
    <h2 id="error-summary-title">There ${entries.length === 1 ? 'is a problem' : `are ${entries.length} problems`}</h2>
    <ul>
      ${entries.map(([name, msg]) => html`<li><a href="#${targets[name] ?? fieldId(name)}">${msg}</a></li>`)}
    </ul>
  </div>`;
}

export interface FieldOptions {
  name: string;
  /** The control's id when several forms on a page share a field name (default: from the name). */
  id?: string;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'number' | 'date' | 'password' | 'textarea' | 'file';
  value?: string | undefined;
  error?: string | undefined;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  inputmode?: string;
  min?: string;
  max?: string;
  maxlength?: number;
  accept?: string;
}

/** A labelled input (or textarea) with its hint and its error, described by both. */
export function field(o: FieldOptions): SafeHtml {
  const id = o.id ?? fieldId(o.name);
  const hintId = `${id}-hint`;
  const errId = `${id}-error`;
  const described = [o.hint ? hintId : null, o.error ? errId : null].filter(Boolean).join(' ');
  const attrs = html`id="${id}"
  name="${o.name}"${described ? html` aria-describedby="${described}"` : ''}${o.error ? html` aria-invalid="true"` : ''}${o.required ? html` required` : ''}${o.autocomplete ? html` autocomplete="${o.autocomplete}"` : ''}${o.inputmode ? html` inputmode="${o.inputmode}"` : ''}${o.min ? html` min="${o.min}"` : ''}${o.max ? html` max="${o.max}"` : ''}${o.maxlength ? html` maxlength="${o.maxlength}"` : ''}${o.accept ? html` accept="${o.accept}"` : ''}`;
  const control =
    o.type === 'textarea'
      ? html`<textarea ${attrs}>${o.value ?? ''}</textarea>`
      : o.type === 'file'
        ? html`<input type="file" ${attrs} />`
        : html`<input type="${o.type ?? 'text'}" ${attrs} value="${o.value ?? ''}" />`;
  return html`<div class="field${o.error ? ' invalid' : ''}">
    <label for="${id}">${o.label}</label>
    ${o.hint ? html`<span class="hint" id="${hintId}">${o.hint}</span>` : ''} ${o.error ? html`<span class="error" id="${errId}">Error: ${o.error}</span>` : ''}
    ${control}
  </div>`;
}

export interface RadioGroupOptions {
  name: string;
  legend: string;
  options: { value: string; label: string; hint?: string }[];
  value?: string | undefined;
  error?: string | undefined;
  hint?: string;
}

/** A fieldset with a legend; the first radio carries the id the error summary links to. */
export function radioGroup(o: RadioGroupOptions): SafeHtml {
  const id = fieldId(o.name);
  const errId = `${id}-error`;
  const hintId = `${id}-hint`;
  const described = [o.hint ? hintId : null, o.error ? errId : null].filter(Boolean).join(' ');
  return html`<fieldset class="${o.error ? 'invalid' : ''}" ${described ? html` aria-describedby="${described}"` : ''}>
    <legend>${o.legend}</legend>
    ${o.hint ? html`<span class="hint" id="${hintId}">${o.hint}</span>` : ''} ${o.error ? html`<span class="error" id="${errId}">Error: ${o.error}</span>` : ''}
    ${o.options.map((opt, i) => {
      const optId = i === 0 ? id : `${id}-${opt.value.replace(/[^A-Za-z0-9_-]/g, '-')}`;
      return html`<div class="choice">
        <input type="radio" id="${optId}" name="${o.name}" value="${opt.value}" ${o.value === opt.value ? html` checked` : ''} />
        <label for="${optId}">${opt.label}${opt.hint ? html` <span class="muted small">${opt.hint}</span>` : ''}</label>
      </div>`;
    })}
  </fieldset>`;
}

/** A labelled select. */
export function select(o: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
  value?: string | undefined;
  error?: string | undefined;
}): SafeHtml {
  const id = fieldId(o.name);
  const errId = `${id}-error`;
  return html`<div class="field${o.error ? ' invalid' : ''}">
    <label for="${id}">${o.label}</label>
    ${o.error ? html`<span class="error" id="${errId}">Error: ${o.error}</span>` : ''}
    <select id="${id}" name="${o.name}" ${o.error ? html` aria-describedby="${errId}" aria-invalid="true"` : ''}>
      ${o.options.map((opt) => html`<option value="${opt.value}" ${o.value === opt.value ? html` selected` : ''}>${opt.label}</option>`)}
    </select>
  </div>`;
}
