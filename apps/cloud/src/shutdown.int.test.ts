import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, TEST_DATABASE_URL, type TestServer } from './testing/harness.ts';
import { enrolled, keyHeader } from './domains/gateway/gateway.test-support.ts';
import { checkedFetch, expectContract } from './testing/contract.ts';

/**
 * The production start (docs/decisions/scale-out.md): the cloud built by scripts/build-cloud and run by
 * plain `node` with NODE_ENV=production, stopped by SIGTERM while a long poll is held and a request is in
 * flight. Real processes and sockets; every wait is bounded.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
// inside apps/cloud (its node_modules resolve the externals), ignored by git (.tmp/)
const outDir = path.join(repo, 'apps/cloud/.tmp', `build-${process.pid}-${randomBytes(3).toString('hex')}`);
const children: ChildProcess[] = [];
const dirs: string[] = [];

beforeAll(() => {
  execFileSync(process.execPath, ['--import', 'tsx', path.join(repo, 'scripts/build-cloud.ts'), '--out-dir', outDir], { cwd: repo, timeout: 120_000 });
}, 130_000);

afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function start(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-prod-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [path.join(outDir, 'main.js')], {
    cwd: repo,
    env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => out, err: () => err };
}

async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Opens `POST path` with a declared body and sends only its first half: a request in flight until `finish()`. */
function halfSent(url: string, pathname: string, headers: Record<string, string>, json: unknown) {
  const body = Buffer.from(JSON.stringify(json));
  const u = new URL(url);
  const req = http.request({
    host: u.hostname,
    port: u.port,
    path: pathname,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'content-length': String(body.length) },
    agent: false,
  });
  const answer = new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.subarray(0, 5));
  return { answer, finish: () => req.end(body.subarray(5)) };
}

const refused = (url: string) =>
  checkedFetch(`${url}/ready`).then(
    () => false,
    () => true,
  );

async function listening(p: ReturnType<typeof start>): Promise<string> {
  await until(() => /listening on http/.test(p.out()), 'the cloud to listen');
  const url = /listening on (http:\/\/\S+)/.exec(p.out())![1]!;
  // its answers are held to the document it serves, read now while it answers
  await expectContract(url);
  return url;
}

describe('the production build', () => {
  it('serves from the bundle; on SIGTERM readiness says draining, the held long poll and the request in flight are answered, the process exits 0', async () => {
    expect(fs.readFileSync(path.join(outDir, 'main.js'), 'utf8')).not.toMatch(/from ["']tsx/);
    const p = start({ SHUTDOWN_DELAY_SECONDS: '2', SHUTDOWN_GRACE_SECONDS: '20' });
    const url = await listening(p);
    expect((await call(url, 'GET', '/health')).status).toBe(200);
    expect((await call(url, 'GET', '/docs')).status).toBe(200);
    const serving = await call<{ data: { status: string } }>(url, 'GET', '/ready');
    expect([serving.status, serving.body.data.status]).toEqual([200, 'ready']);
    const t = { url } as TestServer;
    const cabinet = await enrolled(t);

    let pollSettled = false;
    const poll = checkedFetch(`${url}/cabinet/pending?wait=25`, { headers: keyHeader(cabinet.key) }).then(async (r) => {
      pollSettled = true;
      return { status: r.status, body: (await r.json()) as { data: { commands: unknown[] } } };
    });
    const inFlight = halfSent(url, '/cabinet/heartbeat', keyHeader(cabinet.key), { agentVersion: '1.0.0', vmcVersion: 'sim-1' });
    await new Promise((r) => setTimeout(r, 300));
    expect(pollSettled).toBe(false);

    p.child.kill('SIGTERM');
    await until(() => p.out().includes('shutting down'), 'the shutdown to begin', 10_000);
    // the held poll is answered at once, with what the store holds
    const answered = await poll;
    expect(answered.status).toBe(200);
    expect(answered.body.data.commands).toEqual([]);
    // during the delay the listener still accepts, and readiness says draining; liveness is untouched
    const ready = await call<{ data: { status: string } }>(url, 'GET', '/ready');
    expect([ready.status, ready.body.data.status, ready.headers.get('connection')]).toEqual([503, 'draining', 'close']);
    // then the listener closes, while the request in flight still waits for the rest of its body
    await until(() => refused(url), 'the listener to close', 15_000);
    expect(p.child.exitCode).toBeNull();
    inFlight.finish();
    const hb = await inFlight.answer;
    expect(hb.status).toBe(200);
    expect(await p.exited).toBe(0);
    expect(p.out()).toMatch(/"msg":"stopped"/);
    expect(p.out()).toMatch(/"cutRequests":0/);
  });

  it('a request that never completes is cut after the grace and the process still exits', async () => {
    const p = start({ SHUTDOWN_GRACE_SECONDS: '1' });
    const url = await listening(p);
    const cabinet = await enrolled({ url } as TestServer);
    const stuck = halfSent(url, '/cabinet/heartbeat', keyHeader(cabinet.key), { agentVersion: '1.0.0' });
    const outcome = stuck.answer.then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 200));
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(await outcome).toBe('cut');
    expect(p.out()).toMatch(/"cutRequests":1/);
  });

  it.runIf(TEST_DATABASE_URL)(
    'on PostgreSQL the leader releases its lease on SIGTERM',
    async () => {
      // a database of its own: the cloud migrates the public schema of DATABASE_URL
      const name = `t_shutdown_${randomBytes(5).toString('hex')}`;
      const server = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await server.connect();
      await server.query(`create database ${name}`);
      const u = new URL(TEST_DATABASE_URL!);
      u.pathname = `/${name}`;
      const admin = new pg.Client({ connectionString: u.toString() });
      try {
        const p = start({ DATABASE_URL: u.toString(), POD_NAME: 'prod-test' });
        await listening(p);
        await admin.connect();
        const holders = async () => (await admin.query<{ holder: string }>('select holder from job_leases')).rows.map((r) => r.holder);
        await until(async () => (await holders()).length === 1, 'the lease to be taken');
        expect((await holders())[0]).toMatch(/^prod-test:/);
        p.child.kill('SIGTERM');
        expect(await p.exited).toBe(0);
        expect(await holders()).toEqual([]);
      } finally {
        await admin.end().catch(() => {});
        await server.query(`drop database if exists ${name}`);
        await server.end();
      }
      // the process migrates a fresh database before it listens: about 20 s on two busy cores
    },
    90_000,
  );
});
