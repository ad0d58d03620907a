/**
 * The fleet load test and soak (issue 18): many lightweight simulated cabinets in this one process, each with
 * its own enrolled device key and its own keep-alive connections (an undici Pool per cabinet), against
 *
 *   - sqlite: one cloud process from the production build (scripts/build-cloud, `NODE_ENV=production`) on a
 *     SQLite file, and
 *   - pg: two replicas of that build on a fresh PostgreSQL database and one Redis behind nginx
 *     (scripts/cluster.ts's startCluster);
 *   - stub, the baseline measured in the same run (`all` runs it first): a bare node:http server answering every
 *     leg with canned bytes and holding the long poll 25 s: the floor this machine at its load puts under any server.
 *
 *   bash scripts/bench fleet [--target sqlite|pg|stub|both|all] [--fleet 250,500,1000,2000] [--duration 60] [--keep-going]
 *   bash scripts/bench fleet --soak [--soak-fleet N] [--soak-minutes 30]
 *
 * What each cabinet does (the agent's own legs and intervals, spec 2):
 *   - long-polls `GET /cabinet/pending?wait=25` back to back; a drop it receives it acknowledges at once with
 *     its dispense report (`POST /cabinet/report` with the commandId: the real ack leg), then polls again;
 *   - `POST /cabinet/heartbeat` every 60 s;
 *   - walk-up sales as a Poisson process (default 6 per cabinet-hour, a busy machine's peak hour): the agent's
 *     sale legs, `POST /cabinet/createOrder` (with a requestRef) then `POST /cabinet/report` with the orderNumber;
 *   - every request presents its `x-device-key`, `x-equipment-no` and echoes the last `x-device-witness`.
 * An operator client (alice's sandbox API key) enqueues remote drops `POST /api/v1/machines/{no}/commands/dispense`
 * on random cabinets, a Poisson process of default 2 per cabinet-hour (a quarter of all vends).
 *
 * The fleet is enrolled by writing it straight into the store before the cloud starts
 * (apps/cloud/src/domains/device-credentials/enrolled-fleet.fixture.ts: identities and key generations stored
 * exactly as enrolment stores them), then given to alice with four stocked, priced aisles each.
 *
 * Time compression: none on the legs' rates (heartbeat 60 s, long poll 25 s, real sale and drop rates). Only the
 * fleet's start is compressed: each new cabinet starts its long poll at a random point of one 25 s wait and its
 * heartbeat at a random point of one 60 s period, so the fleet is at steady state after one warm-up of 60 s
 * (rather than cabinets booting over hours). Steps ramp the fleet up (the cabinets of a step keep running into
 * the next); after each step's warm-up the legs are measured for `--duration` seconds.
 *
 * Per leg p50/p99 and errors; for the long poll the figure is how late an empty answer comes after its 25 s
 * (the hold's overrun); enqueue → acknowledged (operator's enqueue sent → the cabinet's report answered);
 * CPU and RSS of every cloud process (and nginx) from /proc. A step passes with p99 < 50 ms on every leg and no
 * error. At the end the store is counted: every sale the fleet reported is there exactly once, every drop it
 * acknowledged acknowledged once. The soak (`--soak`, SQLite unless --target pg) runs one fleet for
 * `--soak-minutes`, samples RSS every 10 s and plots it into docs/fleet-soak-rss.png.
 */
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { buildCloud } from './build-cloud.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { startProcess, stop } from './bench-support.ts';
import { plotRss } from './plot-rss.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cloudRequire = createRequire(path.join(ROOT, 'apps/cloud/package.json'));

const { values: opt } = parseArgs({
  options: {
    target: { type: 'string', default: 'both' },
    fleet: { type: 'string', default: '250,500,1000,2000' },
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '60' },
    'sales-per-hour': { type: 'string', default: '6' },
    'drops-per-hour': { type: 'string', default: '2' },
    'keep-going': { type: 'boolean', default: false },
    soak: { type: 'boolean', default: false },
    'soak-fleet': { type: 'string' },
    'soak-minutes': { type: 'string', default: '30' },
    'soak-png': { type: 'string', default: path.join(ROOT, 'docs/fleet-soak-rss.png') },
    'database-url': { type: 'string', default: process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test' },
    'redis-url': { type: 'string', default: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' },
    'log-level': { type: 'string', default: 'warn' },
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
const WAIT_S = 25;
const HEARTBEAT_S = 60;
const AISLES = 4;
const P99_LIMIT_MS = 50;
const REPORT_ATTEMPTS = 30;
const ALICE_KEY = 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2'; // the public sandbox key (docs/sandbox.md)
const HB_BODY = { agentVersion: '1.4.2', vmcVersion: 'VMC-2.4.1' };
const CLOUD_ENV = { LOG_LEVEL: opt['log-level'], RATE_LIMIT_PER_HOUR: '100000000', JOBS_ENABLED: 'true' };
const CLK_TCK = 100;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
const expDelay = (perHour: number) => (perHour > 0 ? (-Math.log(1 - Math.random()) * 3_600_000) / perHour : Infinity);

function pct(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

// --- measurements ------------------------------------------------------------------------------

const LEGS = ['heartbeat', 'pending overrun', 'createOrder', 'report sale', 'report drop (ack)', 'enqueue (operator)'] as const;
type LegName = (typeof LEGS)[number];

class Stats {
  measuring = false;
  lat = new Map<LegName, number[]>(LEGS.map((l) => [l, []]));
  errors = new Map<LegName, number>(LEGS.map((l) => [l, 0]));
  errorSamples: string[] = [];
  allErrors = 0;
  enqueueToAck: number[] = [];
  requests = 0;
  record(leg: LegName, ms: number): void {
    if (!this.measuring) return;
    this.requests++;
    this.lat.get(leg)!.push(ms);
  }
  error(leg: LegName, message: string): void {
    this.allErrors++;
    if (this.errorSamples.length < 8) this.errorSamples.push(`${leg}: ${message}`);
    if (!this.measuring) return;
    this.requests++;
    this.errors.set(leg, this.errors.get(leg)! + 1);
  }
  reset(): void {
    for (const l of LEGS) {
      this.lat.set(l, []);
      this.errors.set(l, 0);
    }
    this.enqueueToAck = [];
    this.requests = 0;
  }
}

/** What the store must hold at the end. */
class Ledger {
  opened = new Set<string>(); // orderNumbers createOrder answered
  sales = new Map<string, string>(); // dispenseId → orderNumber, report answered (fresh)
  enqueued = new Set<string>(); // commandIds the operator's enqueue answered
  acked = new Set<string>(); // commandIds a cabinet's report answered
  duplicateDeliveries = 0; // a command delivered again after its ack
  reportRetries = 0;
  enqueueStartedAt = new Map<string, number>();
  ackedAt = new Map<string, number>();
}

interface ProcSample {
  ticks: number;
  rssKb: number;
  at: number;
}
function procSample(pid: number): ProcSample | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
    const rss = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { ticks, rssKb: Number(rss?.[1] ?? 0), at: performance.now() };
  } catch {
    return null;
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

// --- the cabinets ------------------------------------------------------------------------------

interface Answer {
  status: number;
  body: { code?: number; message?: string; data?: unknown };
  ms: number;
}

class Cabinet {
  readonly pool: Pool;
  private witness: string | null = null;
  private readonly stopper = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private readonly handled = new Set<string>();

  constructor(
    readonly no: string,
    private readonly key: string,
    base: string,
    private readonly stats: Stats,
    private readonly ledger: Ledger,
  ) {
    // its own connections, as a real cabinet has: one held by the long poll, one for the other legs
    this.pool = new Pool(base, { connections: null, headersTimeout: 40_000, bodyTimeout: 40_000 });
  }

  async call(method: 'GET' | 'POST', p: string, body?: unknown, signal?: AbortSignal): Promise<Answer> {
    const headers: Record<string, string> = { 'x-device-key': this.key, 'x-equipment-no': this.no, accept: 'application/json' };
    if (this.witness) headers['x-device-witness'] = this.witness;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    const res = await this.pool.request({
      method,
      path: p,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
    const text = await res.body.text();
    const ms = performance.now() - started;
    const w = res.headers['x-device-witness'];
    if (typeof w === 'string') this.witness = w;
    let parsed: Answer['body'] = {};
    try {
      parsed = JSON.parse(text) as Answer['body'];
    } catch {
      parsed = { message: text.slice(0, 200) };
    }
    return { status: res.statusCode, body: parsed, ms };
  }

  /** One leg; false (and counted) when it failed. */
  private async leg(leg: LegName, method: 'GET' | 'POST', p: string, body?: unknown): Promise<Answer | null> {
    try {
      const a = await this.call(method, p, body);
      if (a.status !== 200) {
        this.stats.error(leg, `${a.status} ${a.body.message ?? ''}`);
        return null;
      }
      this.stats.record(leg, a.ms);
      return a;
    } catch (e) {
      if (!this.stopper.signal.aborted) this.stats.error(leg, e instanceof Error ? e.message : String(e));
      return null;
    }
  }

  /**
   * A dispense report, retried as the agent's spool does (spec 2: reports are kept until the cloud has them;
   * the dispenseId makes a second copy change nothing): every second until answered 200, at most
   * REPORT_ATTEMPTS times. Each attempt counts as a request of the leg (a failed one as an error).
   */
  private async report(leg: LegName, body: unknown): Promise<Answer | null> {
    for (let attempt = 1; ; attempt++) {
      const a = await this.leg(leg, 'POST', '/cabinet/report', body);
      if (a || attempt >= REPORT_ATTEMPTS) return a;
      this.ledger.reportRetries++;
      await sleep(1000);
    }
  }

  start(): void {
    const signal = this.stopper.signal;
    this.loops.push(this.pollLoop(signal), this.heartbeatLoop(signal), this.salesLoop(signal));
  }

  /** Stops starting anything; finishes what is in flight (the long poll is cut). */
  async stop(): Promise<void> {
    this.stopper.abort();
    await Promise.all(this.loops);
    await this.pool.close();
  }

  private async pollLoop(signal: AbortSignal): Promise<void> {
    await sleep(Math.random() * WAIT_S * 1000, signal);
    while (!signal.aborted) {
      let a: Answer;
      try {
        a = await this.call('GET', `/cabinet/pending?wait=${WAIT_S}`, undefined, signal);
      } catch (e) {
        if (signal.aborted) return;
        this.stats.error('pending overrun', e instanceof Error ? e.message : String(e));
        await sleep(1000, signal);
        continue;
      }
      if (a.status !== 200) {
        this.stats.error('pending overrun', `${a.status} ${a.body.message ?? ''}`);
        await sleep(1000, signal);
        continue;
      }
      const commands = (a.body.data as { commands: { commandId: string; aisleNo: number }[] }).commands;
      if (commands.length === 0) {
        this.stats.record('pending overrun', Math.max(0, a.ms - WAIT_S * 1000));
        continue;
      }
      // a drop: the motor runs (not simulated: reported at once), the report acknowledges it
      for (const c of commands) {
        // a command delivered again after this cabinet's ack was answered: the cloud lost the ack
        if (this.handled.has(c.commandId)) {
          this.ledger.duplicateDeliveries++;
          continue;
        }
        const r = await this.report('report drop (ack)', {
          equipmentNo: this.no,
          dispenseId: `fb-d-${randomUUID()}`,
          commandId: c.commandId,
          aisleNo: c.aisleNo,
          success: true,
          outcome: 'success',
          detail: '',
        });
        if (!r) continue;
        const at = performance.now();
        this.handled.add(c.commandId);
        this.ledger.acked.add(c.commandId);
        const from = this.ledger.enqueueStartedAt.get(c.commandId);
        if (from !== undefined) {
          if (this.stats.measuring) this.stats.enqueueToAck.push(at - from);
        } else this.ledger.ackedAt.set(c.commandId, at);
      }
    }
  }

  private async heartbeatLoop(signal: AbortSignal): Promise<void> {
    await sleep(Math.random() * HEARTBEAT_S * 1000, signal);
    let next = performance.now();
    while (!signal.aborted) {
      await this.leg('heartbeat', 'POST', '/cabinet/heartbeat', { equipmentNo: this.no, ...HB_BODY });
      next += HEARTBEAT_S * 1000;
      await sleep(Math.max(0, next - performance.now()), signal);
    }
  }

  private async salesLoop(signal: AbortSignal): Promise<void> {
    for (;;) {
      await sleep(expDelay(SALES_PER_HOUR), signal);
      if (signal.aborted) return;
      const aisleNo = 1 + Math.floor(Math.random() * AISLES);
      // the agent's createOrder: one requestRef, two attempts (a retry after a lost answer gets the same order)
      const sale = { equipmentNo: this.no, aisleNo, quantity: 1, payMethod: 'card', requestRef: `wu-${randomUUID()}` };
      const order =
        (await this.leg('createOrder', 'POST', '/cabinet/createOrder', sale)) ?? (await this.leg('createOrder', 'POST', '/cabinet/createOrder', sale));
      if (!order) continue;
      const orderNumber = (order.body.data as { orderNumber: string }).orderNumber;
      this.ledger.opened.add(orderNumber);
      const dispenseId = `fb-s-${randomUUID()}`;
      const r = await this.report('report sale', {
        equipmentNo: this.no,
        dispenseId,
        orderNumber,
        aisleNo,
        success: true,
        outcome: 'success',
        detail: '',
      });
      if (r) this.ledger.sales.set(dispenseId, orderNumber);
    }
  }
}

/** alice's client enqueueing drops on random running cabinets. */
class Operator {
  private readonly pool: Pool;
  private readonly stopper = new AbortController();
  private loop: Promise<void> | null = null;
  private seq = 0;
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    base: string,
    private readonly fleet: () => readonly Cabinet[],
    private readonly stats: Stats,
    private readonly ledger: Ledger,
  ) {
    this.pool = new Pool(base, { connections: 8, headersTimeout: 40_000 });
  }

  start(): void {
    this.loop = (async () => {
      const signal = this.stopper.signal;
      for (;;) {
        // the fleet's rate is its size now (a step that grows it changes the rate from the next drop on)
        const size = this.fleet().length;
        await sleep(size === 0 ? 100 : expDelay(DROPS_PER_HOUR * size), signal);
        if (signal.aborted) return;
        const cabinets = this.fleet();
        const c = cabinets[Math.floor(Math.random() * cabinets.length)];
        if (!c) continue;
        const p = this.enqueue(c.no).finally(() => this.inflight.delete(p));
        this.inflight.add(p);
      }
    })();
  }

  private async enqueue(machineNo: string): Promise<void> {
    const started = performance.now();
    try {
      const res = await this.pool.request({
        method: 'POST',
        path: `/api/v1/machines/${machineNo}/commands/dispense`,
        headers: { 'x-api-key': ALICE_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ aisleNo: 1 + Math.floor(Math.random() * AISLES), reason: 'fleet bench', externalRef: `fb-${process.pid}-${++this.seq}` }),
      });
      const body = (await res.body.json()) as { message?: string; data?: { commandId?: string; id?: string } };
      const ms = performance.now() - started;
      if (res.statusCode !== 200) return this.stats.error('enqueue (operator)', `${res.statusCode} ${body.message ?? ''}`);
      this.stats.record('enqueue (operator)', ms);
      const id = body.data?.commandId ?? body.data?.id;
      if (!id) return this.stats.error('enqueue (operator)', `no command id in ${JSON.stringify(body).slice(0, 200)}`);
      this.ledger.enqueued.add(id);
      const ackedAt = this.ledger.ackedAt.get(id);
      if (ackedAt !== undefined) {
        if (this.stats.measuring) this.stats.enqueueToAck.push(ackedAt - started);
      } else this.ledger.enqueueStartedAt.set(id, started);
    } catch (e) {
      this.stats.error('enqueue (operator)', e instanceof Error ? e.message : String(e));
    }
  }

  async stop(): Promise<void> {
    this.stopper.abort();
    await this.loop;
    await Promise.all([...this.inflight]);
    await this.pool.close();
  }
}

// --- the store ---------------------------------------------------------------------------------

type StoreEnv = { DATA_DIR: string; DATABASE_URL?: string };
/** apps/cloud/src/bench/fleet-store.ts's Audit: counts by name. */
type Audit = Record<string, number>;
const FLEET_STORE = path.join(ROOT, 'apps/cloud/src/bench/fleet-store.ts');

/** Runs the store side (apps/cloud/src/bench/fleet-store.ts) in its own process; answers what it wrote. */
function fleetStore<T>(env: StoreEnv, args: string[]): Promise<T> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vend-fleet-store-')), 'out.json');
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [FLEET_STORE, ...args, out], {
    env: { PATH: process.env['PATH'] ?? '', STORE_ENV: JSON.stringify(env) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`fleet-store ${args[0]} exited ${code}`));
      const v = JSON.parse(fs.readFileSync(out, 'utf8')) as T;
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
      resolve(v);
    }),
  );
}

/** The sandbox, then `count` enrolled cabinets BENCH-000001… given to alice, four stocked aisles each. */
const seedFleet = (env: StoreEnv, count: number) => fleetStore<{ no: string; key: string }[]>(env, ['seed', String(count)]);

/** Counts the fleet's sales and drops in the store against what the fleet saw answered. */
async function auditStore(env: StoreEnv, ledger: Ledger): Promise<Audit> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vend-fleet-ledger-')), 'ledger.json');
  fs.writeFileSync(file, JSON.stringify({ opened: [...ledger.opened], sales: [...ledger.sales], enqueued: [...ledger.enqueued], acked: [...ledger.acked] }));
  try {
    return { ...(await fleetStore<Audit>(env, ['audit', file])), duplicateDeliveries: ledger.duplicateDeliveries, reportRetries: ledger.reportRetries };
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

// --- targets -----------------------------------------------------------------------------------

interface Target {
  name: string;
  url: string;
  /** The processes whose CPU and RSS are reported, by label. */
  processes(): { label: string; pid: number }[];
  stop(): Promise<void>;
  /** null: nothing to audit (the baseline). */
  store: StoreEnv | null;
  cleanup(): Promise<void>;
}

async function sqliteTarget(main: string, count: number): Promise<{ target: Target; fleet: { no: string; key: string }[] }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-fleet-'));
  const store = { DATA_DIR: dataDir };
  const fleet = await seedFleet(store, count);
  const cloud = await startProcess(
    process.execPath,
    [main],
    { NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', POD_NAME: 'fleet-sqlite', ...CLOUD_ENV },
    /listening on (http:\/\/\S+)/,
  );
  cloud.child.stdout!.removeAllListeners('data');
  cloud.child.stdout!.resume();
  return {
    fleet,
    target: {
      name: 'SQLite, 1 replica',
      url: cloud.url,
      store,
      processes: () => [{ label: 'cloud', pid: cloud.child.pid! }],
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
      stop: () => stop(stub.child),
      cleanup: async () => undefined,
    },
  };
}

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
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
        ...cluster.replicas.map((r) => ({ label: r.name, pid: r.child.pid! })),
        ...childrenOf(nginxMaster()).map((pid, i) => ({ label: `nginx worker ${i + 1}`, pid })),
      ],
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
}
interface StepRow {
  fleet: number;
  seconds: number;
  reqPerS: number;
  legs: { leg: LegName; n: number; p50: number; p99: number; errors: number }[];
  e2a: { n: number; p50: number; p99: number };
  procs: ProcRow[];
  benchCpuPct: number;
  benchLoopP99: number;
  load: string;
  pass: boolean;
}

function sampleAll(procs: { label: string; pid: number }[]): Map<string, ProcSample> {
  const m = new Map<string, ProcSample>();
  for (const p of [...procs, { label: 'bench (the fleet)', pid: process.pid }]) {
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
    rows.push({ label, cpuPct: ((end.ticks - start.ticks) / CLK_TCK / ((end.at - start.at) / 1000)) * 100, rssMb: end.rssKb / 1024 });
  }
  return rows;
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

class Fleet {
  readonly stats = new Stats();
  readonly ledger = new Ledger();
  readonly running: Cabinet[] = [];
  private readonly operator: Operator;

  constructor(
    private readonly target: Target,
    private readonly keys: { no: string; key: string }[],
  ) {
    this.operator = new Operator(target.url, () => this.running, this.stats, this.ledger);
  }

  /** Starts cabinets until `n` run (each staggered over one wait and one heartbeat period). */
  grow(n: number): void {
    while (this.running.length < n) {
      const k = this.keys[this.running.length]!;
      const c = new Cabinet(k.no, k.key, this.target.url, this.stats, this.ledger);
      c.start();
      this.running.push(c);
    }
  }

  startOperator(): void {
    this.operator.start();
  }

  async measure(seconds: number, onTick?: () => void): Promise<StepRow> {
    const loop = monitorEventLoopDelay({ resolution: 10 });
    this.stats.reset();
    this.stats.measuring = true;
    loop.enable();
    const a = sampleAll(this.target.processes());
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      await sleep(Math.min(10_000, end - Date.now()));
      onTick?.();
    }
    const b = sampleAll(this.target.processes());
    loop.disable();
    this.stats.measuring = false;
    const legs = LEGS.map((leg) => {
      const xs = this.stats.lat.get(leg)!;
      return { leg, n: xs.length, p50: pct(xs, 50), p99: pct(xs, 99), errors: this.stats.errors.get(leg)! };
    });
    const e = this.stats.enqueueToAck;
    const procs = cpuRows(a, b);
    const bench = procs.find((p) => p.label === 'bench (the fleet)');
    return {
      fleet: this.running.length,
      seconds,
      reqPerS: this.stats.requests / seconds,
      legs,
      e2a: { n: e.length, p50: pct(e, 50), p99: pct(e, 99) },
      procs: procs.filter((p) => p !== bench),
      benchCpuPct: bench?.cpuPct ?? NaN,
      benchLoopP99: loop.percentile(99) / 1e6,
      load: loadavg(),
      pass: legs.every((l) => l.errors === 0 && !(l.p99 >= P99_LIMIT_MS)),
    };
  }

  /** Stops the drops, lets the cabinets acknowledge what is out, then stops them. */
  async stop(): Promise<void> {
    await this.operator.stop();
    const end = this.target.store ? Date.now() + (WAIT_S + 10) * 1000 : 0;
    while (Date.now() < end && [...this.ledger.enqueued].some((id) => !this.ledger.acked.has(id))) await sleep(200);
    await Promise.all(this.running.map((c) => c.stop()));
  }
}

type Kind = 'sqlite' | 'pg' | 'stub';

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');

function printSteps(target: string, rows: StepRow[]): void {
  console.log(`### ${target}`);
  console.log('');
  console.log(
    `| cabinets | req/s | ${LEGS.map((l) => `${l} p50 / p99 ms (n)`).join(' | ')} | errors | enqueue → ack p50 / p99 ms (n) | cloud processes: CPU %, RSS MB | cabinets per cloud core (CPU) | bench CPU %, loop p99 ms | load | p99 < ${P99_LIMIT_MS} ms, no errors |`,
  );
  console.log(`|---:|---:|${LEGS.map(() => '---:').join('|')}|---:|---:|---|---:|---:|---|---|`);
  for (const r of rows) {
    const legs = r.legs.map((l) => `${f1(l.p50)} / ${f1(l.p99)} (${l.n})`).join(' | ');
    const errors = r.legs.reduce((s, l) => s + l.errors, 0);
    const procs = r.procs.map((p) => `${p.label} ${p.cpuPct.toFixed(0)} %, ${p.rssMb.toFixed(0)}`).join('; ');
    // what one core of cloud (the replicas and nginx together) carries at this rate of legs, CPU-bound
    const cloudCpu = r.procs.reduce((sum, p) => sum + p.cpuPct, 0) / 100;
    console.log(
      `| ${r.fleet} | ${r.reqPerS.toFixed(0)} | ${legs} | ${errors} | ${f1(r.e2a.p50)} / ${f1(r.e2a.p99)} (${r.e2a.n}) | ${procs} | ${cloudCpu > 0 ? (r.fleet / cloudCpu).toFixed(0) : '–'} | ${r.benchCpuPct.toFixed(0)} %, ${f1(r.benchLoopP99)} | ${r.load} | ${r.pass ? 'yes' : 'no'} |`,
    );
  }
  console.log('');
}

function printAudit(a: Audit, stats: Stats): void {
  console.log(
    `store: ${a.salesInStore} walk-up sale reports (lost ${a.salesLost}, duplicated ${a.salesDuplicated}, not confirmed to the fleet ${a.salesUnexpected}); ` +
      `orders opened but missing ${a.ordersOpenedNotInStore}, opened but unsettled ${a.ordersOpenedUnsettled}; ` +
      `drops enqueued ${a.commandsEnqueued}, acked ${a.commandsAcked}, acked once in the store ${a.commandsAckedInStore} (lost ${a.commandsLost}, acked twice ${a.commandsDuplicatedAcks}, still pending ${a.commandsStillPending}); ` +
      `deliveries after ack ${a.duplicateDeliveries}; report attempts retried ${a.reportRetries}; errors over the whole run ${stats.allErrors}`,
  );
  if (stats.errorSamples.length) console.log(`first errors: ${stats.errorSamples.join(' | ')}`);
  console.log('');
}

async function stepRun(kind: Kind, main: string): Promise<{ largest: number; rows: StepRow[] }> {
  const max = STEPS[STEPS.length - 1]!;
  const seeding = Date.now();
  const { target, fleet: keys } = kind === 'sqlite' ? await sqliteTarget(main, max) : kind === 'pg' ? await pgTarget(main, max) : await stubTarget(max);
  const how = target.store ? `enrolled (written to the store) in ${((Date.now() - seeding) / 1000).toFixed(1)} s` : 'simulated (any key)';
  console.log(`${target.name}: ${max} cabinets ${how}; ${target.url}`);
  const fleet = new Fleet(target, keys);
  const rows: StepRow[] = [];
  let largest = 0;
  try {
    fleet.startOperator();
    for (const n of STEPS) {
      fleet.grow(n);
      await sleep(WARMUP_S * 1000);
      const row = await fleet.measure(DURATION_S);
      rows.push(row);
      console.log(
        `  ${n} cabinets: ${row.pass ? 'pass' : 'FAIL'}; ${row.legs.map((l) => `${l.leg} p99 ${f1(l.p99)}${l.errors ? ` errors ${l.errors}` : ''}`).join(', ')}; ` +
          `${row.procs.map((p) => `${p.label} ${p.cpuPct.toFixed(0)} % CPU`).join(', ')}, bench ${row.benchCpuPct.toFixed(0)} %; load ${row.load}`,
      );
      if (row.pass) largest = n;
      else if (!opt['keep-going']) break;
    }
    await fleet.stop();
  } finally {
    await target.stop();
  }
  try {
    printSteps(target.name, rows);
    console.log(`largest fleet with p99 < ${P99_LIMIT_MS} ms on every leg and no errors: ${largest || `none of ${STEPS.join(', ')}`}`);
    if (target.store) printAudit(await auditStore(target.store, fleet.ledger), fleet.stats);
  } finally {
    await target.cleanup();
  }
  return { largest, rows };
}

async function soakRun(kind: 'sqlite' | 'pg', main: string, n: number, minutes: number): Promise<void> {
  const { target, fleet: keys } = kind === 'sqlite' ? await sqliteTarget(main, n) : await pgTarget(main, n);
  console.log(`soak: ${target.name}, ${n} cabinets, ${minutes} min after ${WARMUP_S} s warm-up; RSS every 10 s`);
  const fleet = new Fleet(target, keys);
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
  let row: StepRow;
  try {
    sample();
    fleet.startOperator();
    fleet.grow(n);
    const warm = setInterval(sample, 10_000);
    await sleep(WARMUP_S * 1000);
    clearInterval(warm);
    row = await fleet.measure(minutes * 60, sample);
    await fleet.stop();
  } finally {
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
    if (target.store) printAudit(await auditStore(target.store, fleet.ledger), fleet.stats);
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
      `warm-up ${WARMUP_S} s per step, measured ${DURATION_S} s; cloud LOG_LEVEL=${opt['log-level']}, the production build`,
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
