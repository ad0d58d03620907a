import type { SelfTestResult } from './sandbox.service.ts';

const escape = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The browser dashboard of /sandbox/readiness: the same facts as the JSON, for a person. */
export function renderReadinessPage(r: {
  service: string;
  version: string;
  mode: string;
  overall: string;
  uptimeSeconds: number;
  dataset: Record<string, number>;
  auth: Record<string, unknown>;
  selfTest: SelfTestResult[];
}): string {
  const rows = r.selfTest
    .map(
      (t) =>
        `<tr class="${t.pass ? 'pass' : 'fail'}"><td>${escape(t.check)}</td><td><code>${escape(t.target)}</code></td><td>${escape(t.status ?? '—')}</td><td>${escape(t.expected)}</td><td>${escape(t.latencyMs)} ms</td><td>${t.pass ? 'pass' : 'FAIL'}</td></tr>`,
    )
    .join('');
  const facts = (o: Record<string, unknown>) =>
    Object.entries(o)
      .map(([k, v]) => `<dt>${escape(k)}</dt><dd>${escape(v ?? '—')}</dd>`)
      .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(r.service)} readiness</title>
<style>body{font:15px system-ui,sans-serif;margin:2rem;max-width:60rem}h1 span{font-size:.8em;padding:.1em .5em;border-radius:.3em}
.pass{color:#155724}.fail{color:#721c24}h1 .pass{background:#d4edda}h1 .fail{background:#f8d7da}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4em;text-align:left}dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}</style></head>
<body><h1>${escape(r.service)} ${escape(r.version)} <span class="${r.overall === 'pass' ? 'pass' : 'fail'}">${escape(r.overall)}</span></h1>
<p>Mode <b>${escape(r.mode)}</b>, up ${escape(r.uptimeSeconds)} s.</p>
<h2>Data set</h2><dl>${facts(r.dataset)}</dl><h2>Authentication</h2><dl>${facts(r.auth)}</dl>
<h2>Self-test</h2><table><thead><tr><th>check</th><th>target</th><th>status</th><th>expected</th><th>latency</th><th>result</th></tr></thead><tbody>${rows}</tbody></table>
<p><a href="/docs">API documentation</a> · <a href="/openapi.json">OpenAPI document</a> · <a href="?format=json">JSON</a></p></body></html>`;
}
