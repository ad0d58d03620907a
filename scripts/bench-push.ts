/**
 * Enqueue → wake across replicas (docs/benchmarks.md "Instant push across replicas"):
 *
 *   TEST_DATABASE_URL=postgres://… npx tsx scripts/bench-push.ts [samples]     (or: bash scripts/bench push)
 *
 * Two cloud processes from the production build (Node 20, the machine's) on one fresh PostgreSQL schema:
 * replica A seeds the sandbox, replica B joins it. Per sample a fresh cabinet is enrolled (through A) and
 * given to alice; it long-polls `GET /cabinet/pending?wait=25` on B; after 300 ms plus a random 0–500 ms
 * alice enqueues a drop on A; the figure is from just before the enqueue request to the moment B's answer
 * arrives. Run twice: with the push (LISTEN/NOTIFY, the default) and with PENDING_PUSH=false (the 2 s probe
 * alone: the baseline, measured in the same run). With REDIS_URL set, a third run uses Redis pub/sub.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { buildCloud } from './build-cloud.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// the cloud's PostgreSQL driver (the root package does not depend on it)
interface PgClient {
  connect(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
}
const pg = createRequire(path.join(ROOT, 'apps/cloud/package.json'))('pg') as { Client: new (o: { connectionString: string }) => PgClient };
const samples = Number(process.argv[2] ?? 40);
const DB = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = process.env['REDIS_URL'];
const ADMIN = { 'x-api-key': 'vk_5bada0000000a001.sbx-admin-key-2f9c1e7d' };
const ALICE = { 'x-api-key': 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2' };
const FLEET = { secret: 'sbx-fleet-secret-4b2d' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startCloud(main: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`cloud exited ${code}: ${err.slice(-2000)}`)));
  });
}

async function post(url: string, headers: Record<string, string>, json: unknown): Promise<{ data: Record<string, string> }> {
  const r = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(json) });
  const body = (await r.json()) as { data: Record<string, string> };
  if (r.status !== 200) throw new Error(`POST ${url}: ${r.status} ${JSON.stringify(body)}`);
  return body;
}

async function cabinet(a: string, admin: PgClient, schema: string, n: number): Promise<{ serial: string; key: string }> {
  const serial = `PUSH-${process.pid.toString(36).toUpperCase()}-${String(n).padStart(5, '0')}`;
  const deviceId = `box-${randomBytes(6).toString('hex')}`;
  await post(`${a}/cabinet/register`, FLEET, { equipmentNo: serial });
  await post(`${a}/api/v1/machines/${serial}/device-credential/arm`, ADMIN, { reason: 'push bench' });
  const e = await post(`${a}/cabinet/enrol`, FLEET, { equipmentNo: serial, deviceId });
  await admin.query(`update ${schema}.machines set operator_id = 'op_sbx_alice' where machine_no = $1`, [serial]);
  return { serial, key: `${e.data['keyId']}:${e.data['deviceKey']}` };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

async function run(main: string, label: string, extra: Record<string, string>): Promise<number[]> {
  // a database of its own (the cloud migrates the public schema of DATABASE_URL)
  const name = `bench_push_${randomBytes(5).toString('hex')}`;
  const server = new pg.Client({ connectionString: DB });
  await server.connect();
  await server.query(`create database ${name}`);
  const u = new URL(DB);
  u.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  const schema = 'public';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-bench-push-'));
  const env = { DATABASE_URL: u.toString(), DATA_DIR: dataDir, ...extra };
  const a = await startCloud(main, { ...env, POD_NAME: 'a' });
  const b = await startCloud(main, { ...env, POD_NAME: 'b' });
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const c = await cabinet(a.url, admin, schema, i);
      let answeredAt = 0;
      const poll = fetch(`${b.url}/cabinet/pending?wait=25`, { headers: { 'x-device-key': c.key } }).then(async (r) => {
        answeredAt = performance.now();
        return (await r.json()) as { data: { commands: unknown[] } };
      });
      await sleep(300 + Math.random() * 500);
      const started = performance.now();
      await post(`${a.url}/api/v1/machines/${c.serial}/commands/dispense`, ALICE, { aisleNo: 4, reason: 'push bench' });
      const answer = await poll;
      if (answer.data.commands.length !== 1) throw new Error(`sample ${i}: the poll answered ${answer.data.commands.length} commands`);
      times.push(answeredAt - started);
    }
  } finally {
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    await Promise.all([a, b].map((p) => new Promise((r) => (p.child.exitCode !== null ? r(null) : p.child.once('exit', r)))));
    await admin.end();
    await server.query(`drop database ${name}`);
    await server.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `| ${label} | ${times.length} | ${pct(times, 50).toFixed(1)} | ${pct(times, 90).toFixed(1)} | ${pct(times, 99).toFixed(1)} | ${Math.max(...times).toFixed(1)} |`,
  );
  return times;
}

const build = await buildCloud();
console.log(`two replicas (the build, Node ${process.versions.node}) on one PostgreSQL database; enqueue on A, long poll on B; ms`);
console.log('| wake | samples | p50 | p90 | p99 | max |');
console.log('|---|---:|---:|---:|---:|---:|');
const push = await run(build.main, 'push: PostgreSQL LISTEN/NOTIFY', {});
if (REDIS) await run(build.main, 'push: Redis pub/sub', { REDIS_URL: REDIS, REDIS_KEY_PREFIX: `bench${randomBytes(3).toString('hex')}:` });
const probe = await run(build.main, 'probe only (PENDING_PUSH=false)', { PENDING_PUSH: 'false' });
console.log(`p50 ratio probe / push: ${(pct(probe, 50) / pct(push, 50)).toFixed(0)}×`);
