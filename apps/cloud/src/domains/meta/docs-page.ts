/** A readable API reference generated from the OpenAPI document: no CDN, no client-side code. */
export function renderDocsPage(doc: {
  info: { title: string; description: string };
  paths: Record<
    string,
    Record<
      string,
      { tags?: string[]; summary?: string; description?: string; parameters?: { name: string; in: string; required: boolean }[]; requestBody?: unknown }
    >
  >;
}): string {
  const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags?.[0] ?? 'other';
      const params = (op.parameters ?? []).map((p) => `<code>${esc(p.name)}</code> <small>${esc(p.in)}${p.required ? ', required' : ''}</small>`).join(' · ');
      const row = `<tr><td><b class="m ${esc(method)}">${esc(method.toUpperCase())}</b></td><td><code>${esc(path)}</code></td><td>${esc(op.summary ?? '')}${op.description ? `<br><small>${esc(op.description)}</small>` : ''}${params ? `<br><small>${params}</small>` : ''}${op.requestBody ? '<br><small>JSON body — see <a href="/openapi.json">schema</a></small>' : ''}</td></tr>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), row]);
    }
  }
  const sections = [...byTag.entries()].map(([tag, rows]) => `<h2 id="${esc(tag)}">${esc(tag)}</h2><table>${rows.join('')}</table>`).join('');
  const toc = [...byTag.keys()].map((t) => `<a href="#${esc(t)}">${esc(t)}</a>`).join(' · ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)}</title><style>
body{font:15px system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem}table{border-collapse:collapse;width:100%}td{border-bottom:1px solid #eee;padding:.35em;vertical-align:top}
.m{font-size:.8em;padding:.1em .4em;border-radius:.3em;background:#eee}.get{background:#d1ecf1}.post{background:#d4edda}.put,.patch{background:#fff3cd}.delete{background:#f8d7da}</style></head>
<body><h1>${esc(doc.info.title)}</h1><p>${esc(doc.info.description)}</p><p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1, generated from the request schemas). Sections: ${toc}</p>${sections}</body></html>`;
}
