import { escapeHtml } from '../../http/html.ts';

/** The OpenAPI document's parts the plain reference lists. */
export interface ReferenceDoc {
  info: { title: string; description: string };
  paths: Record<
    string,
    Record<
      string,
      { tags?: string[]; summary?: string; description?: string; parameters?: { name: string; in: string; required: boolean }[]; requestBody?: unknown }
    >
  >;
}

/**
 * A plain reference generated from the OpenAPI document: every operation by tag, as static HTML
 * with no script and no style. The interactive page shows it to readers without JavaScript.
 */
export function renderReferenceList(doc: ReferenceDoc): string {
  const esc = escapeHtml;
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags?.[0] ?? 'other';
      const params = (op.parameters ?? []).map((p) => `<code>${esc(p.name)}</code> <small>${esc(p.in)}${p.required ? ', required' : ''}</small>`).join(' · ');
      const row = `<tr><td><b>${esc(method.toUpperCase())}</b></td><td><code>${esc(path)}</code></td><td>${esc(op.summary ?? '')}${op.description ? `<br><small>${esc(op.description)}</small>` : ''}${params ? `<br><small>${params}</small>` : ''}${op.requestBody ? '<br><small>JSON body — see <a href="/openapi.json">schema</a></small>' : ''}</td></tr>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), row]);
    }
  }
  const sections = [...byTag.entries()].map(([tag, rows]) => `<h2 id="${esc(tag)}">${esc(tag)}</h2><table>${rows.join('')}</table>`).join('');
  const toc = [...byTag.keys()].map((t) => `<a href="#${esc(t)}">${esc(t)}</a>`).join(' · ');
  return `<h1>${esc(doc.info.title)}</h1><p>${esc(doc.info.description)}</p><p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1, generated from the request schemas). Sections: ${toc}</p>${sections}`;
}
