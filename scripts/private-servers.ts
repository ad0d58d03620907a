/**
 * A PostgreSQL and a Redis of a drill's own (test/outage-*.test.ts, scripts/bench-faults.ts), on free ports in a
 * temporary directory, so it can stop, kill and restart them without touching the machine's shared servers
 * (docs/decisions/outages.md). PostgreSQL comes from Debian's packages (`initdb`, `postgres`); it refuses to run as
 * root, so under root it runs as the `postgres` account, which owns the directory.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './cluster.ts';

/** The directory of PostgreSQL's server programs (Debian: /usr/lib/postgresql/<major>/bin), or null. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const majors = fs
    .readdirSync(root)
    .filter((d) => fs.existsSync(path.join(root, d, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? path.join(root, majors[0], 'bin') : null;
}

export function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const isRoot = process.getuid?.() === 0;

/** A PostgreSQL program's argv, as the account that owns the data directory (setpriv execs: no process between). */
function asPostgres(file: string, args: string[]): [string, string[]] {
  return isRoot ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', file, ...args]] : [file, args];
}

async function until(what: string, ms: number, probe: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** A fast shutdown (SIGINT to the postmaster, what `pg_ctl stop -m fast` sends): what an operator's restart does. */
  stop(): Promise<void>;
  /** SIGKILL to the postmaster and every backend (a crashed host). */
  kill9(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Its server log so far. */
  log(): string;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
}

/**
 * The postmaster runs as this process's own child (not daemonised by pg_ctl), so a SIGKILLed one is reaped here
 * and its stale pid file names a dead process when it starts again, as after a host's crash.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL server programs not found under /usr/lib/postgresql');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-pg-'));
  const data = path.join(dir, 'data');
  fs.mkdirSync(data);
  if (isRoot) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  fs.chmodSync(dir, 0o755);
  const [initdb, initArgs] = asPostgres(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  execFileSync(initdb, initArgs, { stdio: 'ignore' });
  const port = await freePort();
  let log = '';
  let child: ChildProcess | null = null;
  const start = async () => {
    // fsync off: a drill measures the service, not this disk; the socket directory is the test's own
    const [file, args] = asPostgres(path.join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${dir}`,
      '-c',
      'fsync=off',
      '-c',
      'max_connections=80',
    ]);
    const c = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    c.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    child = c;
    await until('PostgreSQL to accept connections', 30_000, async () => {
      if (c.exitCode !== null) throw new Error(`postgres exited ${c.exitCode}: ${log.slice(-2000)}`);
      return accepts(port);
    });
  };
  const signal = async (sig: NodeJS.Signals) => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const backends =
      sig === 'SIGKILL'
        ? execFileSync('pgrep', ['-P', String(c.pid)], { encoding: 'utf8' })
            .split('\n')
            .filter(Boolean)
            .map(Number)
        : [];
    c.kill(sig);
    for (const pid of backends) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await exited(c);
    await until('PostgreSQL to stop accepting connections', 10_000, async () => !(await accepts(port)));
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => signal('SIGINT'),
    kill9: () => signal('SIGKILL'),
    start,
    log: () => log,
    destroy: async () => {
      await signal('SIGQUIT');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** SIGKILL (nothing is kept on disk: it comes back empty, as a cache would after a crash). */
  kill(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await until('redis-server to accept connections', 10_000, () => accepts(port));
  };
  const kill = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((resolve) => c.once('exit', resolve));
    c.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, start, destroy: kill };
}
