/** What the HTTP benchmarks share: child processes that announce their URL, and one autocannon measurement. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Starts `cmd` and resolves with the URL its stdout announces (the first capture group of `ready`). */
export function startProcess(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(cmd, args, { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start: ${err || out}`)), timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`${cmd} exited ${code}: ${err}`)));
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export async function measure(name: string, connections: number, opts: autocannon.Options): Promise<Row> {
  const r = await autocannon({ connections, ...opts });
  // total / elapsed rather than the mean of per-second samples, which a partial last second skews
  return { name, rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

export async function fetchBytes(url: string, init: RequestInit): Promise<Buffer> {
  const res = await fetch(url, init);
  if (res.status !== 200) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** A server in its own process answering every request with `body` (node:http, or Express 5 tuned). */
export function startBaseline(kind: 'node' | 'express', bodies: Record<string, Buffer>): Promise<{ child: ChildProcess; url: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-'));
  const files: Record<string, string> = {};
  for (const [p, b] of Object.entries(bodies)) {
    files[p] = path.join(dir, `${Object.keys(files).length}.json`);
    fs.writeFileSync(files[p], b);
  }
  const node = `
    const http = require('node:http');
    const fs = require('node:fs');
    const bodies = Object.fromEntries(Object.entries(${JSON.stringify(files)}).map(([p, f]) => [p, fs.readFileSync(f)]));
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => { const body = bodies[req.url.split('?')[0]]; res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }); res.end(body); });
    });
    server.keepAliveTimeout = 65000;
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
    process.on('SIGTERM', () => process.exit(0));`;
  const express = `
    const { createRequire } = require('node:module');
    const fs = require('node:fs');
    const express = createRequire(${JSON.stringify(path.join(root, 'apps/cloud/package.json'))})('express');
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    app.use(express.json());
    for (const [p, f] of Object.entries(${JSON.stringify(files)})) {
      const body = fs.readFileSync(f);
      app.all(p, (req, res) => res.status(200).type('application/json').send(body));
    }
    const server = require('node:http').createServer(app);
    server.keepAliveTimeout = 65000;
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
    process.on('SIGTERM', () => process.exit(0));`;
  return startProcess(process.execPath, ['-e', kind === 'node' ? node : express], {}, /listening on (http:\/\/\S+)/);
}

/** The machine line and the results table every HTTP benchmark prints: `setup` says what was measured. */
export function printRows(setup: string, rows: readonly Row[]): void {
  const f = (n: number) => n.toFixed(0).padStart(7);
  const ms = (n: number) => `${n.toFixed(1).padStart(5)} ms`;
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `host ${os.hostname()}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), node ${process.version}, ${new Date().toISOString()}, load average ${load}`,
  );
  console.log(setup);
  console.log('');
  console.log('| run | req/s | p50 | p99 | errors |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.name} | ${f(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.errors} |`);
  console.log('');
}
