import { createHash } from 'node:crypto';
import { Router, type Response } from 'express';
import { SITE_CSS } from './site-css.ts';

/**
 * The one HTML toolkit of the service's server-rendered pages: an `html` tagged template that escapes
 * every interpolation (an explicit `raw()` marks a trusted fragment), the page layout, the one
 * stylesheet (served as a static asset, cached forever under its content hash) and the security
 * headers every page sends.
 */

/** A fragment of markup already safe to insert: made by `html` or, for trusted text, by `raw`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Marks trusted markup (never anything a user typed) as safe to insert unescaped. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for element content and quoted attribute values: `& < > " '` become entities. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * One interpolated value: a SafeHtml as it is; an array item by item; null, undefined and false as
 * nothing (so `${cond && html`…`}` reads naturally); anything else as escaped text.
 */
function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(value);
}

/** The tagged template: `html`<p>${name}</p>`` escapes `name`; nested `html` fragments are kept. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** The stylesheet's address: its content hash is in the name, so it may be cached for a year. */
export const STYLESHEET_PATH = `/assets/site.${createHash('sha256').update(SITE_CSS).digest('hex').slice(0, 12)}.css`;

/**
 * The policy every page sends: nothing but this service's stylesheet, its images (and data: URLs,
 * for QR codes drawn in place), forms posting back to it; no script, no framing, no <base>.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/**
 * The headers of every page: the content policy, no type sniffing, no referrer (status tokens travel in
 * URLs), never cached (pages show a buyer's or an operator's own data).
 */
export function setPageHeaders(res: Response): Response {
  return res.set({
    'Content-Security-Policy': PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-store',
  });
}

export interface LayoutOptions {
  title: string;
  body: SafeHtml;
  /** Shown above the page's own heading (a sign-out form, a breadcrumb). */
  header?: SafeHtml;
  lang?: string;
}

/** The whole document: language, character set, a viewport for phones, the stylesheet, a skip link and one <main>. */
export function layout({ title, body, header, lang = 'en' }: LayoutOptions): SafeHtml {
  return html`<!doctype html>
    <html lang="${lang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <link rel="stylesheet" href="${STYLESHEET_PATH}" />
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        ${header ? html`<header class="site">${header}</header>` : ''}
        <main id="main">${body}</main>
      </body>
    </html> `;
}

/** Sends a page with its headers. */
export function sendPage(res: Response, status: number, page: SafeHtml): void {
  setPageHeaders(res).status(status).type('html').send(page.value);
}

/** Serves the stylesheet at STYLESHEET_PATH (immutable: a change is a new name). */
export function stylesheetRouter(): Router {
  const r = Router();
  r.get(STYLESHEET_PATH, (_req, res) => {
    res.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=31536000, immutable' });
    res.type('text/css').send(SITE_CSS);
  });
  return r;
}
