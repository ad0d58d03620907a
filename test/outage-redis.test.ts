import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCloud } from '../scripts/build-cloud.ts';
import { startCluster, type Cluster } from '../scripts/cluster.ts';
import { Driver } from '../scripts/fleet/driver-process.ts';
import type { DriverLedger } from '../scripts/fleet/driver.ts';
import { auditStore, seedFleet, type StoreEnv } from '../scripts/fleet/store.ts';
import { hasRedisServer, postgresBin, startPrivatePostgres, startPrivateRedis, type PrivatePostgres, type PrivateRedis } from '../scripts/private-servers.ts';
import { leaseChainBroken, probe, recovery, sleep, sweeps } from './support/outage-drill.ts';

/**
 * Redis SIGKILLed under a small fleet's load and started again (empty, as a cache comes back), on two replicas behind
 * nginx that share it for rate limits, the leader lease and the cross-replica push (docs/decisions/outages.md).
 *
 * Held: the service goes on — every answer a 200, none refused for want of Redis; rate limits count in process;
 * /health says `redis: error` within its bound; remote drops still reach their cabinets (the store probe stands in
 * for the push); the background loops pause (the lease lives in Redis: no replica can know it leads) and resume
 * under one holder once Redis is back, which each replica picks up without a restart.
 */

const CABINETS = 12;
const TTL_MS = 2_000;
const TICK_MS = 500;
const OUTAGE_MS = 4_000;
/** /health's per-dependency bound (HEALTH_PROBE_MS) and the answer's own way. */
const HEALTH_BOUND_MS = 1_000 + 500;

describe.runIf(postgresBin() && hasRedisServer())('Redis killed and started again under load, two replicas', () => {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const outDir = path.join(repo, 'apps/cloud/.tmp', `outage-redis-${process.pid}-${randomBytes(3).toString('hex')}`);
  const seedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-outage-seed-'));
  let pg: PrivatePostgres;
  let redis: PrivateRedis;
  let store: StoreEnv;
  let cluster: Cluster | undefined;
  let driver: Driver | undefined;
  let down = 0;
  let back = 0;

  beforeAll(async () => {
    const { main } = await buildCloud({ outDir });
    [pg, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
    store = { DATA_DIR: seedDir, DATABASE_URL: pg.url };
    const fleet = await seedFleet(store, CABINETS);
    cluster = await startCluster({
      replicas: 2,
      port: 0,
      databaseUrl: pg.url,
      redisUrl: redis.url,
      main,
      env: {
        LOG_LEVEL: 'debug',
        JOBS_INTERVAL_SECONDS: String(TICK_MS / 1000),
        JOBS_LEASE_TTL_SECONDS: String(TTL_MS / 1000),
        RATE_LIMIT_PER_HOUR: '100000000',
      },
    });
    driver = new Driver('outage driver');
    await driver.ask(
      { type: 'init', url: cluster.url, cabinets: fleet, salesPerHour: 1_800, dropsPerHour: 0, minDropsPerS: 2, slowMs: 60_000, awaitAcks: true },
      'ready',
    );
    await driver.ask({ type: 'grow', n: CABINETS }, 'ready');
  }, 180_000);

  afterAll(async () => {
    await driver?.close();
    await cluster?.stop();
    await Promise.all([pg?.destroy(), redis?.destroy()]);
    fs.rmSync(seedDir, { recursive: true, force: true });
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('while Redis is down the replicas serve, /health says so within its bound, and the loops pause', async () => {
    const replicas = cluster!.replicas;
    await sleep(2_000);
    expect(sweeps(replicas).length).toBeGreaterThan(0);
    await redis.kill();
    down = Date.now();
    await sleep(500);
    for (let i = 0; i < 3; i++) {
      for (const r of replicas) {
        expect((await probe(r.url)).status).toBe(200);
        const health = await probe(r.url, '/health');
        expect(health.status).toBe(503);
        expect(health.ms).toBeLessThan(HEALTH_BOUND_MS);
        expect(JSON.parse(health.body)).toMatchObject({ data: { db: 'ok', redis: 'error' } });
      }
      await sleep(OUTAGE_MS / 3);
    }
    // a sweep already under way when Redis went may still finish; none starts after the lease could not be asked
    expect(sweeps(replicas).filter((s) => s.time > down + 1_500)).toEqual([]);
    for (const r of replicas) expect(r.child.exitCode, `${r.name} exited: ${r.out().slice(-1500)}`).toBeNull();
  }, 60_000);

  it('each replica picks Redis up again without a restart, and the loops resume under one holder at a time (a new one only after the old lease lapsed)', async () => {
    const replicas = cluster!.replicas;
    await redis.start();
    back = Date.now();
    const ms = await recovery(replicas, '/health');
    console.log(`redis drill: /health 200 on both replicas ${Math.round(ms)} ms after Redis returned`);
    await sleep(3_000);
    expect(sweeps(replicas).filter((s) => s.time > back).length).toBeGreaterThan(0);
    expect(leaseChainBroken(sweeps(replicas), TTL_MS, TICK_MS)).toBeNull();
  }, 60_000);

  it('the fleet was answered 200 throughout, and every sale and drop it saw acknowledged is stored exactly once', async () => {
    const ledger = (await driver!.ask({ type: 'stop' }, 'ledger')) as DriverLedger;
    driver = undefined;
    expect(ledger.statuses, ledger.errorSamples.join('\n')).toEqual({ '200': expect.any(Number) });
    const audit = await auditStore(store, ledger);
    expect(audit).toMatchObject({
      salesLost: 0,
      salesUnexpected: 0,
      salesDuplicated: 0,
      ordersOpenedNotInStore: 0,
      commandsLost: 0,
      commandsDuplicatedAcks: 0,
    });
    // drops enqueued while Redis was down reached their cabinets too (the store probe stands in for the push)
    expect(audit['commandsStillPending']).toBe(0);
    expect(audit['commandsAcked']).toBeGreaterThan(0);
    console.log(`redis drill: answers ${JSON.stringify(ledger.statuses)}; audit ${JSON.stringify(audit)}; down ${back - down} ms`);
  }, 120_000);
});
