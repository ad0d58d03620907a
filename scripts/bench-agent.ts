/**
 * Cabinet agent benchmark (issue 6): the daemon's resident memory and CPU, and the time from an
 * operator's enqueue to the board's motor start.
 *
 *   npx tsx scripts/bench-agent.ts [windowSeconds] [latencySamples]     (defaults 30 and 12; about 6 min)
 *   npx tsx scripts/bench-agent.ts latency [latencySamples]              (the latency rows only; about 1 min)
 *   npx tsx scripts/bench-agent.ts soak [minutes]                        (the soak, default 25 min; below)
 *   (bash scripts/bench agent, or bash scripts/bench agent -- soak 25)
 *
 * Three forms of the agent: the sources under tsx (what the tests and the demo run), the release tree
 * as scripts/build-agent-release makes it (what a cabinet runs: bin/vend-agent, the minified bundle on
 * the tree's own Node with the launcher's V8 flags), and the same bundle without those flags (to show
 * their share).
 *
 * Real processes: the cloud sandbox (SQLite in a temp dir), `vmc-sim` on a socat pty (module SH, so
 * the motor starts as soon as the request arrives), and `vend-agent run`. Resources are read from
 * /proc/<pid>/stat (utime + stime, in clock ticks) and /proc/<pid>/status (VmRSS) at the start and end
 * of each window. The baseline, measured in the same windows, is a bare Node process holding one
 * timer (`node -e "setInterval(() => {}, 1000)"`), twice: on the Node that runs this script and on the
 * release tree's own runtime (Node 24, what the tree's agent runs on); the ratio is against the latter.
 *
 *   1st start the tree's first start: no V8 code cache yet (written 10 s after the start; later rows have it)
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
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX, api, cleanup, control, motorLog, startAgent, startCloud, startSim, tempDir, waitFor } from '../test/support/cabinet-rig.ts';

const LATENCY_ONLY = process.argv[2] === 'latency';
const SOAK = process.argv[2] === 'soak';
const WINDOW_S = Math.max(5, Number(LATENCY_ONLY || SOAK ? 30 : (process.argv[2] ?? 30)));
const SAMPLES = Math.max(3, Number(process.argv[3] ?? 12));
const MACHINE = 'SBX-ALICE-0001';
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
    const forms: { name: string; launcher?: string; args?: string[] }[] = [
      { name: 'sources (tsx)' },
      { name: 'release tree', launcher: join(tree, 'bin/vend-agent') },
      { name: 'tree, no V8 flags', launcher: join(tree, 'runtime/node'), args: [join(tree, 'lib/vend-agent.cjs')] },
    ];

    let agent: Awaited<ReturnType<typeof startAgent>> | null = null;
    let token = '';
    type St = {
      enrolment: { state: string };
      cloud: { registeredAt: string | null };
      config: { pollInterval: number };
      agent: { memory: { heapUsedMb: number } };
    };
    const status = async (): Promise<St> => (await control<St>(agent!, 'GET', '/v1/status', token)).body;
    /** Starts (or restarts) the agent in one form with the given intervals (taken from the configuration block at register). */
    const runAgent = async (form: (typeof forms)[number], pollInterval: number, heartbeatInterval: number): Promise<void> => {
      await settings({ pollInterval, heartbeatInterval });
      await agent?.stop();
      agent = await startAgent({
        stateDir: join(dir, 'agent'),
        cloudUrl: cloud.url,
        equipmentNo: MACHINE,
        serialPort: sim.port,
        env: { VEND_AGENT_LOG_LEVEL: 'warn' },
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
      // the tree's first start writes V8's code cache (lib/ files not parsed whole again from the second)
      [forms[1]!, '1st start, polling 3 s', 3, 60],
      [forms[1]!, 'idle (poll 3600 s)', 3600, 3600],
      [forms[1]!, 'polling (3 s, default)', 3, 60],
      [forms[1]!, 'polling (1 s)', 1, 60],
      [forms[2]!, 'idle (poll 3600 s)', 3600, 3600],
      [forms[2]!, 'polling (3 s, default)', 3, 60],
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
    await cleanup(dir);
  }
}

/**
 * The soak: the release tree running for SOAK_MINUTES with every loop the configuration lets us speed
 * up at its fastest, and remote drops enqueued back to back, so that far more than a day's work goes
 * through the long poll, the dispense journal, the report spool and the heartbeat; RSS and the V8 heap
 * sampled every 5 s. Verdict: the least-squares slope of RSS over the run after a 2-minute warm-up,
 * extrapolated to the run's length, against the sampling noise.
 */
async function soak(
  form: { name: string; launcher?: string; args?: string[] },
  runAgent: (form: { name: string; launcher?: string; args?: string[] }, poll: number, hb: number) => Promise<void>,
  agent: () => { pid: number },
  status: () => Promise<{ agent: { memory: { heapUsedMb: number } } }>,
  sim: Parameters<typeof motorLog>[0],
  cloudUrl: string,
): Promise<void> {
  const minutes = Math.max(3, Number(process.argv[3] ?? 25));
  const HEARTBEAT = 10; // the cloud's minimum (packages/protocol gateway.ts), 6× the default 60 s
  const POLL = 1; // the minimum; the long poll itself holds up to 25 s when nothing is pending
  await runAgent(form, POLL, HEARTBEAT);
  const pid = agent().pid;
  const started = Date.now();
  const until = started + minutes * 60_000;
  const samples: { t: number; rss: number; heap: number }[] = [];
  let drops = 0;
  let failures = 0;
  let nextSample = 0;
  let aisle = 0;
  while (Date.now() < until) {
    if (Date.now() >= nextSample) {
      const heap = (await status().catch(() => null))?.agent?.memory?.heapUsedMb ?? NaN;
      samples.push({ t: (Date.now() - started) / 60_000, rss: usage(pid).rssKb / 1024, heap });
      nextSample = Date.now() + 5_000;
    }
    // one remote drop at a time: enqueue, wait for its report, next (aisles 1..10 in turn)
    const before = (await motorLog(sim)).length;
    const r = await api<{ commandId: string }>(cloudUrl, 'POST', `/api/v1/machines/${MACHINE}/commands/dispense`, SANDBOX.alice, {
      aisleNo: (aisle++ % 10) + 1,
      reason: 'soak',
    });
    if (r.status !== 200) {
      failures++;
      if (failures <= 3) console.log(`  enqueue refused: ${r.status} ${r.message}`);
      await sleep(1000);
      continue;
    }
    try {
      await waitFor(async () => (await motorLog(sim)).length > before, 30_000, 'the motor to start', 50);
      await waitFor(
        async () =>
          (await api<{ status: string }>(cloudUrl, 'GET', `/api/v1/machines/${MACHINE}/commands/${r.data.commandId}`, SANDBOX.alice)).data.status !== 'pending',
        30_000,
        'the report',
        250,
      );
      drops++;
    } catch {
      failures++;
    }
  }
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
  const xs = after.map((x) => x.t);
  const rssSlope = fit(
    after.map((x) => x.rss),
    xs,
  ); // MB per minute
  const heapAfter = after.filter((x) => Number.isFinite(x.heap));
  const heapSlope = fit(
    heapAfter.map((x) => x.heap),
    heapAfter.map((x) => x.t),
  );
  const span = xs.length > 1 ? xs[xs.length - 1]! - xs[0]! : 0;
  const rssValues = after.map((x) => x.rss);
  const quarter = Math.max(1, Math.floor(after.length / 4));
  const median = (v: number[]): number => quantile(v, 0.5);
  const firstQ = median(rssValues.slice(0, quarter));
  const lastQ = median(rssValues.slice(-quarter));
  const growth = rssSlope * span;
  const flat = Math.abs(growth) < 2 && lastQ - firstQ < 2;
  console.log(`soak: the release tree for ${minutes} min; heartbeat every ${HEARTBEAT} s, poll interval ${POLL} s, remote drops back to back`);
  console.log(`  drops completed ${drops} (${(drops / minutes).toFixed(1)}/min), failed ${failures}; samples ${samples.length} (every 5 s)`);
  console.log(
    `  RSS   start ${mb(samples[0]?.rss ?? 0)}, min ${mb(Math.min(...rssValues))}, max ${mb(Math.max(...samples.map((x) => x.rss)))}, end ${mb(samples.at(-1)?.rss ?? 0)}; ` +
      `median of the first / last quarter after warm-up ${mb(firstQ)} / ${mb(lastQ)}`,
  );
  console.log(`  slope RSS ${(rssSlope * 60).toFixed(2)} MB/h (${mb(growth)} over ${span.toFixed(1)} min), heap used ${(heapSlope * 60).toFixed(2)} MB/h`);
  console.log(`  verdict: ${flat ? 'FLAT' : 'GROWING'} (flat: the fitted growth over the run and the last-minus-first quarter both under 2 MB)`);
  for (const x of samples.filter((_, i) => i % 12 === 0)) console.log(`  t=${x.t.toFixed(1).padStart(5)} min  rss ${mb(x.rss)}  heap ${x.heap.toFixed(1)} MB`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
