/**
 * P&L benchmark (issue 13): `GET /api/v1/pnl` over 90 days × 5 machines (sales every day on each, two
 * tax rates, all five at one host venue, weekly entries), against a bare node:http server and a
 * one-route Express 5 app answering the same bytes, each in its own process.
 *
 *   npx tsx apps/cloud/src/bench/pnl.bench.ts (or: bash scripts/bench pnl) [salesPerMachinePerDay]      (default 20; about 60 s)
 *
 * The history is written first, by the cloud built in this process on a SQLite file with a manual
 * clock, so the 90 days are recorded through `SalesService` (the one way a sale is recorded) at their
 * own times. Then the cloud is started as its own process on that file (sandbox, LOG_LEVEL=info as in
 * production) and the P&L is read through HTTP with autocannon. Prints requests/s, p50/p99 and the
 * ratios. Record results in docs/benchmarks.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../logger.ts';
import { ManualClock } from '@vend/protocol';
import { loadConfig } from '../config.ts';
import { closeContext, createContext } from '../context.ts';
import { openDatabase } from '../db/database.ts';
import { closeServices, createServices } from '../services.ts';
import { seedIfEmpty } from '../bootstrap.ts';
import { listen } from '../server.ts';
import { fileURLToPath } from 'node:url';
import { measure, printRows, startBaseline, startProcess, stop, type Row } from '../../../../scripts/bench-support.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const PER_DAY = Math.max(1, Number(process.argv[2] ?? 20));
const DAYS = 90;
const MACHINES = 5;
const CONNECTIONS = 10;
const SECONDS = 6;
const DAY = 86_400_000;
// The public sandbox credentials (docs/sandbox.md).
const ALICE = { 'x-api-key': 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2', 'content-type': 'application/json' };

async function main(): Promise<void> {
  const started = Date.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-pnl-'));
  const first = Date.parse('2026-08-01T00:00:00Z');
  const clock = new ManualClock(first);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_PER_HOUR: '1000000' });
  // the file name the cloud process opens on this DATA_DIR in sandbox mode (context.ts)
  const database = await openDatabase({ sqliteFile: path.join(dataDir, 'vend-sandbox.sqlite') });
  const ctx = await createContext(config, { clock, logger: createLogger({ level: 'silent', pretty: false }), database });
  const services = createServices(ctx);
  await seedIfEmpty(ctx, services.seedSteps);
  const server = await listen(ctx, services, 0, '127.0.0.1');
  const api = async (method: string, p: string, body?: unknown): Promise<{ id: string }> => {
    const res = await fetch(`${server.url}${p}`, { method, headers: ALICE, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const json = (await res.json()) as { message: string; data: { id: string } };
    if (res.status !== 200) throw new Error(`${method} ${p}: ${res.status} ${json.message}`);
    return json.data;
  };
  const children: Awaited<ReturnType<typeof startBaseline>>['child'][] = [];
  let builder: { close: () => Promise<void> } | null = {
    close: async () => {
      await server.close();
      await closeServices(services);
      await closeContext(ctx);
    },
  };
  try {
    const machines: { machineId: string; machineNo: string }[] = [];
    for (let i = 0; i < MACHINES; i++) {
      const machineNo = `BENCH-PNL-${String(i).padStart(4, '0')}`;
      const m = await api('POST', '/api/v1/machines/register', { machineNo });
      await api('PUT', `/api/v1/inventory/machines/${machineNo}/aisles/1`, { maxStock: 9999, currentStock: 9999, sellingPrice: 1.75 + i / 4 });
      await api('PATCH', `/api/v1/machines/${machineNo}`, { salesTaxRate: i % 2 ? 8.875 : 6.25 });
      machines.push({ machineId: m.id, machineNo });
    }
    await api('POST', '/api/v1/crm/venues', { name: 'Bench venue', revShareBps: 1500, machineNos: machines.map((m) => m.machineNo) });
    for (let d = 0; d < DAYS; d++) {
      for (let s = 0; s < PER_DAY; s++) {
        for (const m of machines) await services.sales.openWalkup(m, { aisleNo: 1, quantity: 1, payMethod: 'cash' }, { vended: true });
        clock.advance(Math.floor(DAY / PER_DAY));
      }
      if (d % 7 === 0)
        await api('POST', '/api/v1/finance/entries', { kind: 'payroll', amount: 250, occurredOn: new Date(clock.now()).toISOString().slice(0, 10) });
    }
    const query = `from=2026-08-01&to=${new Date(first + (DAYS - 1) * DAY).toISOString().slice(0, 10)}`;
    await builder.close();
    builder = null;
    const cloud = await startProcess(
      path.join(root, 'node_modules/.bin/tsx'),
      [path.join(root, 'apps/cloud/src/main.ts')],
      { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', POD_NAME: 'bench', RATE_LIMIT_PER_HOUR: '1000000' },
      /listening on (http:\/\/\S+)/,
    );
    children.push(cloud.child);
    const url = `${cloud.url}/api/v1/pnl?${query}`;
    const res = await fetch(url, { headers: ALICE });
    if (res.status !== 200) throw new Error(`GET /api/v1/pnl: ${res.status} ${await res.text()}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    const pnl = JSON.parse(bytes.toString()) as { data: { vends: number; hostLines: unknown[]; identity: string } };
    const nodeBase = await startBaseline('node', { '/api/v1/pnl': bytes });
    const expressBase = await startBaseline('express', { '/api/v1/pnl': bytes });
    children.push(nodeBase.child, expressBase.child);
    const rows: Row[] = [];
    rows.push(await measure(`cloud /pnl (${DAYS} days × ${MACHINES} machines)`, CONNECTIONS, { url, headers: ALICE, duration: SECONDS }));
    rows.push(await measure('node:http, same bytes', CONNECTIONS, { url: `${nodeBase.url}/api/v1/pnl?${query}`, duration: SECONDS }));
    rows.push(await measure('express (one route), same bytes', CONNECTIONS, { url: `${expressBase.url}/api/v1/pnl?${query}`, duration: SECONDS }));
    const [cloudRow, nodeRow, expressRow] = rows as [Row, Row, Row];
    printRows(
      `${pnl.data.vends} sales, ${pnl.data.hostLines.length} host lines, ${bytes.length} bytes; ${CONNECTIONS} connections; identity ${pnl.data.identity}`,
      rows,
    );
    console.log(`| ratio | /pnl / node:http ${(cloudRow.rps / nodeRow.rps).toFixed(3)} | /pnl / express ${(cloudRow.rps / expressRow.rps).toFixed(3)} |`);
    console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
    if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
  } finally {
    for (const c of children) await stop(c);
    await builder?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
