import { html, layout, type SafeHtml } from '../../http/html.ts';
import type { SelfTestResult } from './sandbox.service.ts';

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
}): SafeHtml {
  const rows = r.selfTest.map(
    (t) =>
      html`<tr class="${t.pass ? 'pass' : 'fail'}">
        <td>${t.check}</td>
        <td><code>${t.target}</code></td>
        <td>${t.status ?? '—'}</td>
        <td>${t.expected}</td>
        <td class="num">${t.latencyMs} ms</td>
        <td>${t.pass ? 'pass' : 'FAIL'}</td>
      </tr>`,
  );
  const facts = (o: Record<string, unknown>) =>
    Object.entries(o).map(
      ([k, v]) =>
        html`<dt>${k}</dt>
          <dd>${v ?? '—'}</dd>`,
    );
  const overall = r.overall === 'pass' ? 'pass' : 'fail';
  return layout({
    title: `${r.service} readiness`,
    body: html`<h1>${r.service} ${r.version} <span class="status ${overall}">${r.overall}</span></h1>
      <p>Mode <b>${r.mode}</b>, up ${r.uptimeSeconds} s.</p>
      <h2>Data set</h2>
      <dl class="facts">${facts(r.dataset)}</dl>
      <h2>Authentication</h2>
      <dl class="facts">${facts(r.auth)}</dl>
      <h2>Self-test</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th>check</th>
              <th>target</th>
              <th>status</th>
              <th>expected</th>
              <th class="num">latency</th>
              <th>result</th>
            </tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
        </table>
      </div>
      <p><a href="/docs">API documentation</a> · <a href="/openapi.json">OpenAPI document</a> · <a href="?format=json">JSON</a></p>`,
  });
}
