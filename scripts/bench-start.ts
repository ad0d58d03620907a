/**
 * Start time and memory of the cloud, from the production build against the tsx start
 * (docs/benchmarks.md "Production start"):
 *
 *   npx tsx scripts/bench-start.ts [runs]      (or: bash scripts/bench start)
 *
 * Each form is started `runs` times (default 5) on the same already-seeded SQLite sandbox (so seeding is
 * not timed), alternating the forms. Start time: from spawn to the first 200 of GET /health (polled every
 * 20 ms). Memory: RSS from /proc once idle (2 s after start), then after 2,000 requests (GET
 * /api/v1/machines with alice's key, 10 at a time). Baseline in the same run: a bare `node:http` server
 * (start time to its first answer, its RSS), the same Node binary.
 * Forms: `node --import tsx apps/cloud/src/main.ts` (Node 20), `node apps/cloud/dist/main.js` (Node 20, the
 * machine's), and the same bundle on the project's Node 24 (.tools/node24) when scripts/setup installed it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCloud } from './build-cloud.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 5);
const ALICE = 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2';
const NODE24 = path.join(ROOT, '.tools/node24/bin/node');

interface Form {
  name: string;
  node: string;
  args: string[];
  /** the baseline is a bare server, not the cloud */
  bare?: boolean;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function firstOk(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  throw new Error(`${url} never answered`);
}

async function load(base: string, n: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const r = await fetch(`${base}/api/v1/machines`, { headers: { 'x-api-key': ALICE } });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`machines: ${r.status}`);
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function once(form: Form, dataDir: string, port: number): Promise<{ startMs: number; idleMb: number; loadedMb: number | null }> {
  const env = {
    PATH: process.env['PATH'] ?? '',
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_HOUR: '100000000',
  };
  const started = Date.now();
  const child = spawn(form.node, form.args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    const base = `http://127.0.0.1:${port}`;
    await firstOk(`${base}/health`, started + 60_000);
    const startMs = Date.now() - started;
    await sleep(2_000);
    const idleMb = rssMb(child.pid!);
    if (form.bare) return { startMs, idleMb, loadedMb: null };
    await load(base, 2_000);
    return { startMs, idleMb, loadedMb: rssMb(child.pid!) };
  } finally {
    await stopChild(child);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const build = await buildCloud();
  const bundle = build.main;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-start-'));
  const bare = path.join(dataDir, 'bare.cjs');
  fs.writeFileSync(bare, "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');\n");
  const forms: Form[] = [
    { name: 'bare node:http (Node 20)', node: process.execPath, args: [bare], bare: true },
    { name: 'tsx sources (Node 20)', node: process.execPath, args: ['--import', 'tsx', 'apps/cloud/src/main.ts'] },
    { name: 'bundle (Node 20)', node: process.execPath, args: [bundle] },
  ];
  if (fs.existsSync(NODE24)) {
    forms.push({ name: 'bare node:http (Node 24)', node: NODE24, args: [bare], bare: true });
    forms.push({ name: 'bundle (Node 24)', node: NODE24, args: [bundle] });
  }
  // seed the sandbox once, so no run times the seeding
  await once(forms[2]!, dataDir, 18_700);
  const results = new Map<string, { start: number[]; idle: number[]; loaded: number[] }>(forms.map((f) => [f.name, { start: [], idle: [], loaded: [] }]));
  for (let i = 0; i < runs; i++) {
    for (const f of forms) {
      const r = await once(f, dataDir, 18_701 + i);
      const acc = results.get(f.name)!;
      acc.start.push(r.startMs);
      acc.idle.push(r.idleMb);
      if (r.loadedMb !== null) acc.loaded.push(r.loadedMb);
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  const tsx = results.get('tsx sources (Node 20)')!;
  console.log(`bundle: ${(build.bytes / 1024).toFixed(0)} KiB, built in ${build.seconds.toFixed(1)} s; ${runs} runs each, medians`);
  console.log('| form | start ms | RSS idle MB | RSS after 2,000 requests MB | start / tsx | RSS idle / tsx |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const f of forms) {
    const r = results.get(f.name)!;
    const loaded = r.loaded.length ? median(r.loaded).toFixed(1) : '—';
    console.log(
      `| ${f.name} | ${median(r.start).toFixed(0)} | ${median(r.idle).toFixed(1)} | ${loaded} | ${(median(r.start) / median(tsx.start)).toFixed(2)} | ${(median(r.idle) / median(tsx.idle)).toFixed(2)} |`,
    );
  }
}

await main();
