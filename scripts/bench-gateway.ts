/**
 * Cabinet gateway benchmark (issue 4): the hot legs `POST /cabinet/heartbeat` and
 * `GET /cabinet/pending` of a fleet of 10,000 enrolled cabinets, each request presenting a
 * different cabinet's `x-device-key` (round robin over the fleet) and echoing that cabinet's last
 * `x-device-witness`, against servers answering the same bytes in the same run:
 * a bare node:http server and an Express 5 app (etag and x-powered-by off), each its own process.
 *
 *   npx tsx scripts/bench-gateway.ts [cabinets] [--cpu-prof]      (default 10000; about 60 s)
 *
 * `--cpu-prof` (or BENCH_CPU_PROF=1) runs the cloud under `node --cpu-prof` and prints, for the steady
 * heartbeat and pending runs, the top self-time functions and packages of the cloud process in that run
 * (scripts/cpu-profile.ts; the profiler costs a few per cent of throughput, so compare ratios without it).
 *
 * The cloud runs as its own process on a SQLite file into which the fleet was written directly
 * (apps/cloud/src/bench/enrolled-fleet.ts), with LOG_LEVEL=info as in
 * production. Runs: a cold pass (every cabinet once: each key verified against the store, each
 * machine's first presence write), then heartbeat and pending at steady state, then the baselines.
 * Prints requests/s, p50/p99 and the cloud/baseline ratios. Record results in docs/benchmarks.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { fetchBytes, measure as measureWith, printRows, startBaseline, startProcess, stop, type Row } from './bench-support.ts';
import { monotonicMicros, printSlice, sliceProfile } from './cpu-profile.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const PROFILE = args.includes('--cpu-prof') || process.env['BENCH_CPU_PROF'] === '1';
const CABINETS = Math.max(100, Number(args.find((a) => !a.startsWith('--')) ?? 10_000));
const CONNECTIONS = 50;
const SECONDS = 6;
const tsx = path.join(root, 'node_modules/.bin/tsx');

function run(cmd: string, args: string[]): Promise<void> {
  const child = spawn(cmd, args, { env: { PATH: process.env['PATH'] ?? '' }, stdio: ['ignore', 'inherit', 'inherit'] });
  return new Promise((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}`)))));
}

/** Requests that walk the fleet round robin, each presenting its cabinet's key and echoing its last witness. */
function fleetRequests(keys: string[], method: 'GET' | 'POST', p: string, body?: string): autocannon.Request[] {
  const witness = new Map<number, string>();
  let next = 0;
  return [
    {
      method,
      path: p,
      ...(body !== undefined ? { body } : {}),
      setupRequest: (req, context) => {
        const i = next++ % keys.length;
        (context as { i?: number }).i = i;
        const echo = witness.get(i);
        return {
          ...req,
          headers: { ...req.headers, 'content-type': 'application/json', 'x-device-key': keys[i]!, ...(echo ? { 'x-device-witness': echo } : {}) },
        };
      },
      onResponse: (_status, _body, context, headers) => {
        const h = (headers as Record<string, string | string[] | undefined> | undefined)?.['x-device-witness'];
        const i = (context as { i?: number }).i;
        if (typeof h === 'string' && i !== undefined) witness.set(i, h);
      },
    },
  ];
}

const measure = (name: string, opts: autocannon.Options): Promise<Row> => measureWith(name, CONNECTIONS, opts);

/** CPU seconds (user + system) a process and its descendants have used so far (Linux /proc; 0 elsewhere). */
function treeCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  let total = 0;
  try {
    // the fields after the command name (which may hold spaces): utime and stime are the 12th and 13th
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    total += (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      for (const child of fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) total += treeCpuSeconds(Number(child));
    }
  } catch {
    // gone, or not Linux
  }
  return total;
}

/** Server CPU per request in a run: robust to other load on the machine, unlike requests per second. */
const cpuPerRequest = new Map<Row, number>();
async function measureCpu(server: ChildProcess, name: string, opts: autocannon.Options): Promise<Row> {
  const cpu0 = treeCpuSeconds(server.pid);
  const t0 = Date.now();
  const row = await measure(name, opts);
  const requests = row.rps * ((Date.now() - t0) / 1000);
  cpuPerRequest.set(row, requests > 0 ? (treeCpuSeconds(server.pid) - cpu0) / requests : NaN);
  return row;
}

async function main(): Promise<void> {
  const started = Date.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-gateway-'));
  const keysFile = path.join(dataDir, 'keys.json');
  const children: ChildProcess[] = [];
  const rows: Row[] = [];
  try {
    const seeding = Date.now();
    await run(tsx, [path.join(root, 'apps/cloud/src/bench/enrolled-fleet.ts'), dataDir, String(CABINETS), keysFile]);
    const keys = JSON.parse(fs.readFileSync(keysFile, 'utf8')) as string[];
    const seededIn = (Date.now() - seeding) / 1000;

    const profDir = path.join(os.tmpdir(), `vend-bench-gateway-cpu-prof-${process.pid}`);
    const cloud = await startProcess(
      PROFILE ? process.execPath : tsx,
      PROFILE
        ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--import', 'tsx', path.join(root, 'apps/cloud/src/main.ts')]
        : [path.join(root, 'apps/cloud/src/main.ts')],
      { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', POD_NAME: 'bench' },
      /listening on (http:\/\/\S+)/,
    );
    children.push(cloud.child);
    const base = cloud.url;
    const hbBody = JSON.stringify({ agentVersion: '1.4.2', vmcVersion: 'VMC-2.4.1' });
    const one = { 'x-device-key': keys[0]!, 'content-type': 'application/json' };
    const hbBytes = await fetchBytes(`${base}/cabinet/heartbeat`, { method: 'POST', headers: one, body: hbBody });
    const pendingBytes = await fetchBytes(`${base}/cabinet/pending`, { headers: one });
    const bodies = { '/cabinet/heartbeat': hbBytes, '/cabinet/pending': pendingBytes };
    const nodeBase = await startBaseline('node', bodies);
    const expressBase = await startBaseline('express', bodies);
    children.push(nodeBase.child, expressBase.child);

    // Cold: every cabinet's first call (key verified against the store, first presence write).
    rows.push(
      await measure(`heartbeat, cold (each of ${keys.length} cabinets once)`, {
        url: base,
        amount: keys.length,
        requests: fleetRequests(keys, 'POST', '/cabinet/heartbeat', hbBody),
      }),
    );
    const windows: Record<string, [number, number]> = {};
    const timed = async (name: string, opts: autocannon.Options): Promise<Row> => {
      const from = monotonicMicros();
      const row = await measureCpu(cloud.child, name, opts);
      windows[name] = [from, monotonicMicros()];
      return row;
    };
    rows.push(await timed('heartbeat, steady', { url: base, duration: SECONDS, requests: fleetRequests(keys, 'POST', '/cabinet/heartbeat', hbBody) }));
    rows.push(await timed('pending, steady', { url: base, duration: SECONDS, requests: fleetRequests(keys, 'GET', '/cabinet/pending') }));
    const hbNode = await measureCpu(nodeBase.child, 'node:http, heartbeat bytes', {
      url: `${nodeBase.url}/cabinet/heartbeat`,
      method: 'POST',
      body: hbBody,
      duration: SECONDS,
    });
    const pendingNode = await measureCpu(nodeBase.child, 'node:http, pending bytes', { url: `${nodeBase.url}/cabinet/pending`, duration: SECONDS });
    const hbExpress = await measureCpu(expressBase.child, 'express, heartbeat bytes', {
      url: `${expressBase.url}/cabinet/heartbeat`,
      method: 'POST',
      body: hbBody,
      headers: { 'content-type': 'application/json' },
      duration: SECONDS,
    });
    const pendingExpress = await measureCpu(expressBase.child, 'express, pending bytes', { url: `${expressBase.url}/cabinet/pending`, duration: SECONDS });
    rows.push(hbNode, pendingNode, hbExpress, pendingExpress);

    printRows(`${keys.length} enrolled cabinets seeded in ${seededIn.toFixed(1)} s; ${CONNECTIONS} connections; each request a different cabinet's key`, rows);
    const [, hb, pending] = rows as [Row, Row, Row];
    console.log('| leg | cloud / node:http (req/s) | cloud / express (req/s) | p99 cloud / node:http |');
    console.log('|---|---:|---:|---:|');
    console.log(
      `| heartbeat | ${(hb.rps / hbNode.rps).toFixed(3)} | ${(hb.rps / hbExpress.rps).toFixed(3)} | ${(hb.p99 / Math.max(hbNode.p99, 1)).toFixed(1)} |`,
    );
    console.log(
      `| pending | ${(pending.rps / pendingNode.rps).toFixed(3)} | ${(pending.rps / pendingExpress.rps).toFixed(3)} | ${(pending.p99 / Math.max(pendingNode.p99, 1)).toFixed(1)} |`,
    );
    console.log('');
    const us = (r: Row) => (cpuPerRequest.get(r) ?? NaN) * 1e6;
    console.log('Server CPU (user + system) per request, from /proc: less sensitive to other load than req/s.');
    console.log('');
    console.log('| leg | cloud µs/req | node:http µs/req | express µs/req | express / cloud (CPU) |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [leg, c, n, e] of [
      ['heartbeat', hb, hbNode, hbExpress],
      ['pending', pending, pendingNode, pendingExpress],
    ] as const) {
      console.log(`| ${leg} | ${us(c).toFixed(0)} | ${us(n).toFixed(0)} | ${us(e).toFixed(0)} | ${(us(e) / us(c)).toFixed(3)} |`);
    }
    console.log('');
    if (PROFILE) {
      await stop(cloud.child); // the profile is written as the process exits
      // tsx under --import runs in the one process: the largest profile is the cloud's
      const profiles = fs.readdirSync(profDir).map((f) => path.join(profDir, f));
      const file = profiles.sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0];
      if (!file) throw new Error(`no CPU profile in ${profDir}`);
      for (const [name, [from, to]] of Object.entries(windows)) printSlice(`cloud CPU profile, ${name}`, sliceProfile(file, root, from, to));
      console.log(`profile kept: ${file} (open it in Chrome DevTools, Performance; runs: ${JSON.stringify(windows)})`);
    }
    console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
  } finally {
    for (const c of children) await stop(c);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
