/**
 * The fault drill (issue 28, docs/decisions/outages.md): the fleet benchmark's load (scripts/fleet/driver.ts, the
 * agent's own HTTP client and legs at the fleet's rates) on two replicas of the production build behind nginx,
 * on a PostgreSQL and a Redis of the drill's own (scripts/private-servers.ts), while what the cloud stands on fails:
 *
 *   pg-restart   PostgreSQL's fast shutdown (an operator's restart), down for --outage seconds, started again
 *   pg-kill      SIGKILL to the postmaster and every backend (a crashed host), likewise
 *   redis-kill   Redis SIGKILLed, started again empty
 *
 *   bash scripts/bench faults [--fleet 400] [--outage 10] [--steady 20] [--drivers 2] [--faults pg-restart,pg-kill,redis-kill]
 *
 * Per fault: the answers the fleet got meanwhile by status (every non-200 must be a 503 with Retry-After), the
 * slowest refusal, the time from the dependency's return to each replica's first 200 (a probe every 20 ms straight
 * to each replica), and whether every replica is still the process it was. At the end the store is audited against
 * what the fleet saw acknowledged: 0 sales or drops lost or doubled. The baseline in the same run is the steady
 * window before each fault (its answers and p99), as the fleet benchmark's legs are its own baseline there.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildCloud } from './build-cloud.ts';
import { startCluster, type Cluster, type Replica } from './cluster.ts';
import { Driver, mergeLedgers } from './fleet/driver-process.ts';
import type { DriverLedger } from './fleet/driver.ts';
import { mergeSamples, slice } from './fleet/samples.ts';
import { auditStore, seedFleet } from './fleet/store.ts';
import { startPrivatePostgres, startPrivateRedis } from './private-servers.ts';

const { values: opt } = parseArgs({
  options: {
    fleet: { type: 'string', default: '400' },
    outage: { type: 'string', default: '10' },
    steady: { type: 'string', default: '20' },
    drivers: { type: 'string', default: '2' },
    faults: { type: 'string', default: 'pg-restart,pg-kill,redis-kill' },
  },
});
const FLEET = Number(opt.fleet);
const OUTAGE_S = Number(opt.outage);
const STEADY_S = Number(opt.steady);
const ALICE = 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface FaultRow {
  fault: string;
  steadyP99: number;
  answers: number;
  nonOk: number;
  recoveryMs: number[];
  replicasAlive: boolean;
}

/** Milliseconds from now until `replica` answers an operator read with 200 (a probe every 20 ms). */
async function firstOk(replica: Replica, limitMs = 120_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    const ok = await fetch(`${replica.url}/api/v1/machines?size=1`, { headers: { 'X-API-Key': ALICE }, signal: AbortSignal.timeout(5_000) }).then(
      async (r) => (await r.arrayBuffer(), r.status === 200),
      () => false,
    );
    const ms = performance.now() - started;
    if (ok) return ms;
    if (ms > limitMs) return Infinity;
    await sleep(20);
  }
}

async function main(): Promise<void> {
  const { main: cloud } = await buildCloud();
  const [pg, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
  const seedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-faults-seed-'));
  const store = { DATA_DIR: seedDir, DATABASE_URL: pg.url };
  let cluster: Cluster | null = null;
  const drivers = Array.from({ length: Number(opt.drivers) }, (_, i) => new Driver(`driver ${i + 1}`));
  try {
    const fleet = await seedFleet(store, FLEET);
    cluster = await startCluster({
      replicas: 2,
      port: 0,
      databaseUrl: pg.url,
      redisUrl: redis.url,
      main: cloud,
      env: { LOG_LEVEL: 'warn', RATE_LIMIT_PER_HOUR: '100000000', REDIS_KEY_PREFIX: `faults${randomBytes(3).toString('hex')}:` },
    });
    const pids = cluster.replicas.map((r) => r.child.pid);
    const n = drivers.length;
    await Promise.all(
      drivers.map((d, i) =>
        d.ask(
          {
            type: 'init',
            url: cluster!.url,
            cabinets: slice(fleet, n, i),
            salesPerHour: 6,
            dropsPerHour: 2,
            minDropsPerS: 5 / n,
            slowMs: 60_000,
            awaitAcks: true,
          },
          'ready',
        ),
      ),
    );
    await Promise.all(drivers.map((d, i) => d.ask({ type: 'grow', n: slice(fleet, n, i).length }, 'ready')));
    console.log(`fault drill: ${FLEET} cabinets on 2 replicas (PostgreSQL ${pg.url}, Redis ${redis.url}); warming up 30 s`);
    await sleep(30_000);

    const window = async (ms: number) => {
      await Promise.all(drivers.map((d) => d.ask({ type: 'measure' }, 'ready')));
      await sleep(ms);
      const answers = await Promise.all(drivers.map((d) => d.ask({ type: 'collect' }, 'samples')));
      return mergeSamples(answers.map((a) => a.samples));
    };
    const rows: FaultRow[] = [];
    for (const fault of opt.faults.split(',')) {
      const steady = await window(STEADY_S * 1000);
      const steadyP99 = Math.max(...steady.legs.map((l) => l.p99).filter((x) => Number.isFinite(x)));
      await Promise.all(drivers.map((d) => d.ask({ type: 'measure' }, 'ready')));
      if (fault === 'pg-restart') await pg.stop();
      else if (fault === 'pg-kill') await pg.kill9();
      else if (fault === 'redis-kill') await redis.kill();
      else throw new Error(`unknown fault ${fault}`);
      await sleep(OUTAGE_S * 1000);
      const returned = fault === 'redis-kill' ? redis.start() : pg.start();
      await returned;
      const recoveryMs = await Promise.all(cluster.replicas.map((r) => firstOk(r)));
      await sleep(5_000);
      const during = mergeSamples((await Promise.all(drivers.map((d) => d.ask({ type: 'collect' }, 'samples')))).map((a) => a.samples));
      const answers = during.legs.reduce((s, l) => s + l.n + l.errors, 0);
      const nonOk = during.legs.reduce((s, l) => s + l.errors, 0);
      const replicasAlive = cluster.replicas.every((r, i) => r.child.exitCode === null && r.child.pid === pids[i]);
      rows.push({ fault, steadyP99, answers, nonOk, recoveryMs, replicasAlive });
      console.log(
        `${fault}: ${nonOk} of ${answers} answers not 200 during the ${OUTAGE_S} s outage and 5 s after; ` +
          `first 200 after the return: ${recoveryMs.map((m) => `${Math.round(m)} ms`).join(', ')}; replicas alive: ${replicasAlive}`,
      );
    }

    const ledger: DriverLedger = mergeLedgers(await Promise.all(drivers.map((d) => d.ask({ type: 'stop' }, 'ledger'))));
    const audit = await auditStore(store, ledger);
    const bad = Object.keys(ledger.statuses).filter((s) => s !== '200' && s !== '503');
    console.log('\n| fault | steady p99 before (ms) | answers during | not 200 | first 200 after return (replica 1, 2) | replicas alive |');
    console.log('|---|---:|---:|---:|---|---|');
    for (const r of rows)
      console.log(
        `| ${r.fault} | ${r.steadyP99.toFixed(1)} | ${r.answers} | ${r.nonOk} | ${r.recoveryMs.map((m) => `${Math.round(m)} ms`).join(', ')} | ${r.replicasAlive ? 'yes' : 'NO'} |`,
      );
    console.log(
      `\nanswers over the run by status: ${JSON.stringify(ledger.statuses)}; 503 without Retry-After: ${ledger.refusedWithoutRetryAfter}; ` +
        `slowest 503: ${Math.round(ledger.slowestRefusalMs)} ms; statuses other than 200/503: ${bad.length ? bad.join(', ') : 'none'}`,
    );
    console.log(`report retries (the spool's): ${ledger.reportRetries}; audit: ${JSON.stringify(audit)}`);
    const lost = ['salesLost', 'salesUnexpected', 'salesDuplicated', 'ordersOpenedNotInStore', 'commandsLost', 'commandsDuplicatedAcks'].filter(
      (k) => (audit[k] ?? 0) !== 0,
    );
    const pass = bad.length === 0 && ledger.refusedWithoutRetryAfter === 0 && lost.length === 0 && rows.every((r) => r.replicasAlive);
    console.log(`verdict: ${pass ? 'PASS' : `FAIL (${[...bad.map((b) => `status ${b}`), ...lost].join(', ') || 'a replica exited'})`}`);
    if (!pass) process.exitCode = 1;
  } finally {
    await Promise.all(drivers.map((d) => d.close()));
    await cluster?.stop();
    await Promise.all([pg.destroy(), redis.destroy()]);
    fs.rmSync(seedDir, { recursive: true, force: true });
  }
}

await main();
