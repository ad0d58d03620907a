/**
 * One driver of the fleet benchmark (scripts/bench-fleet.ts forks several, each with its own open-file budget):
 * a slice of the simulated cabinets and an operator enqueueing drops on them, steered over the IPC channel.
 *
 *   parent → driver: init {url, cabinets, rates} · grow {n} · measure · collect · stop
 *   driver → parent: ready · samples {DriverSamples, slow calls, fds} · ledger {what the store must hold}
 *
 * Each cabinet talks through the agent's own HTTP client (apps/agent/src/cloud/http.ts: node:http, keep-alive,
 * at most 4 sockets), so it holds the sockets a real cabinet holds: in steady state two, the long poll's and
 * one idle keep-alive socket the heartbeat and sales reuse (the cloud keeps idle sockets 65 s, the heartbeat
 * comes every 60 s).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { cloudTransport, type HttpResponse, type HttpTransport } from '@vend/agent/http';
import { LEGS, type DriverSamples, type LegName, type SlowCall } from './samples.ts';

export interface DriverInit {
  type: 'init';
  url: string;
  cabinets: { no: string; key: string }[];
  salesPerHour: number;
  /** Drops per cabinet-hour over this slice, and at least this many per second (the measurement's floor). */
  dropsPerHour: number;
  minDropsPerS: number;
  /** Calls slower than this are logged with who answered. */
  slowMs: number;
  /** Whether stopping waits for the enqueued drops' acks (the baseline never delivers one). */
  awaitAcks: boolean;
}
export type ToDriver = DriverInit | { type: 'grow'; n: number } | { type: 'measure' } | { type: 'collect' } | { type: 'stop' };

export interface DriverLedger {
  opened: string[];
  sales: [string, string][];
  enqueued: string[];
  acked: string[];
  duplicateDeliveries: number;
  reportRetries: number;
  allErrors: number;
  errorSamples: string[];
  /** Every answer by status ('transport' for a call that got none): the fault drill's count of what was refused. */
  statuses: Record<string, number>;
  /** 503s without a Retry-After header, and the slowest 503's time (ms). */
  refusedWithoutRetryAfter: number;
  slowestRefusalMs: number;
}
export type FromDriver =
  { type: 'ready' } | { type: 'samples'; samples: DriverSamples; slow: SlowCall[]; fds: number; running: number } | ({ type: 'ledger' } & DriverLedger);

const WAIT_S = 25;
const HEARTBEAT_S = 60;
const AISLES = 4;
const REPORT_ATTEMPTS = 30;
const CALL_TIMEOUT_MS = 40_000;
const ALICE_KEY = 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2'; // the public sandbox key (docs/sandbox.md)
const HB_BODY = { agentVersion: '1.4.2', vmcVersion: 'VMC-2.4.1' };

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
/** Epoch ms with sub-millisecond precision: comparable across the drivers' processes. */
const epochNow = () => performance.timeOrigin + performance.now();

class Stats {
  measuring = false;
  lat = {} as Record<LegName, number[]>;
  errors = {} as Record<LegName, number>;
  enqueueToAck: number[] = [];
  requests = 0;
  slow: SlowCall[] = [];
  allErrors = 0;
  errorSamples: string[] = [];
  constructor(private readonly slowMs: number) {
    this.reset();
  }
  record(leg: LegName, ms: number, startedAt: number, by: string): void {
    if (!this.measuring) return;
    this.requests++;
    this.lat[leg].push(ms);
    if (ms > this.slowMs) this.slow.push({ at: startedAt, leg, ms, by });
  }
  error(leg: LegName, message: string): void {
    this.allErrors++;
    if (this.errorSamples.length < 8) this.errorSamples.push(`${leg}: ${message}`);
    if (!this.measuring) return;
    this.requests++;
    this.errors[leg]++;
  }
  reset(): void {
    for (const l of LEGS) {
      this.lat[l] = [];
      this.errors[l] = 0;
    }
    this.enqueueToAck = [];
    this.requests = 0;
    this.slow = [];
  }
}

/** What the store must hold at the end. */
class Ledger {
  opened = new Set<string>();
  sales = new Map<string, string>();
  enqueued = new Set<string>();
  acked = new Set<string>();
  duplicateDeliveries = 0;
  reportRetries = 0;
  enqueueStartedAt = new Map<string, number>();
  ackedAt = new Map<string, number>();
  statuses: Record<string, number> = {};
  refusedWithoutRetryAfter = 0;
  slowestRefusalMs = 0;

  /** `heldMs`: how long the call was meant to be held (the long poll's wait): a refusal's time is what came after. */
  answered(a: Answer | null, heldMs = 0): void {
    const k = a ? String(a.status) : 'transport';
    this.statuses[k] = (this.statuses[k] ?? 0) + 1;
    if (a?.status !== 503) return;
    if (!a.retryAfter) this.refusedWithoutRetryAfter++;
    this.slowestRefusalMs = Math.max(this.slowestRefusalMs, a.ms - heldMs);
  }
}

interface Answer {
  status: number;
  body: { code?: number; message?: string; data?: unknown };
  ms: number;
  at: number;
  by: string;
  retryAfter: string | undefined;
}

function answerOf(res: HttpResponse, startedAt: number, started: number): Answer {
  let body: Answer['body'] = {};
  try {
    body = JSON.parse(res.body) as Answer['body'];
  } catch {
    body = { message: res.body.slice(0, 200) };
  }
  // nginx names the replica that answered (the cluster's X-Served-By); one process answers on SQLite
  return {
    status: res.status,
    body,
    ms: performance.now() - started,
    at: startedAt,
    by: res.headers['x-served-by'] ?? 'cloud',
    retryAfter: res.headers['retry-after'],
  };
}

class Cabinet {
  private readonly http: { transport: HttpTransport; close(): Promise<void> };
  private witness: string | null = null;
  private readonly stopper = new AbortController();
  private readonly loops: Promise<void>[] = [];
  private readonly handled = new Set<string>();

  constructor(
    readonly no: string,
    private readonly key: string,
    private readonly base: string,
    private readonly cfg: DriverInit,
    private readonly stats: Stats,
    private readonly ledger: Ledger,
  ) {
    this.http = cloudTransport();
  }

  async call(method: 'GET' | 'POST', p: string, body?: unknown, signal?: AbortSignal): Promise<Answer> {
    const headers: Record<string, string> = { 'x-device-key': this.key, 'x-equipment-no': this.no, accept: 'application/json' };
    if (this.witness) headers['x-device-witness'] = this.witness;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const startedAt = epochNow();
    const started = performance.now();
    const res = await this.http.transport({
      method,
      url: this.base + p,
      headers,
      timeoutMs: CALL_TIMEOUT_MS,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
    const w = res.headers['x-device-witness'];
    if (typeof w === 'string') this.witness = w;
    const a = answerOf(res, startedAt, started);
    // a long poll answered after its wait was held: its refusal's time is what came after the wait
    this.ledger.answered(a, p.startsWith('/cabinet/pending') && a.ms >= WAIT_S * 1000 ? WAIT_S * 1000 : 0);
    return a;
  }

  private async leg(leg: LegName, method: 'GET' | 'POST', p: string, body?: unknown): Promise<Answer | null> {
    try {
      const a = await this.call(method, p, body);
      if (a.status !== 200) {
        this.stats.error(leg, `${a.status} ${a.body.message ?? ''}`);
        return null;
      }
      this.stats.record(leg, a.ms, a.at, a.by);
      return a;
    } catch (e) {
      if (!this.stopper.signal.aborted) {
        this.ledger.answered(null);
        this.stats.error(leg, e instanceof Error ? e.message : String(e));
      }
      return null;
    }
  }

  /** A dispense report, retried every second until answered (the agent's spool; the dispenseId dedupes). */
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

  async stop(): Promise<void> {
    this.stopper.abort();
    await Promise.all(this.loops);
    await this.http.close();
  }

  private async pollLoop(signal: AbortSignal): Promise<void> {
    await sleep(Math.random() * WAIT_S * 1000, signal);
    while (!signal.aborted) {
      let a: Answer;
      try {
        a = await this.call('GET', `/cabinet/pending?wait=${WAIT_S}`, undefined, signal);
      } catch (e) {
        if (signal.aborted) return;
        this.ledger.answered(null);
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
        this.stats.record('pending overrun', Math.max(0, a.ms - WAIT_S * 1000), a.at + WAIT_S * 1000, a.by);
        continue;
      }
      for (const c of commands) {
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
      await sleep(expDelay(this.cfg.salesPerHour), signal);
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
      const r = await this.report('report sale', { equipmentNo: this.no, dispenseId, orderNumber, aisleNo, success: true, outcome: 'success', detail: '' });
      if (r) this.ledger.sales.set(dispenseId, orderNumber);
    }
  }
}

/** alice's client enqueueing drops on random running cabinets of this driver's slice. */
class Operator {
  private readonly http = cloudTransport();
  private readonly stopper = new AbortController();
  private loop: Promise<void> | null = null;
  private seq = 0;
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly base: string,
    private readonly fleet: () => readonly Cabinet[],
    private readonly cfg: DriverInit,
    private readonly stats: Stats,
    private readonly ledger: Ledger,
  ) {}

  start(): void {
    this.loop = (async () => {
      const signal = this.stopper.signal;
      for (;;) {
        // the slice's rate is its size now, never under the measurement's floor
        const size = this.fleet().length;
        const perHour = Math.max(this.cfg.dropsPerHour * size, this.cfg.minDropsPerS * 3600);
        await sleep(size === 0 ? 100 : expDelay(perHour), signal);
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
    const startedAt = epochNow();
    const started = performance.now();
    try {
      const res = await this.http.transport({
        method: 'POST',
        url: `${this.base}/api/v1/machines/${machineNo}/commands/dispense`,
        headers: { 'x-api-key': ALICE_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ aisleNo: 1 + Math.floor(Math.random() * AISLES), reason: 'fleet bench', externalRef: `fb-${process.pid}-${++this.seq}` }),
        timeoutMs: CALL_TIMEOUT_MS,
      });
      const a = answerOf(res, startedAt, started);
      this.ledger.answered(a);
      if (a.status !== 200) return this.stats.error('enqueue (operator)', `${a.status} ${a.body.message ?? ''}`);
      this.stats.record('enqueue (operator)', a.ms, a.at, a.by);
      const data = a.body.data as { commandId?: string; id?: string } | undefined;
      const id = data?.commandId ?? data?.id;
      if (!id) return this.stats.error('enqueue (operator)', `no command id in ${JSON.stringify(a.body).slice(0, 200)}`);
      this.ledger.enqueued.add(id);
      const ackedAt = this.ledger.ackedAt.get(id);
      if (ackedAt !== undefined) {
        if (this.stats.measuring) this.stats.enqueueToAck.push(ackedAt - started);
      } else this.ledger.enqueueStartedAt.set(id, started);
    } catch (e) {
      this.ledger.answered(null);
      this.stats.error('enqueue (operator)', e instanceof Error ? e.message : String(e));
    }
  }

  async stop(): Promise<void> {
    this.stopper.abort();
    await this.loop;
    await Promise.all([...this.inflight]);
    await this.http.close();
  }
}

function openFds(): number {
  try {
    return fs.readdirSync('/proc/self/fd').length;
  } catch {
    return NaN;
  }
}

/** The driver's side of the IPC channel. */
function serve(): void {
  let cfg: DriverInit | null = null;
  let stats: Stats | null = null;
  const ledger = new Ledger();
  const running: Cabinet[] = [];
  let operator: Operator | null = null;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const send = (m: FromDriver) => process.send!(m);

  process.on('message', (m: ToDriver) => {
    void (async () => {
      if (m.type === 'init') {
        cfg = m;
        stats = new Stats(m.slowMs);
        operator = new Operator(m.url, () => running, m, stats, ledger);
        operator.start();
        send({ type: 'ready' });
      } else if (m.type === 'grow') {
        while (running.length < m.n) {
          const k = cfg!.cabinets[running.length]!;
          const c = new Cabinet(k.no, k.key, cfg!.url, cfg!, stats!, ledger);
          c.start();
          running.push(c);
        }
        send({ type: 'ready' });
      } else if (m.type === 'measure') {
        stats!.reset();
        stats!.measuring = true;
        loop.reset();
        loop.enable();
        send({ type: 'ready' });
      } else if (m.type === 'collect') {
        stats!.measuring = false;
        loop.disable();
        const s = stats!;
        send({
          type: 'samples',
          samples: {
            lat: s.lat,
            errors: s.errors,
            enqueueToAck: s.enqueueToAck,
            requests: s.requests,
            loopP99: loop.percentile(99) / 1e6,
            loopMax: loop.max / 1e6,
          },
          slow: s.slow,
          fds: openFds(),
          running: running.length,
        });
      } else if (m.type === 'stop') {
        // stop the drops, let the cabinets acknowledge what is out (one poll's wait and some), then stop them
        await operator!.stop();
        const end = cfg!.awaitAcks ? Date.now() + (WAIT_S + 10) * 1000 : 0;
        while (Date.now() < end && [...ledger.enqueued].some((id) => !ledger.acked.has(id))) await sleep(200);
        await Promise.all(running.map((c) => c.stop()));
        // a soak's ledger is a large message: the channel closes only once it is written, or the parent never gets it
        process.send!(
          {
            type: 'ledger',
            opened: [...ledger.opened],
            sales: [...ledger.sales],
            enqueued: [...ledger.enqueued],
            acked: [...ledger.acked],
            duplicateDeliveries: ledger.duplicateDeliveries,
            reportRetries: ledger.reportRetries,
            allErrors: stats!.allErrors,
            errorSamples: stats!.errorSamples,
            statuses: ledger.statuses,
            refusedWithoutRetryAfter: ledger.refusedWithoutRetryAfter,
            slowestRefusalMs: ledger.slowestRefusalMs,
          } satisfies FromDriver,
          () => process.disconnect(),
        );
      }
    })();
  });
}

serve();
