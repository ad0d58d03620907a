/** The outage drills' rig (test/outage-*.test.ts) and what they read off it: answers, recovery, the lease's sweeps. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCloud } from '../../scripts/build-cloud.ts';
import { startCluster, type Cluster, type Replica } from '../../scripts/cluster.ts';
import { Driver } from '../../scripts/fleet/driver-process.ts';
import type { DriverLedger } from '../../scripts/fleet/driver.ts';
import { auditStore, seedFleet, type Audit } from '../../scripts/fleet/store.ts';
import { startPrivatePostgres, startPrivateRedis, type PrivatePostgres, type PrivateRedis } from '../../scripts/private-servers.ts';
import { checkedFetch, ContractViolation, expectContract } from '@vend/cloud/testing/contract';

/** The drills' fleet and their background loops' lease: short, so a handover happens inside a drill. */
export const CABINETS = 12;
export const TTL_MS = 2_000;
export const TICK_MS = 500;

export interface Drill {
  pg: PrivatePostgres;
  /** null: the lease and push live in PostgreSQL. */
  redis: PrivateRedis | null;
  cluster: Cluster;
  /** Stops the fleet's driver (letting its drops be acknowledged) and answers what it saw. */
  stopFleet(): Promise<DriverLedger>;
  /** The store counted against what the fleet saw acknowledged. */
  audit(ledger: DriverLedger): Promise<Audit>;
  close(): Promise<void>;
}

/**
 * Two replicas of the build behind nginx on a PostgreSQL (and, `withRedis`, a Redis) of the drill's own, debug logs
 * (every sweep names its holder), and a fleet of CABINETS on the fleet benchmark's driver: walk-up sales at 1,800 per
 * cabinet-hour and two remote drops a second.
 */
export async function startDrill(name: string, o: { withRedis: boolean }): Promise<Drill> {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const outDir = path.join(repo, 'apps/cloud/.tmp', `${name}-${process.pid}-${randomBytes(3).toString('hex')}`);
  const seedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-outage-seed-'));
  const { main } = await buildCloud({ outDir });
  const [pg, redis] = await Promise.all([startPrivatePostgres(), o.withRedis ? startPrivateRedis() : null]);
  const store = { DATA_DIR: seedDir, DATABASE_URL: pg.url };
  let cluster: Cluster | undefined;
  let driver: Driver | undefined;
  const close = async () => {
    await driver?.close();
    await cluster?.stop();
    await Promise.all([pg.destroy(), redis?.destroy()]);
    fs.rmSync(seedDir, { recursive: true, force: true });
    fs.rmSync(outDir, { recursive: true, force: true });
  };
  try {
    const fleet = await seedFleet(store, CABINETS);
    cluster = await startCluster({
      replicas: 2,
      port: 0,
      databaseUrl: pg.url,
      ...(redis ? { redisUrl: redis.url } : {}),
      main,
      env: {
        LOG_LEVEL: 'debug',
        JOBS_INTERVAL_SECONDS: String(TICK_MS / 1000),
        JOBS_LEASE_TTL_SECONDS: String(TTL_MS / 1000),
        RATE_LIMIT_PER_HOUR: '100000000',
      },
    });
    // every answer a drill reads from a replica (probe) is held to the document it serves, read now while it answers
    for (const r of cluster.replicas) await expectContract(r.url);
    driver = new Driver(`${name} driver`);
    await driver.ask(
      { type: 'init', url: cluster.url, cabinets: fleet, salesPerHour: 1_800, dropsPerHour: 0, minDropsPerS: 2, slowMs: 60_000, awaitAcks: true },
      'ready',
    );
    await driver.ask({ type: 'grow', n: CABINETS }, 'ready');
  } catch (e) {
    await close();
    throw e;
  }
  return {
    pg,
    redis,
    cluster,
    stopFleet: async () => {
      const ledger = (await driver!.ask({ type: 'stop' }, 'ledger')) as DriverLedger;
      driver = undefined;
      return ledger;
    },
    audit: (ledger) => auditStore(store, ledger),
    close,
  };
}

export const ALICE = 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2';
export const RECOVERY_BOUND_MS = 10_000;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Probe {
  status: number | null;
  retryAfter: string | null;
  ms: number;
  body: string;
}

/** One request straight to a replica (default: an operator read): its status, Retry-After and time. */
export async function probe(url: string, p = '/api/v1/machines'): Promise<Probe> {
  const started = performance.now();
  try {
    const res = await checkedFetch(`${url}${p}`, { headers: { 'X-API-Key': ALICE }, signal: AbortSignal.timeout(15_000) });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - started, body: await res.text() };
  } catch (e) {
    // an answer off the document fails the drill; no answer at all is what the probe reports
    if (e instanceof ContractViolation) throw e;
    return { status: null, retryAfter: null, ms: performance.now() - started, body: (e as Error).message };
  }
}

/** Milliseconds until every replica answers `p` with 200 again. */
export async function recovery(replicas: Replica[], p = '/api/v1/machines'): Promise<number> {
  const started = performance.now();
  const pending = new Set(replicas.map((r) => r.url));
  while (pending.size > 0) {
    if (performance.now() - started > RECOVERY_BOUND_MS)
      throw new Error(`${p} not 200 ${RECOVERY_BOUND_MS} ms after the outage ended: ${[...pending].join(', ')}`);
    for (const url of [...pending]) if ((await probe(url, p)).status === 200) pending.delete(url);
    if (pending.size) await sleep(50);
  }
  return performance.now() - started;
}

export interface Sweep {
  time: number;
  loop: string;
  holder: string;
}

/** Every background sweep the replicas logged (debug level), oldest first. */
export function sweeps(replicas: Replica[]): Sweep[] {
  const all: Sweep[] = [];
  for (const r of replicas)
    for (const line of r.out().split('\n')) {
      if (!line.includes('"background sweep"')) continue;
      const e = JSON.parse(line) as { time: number; loop: string; holder: string };
      all.push({ time: e.time, loop: e.loop, holder: e.holder });
    }
  return all.sort((a, b) => a.time - b.time);
}

/**
 * Whether the sweeps of any loop break the lease's promise, one holder at a time: a sweep is logged after its tick
 * renewed the lease, so when the holder changes, the new one's first sweep must come at least a lease's lifetime
 * (less one tick, a sweep's own length) after the old one's last — the old lease had to lapse first. A holder may
 * lead again later by the same rule (two outages, two handovers). Answers what broke it, or null.
 */
export function leaseChainBroken(all: readonly Sweep[], ttlMs: number, tickMs: number): string | null {
  const byLoop = new Map<string, Sweep[]>();
  for (const s of all) byLoop.set(s.loop, [...(byLoop.get(s.loop) ?? []), s]);
  for (const [loop, list] of byLoop)
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      const next = list[i]!;
      if (next.holder !== prev.holder && next.time - prev.time < ttlMs - tickMs)
        return `${loop}: ${next.holder} swept ${next.time - prev.time} ms after ${prev.holder}'s last sweep, inside its lease (${ttlMs} ms)`;
    }
  return null;
}
