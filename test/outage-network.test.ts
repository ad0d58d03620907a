import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCloud } from '../scripts/build-cloud.ts';
import { startProcess, stop } from '../scripts/bench-support.ts';
import { startFaultProxy, type FaultProxy } from '../scripts/fault-proxy.ts';
import { postgresBin, startPrivatePostgres, type PrivatePostgres } from '../scripts/private-servers.ts';
import { ALICE, probe, sleep } from './support/outage-drill.ts';
import { checkedFetch, expectContract } from '@vend/cloud/testing/contract';

/**
 * The cloud's road to PostgreSQL slowed and cut (docs/decisions/outages.md): the production build on a PostgreSQL of
 * the test's own, reached through a TCP fault proxy (scripts/fault-proxy.ts).
 *
 * Held: 200 ms each way only slows the answers; a black hole (no RST, no FIN: packets dropped) answers 503 with
 * Retry-After within the stated bound — a statement's deadline (10 s) on a pooled connection, the connect timeout
 * (3 s) on a new one — never a hang, and the process stays; once the road is back, requests are served again by
 * themselves; every connection reset at once costs at most the requests in flight.
 */

/** The statement deadline plus the connect timeout plus the answer's way (db/query-deadline.ts, db/database.ts). */
const CUT_BOUND_MS = 10_000 + 3_000 + 1_500;

describe.runIf(postgresBin())('the database behind a slow, cut and reset network', () => {
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const outDir = path.join(repo, 'apps/cloud/.tmp', `outage-net-${process.pid}-${randomBytes(3).toString('hex')}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-outage-net-'));
  let pg: PrivatePostgres;
  let proxy: FaultProxy;
  let cloud: { child: ChildProcess; url: string } | undefined;
  let machineNo = '';

  beforeAll(async () => {
    const { main } = await buildCloud({ outDir });
    pg = await startPrivatePostgres();
    proxy = await startFaultProxy({ host: '127.0.0.1', port: pg.port });
    cloud = await startProcess(
      process.execPath,
      [main],
      {
        NODE_ENV: 'production',
        DATABASE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      /listening on (http:\/\/\S+)/,
    );
    // every answer read from it is held to the document it serves (issue 30)
    await expectContract(cloud.url);
    const list = await checkedFetch(`${cloud.url}/api/v1/machines`, { headers: { 'X-API-Key': ALICE } }).then(
      (r) => r.json() as Promise<{ data: { records: { machineNo: string }[] } }>,
    );
    machineNo = list.data.records[0]!.machineNo;
  }, 120_000);

  afterAll(async () => {
    if (cloud) await stop(cloud.child);
    await proxy?.close();
    await pg?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  const rename = (name: string) =>
    checkedFetch(`${cloud!.url}/api/v1/machines/${machineNo}`, {
      method: 'PATCH',
      headers: { 'X-API-Key': ALICE, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
      signal: AbortSignal.timeout(60_000),
    });

  it('200 ms each way: answers are slower, and still 200', async () => {
    proxy.delay(200);
    const read = await probe(cloud!.url);
    expect(read.status).toBe(200);
    expect(read.ms).toBeGreaterThan(400); // the delay is really there
    expect((await rename('Slow road')).status).toBe(200);
    proxy.heal();
  }, 60_000);

  it('a black hole: 503 with Retry-After within the bound, never a hang, and the process stays', async () => {
    // several at once: some ride pooled connections (the statement deadline), others need new ones (connect timeout)
    proxy.cut();
    const answers = await Promise.all([
      probe(cloud!.url),
      probe(cloud!.url),
      probe(cloud!.url),
      rename('Into the hole').then(async (r) => ({ status: r.status, retryAfter: r.headers.get('retry-after'), ms: 0, body: await r.text() })),
    ]);
    for (const a of answers) {
      expect(a.status, a.body).toBe(503);
      expect(a.retryAfter).toMatch(/^\d+$/);
      expect(a.ms).toBeLessThan(CUT_BOUND_MS);
    }
    const again = await probe(cloud!.url);
    expect(again.status).toBe(503);
    expect(again.ms).toBeLessThan(CUT_BOUND_MS);
    expect(cloud!.child.exitCode).toBeNull();
  }, 90_000);

  it('served again by itself once the road is back; the refused write did not land', async () => {
    proxy.heal();
    const started = performance.now();
    let status: number | null = null;
    while (status !== 200 && performance.now() - started < CUT_BOUND_MS) {
      status = (await probe(cloud!.url)).status;
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
    console.log(`network drill: first 200 ${Math.round(performance.now() - started)} ms after the cut healed`);
    const read = await checkedFetch(`${cloud!.url}/api/v1/machines/${machineNo}`, { headers: { 'X-API-Key': ALICE } }).then(
      (r) => r.json() as Promise<{ data: { name: string } }>,
    );
    expect(read.data.name).toBe('Slow road');
  }, 60_000);

  it('every connection reset at once: at most the requests in flight are refused, the next are served', async () => {
    expect((await probe(cloud!.url)).status).toBe(200);
    proxy.reset();
    const first = await probe(cloud!.url);
    expect([200, 503]).toContain(first.status);
    await sleep(100);
    for (let i = 0; i < 5; i++) expect((await probe(cloud!.url)).status).toBe(200);
    expect(cloud!.child.exitCode).toBeNull();
  }, 60_000);
});
