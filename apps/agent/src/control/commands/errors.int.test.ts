import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { Server as HttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_CODES, main } from '../../cli.ts';
import { fsProblem } from './errors.ts';

// What a technician sees when the state directory cannot be used, and when the control channel takes
// a dispense but never answers: one clear line and a documented exit code, never a stack trace.

const root = mkdtempSync(join(tmpdir(), 'agent-cli-errors-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

async function cli(env: Record<string, string>, args: string[], agent: { dispenseTimeoutMs?: number } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const none = join(root, 'none.json');
  writeFileSync(none, '{}');
  const code = await main(['node', 'vend-agent', ...args], {
    env: { VEND_AGENT_CONFIG: none, VEND_AGENT_CONTROL_PORT: '1', ...env },
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    agent,
  });
  return { code, out: out.join(''), err: err.join('') };
}

describe('a state directory that cannot be used', () => {
  it('--state-dir naming a regular file: exit 78 and one line, for every command that reads it', async () => {
    const file = join(root, `plain-file-${n++}`);
    writeFileSync(file, 'not a directory\n');
    for (const args of [['status'], ['credential', 'show'], ['config', 'show'], ['logs'], ['dispense', '--aisle', '1']]) {
      const r = await cli({}, ['--state-dir', file, ...args]);
      expect(r.code, args.join(' ')).toBe(EXIT_CODES.config);
      expect(r.err, args.join(' ')).not.toMatch(/internal error|\n\s+at /);
      expect(r.err.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.err, args.join(' ')).toMatch(/cannot use .*plain-file.*not a directory.*--state-dir/);
    }
  });

  it('run with a state directory that is a file: exit 78, not "another agent is running"', async () => {
    const file = join(root, `plain-file-${n++}`);
    writeFileSync(file, 'x');
    const r = await cli({ VEND_AGENT_CLOUD_URL: 'http://127.0.0.1:1', VEND_AGENT_EQUIPMENT_NO: 'SBX-ALICE-0001' }, [
      '--state-dir',
      file,
      'run',
      '--serial-port',
      '/dev/null-nope',
    ]);
    expect(r.code).toBe(EXIT_CODES.config);
    expect(r.err).toMatch(/state directory .*plain-file.* is not a directory/);
  });

  it('maps a permission error to exit 77 with the path and what to do (the seam the CLI uses)', () => {
    const e = Object.assign(new Error("EACCES: permission denied, open '/var/lib/vend-agent/control-token'"), {
      code: 'EACCES',
      syscall: 'open',
      path: '/var/lib/vend-agent/control-token',
    });
    expect(fsProblem(e)).toEqual({ message: 'cannot read /var/lib/vend-agent/control-token: run as root or as the vend-agent user', exit: 77 });
    expect(fsProblem(Object.assign(new Error('x'), { code: 'EPERM', syscall: 'rename', path: '/s/credential' }))?.message).toMatch(
      /cannot write \/s\/credential/,
    );
    expect(fsProblem(new Error('a bug'))).toBeNull();
    expect(EXIT_CODES.noPermission).toBe(77);
  });

  // A real unprivileged process against a root-owned 0700 state directory (tests run as root here; skipped elsewhere).
  const canDrop = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');
  it.skipIf(!canDrop)('as an unprivileged user against a 0700 state directory: exit 77, one line, no stack', () => {
    chmodSync(root, 0o755); // the config file readable by anyone; the state directory below is not
    const dir = join(root, `private-${n++}`);
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'control-token'), 'tok\n', { mode: 0o600 });
    writeFileSync(join(dir, 'agent.log'), '{}\n', { mode: 0o640 });
    const bin = resolve(import.meta.dirname, '../../../bin/vend-agent.js');
    for (const [args, file] of [
      [['status'], 'control-token'],
      [['credential', 'show'], 'credential'],
      [['logs'], 'agent.log'],
    ] as const) {
      const r = spawnSync(
        '/usr/bin/setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, bin, '--state-dir', dir, '--control-port', '1', ...args],
        { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', VEND_AGENT_CONFIG: join(root, 'none.json') } },
      );
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(EXIT_CODES.noPermission);
      expect(r.stderr).toBe(`error: cannot read ${join(dir, file)}: run as root or as the vend-agent user\n`);
    }
  });
});

describe('dispense when the control channel takes the request but does not answer', () => {
  const sockets: Socket[] = [];
  const servers: Server[] = [];
  afterAll(() => {
    for (const s of sockets) s.destroy();
    for (const s of servers) s.close();
  });
  async function listen(onSocket: (s: Socket) => void): Promise<number> {
    const server = createServer((s) => {
      sockets.push(s);
      s.on('error', () => {});
      onSocket(s);
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as { port: number }).port;
  }
  function stateDir(): string {
    const dir = join(root, `c${n++}`);
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'control-token'), 'tok\n', { mode: 0o600 });
    return dir;
  }

  it('a timeout is not "daemon not running": exit 9, the vend may still be in progress, where to look', async () => {
    const port = await listen(() => {}); // reads the request, never answers
    const r = await cli({ VEND_AGENT_STATE_DIR: stateDir(), VEND_AGENT_CONTROL_PORT: String(port) }, ['dispense', '--aisle', '3'], { dispenseTimeoutMs: 300 });
    expect(r.code).toBe(EXIT_CODES.outcomeUnknown);
    expect(r.err).toMatch(/took the request but gave no answer \(no answer within/);
    expect(r.err).toMatch(/aisle 3 may still be in progress: check `vend-agent status` and the last vends \(GET \/v1\/vends\)/);
    expect(r.err).not.toMatch(/not running/);
  });

  it('a connection dropped after the request was sent is the same: exit 9', async () => {
    const port = await listen((s) => s.once('data', () => s.destroy()));
    const r = await cli({ VEND_AGENT_STATE_DIR: stateDir(), VEND_AGENT_CONTROL_PORT: String(port) }, ['dispense', '--aisle', '2'], {
      dispenseTimeoutMs: 5_000,
    });
    expect(r.code).toBe(EXIT_CODES.outcomeUnknown);
  });

  it('nobody listening is still "daemon not running": exit 5', async () => {
    const r = await cli({ VEND_AGENT_STATE_DIR: stateDir() }, ['dispense', '--aisle', '3']);
    expect(r.code).toBe(EXIT_CODES.daemonDown);
    expect(r.err).toMatch(/does not answer/);
  });
});

describe('a control channel that answers 200 with something else than its contract', () => {
  const servers: HttpServer[] = [];
  afterAll(() => {
    for (const s of servers) s.close();
  });
  /** A fake daemon answering every request 200 with `body` (a string is sent as is). */
  async function daemonAnswering(body: unknown): Promise<{ port: number; dir: string }> {
    const server = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const dir = join(root, `c${n++}`);
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'control-token'), 'tok\n', { mode: 0o600 });
    return { port: (server.address() as { port: number }).port, dir };
  }
  const env = (d: { port: number; dir: string }) => ({ VEND_AGENT_STATE_DIR: d.dir, VEND_AGENT_CONTROL_PORT: String(d.port) });

  it('status: a body without the status fields is refused with one line naming them, exit 76 (not "all well")', async () => {
    const r = await cli(env(await daemonAnswering({ ok: true })), ['status']);
    expect(r.code).toBe(EXIT_CODES.badAnswer);
    expect(r.out).toBe('');
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(
      /^error: the agent's control channel at http:\/\/127\.0\.0\.1:\d+ answered GET \/v1\/status with something this vend-agent does not understand \(agent: .*enrolment: /,
    );
    expect(r.err).not.toMatch(/internal error|\n\s+at /);
  });

  it('enrol: an unknown enrolment state is refused, exit 76', async () => {
    const r = await cli(env(await daemonAnswering({ state: 'half-enrolled', message: 'hmm' })), ['enrol']);
    expect(r.code).toBe(EXIT_CODES.badAnswer);
    expect(r.err).toMatch(/answered POST \/v1\/enrol with something this vend-agent does not understand \(state: /);
  });

  it('dispense: a 200 that is not JSON means the outcome is unknown (exit 9), never "vended"', async () => {
    const r = await cli(env(await daemonAnswering('<html>oops</html>')), ['dispense', '--aisle', '4']);
    expect(r.code).toBe(EXIT_CODES.outcomeUnknown);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/answered POST \/v1\/dispense with something this vend-agent does not understand \(not JSON\)/);
    expect(r.err).toMatch(/aisle 4 may still be in progress/);
  });

  it('dispense: a result without `success` is not taken for a failed vend either (exit 9)', async () => {
    const result = {
      dispenseId: 'walkup:ord_1',
      kind: 'order',
      commandId: null,
      orderNumber: 'ord_1',
      aisle: 4,
      outcome: 'success',
      detail: 'ok',
      motorRan: 'yes',
    };
    const r = await cli(env(await daemonAnswering(result)), ['dispense', '--aisle', '4']);
    expect(r.code).toBe(EXIT_CODES.outcomeUnknown);
    expect(r.err).toMatch(/\(success: /);
  });
});
