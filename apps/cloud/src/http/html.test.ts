import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escapeHtml, html, layout, PAGE_CSP, raw, STYLESHEET_PATH } from './html.ts';

/** The same tag under another name: prettier formats `html` templates, and these tests compare exact output. */
const tag = html;

describe('html', () => {
  it('escapes every interpolation', () => {
    const name = `<script>alert("x")</script>&'`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
  });

  it('keeps nested fragments and raw() as they are, renders arrays item by item and skips null/undefined/false', () => {
    const items = ['a<b', html`<i>${'c&d'}</i>`];
    expect(tag`<ul>${items.map((i) => tag`<li>${i}</li>`)}</ul>`.value).toBe('<ul><li>a&lt;b</li><li><i>c&amp;d</i></li></ul>');
    expect(html`${raw('<b>trusted</b>')}`.value).toBe('<b>trusted</b>');
    expect(html`[${null}${undefined}${false}${0}]`.value).toBe('[0]');
  });

  it('leaves no markup character of any text unescaped', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = escapeHtml(s);
        expect(out).not.toMatch(/[<>"']/);
        expect(out.replace(/&(amp|lt|gt|quot|#39);/g, '')).not.toContain('&');
      }),
    );
  });

  it('lays out a page with a language, a phone viewport, the stylesheet and no inline style or script', () => {
    const page = layout({ title: 'T<', body: html`<h1>Hi</h1>` }).value;
    expect(page).toContain('<html lang="en">');
    expect(page).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1"\s*\/?>/);
    expect(page).toContain(`<link rel="stylesheet" href="${STYLESHEET_PATH}"`);
    expect(page).toContain('<title>T&lt;</title>');
    expect(page).not.toMatch(/<style|<script|style=/);
  });

  it('states the strict policy', () => {
    for (const d of ["default-src 'none'", "style-src 'self'", "img-src 'self' data:", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) {
      expect(PAGE_CSP).toContain(d);
    }
    expect(PAGE_CSP).not.toContain('script-src');
    expect(STYLESHEET_PATH).toMatch(/^\/assets\/site\.[0-9a-f]{12}\.css$/);
  });
});
