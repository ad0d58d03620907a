import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCloud } from '../scripts/build-cloud.ts';
import { startCluster, type Cluster, type Replica } from '../scripts/cluster.ts';
import { pgClient } from './support/pg.ts';
import { checkedFetch, ContractViolation, expectContract } from '@vend/cloud/testing/contract';

/**
 * The failover drill (issue 18, docs/decisions/scale-out.md): four replicas of the build on one PostgreSQL
 * and one Redis behind nginx; the leader of the background loops is SIGKILLed three times. Every sweep is
 * a debug log line naming its lease holder, read from every replica's output (the killed ones' included):
 * the sweeps form one chain — no tick swept by two replicas, a holder that lost the lease never sweeps
 * again — and each failover lands within the lease TTL plus one tick. Requests through nginx never fail.
 */

const DB = process.env['TEST_DATABASE_URL'];
const REDIS = process.env['REDIS_URL'];
const hasNginx = (() => {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const TTL_MS = 2_000;
const TICK_MS = 500;
const LOOP = 'dispense-decision';
const KILLS = 3;

interface Sweep {
  time: number;
  holder: string;
}

/** The sweeps of LOOP every replica logged, oldest first. */
function sweeps(replicas: Replica[]): Sweep[] {
  const all: Sweep[] = [];
  for (const r of replicas)
    for (const line of r.out().split('\n')) {
      if (!line.includes('"background sweep"')) continue;
      const e = JSON.parse(line) as { time: number; loop: string; holder: string };
      if (e.loop === LOOP) all.push({ time: e.time, holder: e.holder });
    }
  return all.sort((a, b) => a.time - b.time);
}

const replicaOf = (replicas: Replica[], holder: string) => replicas.find((r) => holder.startsWith(`${r.name}:`))!;

async function until<T>(what: string, ms: number, probe: () => T | undefined): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.runIf(DB && REDIS && hasNginx)('a cluster of four replicas behind nginx', () => {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  // inside apps/cloud (its node_modules resolve the externals), ignored by git (.tmp/)
  const outDir = path.join(repo, 'apps/cloud/.tmp', `cluster-${process.pid}-${randomBytes(3).toString('hex')}`);
  const dbName = `t_cluster_${randomBytes(5).toString('hex')}`;
  let cluster: Cluster;

  beforeAll(async () => {
    const { main } = await buildCloud({ outDir });
    const server = await pgClient(DB!);
    await server.query(`create database ${dbName}`);
    await server.end();
    const u = new URL(DB!);
    u.pathname = `/${dbName}`;
    cluster = await startCluster({
      replicas: KILLS + 1,
      port: 0,
      main,
      databaseUrl: u.toString(),
      redisUrl: REDIS!,
      env: {
        LOG_LEVEL: 'debug',
        JOBS_LEASE_TTL_SECONDS: String(TTL_MS / 1000),
        JOBS_INTERVAL_SECONDS: String(TICK_MS / 1000),
        REDIS_KEY_PREFIX: `t${randomBytes(4).toString('hex')}:`,
      },
    });
    // what nginx answers for the replicas is held to the document they serve
    await expectContract(cluster.url);
  }, 90_000);

  afterAll(async () => {
    await cluster?.stop();
    fs.rmSync(outDir, { recursive: true, force: true });
    const server = await pgClient(DB!);
    await server.query(`drop database if exists ${dbName} with (force)`);
    await server.end();
  });

  it('the leader SIGKILLed three times: one sweep per tick, never two leaders, failover within the TTL plus a tick, no failed request', async () => {
    const statuses: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        statuses.push(
          await checkedFetch(`${cluster.url}/health`).then(
            (r) => r.status,
            (e: unknown) => {
              if (e instanceof ContractViolation) throw e;
              return 0;
            },
          ),
        );
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const kills: { holder: string; at: number; next: Sweep }[] = [];
    let since = 0;
    for (let k = 0; k < KILLS; k++) {
      // the leader is whoever swept last, once it has swept twice in a row since the last failover
      const leader = await until('a settled leader', TTL_MS + 4 * TICK_MS, () => {
        const s = sweeps(cluster.replicas).filter((x) => x.time > since);
        const last = s.at(-1);
        return last && s.filter((x) => x.holder === last.holder).length >= 2 ? last.holder : undefined;
      });
      const at = Date.now();
      replicaOf(cluster.replicas, leader).child.kill('SIGKILL');
      const next = await until('a new leader to sweep', TTL_MS + TICK_MS + 3_000, () =>
        sweeps(cluster.replicas).find((x) => x.time > at && x.holder !== leader),
      );
      kills.push({ holder: leader, at, next });
      since = next.time;
    }
    await new Promise((r) => setTimeout(r, 3 * TICK_MS));
    polling = false;
    await poller;

    const chain = sweeps(cluster.replicas);
    // one chain: each holder's sweeps are contiguous, and only the survivors of the kills ever led
    const runs = chain.map((s) => s.holder).filter((h, i, hs) => i === 0 || hs[i - 1] !== h);
    expect(new Set(runs).size).toBe(runs.length);
    expect(runs).toEqual([...kills.map((k) => k.holder), kills.at(-1)!.next.holder]);
    // no tick swept twice: consecutive sweeps are about a tick apart, never two at once
    const gaps = chain.slice(1).map((s, i) => s.time - chain[i]!.time);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(TICK_MS * 0.5);
    for (const k of kills) {
      const lastOfDead = chain.filter((s) => s.holder === k.holder).at(-1)!;
      expect(lastOfDead.time).toBeLessThanOrEqual(k.at);
      // the lease kept the others out until it lapsed (renewed at the dead leader's last tick) ...
      expect(k.next.time - lastOfDead.time).toBeGreaterThanOrEqual(TTL_MS - TICK_MS);
      // ... and one of them led within the TTL plus one tick of the kill (plus 1 s for a loaded machine)
      expect(k.next.time - k.at).toBeLessThanOrEqual(TTL_MS + TICK_MS + 1_000);
    }
    // nginx sent every request to a live replica
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  }, 60_000);
});
