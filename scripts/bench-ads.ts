/**
 * Attract-loop benchmark (issue 11): `GET /apk/getAd` of a machine targeted by 50 active campaigns
 * (each with its own studio poster from the built-in renderer; targeted by machine, by ZIP and nationwide), assembled on every call,
 * against servers answering the same bytes in the same run: a bare node:http server and a one-route
 * Express 5 app, each its own process.
 *
 *   npx tsx scripts/bench-ads.ts [campaigns]      (default 50; about 40 s)
 *
 * The cloud runs as its own process in sandbox mode on a SQLite file (LOG_LEVEL=info as in
 * production); the campaigns are made through the operator API. Prints requests/s, p50/p99 and the
 * ratios. Record results in docs/benchmarks.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchBytes, measure, printRows, startBaseline, startProcess, stop, type Row } from './bench-support.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CAMPAIGNS = Math.max(1, Number(process.argv[2] ?? 50));
const CONNECTIONS = 20;
const SECONDS = 6;
const MACHINE = 'SBX-ALICE-0001';
const tsx = path.join(root, 'node_modules/.bin/tsx');
// The public sandbox credentials (docs/sandbox.md).
const ALICE = { 'x-api-key': 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2', 'content-type': 'application/json' };
const FLEET_SECRET = 'sbx-fleet-secret-4b2d';

async function api(base: string, method: string, p: string, body?: unknown): Promise<{ id: string }> {
  const res = await fetch(`${base}${p}`, { method, headers: ALICE, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const json = (await res.json()) as { code: number; message: string; data: { id: string } };
  if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${json.message}`);
  return json.data;
}

async function main(): Promise<void> {
  const started = Date.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-ads-'));
  const children = [];
  try {
    const cloud = await startProcess(
      tsx,
      [path.join(root, 'apps/cloud/src/main.ts')],
      { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', POD_NAME: 'bench', RATE_LIMIT_PER_HOUR: '100000' },
      /listening on (http:\/\/\S+)/,
    );
    children.push(cloud.child);
    const base = cloud.url;
    await api(base, 'PUT', `/api/v1/machines/${MACHINE}/screen`, {
      panel: { diagonalInches: 32 },
      resolution: { width: 1080, height: 1920 },
      venueName: 'Bench venue',
      address: { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' },
      venueCategoryId: 10602,
      loop: { slots: 24, slotSeconds: 15 },
    });
    const targets = [{ targetMachines: [MACHINE] }, { targetGeo: { zips: ['12345'] } }, { targetGeo: { nationwide: true } }];
    for (let i = 0; i < CAMPAIGNS; i++) {
      const c = await api(base, 'POST', '/api/v1/campaigns', {
        name: `Bench ${i}`,
        sponsorName: `Sponsor ${i}`,
        sponsorType: 'local-business',
        weight: 1 + (i % 3),
        pricing: i % 2 ? { model: 'cpm', cpmRate: 10 } : { model: 'flat-monthly', monthlyRatePerMachine: 99 },
        ...targets[i % targets.length],
      });
      await api(base, 'POST', `/api/v1/campaigns/${c.id}/creative/contentx`, { brief: `Sponsor ${i}: fresh snacks, cold drinks, two for one before noon` });
      await api(base, 'POST', `/api/v1/campaigns/${c.id}/activate`);
    }
    const headers = { secret: FLEET_SECRET };
    const url = `${base}/apk/getAd?equipmentNo=${MACHINE}`;
    const bytes = await fetchBytes(url, { headers });
    const loop = JSON.parse(bytes.toString()) as { data: { entries: { source: string }[] } };
    const direct = loop.data.entries.filter((e) => e.source === 'direct-sold').length;
    const nodeBase = await startBaseline('node', { '/apk/getAd': bytes });
    const expressBase = await startBaseline('express', { '/apk/getAd': bytes });
    children.push(nodeBase.child, expressBase.child);

    const rows: Row[] = [];
    rows.push(await measure(`cloud getAd (${CAMPAIGNS} campaigns)`, CONNECTIONS, { url, headers, duration: SECONDS }));
    rows.push(await measure('node:http, same bytes', CONNECTIONS, { url: `${nodeBase.url}/apk/getAd`, duration: SECONDS }));
    rows.push(await measure('express (one route), same bytes', CONNECTIONS, { url: `${expressBase.url}/apk/getAd`, duration: SECONDS }));
    const [cloudRow, nodeRow, expressRow] = rows as [Row, Row, Row];
    printRows(
      `${CAMPAIGNS} active campaigns target ${MACHINE}; the loop has ${loop.data.entries.length} slots, ${direct} direct-sold; ${bytes.length} bytes; ${CONNECTIONS} connections`,
      rows,
    );
    console.log(`| ratio | getAd / node:http ${(cloudRow.rps / nodeRow.rps).toFixed(3)} | getAd / express ${(cloudRow.rps / expressRow.rps).toFixed(3)} |`);
    console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
  } finally {
    for (const c of children) await stop(c);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
