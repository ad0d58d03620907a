/**
 * Cabinet agent benchmark (issue 6): the daemon's resident memory and CPU, and the time from an
 * operator's enqueue to the board's motor start.
 *
 *   npx tsx scripts/bench-agent.ts [windowSeconds] [latencySamples]     (defaults 30 and 12; about 6 min)
 *   npx tsx scripts/bench-agent.ts latency [latencySamples]              (the latency rows only; about 1 min)
 *   npx tsx scripts/bench-agent.ts soak [minutes] [factor] [png]         (the soak: default 60 min, loops 24× faster; below)
 *   (bash scripts/bench agent, or bash scripts/bench agent -- soak 60 24)
 *
 * Three forms of the agent: the sources under tsx (what the tests and the demo run), the release tree
 * as scripts/build-agent-release makes it (what a cabinet runs: bin/vend-agent, the minified bundle on
 * the tree's own Node with the launcher's V8 flags), and the same bundle without those flags (to show
 * their share), and the release tree against the cloud over TLS (https://127.0.0.1: a terminator with a
 * self-signed CA the agent trusts through NODE_EXTRA_CA_CERTS), with a plain-HTTP row right after it.
 *
 * Real processes: the cloud sandbox (SQLite in a temp dir), `vmc-sim` on a socat pty (module SH, so
 * the motor starts as soon as the request arrives), and `vend-agent run`. Resources are read from
 * /proc/<pid>/stat (utime + stime, in clock ticks) and /proc/<pid>/status (VmRSS) at the start and end
 * of each window. The baseline, measured in the same windows, is a bare Node process holding one
 * timer (`node -e "setInterval(() => {}, 1000)"`), twice: on the Node that runs this script and on the
 * release tree's own runtime (Node 24, what the tree's agent runs on); the ratio is against the latter.
 *
 *   1st start the tree's first start after the install's self-test (`bin/vend-agent --version`, which the
 *             upgrade pipeline runs in the staged tree and which writes V8's code cache inside it)
 *   idle      pollInterval 3600 s, heartbeat 3600 s: the agent holds its connections and does nothing
 *   polling   the default pollInterval 3 s (heartbeat 60 s)
 *   poll 1 s  pollInterval 1 s
 *
 * Latency: the enqueue time is taken just before `POST …/commands/dispense`; the motor start is the
 * board's own record (`GET /motor-log`, `at`), both on this host's clock. Samples are spaced at random
 * so they do not lock onto the poll's phase. The agent long-polls the pending leg (wait=25,
 * docs/decisions/agent.md), so the poll interval is only its fallback: the rows measure the long poll.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONFIG_BOUNDS } from '@vend/protocol';
import { plotRss } from './plot-rss.ts';
import { startTlsTerminator } from '../test/support/tls-terminator.ts';
import { SANDBOX, api, cleanup, control, motorLog, startAgent, startCloud, startSim, tempDir, waitFor } from '../test/support/cabinet-rig.ts';

const LATENCY_ONLY = process.argv[2] === 'latency';
const SOAK = process.argv[2] === 'soak';
const WINDOW_S = Math.max(5, Number(LATENCY_ONLY || SOAK ? 30 : (process.argv[2] ?? 30)));
const SAMPLES = Math.max(3, Number(process.argv[3] ?? 12));
const MACHINE = 'SBX-ALICE-0001';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TICKS = 100; // USER_HZ on Linux

interface Usage {
  cpuTicks: number;
  rssKb: number;
}

function usage(pid: number): Usage {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuTicks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuTicks, rssKb: Number(rss?.[1] ?? 0) };
}

async function window(pids: number[]): Promise<{ cpuPct: number; rssMb: number; peakRssMb: number }[]> {
  const start = pids.map(usage);
  const t0 = Date.now();
  const peak = pids.map((p) => usage(p).rssKb);
  for (let s = 0; s < WINDOW_S; s++) {
    await sleep(1000);
    pids.forEach((p, i) => (peak[i] = Math.max(peak[i]!, usage(p).rssKb)));
  }
  const secs = (Date.now() - t0) / 1000;
  return pids.map((p, i) => {
    const end = usage(p);
    return { cpuPct: ((end.cpuTicks - start[i]!.cpuTicks) / TICKS / secs) * 100, rssMb: end.rssKb / 1024, peakRssMb: peak[i]! / 1024 };
  });
}

/** A kiosk spool's totals in GET /v1/status. */
type Spool = { delivered: number; backlog: number; rejected: number; dropped: number };

const pct = (n: number): string => `${n.toFixed(2)} %`;
const mb = (n: number): string => `${n.toFixed(1)} MB`;
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))]!;
};

async function main(): Promise<void> {
  const dir = tempDir('bench-agent-');
  const baseline = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  let treeBaseline: ReturnType<typeof spawn> | null = null;
  let closeTls = async (): Promise<void> => {};
  try {
    // the soak enqueues and follows thousands of drops: past the operator API's default hourly rate limit
    const cloud = await startCloud({ dataDir: join(dir, 'cloud'), ...(SOAK ? { env: { RATE_LIMIT_PER_HOUR: '10000000' } } : {}) });
    const settings = (body: object) => api(cloud.url, 'PUT', `/api/v1/machines/${MACHINE}/cabinet-settings`, SANDBOX.alice, { module: 'SH', ...body });
    await settings({ pollInterval: 3600, heartbeatInterval: 3600 });
    for (let aisle = 1; aisle <= 10; aisle++) {
      const r = await api(cloud.url, 'PUT', `/api/v1/inventory/machines/${MACHINE}/aisles/${aisle}`, SANDBOX.alice, {
        maxStock: 99,
        currentStock: 99,
        faulted: false,
      });
      if (r.status !== 200) throw new Error(`stock aisle ${aisle}: ${r.status} ${r.message}`);
    }
    const sim = await startSim({ link: join(dir, 'ttyVMC0'), args: ['--module', 'SH', '--stock', '999', '--seed', '5'] });

    // the release tree (scripts/build-agent-release), and a bare process on its own runtime
    const tree = join(dir, 'tree');
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-agent-release.ts', '--version', '0.1.0', '--tree', tree, '--no-pack'], {
      stdio: 'ignore',
    });
    treeBaseline = spawn(join(tree, 'runtime/node'), ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    // the install's self-test (the upgrade pipeline runs it in the staged tree): it writes V8's code cache
    // inside the tree, which the first start reads (docs/decisions/agent.md "Footprint")
    execFileSync(join(tree, 'bin/vend-agent'), ['--version'], { stdio: 'ignore' });
    // the cloud over TLS: a terminator on 127.0.0.1 with a self-signed CA the agent is told to trust
    const tlsCloud = await startTlsTerminator({ target: Number(new URL(cloud.url).port), dir });
    closeTls = tlsCloud.close;
    const forms: { name: string; launcher?: string; args?: string[]; tls?: boolean }[] = [
      { name: 'sources (tsx)' },
      { name: 'release tree', launcher: join(tree, 'bin/vend-agent') },
      { name: 'tree, no V8 flags', launcher: join(tree, 'runtime/node'), args: [join(tree, 'lib/vend-agent.cjs')] },
      { name: 'tree, https cloud', launcher: join(tree, 'bin/vend-agent'), tls: true },
    ];

    let agent: Awaited<ReturnType<typeof startAgent>> | null = null;
    let token = '';
    type St = {
      ads?: { plays: Spool };
      prizes?: { events: Spool };
      enrolment: { state: string };
      cloud: { registeredAt: string | null };
      config: { pollInterval: number };
      agent: { memory: { heapUsedMb: number } };
    };
    const status = async (): Promise<St> => (await control<St>(agent!, 'GET', '/v1/status', token)).body;
    /** Starts (or restarts) the agent in one form with the given intervals (taken from the configuration block at register). */
    const runAgent = async (form: (typeof forms)[number], pollInterval: number, heartbeatInterval: number, env: Record<string, string> = {}): Promise<void> => {
      await settings({ pollInterval, heartbeatInterval });
      await agent?.stop();
      agent = await startAgent({
        stateDir: join(dir, 'agent'),
        cloudUrl: form.tls ? tlsCloud.url : cloud.url,
        equipmentNo: MACHINE,
        serialPort: sim.port,
        env: { VEND_AGENT_LOG_LEVEL: 'warn', ...(form.tls ? { NODE_EXTRA_CA_CERTS: tlsCloud.caFile } : {}), ...env },
        ...(form.launcher ? { launcher: form.launcher } : {}),
        ...(form.args ? { prefix: form.args } : {}),
      });
      token = readFileSync(join(dir, 'agent', 'control-token'), 'utf8').trim();
      await waitFor(
        async () => (await status()).cloud.registeredAt !== null && (await status()).config.pollInterval === pollInterval,
        30_000,
        `the agent registered, polling every ${pollInterval} s`,
      );
      await sleep(3000); // past start-up
    };

    const rows: string[][] = [];
    const plan: [(typeof forms)[number], string, number, number][] = [
      [forms[0]!, 'polling (3 s, default)', 3, 60],
      // the tree's first start after the install's self-test
      [forms[1]!, '1st start, polling 3 s', 3, 60],
      [forms[1]!, 'idle (poll 3600 s)', 3600, 3600],
      [forms[1]!, 'polling (3 s, default)', 3, 60],
      [forms[1]!, 'polling (1 s)', 1, 60],
      [forms[2]!, 'idle (poll 3600 s)', 3600, 3600],
      [forms[2]!, 'polling (3 s, default)', 3, 60],
      [forms[3]!, 'idle (poll 3600 s)', 3600, 3600],
      [forms[3]!, 'polling (3 s, default)', 3, 60],
      // the same tree over plain HTTP again, right after: the pair to compare with
      [forms[1]!, 'idle (poll 3600 s)', 3600, 3600],
    ];
    if (SOAK) {
      await soak(forms[1]!, runAgent, () => agent!, status, sim, cloud.url);
      return;
    }
    for (const [form, name, poll, hb] of LATENCY_ONLY ? [] : plan) {
      await runAgent(form, poll, hb);
      const [a, b, c] = await window([agent!.pid, baseline.pid!, treeBaseline.pid!]);
      rows.push([
        form.name,
        name,
        pct(a!.cpuPct),
        mb(a!.rssMb),
        mb(a!.peakRssMb),
        mb(a!.rssMb - c!.rssMb),
        mb(b!.rssMb),
        mb(c!.rssMb),
        `${(a!.rssMb / c!.rssMb).toFixed(2)}×`,
      ]);
    }

    const latencies: Record<string, number[]> = {};
    for (const poll of LATENCY_ONLY ? [3] : [3, 1]) {
      await runAgent(forms[1]!, poll, 60);
      const xs: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        // past the fallback sleep that follows the previous drop's answer (docs/decisions/agent.md), at a random phase
        await sleep(poll * 1000 + 500 + Math.random() * 1000);
        const before = (await motorLog(sim)).length;
        const t0 = Date.now();
        const r = await api<{ commandId: string }>(cloud.url, 'POST', `/api/v1/machines/${MACHINE}/commands/dispense`, SANDBOX.alice, {
          aisleNo: (i % 10) + 1,
          reason: 'bench',
        });
        if (r.status !== 200) throw new Error(`enqueue: ${r.status} ${r.message}`);
        const run = await waitFor(async () => (await motorLog(sim))[before], 20_000, 'the motor to start', 20);
        xs.push(run.at - t0);
        await waitFor(
          async () =>
            (await api<{ status: string }>(cloud.url, 'GET', `/api/v1/machines/${MACHINE}/commands/${r.data.commandId}`, SANDBOX.alice)).data.status !==
            'pending',
          20_000,
          'the report',
        );
      }
      latencies[`poll ${poll} s`] = xs;
    }

    const line = (cells: string[], widths: number[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
    const w1 = [18, 24, 9, 9, 10, 12, 16, 16, 9];
    if (!LATENCY_ONLY) {
      console.log(
        `agent resources, ${WINDOW_S} s windows (CPU as % of one core; baselines: a bare node process with one timer, on ${process.version} and on the tree's runtime)`,
      );
      console.log(line(['agent', 'window', 'CPU', 'RSS', 'peak RSS', 'above base', `base ${process.version}`, 'base tree node', 'ratio'], w1));
      for (const r of rows) console.log(line(r, w1));
      console.log('');
    }
    console.log(`enqueue → motor start (release bundle), ${SAMPLES} samples each (module SH: the motor starts when the request arrives)`);
    const w2 = [12, 8, 8, 8, 8, 8, 22];
    console.log(line(['poll', 'min', 'median', 'mean', 'p90', 'max', 'median / poll interval'], w2));
    for (const [name, xs] of Object.entries(latencies)) {
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const interval = Number(/\d+/.exec(name)![0]) * 1000;
      console.log(
        line(
          [
            name,
            ...[Math.min(...xs), quantile(xs, 0.5), mean, quantile(xs, 0.9), Math.max(...xs)].map((x) => `${Math.round(x)} ms`),
            (quantile(xs, 0.5) / interval).toFixed(2),
          ],
          w2,
        ),
      );
    }
  } finally {
    baseline.kill();
    treeBaseline?.kill();
    await closeTls();
    await cleanup(dir);
  }
}

/**
 * The soak: the release tree for SOAK_MINUTES (default 60) with its loops accelerated by a factor
 * (default 24, so an hour carries a day), RSS and the V8 heap sampled every 5 s, a plot in
 * docs/agent-soak-rss.png. Accelerated, each to its default divided by the factor, held at the lowest
 * value the agent's configuration or the cloud's bounds accept (the table printed at the start says
 * what each one got):
 *   heartbeat (60 s; the cloud's minimum 10 s), pending poll's fallback interval (3 s; minimum 1 s),
 *   configuration and prize-state refresh (configRefreshSeconds, 300 s), ad loop refresh
 *   (adRefreshSeconds, 60 s), ad-play and prize-event spool flush (adPlayFlushSeconds 30 s,
 *   prizeEventFlushSeconds 2 s; at least 1 s so batches still gather).
 * The kiosk's and the operator's work, scaled the same way: a busy cabinet's 300 remote drops a day
 * (each ends a held long poll, runs the motor on vmc-sim, journals and goes through the report spool),
 * a showing every 15 s posted as plays (the kiosk's POST /v1/ads/plays, batched every 15 s), 60 prize
 * game rounds a day (scan, entry, play, win through POST /v1/prizes/events).
 * Not accelerated (constants, not settings): the held long poll (wait=25 s; 3,456 a day), the board's
 * STATUS check (60 s), the upgrade check (6 h; no upgrade is offered here), log rotation (by size).
 * Verdict: least-squares slope of RSS after a 2-minute warm-up, and the median of the last 5 minutes
 * against the first 5 after it; growing when either rise reaches 2 MB (a fall is not growth). The
 * samples go beside the plot as CSV.
 */
async function soak(
  form: { name: string; launcher?: string; args?: string[] },
  runAgent: (form: { name: string; launcher?: string; args?: string[] }, poll: number, hb: number, env?: Record<string, string>) => Promise<void>,
  agent: () => { pid: number; control: string },
  status: () => Promise<{ agent: { memory: { heapUsedMb: number } }; ads?: { plays: Spool }; prizes?: { events: Spool } }>,
  sim: Parameters<typeof motorLog>[0],
  cloudUrl: string,
): Promise<void> {
  const minutes = Math.max(3, Number(process.argv[3] ?? 60));
  const factor = Math.max(1, Number(process.argv[4] ?? 24));
  const png = process.argv[5] ?? join(ROOT, 'docs/agent-soak-rss.png');
  const scaled = (seconds: number, min: number): number => Math.max(min, Math.round(seconds / factor));
  const loops = [
    { name: 'heartbeat', setting: 'heartbeatInterval (cloud)', base: 60, value: scaled(60, CONFIG_BOUNDS.heartbeatInterval.min) },
    { name: 'pending poll fallback', setting: 'pollInterval (cloud)', base: 3, value: scaled(3, CONFIG_BOUNDS.pollInterval.min) },
    { name: 'config + prize-state refresh', setting: 'VEND_AGENT_CONFIG_REFRESH_SECONDS', base: 300, value: scaled(300, 10) },
    { name: 'ad loop refresh', setting: 'VEND_AGENT_AD_REFRESH_SECONDS', base: 60, value: scaled(60, 1) },
    { name: 'ad-play spool flush', setting: 'VEND_AGENT_AD_PLAY_FLUSH_SECONDS', base: 30, value: scaled(30, 1) },
    { name: 'prize-event spool flush', setting: 'VEND_AGENT_PRIZE_EVENT_FLUSH_SECONDS', base: 2, value: scaled(2, 1) },
  ];
  const env = Object.fromEntries(loops.filter((l) => l.setting.startsWith('VEND_')).map((l) => [l.setting, String(l.value)]));
  await runAgent(form, loops[1]!.value, loops[0]!.value, env);
  const pid = agent().pid;
  const control = agent().control;
  console.log(`soak: the release tree for ${minutes} min, loops accelerated by ${factor}× where the settings allow (${(minutes * factor) / 60} h equivalent)`);
  for (const l of loops)
    console.log(`  ${l.name.padEnd(30)} ${String(l.base).padStart(4)} s → ${String(l.value).padStart(3)} s  (${(l.base / l.value).toFixed(1)}×; ${l.setting})`);

  const started = Date.now();
  const until = started + minutes * 60_000;
  const live = (): boolean => Date.now() < until;
  /** Runs `step` every `everyMs` (from the start of one to the start of the next) until the end of the run. */
  const paced = async (everyMs: number, step: (i: number) => Promise<void>): Promise<void> => {
    for (let i = 0; live(); i++) {
      const t0 = Date.now();
      await step(i);
      await sleep(Math.max(0, Math.min(everyMs - (Date.now() - t0), until - Date.now())));
    }
  };
  const kiosk = async (path: string, body: object): Promise<number> =>
    (await fetch(control + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status;

  const samples: { t: number; rss: number; heap: number }[] = [];
  const counts = { drops: 0, dropFailures: 0, plays: 0, prizeEvents: 0, kioskRefused: 0 };
  const DROPS_PER_DAY = 300;
  const PLAY_EVERY_S = 15;
  const ROUNDS_PER_DAY = 60;
  await Promise.all([
    paced(5_000, async () => {
      const heap = (await status().catch(() => null))?.agent?.memory?.heapUsedMb ?? NaN;
      samples.push({ t: (Date.now() - started) / 60_000, rss: usage(pid).rssKb / 1024, heap });
      const x = samples.at(-1)!;
      if (samples.length % 60 === 1)
        console.log(`  t=${x.t.toFixed(1).padStart(5)} min  rss ${mb(x.rss)}  heap ${x.heap.toFixed(1)} MB  ${JSON.stringify(counts)}`);
    }),
    // one remote drop at a time: enqueue, wait for its report (aisles 1..10 in turn)
    paced(86_400_000 / DROPS_PER_DAY / factor, async (i) => {
      const before = (await motorLog(sim)).length;
      const r = await api<{ commandId: string }>(cloudUrl, 'POST', `/api/v1/machines/${MACHINE}/commands/dispense`, SANDBOX.alice, {
        aisleNo: (i % 10) + 1,
        reason: 'soak',
      });
      if (r.status !== 200) {
        if (++counts.dropFailures <= 3) console.log(`  enqueue refused: ${r.status} ${r.message}`);
        return;
      }
      try {
        await waitFor(async () => (await motorLog(sim)).length > before, 30_000, 'the motor to start', 50);
        await waitFor(
          async () =>
            (await api<{ status: string }>(cloudUrl, 'GET', `/api/v1/machines/${MACHINE}/commands/${r.data.commandId}`, SANDBOX.alice)).data.status !==
            'pending',
          30_000,
          'the report',
          250,
        );
        counts.drops++;
      } catch {
        counts.dropFailures++;
      }
    }),
    // the kiosk's showings: `factor` of them (15 s each, in soak time) every 15 s
    paced(PLAY_EVERY_S * 1000, async (i) => {
      const plays = Array.from({ length: factor }, (_, k) => ({
        id: `house:poster:${(k % 8) + 1}`,
        source: 'house',
        // soak time runs `factor`× faster than the clock: the run's showings end now (the agent refuses plays ahead of its clock)
        playedAt: new Date(started - minutes * factor * 60_000 + (i * factor + k) * PLAY_EVERY_S * 1000).toISOString(),
        durationMs: PLAY_EVERY_S * 1000,
      }));
      const s = await kiosk('/v1/ads/plays', { plays }).catch(() => 0);
      if (s === 202) counts.plays += plays.length;
      else if (++counts.kioskRefused <= 3) console.log(`  plays refused: ${s}`);
    }),
    // prize game rounds
    paced(86_400_000 / ROUNDS_PER_DAY / factor, async (i) => {
      const at = Date.now();
      const events = [
        { eventId: `soak-${i}-scan`, kind: 'scan', at },
        { eventId: `soak-${i}-entry`, kind: 'entry', mechanic: 'spinToWin', at: at + 1 },
        { eventId: `soak-${i}-play`, kind: 'play', mechanic: 'spinToWin', at: at + 2 },
        { eventId: `soak-${i}-win`, kind: 'win', mechanic: 'spinToWin', at: at + 3, prizeValue: 1 },
      ];
      const s = await kiosk('/v1/prizes/events', { events }).catch(() => 0);
      if (s === 202) counts.prizeEvents += events.length;
      else if (++counts.kioskRefused <= 3) console.log(`  prize events refused: ${s}`);
    }),
  ]);

  const after = samples.filter((x) => x.t >= 2);
  const fit = (ys: number[], xs: number[]): number => {
    const n = xs.length;
    const mx = xs.reduce((a, b) => a + b, 0) / n;
    const my = ys.reduce((a, b) => a + b, 0) / n;
    let num = 0;
    let den = 0;
    for (let i = 0; i < n; i++) {
      num += (xs[i]! - mx) * (ys[i]! - my);
      den += (xs[i]! - mx) ** 2;
    }
    return den === 0 ? 0 : num / den;
  };
  const median = (v: number[]): number => (v.length ? quantile(v, 0.5) : NaN);
  const end = samples.at(-1)?.t ?? 0;
  const describe = (name: string, pick: (x: (typeof samples)[number]) => number): { growth: number; diff: number } => {
    const pts = after.filter((x) => Number.isFinite(pick(x)));
    const slope = fit(
      pts.map(pick),
      pts.map((x) => x.t),
    ); // MB per minute
    const span = pts.length > 1 ? pts.at(-1)!.t - pts[0]!.t : 0;
    const first5 = median(pts.filter((x) => x.t < 7).map(pick));
    const last5 = median(pts.filter((x) => x.t >= end - 5).map(pick));
    const all = samples.map(pick).filter(Number.isFinite);
    console.log(
      `  ${name.padEnd(9)} start ${mb(all[0] ?? NaN)}, min ${mb(Math.min(...all))}, max ${mb(Math.max(...all))}, end ${mb(all.at(-1) ?? NaN)}; ` +
        `median of the first 5 min after warm-up / the last 5 min ${mb(first5)} / ${mb(last5)}; slope ${(slope * 60).toFixed(2)} MB/h (${mb(slope * span)} over ${span.toFixed(1)} min)`,
    );
    return { growth: slope * span, diff: last5 - first5 };
  };
  console.log(
    `  drops ${counts.drops} (failed ${counts.dropFailures}), plays ${counts.plays}, prize events ${counts.prizeEvents} (kiosk posts refused ${counts.kioskRefused}); samples ${samples.length} (every 5 s)`,
  );
  const end_ = await status().catch(() => null);
  const spool = (s: Spool | undefined): string => (s ? `delivered ${s.delivered}, backlog ${s.backlog}, rejected ${s.rejected}, dropped ${s.dropped}` : 'n/a');
  console.log(`  agent's spools at the end: ad plays ${spool(end_?.ads?.plays)}; prize events ${spool(end_?.prizes?.events)}`);
  const rss = describe('RSS', (x) => x.rss);
  describe('heap used', (x) => x.heap);
  // a drop (a major collection handing pages back) is not growth: only a rise counts against the run
  const verdict = rss.growth >= 2 || rss.diff >= 2 ? 'GROWING' : rss.growth <= -2 ? 'FLAT (it fell)' : 'FLAT';
  console.log(`  verdict: ${verdict} (growing: the fitted RSS growth over the run or last-5-minus-first-5 reaches 2 MB)`);
  const csv = png.replace(/\.png$/, '') + '.csv';
  writeFileSync(csv, 'minute,rss_mb,heap_used_mb\n' + samples.map((x) => `${x.t.toFixed(3)},${x.rss.toFixed(1)},${x.heap}`).join('\n') + '\n');
  console.log(`  samples: ${csv}`);
  await plotRss(
    png,
    `vend-agent release tree, ${minutes} min soak with loops ${factor}× faster (≈ ${((minutes * factor) / 60).toFixed(0)} h of loops)`,
    [
      { label: 'RSS', points: samples.map((x) => [x.t, x.rss]) },
      { label: 'V8 heap used', points: samples.filter((x) => Number.isFinite(x.heap)).map((x) => [x.t, x.heap]) },
    ],
    'MB',
  );
  console.log(`  plot: ${png}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
