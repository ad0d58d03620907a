import fs from 'node:fs';
import { Router, type RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { LoopStatus } from '../jobs/loop.ts';
import { defineRoute, type RouteKit } from './route.ts';

/** What the scrape reads from the rest of the process at collection time (nothing is pushed on the request path). */
export interface MetricsSources {
  /** Long polls held now. */
  heldLongPolls(): number;
  /** The background loops of this replica. */
  loops(): LoopStatus[];
  /** Each loop's longest tick (ms) since the last scrape; reading starts the next window. */
  longestTicks(): { loop: string; ms: number }[];
  /** A SQLite file's longest WAL checkpoint (ms) since the last scrape, on its worker thread; absent elsewhere. */
  longestCheckpoint?: () => number;
  /** Connections of the store's pool (PostgreSQL); null on SQLite (one connection, no pool). */
  pool(): { total: number; idle: number; waiting: number } | null;
  /** Each cross-replica push listener by channel (`pending`, `credentials`): null where there is none (SQLite, or PENDING_PUSH=false for `pending`). */
  pushListening(): Record<string, boolean | null>;
  /** Requests in flight and whether the process is draining. */
  lifecycle(): { inFlight: number; draining: boolean };
}

/** Latency buckets in seconds: the hot legs live under 50 ms; a long poll is held up to 25 s. */
const BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * prom-client's defaults that walk every handle or open file on the event loop at each scrape: with 12,000
 * cabinet connections one scrape held the loop 100–160 ms (fleet bench --cpu-prof, docs/benchmarks.md).
 * `process_open_fds` comes back read off the loop (`openFdsGauge`); the handle counts are not replaced.
 */
export const WALK_EVERY_HANDLE = [
  'nodejs_active_handles',
  'nodejs_active_handles_total',
  'nodejs_active_resources',
  'nodejs_active_resources_total',
  'process_open_fds',
] as const;

/** `process_open_fds` as prom-client names it, its directory listed on libuv's thread pool rather than by readdirSync. */
function openFdsGauge(registry: Registry): void {
  new Gauge({
    name: 'process_open_fds',
    help: 'Number of open file descriptors.',
    registers: [registry],
    async collect() {
      try {
        // minus the descriptor the listing itself held open
        this.set((await fs.promises.readdir('/proc/self/fd')).length - 1);
      } catch {
        // no /proc: the series stays at its last value
      }
    },
  });
}

/**
 * Prometheus metrics of one cloud process (prom-client, its own registry: nothing global), served at
 * `GET /metrics` to admins (docs/decisions/scale-out.md). Requests are counted by route pattern (never the
 * raw path: no machine numbers in label values), method and status; everything else is read when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'method' | 'status'>;
  private readonly duration: Histogram<'route' | 'method' | 'status'>;
  private defaults = false;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'vend_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'vend_http_request_duration_seconds',
      help: 'HTTP request latency from arrival to the last byte written, by route pattern, method and status (long polls included in /cabinet/pending)',
      labelNames: ['route', 'method', 'status'],
      buckets: BUCKETS,
      registers,
    });
    new Gauge({
      name: 'vend_long_polls_held',
      help: 'Pending long polls held by this process now',
      registers,
      collect() {
        this.set(sources.heldLongPolls());
      },
    });
    new Gauge({
      name: 'vend_http_requests_in_flight',
      help: 'Requests received and not yet answered',
      registers,
      collect() {
        this.set(sources.lifecycle().inFlight);
      },
    });
    new Gauge({
      name: 'vend_draining',
      help: '1 once shutdown began (readiness answers 503)',
      registers,
      collect() {
        this.set(sources.lifecycle().draining ? 1 : 0);
      },
    });
    new Gauge({
      name: 'vend_loop_leader',
      help: 'Whether this replica led the background loop at its last tick (1) or followed (0)',
      labelNames: ['loop'],
      registers,
      collect() {
        for (const l of sources.loops()) this.set({ loop: l.name }, l.leader ? 1 : 0);
      },
    });
    const loopCounter = (name: string, help: string, pick: (l: LoopStatus) => number) =>
      new Counter({
        name,
        help,
        labelNames: ['loop'],
        registers,
        collect() {
          this.reset();
          for (const l of sources.loops()) this.inc({ loop: l.name }, pick(l));
        },
      });
    new Gauge({
      name: 'vend_loop_tick_max_seconds',
      help: 'The longest tick of the background loop since the previous scrape (a sweep on SQLite holds the event loop that long)',
      labelNames: ['loop'],
      registers,
      collect() {
        this.reset();
        for (const t of sources.longestTicks()) this.set({ loop: t.loop }, t.ms / 1000);
      },
    });
    const longestCheckpoint = sources.longestCheckpoint;
    if (longestCheckpoint)
      new Gauge({
        name: 'vend_sqlite_checkpoint_max_seconds',
        help: 'The longest WAL checkpoint since the previous scrape (on its worker thread, off the event loop); absent on PostgreSQL',
        registers,
        collect() {
          this.set(longestCheckpoint() / 1000);
        },
      });
    loopCounter('vend_loop_ticks_total', 'Ticks of the background loop on this replica since start', (l) => l.ticks);
    loopCounter('vend_loop_sweeps_total', 'Ticks on which this replica led and ran the work', (l) => l.sweeps);
    loopCounter('vend_loop_follower_skips_total', 'Ticks on which another replica led', (l) => l.followerSkips);
    loopCounter('vend_loop_errors_total', 'Ticks that failed (lease or work)', (l) => l.errors);
    loopCounter('vend_loop_resolved_total', 'Items the loop work changed', (l) => l.resolved);
    new Gauge({
      name: 'vend_store_pool_connections',
      help: 'Connections of the PostgreSQL pool by state (total, idle) and queries waiting for one (waiting); absent on SQLite',
      labelNames: ['state'],
      registers,
      collect() {
        const p = sources.pool();
        if (!p) return;
        this.set({ state: 'total' }, p.total);
        this.set({ state: 'idle' }, p.idle);
        this.set({ state: 'waiting' }, p.waiting);
      },
    });
    new Gauge({
      name: 'vend_push_listening',
      help: 'Whether each cross-replica push listener is connected (1) or reconnecting (0); absent without one',
      labelNames: ['channel'],
      registers,
      collect() {
        for (const [channel, l] of Object.entries(sources.pushListening())) if (l !== null) this.set({ channel }, l ? 1 : 0);
      },
    });
  }

  /** Counts and times every request; the label is the matched route pattern, `unmatched` for a 404 of no route. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const route = req.route?.path !== undefined ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
        this.observe(route, req.method, res.statusCode, started);
      });
      next();
    };
  }

  /** One answered request: `started` from `process.hrtime.bigint()` at its arrival. */
  observe(route: string, method: string, status: number, started: bigint): void {
    const labels = { route, method, status: String(status) };
    this.requests.inc(labels);
    this.duration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  }

  /** The text exposition; process metrics (CPU, memory, event loop, GC) are registered on the first scrape. */
  async render(): Promise<{ contentType: string; body: string }> {
    if (!this.defaults) {
      this.defaults = true;
      collectDefaultMetrics({ register: this.registry });
      for (const name of WALK_EVERY_HANDLE) this.registry.removeSingleMetric(name);
      if (process.platform === 'linux') openFdsGauge(this.registry);
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** `GET /metrics`: the Prometheus text format, for admins (as the other admin reads). */
export function metricsRoutes(kit: RouteKit, metrics: Metrics): Router {
  const r = Router();
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/metrics',
      tag: 'sandbox',
      summary: 'Prometheus metrics of this process: requests by route and status with latency histograms, held long polls, loops, store pool',
      description: 'Text exposition format 0.0.4. Admin credential (X-API-Key), as the other admin reads. docs/decisions/scale-out.md lists the series.',
      auth: 'admin',
      envelope: false,
      contentType: 'text/plain',
    },
    async (_input, _req, res) => {
      const { contentType, body } = await metrics.render();
      res.status(200).type(contentType).send(body);
    },
  );
  return r;
}
