/**
 * N replicas of the production build on one PostgreSQL and one Redis, behind nginx (Debian's package,
 * installed by scripts/setup; its configuration is apps/cloud/packaging/nginx-cluster.conf):
 *
 *   scripts/cluster [--replicas 3] [--port 8080] [--database-url postgres://…] [--redis-url redis://…]
 *
 * The first replica migrates and seeds the store before the others start; nginx listens on 127.0.0.1:<port>
 * and spreads requests over the replicas, skipping one that refuses connections. One replica leads the
 * background loops (the lease in Redis); SIGKILL it and another leads within the lease TTL plus one tick.
 * Ctrl-C stops every replica gracefully (SIGTERM), then nginx. Also used as a module by test/cluster.test.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildCloud, CLOUD, ROOT } from './build-cloud.ts';

const NGINX_CONF = path.join(CLOUD, 'packaging/nginx-cluster.conf');

export interface ClusterOptions {
  replicas: number;
  /** nginx's port on 127.0.0.1; 0 picks a free one. */
  port: number;
  databaseUrl: string;
  /** Without it the leader lease is the PostgreSQL store's row and cross-replica push is LISTEN/NOTIFY. */
  redisUrl?: string;
  /** The built cloud (scripts/build-cloud); built into apps/cloud/dist when absent. */
  main?: string;
  /** Settings given to every replica (LOG_LEVEL, JOBS_…). */
  env?: Record<string, string>;
  /** Directives added to nginx's location block (a benchmark's `add_header X-Served-By $upstream_addr always;`). */
  nginxExtra?: string;
}

export interface Replica {
  /** POD_NAME, the prefix of its lease holder: `cluster-1` … */
  name: string;
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Everything it wrote to stdout so far (pino's JSON lines). */
  out(): string;
}

export interface Cluster {
  /** nginx: the address clients use. */
  url: string;
  replicas: Replica[];
  /** Directory of nginx's configuration, logs and the replicas' shared DATA_DIR. */
  runDir: string;
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 now (the OS's pick). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
}

function startReplica(main: string, name: string, port: number, env: Record<string, string>): Promise<Replica> {
  const child = spawn(process.execPath, [main], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), POD_NAME: name, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = exitOf(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const started = out.includes('listening on');
      out += d.toString();
      if (!started && out.includes('listening on')) resolve({ name, url: `http://127.0.0.1:${port}`, child, exited, out: () => out });
    });
    void exited.then((code) => reject(new Error(`replica ${name} exited ${code} before listening: ${(err || out).slice(-2000)}`)));
  });
}

function startNginx(runDir: string, port: number, replicas: Replica[], extra: string): ChildProcess {
  const upstreams = replicas.map((r) => `server ${new URL(r.url).host} max_fails=1 fail_timeout=2s;`).join('\n    ');
  const conf = fs
    .readFileSync(NGINX_CONF, 'utf8')
    .replaceAll('@RUN_DIR@', runDir)
    .replaceAll('@LISTEN@', `127.0.0.1:${port}`)
    .replace('@UPSTREAMS@', upstreams)
    .replace('@SERVER_EXTRA@', extra);
  fs.writeFileSync(path.join(runDir, 'nginx.conf'), conf);
  // -e: the log nginx writes before it has read the configuration (the default is under /var/log)
  return spawn('nginx', ['-p', runDir, '-e', path.join(runDir, 'nginx-error.log'), '-c', path.join(runDir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function untilServing(url: string, nginx: ChildProcess, runDir: string): Promise<void> {
  const end = Date.now() + 15_000;
  for (;;) {
    if (nginx.exitCode !== null)
      throw new Error(`nginx exited ${nginx.exitCode}: ${fs.readFileSync(path.join(runDir, 'nginx-error.log'), 'utf8').slice(-2000)}`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > end) throw new Error(`nginx at ${url} did not answer /health within 15 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const main = o.main ?? (await buildCloud()).main;
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-cluster-'));
  const dataDir = path.join(runDir, 'data');
  fs.mkdirSync(dataDir);
  const env = { ...o.env, DATABASE_URL: o.databaseUrl, ...(o.redisUrl ? { REDIS_URL: o.redisUrl } : {}), DATA_DIR: dataDir };
  const ports = await Promise.all(Array.from({ length: o.replicas }, () => freePort()));
  const replicas: Replica[] = [];
  let nginx: ChildProcess | null = null;
  const stop = async () => {
    for (const r of replicas) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
    await Promise.all(replicas.map((r) => r.exited));
    if (nginx && nginx.exitCode === null) {
      nginx.kill('SIGQUIT');
      await exitOf(nginx);
    }
    fs.rmSync(runDir, { recursive: true, force: true });
  };
  try {
    // the first replica migrates the store and seeds it; the others join a ready store
    replicas.push(await startReplica(main, 'cluster-1', ports[0]!, env));
    replicas.push(...(await Promise.all(ports.slice(1).map((p, i) => startReplica(main, `cluster-${i + 2}`, p, env)))));
    const port = o.port || (await freePort());
    nginx = startNginx(runDir, port, replicas, o.nginxExtra ?? '');
    const url = `http://127.0.0.1:${port}`;
    await untilServing(url, nginx, runDir);
    return { url, replicas, runDir, stop };
  } catch (err) {
    for (const r of replicas) r.child.kill('SIGKILL');
    await stop();
    throw err;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      replicas: { type: 'string', default: '3' },
      port: { type: 'string', default: '8080' },
      'database-url': { type: 'string', default: process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/vend' },
      'redis-url': { type: 'string', default: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' },
    },
  });
  const cluster = await startCluster({
    replicas: Number(values.replicas),
    port: Number(values.port),
    databaseUrl: values['database-url'],
    redisUrl: values['redis-url'],
    env: { LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn' },
  });
  for (const r of cluster.replicas) process.stdout.write(`cluster: ${r.name} (pid ${r.child.pid}) at ${r.url}\n`);
  process.stdout.write(`cluster: nginx at ${cluster.url} (Ctrl-C stops everything)\n`);
  const stop = () => void cluster.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
