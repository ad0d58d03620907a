/**
 * The fleet load test and soak (issue 18): many lightweight simulated cabinets, each with its own enrolled
 * device key and the sockets a real cabinet holds, run by several driver processes (scripts/fleet/driver.ts,
 * `--drivers N`: each its own open-file budget, the fleet dealt round-robin over them), against
 *
 *   - sqlite: one cloud process from the production build (scripts/build-cloud, `NODE_ENV=production`) on a
 *     SQLite file, and
 *   - pg: two replicas of that build on a fresh PostgreSQL database and one Redis behind nginx
 *     (scripts/cluster.ts's startCluster);
 *   - stub, the baseline measured in the same run (`all` runs it first): a bare node:http server answering every
 *     leg with canned bytes and holding the long poll 25 s: the floor this machine at its load puts under any server.
 *
 *   bash scripts/bench fleet [--target sqlite|pg|stub|both|all] [--fleet 250,500,1000,2000] [--duration 60] [--keep-going]
 *                            [--drivers N] [--min-drops-per-s 5]
 *   bash scripts/bench fleet --soak [--soak-fleet N] [--soak-minutes 30]
 *   --cpu-prof DIR: the SQLite cloud runs under node's --cpu-prof; each step then lists what held its event loop ≥ 100 ms
 *   --node-flags="--flag ...": flags for the SQLite cloud's node (a runtime setting measured in the same rig)
 *
 * What each cabinet does (the agent's own legs and intervals, spec 2), through the agent's own HTTP client
 * (apps/agent/src/cloud/http.ts: node:http keep-alive, at most 4 sockets; two held in steady state):
 *   - long-polls `GET /cabinet/pending?wait=25` back to back; a drop it receives it acknowledges at once with
 *     its dispense report (`POST /cabinet/report` with the commandId: the real ack leg), then polls again;
 *   - `POST /cabinet/heartbeat` every 60 s;
 *   - walk-up sales as a Poisson process (default 6 per cabinet-hour, a busy machine's peak hour): the agent's
 *     sale legs, `POST /cabinet/createOrder` (with a requestRef) then `POST /cabinet/report` with the orderNumber;
 *   - every request presents its `x-device-key`, `x-equipment-no` and echoes the last `x-device-witness`.
 * An operator client per driver (alice's sandbox API key) enqueues remote drops `POST /api/v1/machines/{no}/commands/dispense`
 * on random cabinets of its slice, a Poisson process of default 2 per cabinet-hour (a quarter of all vends) but
 * never under `--min-drops-per-s` over the fleet (default 5/s: 300 samples a minute, so that one slow call does
 * not decide the enqueue's and the ack's p99; 0 keeps the fleet's own rate).
 *
 * The fleet is enrolled by writing it straight into the store before the cloud starts
 * (apps/cloud/src/bench/enrolled-fleet.ts: identities and key generations stored
 * exactly as enrolment stores them), then given to alice with four stocked, priced aisles each.
 *
 * Time compression: none on the legs' rates (heartbeat 60 s, long poll 25 s, real sale and drop rates). Only the
 * fleet's start is compressed: each new cabinet starts its long poll at a random point of one 25 s wait and its
 * heartbeat at a random point of one 60 s period, so the fleet is at steady state after one warm-up of 60 s
 * (rather than cabinets booting over hours). Steps ramp the fleet up (the cabinets of a step keep running into
 * the next); after each step's warm-up the legs are measured for `--duration` seconds.
 *
 * Per leg p50/p99 (pooled over the drivers' raw samples) and errors; for the long poll the figure is how late an
 * empty answer comes after its 25 s (the hold's overrun); enqueue → acknowledged (operator's enqueue sent → the
 * cabinet's report answered); CPU, RSS and open files of every cloud process (and nginx's workers) from /proc;
 * from each cloud process's /metrics over the window: its event-loop delay (p99, max), its GC pauses (count
 * over 100 ms, the longest bucket), its background loops' longest tick, and the answers it was slower than 50 ms
 * to write by route. Every call slower than 50 ms is logged with who answered (nginx's X-Served-By) and grouped
 * into bursts: a stall of a process shows as one burst over every leg. A step passes with p99 < 50 ms on every
 * leg and no error. At the end the store is counted: every sale the fleet reported is there exactly once, every
 * drop it acknowledged acknowledged once. The soak (`--soak`, SQLite unless --target pg) runs one fleet for
 * `--soak-minutes`, samples RSS every 10 s and plots it into docs/fleet-soak-rss.png.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildCloud } from './build-cloud.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { startProcess, stop } from './bench-support.ts';
import { busyStretches, monotonicMicros, printStretches } from './cpu-profile.ts';
import { plotRss } from './plot-rss.ts';
import type { DriverLedger } from './fleet/driver.ts';
import { auditStore, seedFleet, type Audit, type StoreEnv } from './fleet/store.ts';
import { Driver, mergeLedgers } from './fleet/driver-process.ts';
import { bursts, LEGS, mergeSamples, shares, slice, type DriverSamples, type LegName, type SlowCall } from './fleet/samples.ts';
import { overWindow, parseMetrics, type CloudWindow } from './fleet/cloud-metrics.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cloudRequire = createRequire(path.join(ROOT, 'apps/cloud/package.json'));

const { values: opt } = parseArgs({
  options: {
    target: { type: 'string', default: 'both' },
    fleet: { type: 'string', default: '250,500,1000,2000' },
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '60' },
    drivers: { type: 'string' },
    'sales-per-hour': { type: 'string', default: '6' },
    'drops-per-hour': { type: 'string', default: '2' },
    'min-drops-per-s': { type: 'string', default: '5' },
    'keep-going': { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    'soak-fleet': { type: 'string' },
    'soak-minutes': { type: 'string', default: '30' },
    'soak-png': { type: 'string', default: path.join(ROOT, 'docs/fleet-soak-rss.png') },
    'slow-log': { type: 'string', default: path.join(os.tmpdir(), `fleet-slow-calls-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`) },
    'database-url': { type: 'string', default: process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test' },
    'redis-url': { type: 'string', default: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' },
    'log-level': { type: 'string', default: 'warn' },
    // a directory: the SQLite cloud runs under `--cpu-prof`, and each step's measured minute is searched for what held its loop
    'cpu-prof': { type: 'string' },
    // flags for the SQLite cloud's node, space-separated (`--node-flags=--max-semi-space-size=32`): a runtime setting measured in the same rig
    'node-flags': { type: 'string', default: '' },
  },
});

const STEPS = opt.fleet
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0)
  .sort((a, b) => a - b);
const DURATION_S = Number(opt.duration);
const WARMUP_S = Number(opt.warmup);
const SALES_PER_HOUR = Number(opt['sales-per-hour']);
const DROPS_PER_HOUR = Number(opt['drops-per-hour']);
const MIN_DROPS_PER_S = Number(opt['min-drops-per-s']);
/** Cabinets per driver when --drivers is not given: two sockets each stay far under a process's open files. */
const CABINETS_PER_DRIVER = 2000;
const WAIT_S = 25;
const HEARTBEAT_S = 60;
const P99_LIMIT_MS = 50;
const ADMIN_KEY = 'vk_5bada0000000a001.sbx-admin-key-2f9c1e7d'; // the public sandbox admin key (docs/sandbox.md): /metrics
const CLOUD_ENV = { LOG_LEVEL: opt['log-level'], RATE_LIMIT_PER_HOUR: '100000000', JOBS_ENABLED: 'true' };
const CLK_TCK = 100;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// --- measurements ------------------------------------------------------------------------------

interface ProcSample {
  ticks: number;
  rssKb: number;
  fds: number;
  at: number;
}
function procSample(pid: number): ProcSample | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
    const rss = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    let fds = NaN;
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`).length;
    } catch {
      // not ours to read
    }
    return { ticks, rssKb: Number(rss?.[1] ?? 0), fds, at: performance.now() };
  } catch {
    return null;
  }
}
/** A process's soft limit of open files (what bounds its sockets). */
function fdLimit(pid: number): number {
  try {
    const m = /Max open files\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/limits`, 'utf8'));
    return Number(m?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}
/** nginx's workers: the children of its master. */
function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === ppid) out.push(Number(d));
    } catch {
      // gone
    }
  }
  return out;
}

/** One cloud process's /metrics (the admin read); null when it did not answer. */
async function scrape(url: string): Promise<string | null> {
  try {
    const res = await fetch(`${url}/metrics`, { headers: { 'x-api-key': ADMIN_KEY }, signal: AbortSignal.timeout(10_000) });
    return res.status === 200 ? await res.text() : null;
  } catch {
    return null;
  }
}

// --- the store ---------------------------------------------------------------------------------

// --- targets -----------------------------------------------------------------------------------

interface TargetProcess {
  label: string;
  pid: number;
  /** Where its own /metrics answers (a cloud process, not through nginx). */
  metricsUrl?: string;
}

interface Target {
  name: string;
  url: string;
  /** The processes whose CPU and RSS are reported, by label. */
  processes(): TargetProcess[];
  /** What the cloud's processes logged so far (pino's JSON lines, at the run's level). */
  logs(): string;
  stop(): Promise<void>;
  /** null: nothing to audit (the baseline). */
  store: StoreEnv | null;
  cleanup(): Promise<void>;
  /** PostgreSQL's checkpoint counters now (the whole server's: its checkpoint's fsyncs stall every commit). */
  checkpoints?(): Promise<PgCheckpoints>;
}

interface PgCheckpoints {
  /** Checkpoints completed (timed and requested). */
  n: number;
  /** Time spent in their write and sync phases (ms). */
  writeMs: number;
  syncMs: number;
}

async function sqliteTarget(main: string, count: number): Promise<{ target: Target; fleet: { no: string; key: string }[] }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-fleet-'));
  const store = { DATA_DIR: dataDir };
  const fleet = await seedFleet(store, count);
  const profiling = opt['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(opt['cpu-prof'])] : [];
  const cloud = await startProcess(
    process.execPath,
    [...opt['node-flags'].split(' ').filter(Boolean), ...profiling, main],
    { NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', POD_NAME: 'fleet-sqlite', ...CLOUD_ENV },
    /listening on (http:\/\/\S+)/,
  );
  let out = '';
  cloud.child.stdout!.removeAllListeners('data');
  cloud.child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  return {
    fleet,
    target: {
      name: 'SQLite, 1 replica',
      url: cloud.url,
      store,
      processes: () => [{ label: 'cloud', pid: cloud.child.pid!, metricsUrl: cloud.url }],
      logs: () => out,
      stop: () => stop(cloud.child),
      cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    },
  };
}

/**
 * The baseline measured in the same run: a bare node:http server in its own process that answers every leg
 * with canned bytes of the same shape and holds the long poll 25 s (it never delivers a drop). Its p99 is the
 * floor this machine, at its load, puts under any server; the fleet and its legs are the same.
 */
async function stubTarget(count: number): Promise<{ target: Target; fleet: { no: string; key: string }[] }> {
  const script = `
    const http = require('node:http');
    let n = 0;
    const ok = (res, data) => { const b = JSON.stringify({ code: 0, message: 'ok', data }); res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(b) }); res.end(b); };
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const p = req.url.split('?')[0];
        if (p === '/cabinet/pending') {
          const t = setTimeout(() => ok(res, { commands: [] }), ${WAIT_S * 1000});
          res.on('close', () => clearTimeout(t));
        } else if (p === '/cabinet/heartbeat') ok(res, { serverTime: new Date().toISOString(), status: 'online' });
        else if (p === '/cabinet/createOrder') ok(res, { orderNumber: 'ord_stub_' + ++n, machineCode: 'X', aisleNo: 1, quantity: 1, amount: 1.75, amountCents: 175, payStatus: 'paid' });
        else if (p === '/cabinet/report') ok(res, { dispenseId: 'x', duplicate: false, kind: 'order', commandId: null, orderNumber: 'x', status: 'shipped', receivedAt: new Date().toISOString() });
        else ok(res, { commandId: 'cmd_stub_' + ++n, status: 'pending' });
      });
    });
    server.keepAliveTimeout = 65000;
    server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
    process.on('SIGTERM', () => process.exit(0));`;
  const stub = await startProcess(process.execPath, ['-e', script], {}, /listening on (http:\/\/\S+)/);
  return {
    fleet: Array.from({ length: count }, (_, i) => ({ no: `BENCH-${String(i + 1).padStart(6, '0')}`, key: `stub${i}:secret` })),
    target: {
      name: 'baseline: bare node:http, canned answers',
      url: stub.url,
      store: null,
      processes: () => [{ label: 'node:http', pid: stub.child.pid! }],
      logs: () => '',
      stop: () => stop(stub.child),
      cleanup: async () => undefined,
    },
  };
}

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

async function pgTarget(main: string, count: number): Promise<{ target: Target; fleet: { no: string; key: string }[] }> {
  const pg = cloudRequire('pg') as { Client: new (o: { connectionString: string }) => PgClient };
  const name = `bench_fleet_${randomBytes(5).toString('hex')}`;
  const server = new pg.Client({ connectionString: opt['database-url'] });
  await server.connect();
  await server.query(`create database ${name}`);
  const u = new URL(opt['database-url']);
  u.pathname = `/${name}`;
  const seedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-fleet-pg-'));
  const store = { DATA_DIR: seedDir, DATABASE_URL: u.toString() };
  const dropDb = async () => {
    await server.query(`drop database if exists ${name} with (force)`);
    await server.end();
    fs.rmSync(seedDir, { recursive: true, force: true });
  };
  let cluster: Cluster;
  let fleet: { no: string; key: string }[];
  try {
    fleet = await seedFleet(store, count);
    cluster = await startCluster({
      replicas: 2,
      port: 0,
      databaseUrl: u.toString(),
      redisUrl: opt['redis-url'],
      main,
      env: { ...CLOUD_ENV, REDIS_KEY_PREFIX: `fleet${randomBytes(3).toString('hex')}:` },
      // which replica answered each call: the slow calls are logged with it
      nginxExtra: 'add_header X-Served-By $upstream_addr always;',
    });
  } catch (e) {
    await dropDb();
    throw e;
  }
  const nginxMaster = () => Number(fs.readFileSync(path.join(cluster.runDir, 'nginx.pid'), 'utf8').trim());
  let stopped = false;
  return {
    fleet,
    target: {
      name: 'PostgreSQL + Redis, 2 replicas behind nginx',
      url: cluster.url,
      store,
      processes: () => [
        ...cluster.replicas.map((r) => ({ label: r.name, pid: r.child.pid!, metricsUrl: r.url })),
        ...childrenOf(nginxMaster()).map((pid, i) => ({ label: `nginx worker ${i + 1}`, pid })),
      ],
      logs: () => cluster.replicas.map((r) => r.out()).join(''),
      checkpoints: async () => {
        const r = await server.query(
          'select checkpoints_timed + checkpoints_req as n, checkpoint_write_time as write_ms, checkpoint_sync_time as sync_ms from pg_stat_bgwriter',
        );
        const row = r.rows[0] ?? {};
        return { n: Number(row['n']), writeMs: Number(row['write_ms']), syncMs: Number(row['sync_ms']) };
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        // what nginx complained of (worker_connections, upstream errors), before the run directory goes
        const log = fs.existsSync(path.join(cluster.runDir, 'nginx-error.log'))
          ? fs.readFileSync(path.join(cluster.runDir, 'nginx-error.log'), 'utf8').split('\n').filter(Boolean)
          : [];
        if (log.length) console.log(`nginx error log: ${log.length} lines; first: ${log[0]}; last: ${log[log.length - 1]}`);
        await cluster.stop();
      },
      cleanup: dropDb,
    },
  };
}

// --- runs --------------------------------------------------------------------------------------

interface ProcRow {
  label: string;
  cpuPct: number;
  rssMb: number;
  fds: number;
}
interface StepRow {
  fleet: number;
  seconds: number;
  reqPerS: number;
  legs: { leg: LegName; n: number; p50: number; p99: number; max: number; errors: number }[];
  e2a: { n: number; p50: number; p99: number };
  procs: ProcRow[];
  /** Every driver together (CPU summed, RSS summed, the most open files one holds). */
  bench: { cpuPct: number; rssMb: number; maxFds: number; loopP99: number; loopMax: number };
  cloud: Map<string, CloudWindow>;
  slow: SlowCall[];
  /** PostgreSQL checkpoints that completed in the window, and their write and sync phases' time (ms). */
  pgCheckpoints: PgCheckpoints | null;
  load: string;
  pass: boolean;
}

function sampleAll(procs: { label: string; pid: number }[]): Map<string, ProcSample> {
  const m = new Map<string, ProcSample>();
  for (const p of procs) {
    const s = procSample(p.pid);
    if (s) m.set(p.label, s);
  }
  return m;
}
function cpuRows(a: Map<string, ProcSample>, b: Map<string, ProcSample>): ProcRow[] {
  const rows: ProcRow[] = [];
  for (const [label, end] of b) {
    const start = a.get(label);
    if (!start) continue;
    rows.push({ label, cpuPct: ((end.ticks - start.ticks) / CLK_TCK / ((end.at - start.at) / 1000)) * 100, rssMb: end.rssKb / 1024, fds: end.fds });
  }
  return rows;
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

class Fleet {
  private readonly drivers: Driver[];
  ledger: DriverLedger | null = null;
  size = 0;

  private constructor(
    private readonly target: Target,
    count: number,
  ) {
    this.drivers = Array.from({ length: count }, (_, i) => new Driver(`driver ${i + 1}`));
  }

  /** Forks the drivers and deals them the fleet (round-robin: each step grows every driver alike). */
  static async start(target: Target, keys: { no: string; key: string }[], count: number): Promise<Fleet> {
    const f = new Fleet(target, count);
    const n = f.drivers.length;
    await Promise.all(
      f.drivers.map((d, i) =>
        d.ask(
          {
            type: 'init',
            url: target.url,
            cabinets: slice(keys, n, i),
            salesPerHour: SALES_PER_HOUR,
            dropsPerHour: DROPS_PER_HOUR,
            minDropsPerS: MIN_DROPS_PER_S / n,
            slowMs: P99_LIMIT_MS,
            awaitAcks: target.store !== null,
          },
          'ready',
        ),
      ),
    );
    return f;
  }

  /** Starts cabinets until `n` run over the drivers (each staggered over one wait and one heartbeat period). */
  async grow(n: number): Promise<void> {
    const per = shares(n, this.drivers.length);
    await Promise.all(this.drivers.map((d, i) => d.ask({ type: 'grow', n: per[i]! }, 'ready')));
    this.size = n;
  }

  private processes(): TargetProcess[] {
    return [...this.target.processes(), ...this.drivers.map((d) => ({ label: d.label, pid: d.pid }))];
  }

  async measure(seconds: number, onTick?: () => void): Promise<StepRow> {
    const cloudProcs = this.target.processes().filter((p) => p.metricsUrl);
    const before = await Promise.all(cloudProcs.map((p) => scrape(p.metricsUrl!)));
    const pgBefore = await this.target.checkpoints?.();
    await Promise.all(this.drivers.map((d) => d.ask({ type: 'measure' }, 'ready')));
    const a = sampleAll(this.processes());
    const started = performance.now();
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      await sleep(Math.min(10_000, end - Date.now()));
      onTick?.();
    }
    const b = sampleAll(this.processes());
    const answers = await Promise.all(this.drivers.map((d) => d.ask({ type: 'collect' }, 'samples')));
    const elapsed = (performance.now() - started) / 1000;
    const after = await Promise.all(cloudProcs.map((p) => scrape(p.metricsUrl!)));
    const pgAfter = await this.target.checkpoints?.();
    const pgCheckpoints =
      pgBefore && pgAfter ? { n: pgAfter.n - pgBefore.n, writeMs: pgAfter.writeMs - pgBefore.writeMs, syncMs: pgAfter.syncMs - pgBefore.syncMs } : null;
    const cloud = new Map<string, CloudWindow>();
    cloudProcs.forEach((p, i) => {
      if (before[i] && after[i]) cloud.set(p.label, overWindow(parseMetrics(before[i]), parseMetrics(after[i])));
    });
    const merged = mergeSamples(answers.map((x) => x.samples as DriverSamples));
    const procs = cpuRows(a, b);
    const drivers = procs.filter((p) => p.label.startsWith('driver '));
    return {
      fleet: this.size,
      seconds,
      reqPerS: merged.requests / elapsed,
      legs: merged.legs,
      e2a: merged.e2a,
      procs: procs.filter((p) => !p.label.startsWith('driver ')),
      bench: {
        cpuPct: drivers.reduce((s, p) => s + p.cpuPct, 0),
        rssMb: drivers.reduce((s, p) => s + p.rssMb, 0),
        maxFds: Math.max(...answers.map((x) => x.fds)),
        loopP99: merged.loopP99,
        loopMax: merged.loopMax,
      },
      cloud,
      slow: answers.flatMap((x) => x.slow),
      pgCheckpoints,
      load: loadavg(),
      pass: merged.legs.every((l) => l.errors === 0 && !(l.p99 >= P99_LIMIT_MS)),
    };
  }

  /** Stops the drops, lets the cabinets acknowledge what is out, stops them; keeps every driver's ledger. */
  async stop(): Promise<void> {
    const ledgers = await Promise.all(this.drivers.map((d) => d.ask({ type: 'stop' }, 'ledger')));
    this.ledger = mergeLedgers(ledgers);
    await this.close();
  }

  async close(): Promise<void> {
    await Promise.all(this.drivers.map((d) => d.close()));
  }
}

/** How many drivers a fleet of `max` cabinets gets unless --drivers says. */
const driversFor = (max: number) => Number(opt.drivers ?? 0) || Math.max(1, Math.ceil(max / CABINETS_PER_DRIVER));

type Kind = 'sqlite' | 'pg' | 'stub';

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');

function printSteps(target: string, rows: StepRow[]): void {
  console.log(`### ${target}`);
  console.log('');
  console.log(
    `| cabinets | req/s | ${LEGS.map((l) => `${l} p50 / p99 ms (n)`).join(' | ')} | errors | enqueue → ack p50 / p99 ms (n) | cloud processes: CPU %, RSS MB, open files | cabinets per cloud core (CPU) | drivers: CPU %, RSS MB, most open files, loop p99 / max ms | load | p99 < ${P99_LIMIT_MS} ms, no errors |`,
  );
  console.log(`|---:|---:|${LEGS.map(() => '---:').join('|')}|---:|---:|---|---:|---|---|---|`);
  for (const r of rows) {
    const legs = r.legs.map((l) => `${f1(l.p50)} / ${f1(l.p99)} (${l.n})`).join(' | ');
    const errors = r.legs.reduce((s, l) => s + l.errors, 0);
    const procs = r.procs.map((p) => `${p.label} ${p.cpuPct.toFixed(0)} %, ${p.rssMb.toFixed(0)}, ${p.fds}`).join('; ');
    // what one core of cloud (the replicas and nginx together) carries at this rate of legs, CPU-bound
    const cloudCpu = r.procs.reduce((sum, p) => sum + p.cpuPct, 0) / 100;
    const b = r.bench;
    console.log(
      `| ${r.fleet} | ${r.reqPerS.toFixed(0)} | ${legs} | ${errors} | ${f1(r.e2a.p50)} / ${f1(r.e2a.p99)} (${r.e2a.n}) | ${procs} | ${cloudCpu > 0 ? (r.fleet / cloudCpu).toFixed(0) : '–'} | ${b.cpuPct.toFixed(0)} %, ${b.rssMb.toFixed(0)}, ${b.maxFds}, ${f1(b.loopP99)} / ${f1(b.loopMax)} | ${r.load} | ${r.pass ? 'yes' : 'no'} |`,
    );
  }
  console.log('');
  const cloudRows = rows.flatMap((r) => [...r.cloud].map(([label, w]) => ({ fleet: r.fleet, label, w })));
  if (cloudRows.length) {
    console.log('Inside the cloud processes over each measured window (their /metrics):');
    console.log('');
    console.log(
      '| cabinets | process | event-loop delay p99 / max ms | GCs (> 100 ms, > 1 s) | longest loop tick ms (loop) | longest WAL checkpoint ms (worker) | answers written in > 50 ms, by route |',
    );
    console.log('|---:|---|---:|---:|---:|---:|---|');
    for (const { fleet, label, w } of cloudRows) {
      const slow = Object.entries(w.slowAnswers)
        .map(([route, n]) => `${route} ${n}`)
        .join(', ');
      console.log(
        `| ${fleet} | ${label} | ${f1(w.loopP99Ms)} / ${f1(w.loopMaxMs)} | ${w.gcs} (${w.gcOver100ms}, ${w.gcOver1s}) | ${f1(w.tickMaxMs)} (${w.tickMaxLoop}) | ${f1(w.checkpointMaxMs)} | ${slow || 'none'} |`,
      );
    }
    console.log('');
  }
}

/** The calls slower than the limit: by leg and by who answered, and their bursts (a stall shows as one over every leg). */
function printSlow(row: StepRow, replicaOf: (by: string) => string, logs: string[]): void {
  const slow = row.slow;
  fs.appendFileSync(opt['slow-log'], slow.map((c) => JSON.stringify({ fleet: row.fleet, ...c, by: replicaOf(c.by) })).join('\n') + (slow.length ? '\n' : ''));
  const count = (key: (c: SlowCall) => string) => {
    const m = new Map<string, number>();
    for (const c of slow) m.set(key(c), (m.get(key(c)) ?? 0) + 1);
    return [...m].map(([k, n]) => `${k} ${n}`).join(', ');
  };
  console.log(`    calls over ${P99_LIMIT_MS} ms: ${slow.length} (by leg: ${count((c) => c.leg) || '–'}; by process: ${count((c) => replicaOf(c.by)) || '–'})`);
  const groups = bursts(slow, 100).filter((g) => g.calls.length >= 5 && new Set(g.calls.map((c) => c.leg)).size >= 2);
  for (const g of groups.sort((x, y) => y.calls.length - x.calls.length).slice(0, 5))
    console.log(
      `    burst at ${new Date(g.from).toISOString().slice(11, 23)}: ${g.calls.length} calls over ${new Set(g.calls.map((c) => c.leg)).size} legs for ${(g.to - g.from).toFixed(0)} ms, ` +
        `slowest ${Math.max(...g.calls.map((c) => c.ms)).toFixed(0)} ms; by process: ${[...new Set(g.calls.map((c) => replicaOf(c.by)))].join(', ')}`,
    );
  if (logs.length) console.log(`    cloud log lines at warn and above in the window: ${logs.length}; ${logs.slice(0, 3).join(' | ')}`);
  const c = row.pgCheckpoints;
  if (c) console.log(`    PostgreSQL checkpoints completed in the window: ${c.n} (write ${(c.writeMs / 1000).toFixed(1)} s, sync ${c.syncMs.toFixed(0)} ms)`);
}

/** The cloud's log lines at warn and above written between two instants (epoch ms). */
function logsBetween(text: string, from: number, to: number): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const j = JSON.parse(line) as { level?: number; time?: number; msg?: string; loop?: string; ms?: number };
      if ((j.level ?? 0) >= 40 && (j.time ?? 0) >= from && (j.time ?? 0) <= to)
        out.push(`${j.msg ?? ''}${j.loop ? ` (${j.loop}${j.ms ? ` ${j.ms} ms` : ''})` : ''}`);
    } catch {
      // not JSON
    }
  }
  return out;
}

function printAudit(a: Audit, ledger: DriverLedger): void {
  console.log(
    `store: ${a['salesInStore']} walk-up sale reports (lost ${a['salesLost']}, duplicated ${a['salesDuplicated']}, not confirmed to the fleet ${a['salesUnexpected']}); ` +
      `orders opened but missing ${a['ordersOpenedNotInStore']}, opened but unsettled ${a['ordersOpenedUnsettled']}; ` +
      `drops enqueued ${a['commandsEnqueued']}, acked ${a['commandsAcked']}, acked once in the store ${a['commandsAckedInStore']} (lost ${a['commandsLost']}, acked twice ${a['commandsDuplicatedAcks']}, still pending ${a['commandsStillPending']}); ` +
      `deliveries after ack ${a['duplicateDeliveries']}; report attempts retried ${a['reportRetries']}; errors over the whole run ${ledger.allErrors}`,
  );
  if (ledger.errorSamples.length) console.log(`first errors: ${ledger.errorSamples.join(' | ')}`);
  console.log('');
}

/** Names the replica behind nginx's upstream address (X-Served-By); the address itself otherwise. */
function replicaNames(target: Target): (by: string) => string {
  const byPort = new Map<string, string>();
  for (const p of target.processes()) if (p.metricsUrl) byPort.set(new URL(p.metricsUrl).host, p.label);
  return (by) => byPort.get(by) ?? by;
}

function describeLimits(target: Target, drivers: number): void {
  const limits = target.processes().map((p) => `${p.label} ${fdLimit(p.pid)}`);
  console.log(`open-file limits: ${limits.join(', ')}, each of ${drivers} driver(s) ${fdLimit(process.pid)} (per process, hard)`);
}

/** What held the profiled cloud's event loop 100 ms or more in each step's measured window. */
function printHolds(dir: string, before: Set<string>, windows: { n: number; fromUs: number; toUs: number }[]): void {
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile') && !before.has(f));
  if (!file) return console.log(`no new CPU profile in ${dir}`);
  const all = busyStretches(path.join(dir, file), ROOT, 100, 1000);
  for (const w of windows) {
    const held = all.filter((s) => s.startUs >= w.fromUs && s.startUs <= w.toUs).slice(0, 8);
    printStretches(`the cloud's event loop held ≥ 100 ms, ${w.n} cabinets (profile ${file})`, held, w.fromUs);
  }
}

async function stepRun(kind: Kind, main: string): Promise<{ largest: number; rows: StepRow[] }> {
  const max = STEPS[STEPS.length - 1]!;
  const seeding = Date.now();
  const { target, fleet: keys } = kind === 'sqlite' ? await sqliteTarget(main, max) : kind === 'pg' ? await pgTarget(main, max) : await stubTarget(max);
  const how = target.store ? `enrolled (written to the store) in ${((Date.now() - seeding) / 1000).toFixed(1)} s` : 'simulated (any key)';
  const nDrivers = driversFor(max);
  console.log(`${target.name}: ${max} cabinets ${how}; ${target.url}; ${nDrivers} driver process(es)`);
  describeLimits(target, nDrivers);
  // registers prom-client's process metrics (event loop, GC) in each cloud process, which it does on the first scrape
  await Promise.all(target.processes().map((p) => (p.metricsUrl ? scrape(p.metricsUrl) : null)));
  const replicaOf = replicaNames(target);
  let fleet: Fleet | null = null;
  const rows: StepRow[] = [];
  const windows: { n: number; fromUs: number; toUs: number }[] = [];
  const profiled = kind === 'sqlite' && opt['cpu-prof'] ? new Set(fs.readdirSync(opt['cpu-prof'])) : null;
  let largest = 0;
  try {
    fleet = await Fleet.start(target, keys, nDrivers);
    for (const n of STEPS) {
      await fleet.grow(n);
      await sleep(WARMUP_S * 1000);
      const from = Date.now();
      const fromUs = monotonicMicros();
      const row = await fleet.measure(DURATION_S);
      windows.push({ n, fromUs, toUs: monotonicMicros() });
      rows.push(row);
      console.log(
        `  ${n} cabinets: ${row.pass ? 'pass' : 'FAIL'}; ${row.legs.map((l) => `${l.leg} p99 ${f1(l.p99)}${l.errors ? ` errors ${l.errors}` : ''}`).join(', ')}; ` +
          `${row.procs.map((p) => `${p.label} ${p.cpuPct.toFixed(0)} % CPU, ${p.fds} files`).join(', ')}, drivers ${row.bench.cpuPct.toFixed(0)} %; load ${row.load}`,
      );
      printSlow(row, replicaOf, logsBetween(target.logs(), from, Date.now()));
      if (row.pass) largest = n;
      else if (!opt['keep-going']) break;
    }
    await fleet.stop();
  } finally {
    await fleet?.close();
    await target.stop();
  }
  try {
    printSteps(target.name, rows);
    if (profiled) printHolds(opt['cpu-prof']!, profiled, windows);
    console.log(`largest fleet with p99 < ${P99_LIMIT_MS} ms on every leg and no errors: ${largest || `none of ${STEPS.join(', ')}`}`);
    console.log(`slow calls logged to ${opt['slow-log']}`);
    if (target.store && fleet.ledger) printAudit(await auditStore(target.store, fleet.ledger), fleet.ledger);
  } finally {
    await target.cleanup();
  }
  return { largest, rows };
}

async function soakRun(kind: 'sqlite' | 'pg', main: string, n: number, minutes: number): Promise<void> {
  const { target, fleet: keys } = kind === 'sqlite' ? await sqliteTarget(main, n) : await pgTarget(main, n);
  const nDrivers = driversFor(n);
  console.log(`soak: ${target.name}, ${n} cabinets over ${nDrivers} driver(s), ${minutes} min after ${WARMUP_S} s warm-up; RSS every 10 s`);
  await Promise.all(target.processes().map((p) => (p.metricsUrl ? scrape(p.metricsUrl) : null)));
  const started = Date.now();
  const series = new Map<string, [number, number][]>();
  const sample = () => {
    for (const p of target.processes()) {
      const s = procSample(p.pid);
      if (!s) continue;
      if (!series.has(p.label)) series.set(p.label, []);
      series.get(p.label)!.push([(Date.now() - started) / 60_000, s.rssKb / 1024]);
    }
  };
  let fleet: Fleet | null = null;
  let row: StepRow;
  try {
    sample();
    fleet = await Fleet.start(target, keys, nDrivers);
    await fleet.grow(n);
    const warm = setInterval(sample, 10_000);
    await sleep(WARMUP_S * 1000);
    clearInterval(warm);
    const from = Date.now();
    row = await fleet.measure(minutes * 60, sample);
    printSlow(row, replicaNames(target), logsBetween(target.logs(), from, Date.now()));
    await fleet.stop();
  } finally {
    await fleet?.close();
    await target.stop();
  }
  try {
    printSteps(`soak: ${target.name}, ${minutes} min`, [row]);
    const lines = [...series].filter(([label]) => !label.startsWith('nginx'));
    for (const [label, pts] of lines) {
      const after = pts.filter(([t]) => t >= WARMUP_S / 60);
      const rss = after.map((p) => p[1]);
      const firstTen = rss.slice(0, Math.max(1, Math.floor(rss.length / 3)));
      const lastTen = rss.slice(-Math.max(1, Math.floor(rss.length / 3)));
      const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;
      console.log(
        `RSS ${label}: ${rss.length} samples, min ${Math.min(...rss).toFixed(0)} MB, max ${Math.max(...rss).toFixed(0)} MB, mean of the first third ${mean(firstTen).toFixed(0)} MB, of the last third ${mean(lastTen).toFixed(0)} MB`,
      );
    }
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
    await plotRss(
      opt['soak-png'],
      `Fleet soak: ${n} cabinets on ${target.name}, ${minutes} min (${when} UTC)`,
      lines.map(([label, points]) => ({ label, points })),
    );
    console.log(`plot: ${path.relative(ROOT, opt['soak-png'])}`);
    if (target.store && fleet.ledger) printAudit(await auditStore(target.store, fleet.ledger), fleet.ledger);
  } finally {
    await target.cleanup();
  }
}

async function main(): Promise<void> {
  const build = await buildCloud();
  console.log(
    `host ${os.hostname()}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), node ${process.version}, ${new Date().toISOString()}, load average ${loadavg()}`,
  );
  console.log(
    `per cabinet: long poll wait=${WAIT_S}, heartbeat every ${HEARTBEAT_S} s, ${SALES_PER_HOUR} walk-up sales/h (createOrder + report), ${DROPS_PER_HOUR} operator drops/h (enqueue, then the cabinet's report acks it); ` +
      `at least ${MIN_DROPS_PER_S} drops/s over the fleet; warm-up ${WARMUP_S} s per step, measured ${DURATION_S} s; cloud LOG_LEVEL=${opt['log-level']}, the production build`,
  );
  const kinds: Kind[] = opt.target === 'both' ? ['sqlite', 'pg'] : opt.target === 'all' ? ['stub', 'sqlite', 'pg'] : [opt.target as Kind];
  if (opt.soak) {
    const kind = opt.target === 'pg' ? 'pg' : 'sqlite';
    let n = Number(opt['soak-fleet'] ?? 0);
    if (!n) {
      const { largest } = await stepRun(kind, build.main);
      n = Math.floor(0.8 * (largest || STEPS[0]!));
    }
    await soakRun(kind, build.main, n, Number(opt['soak-minutes']));
    return;
  }
  for (const kind of kinds) await stepRun(kind, build.main);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
