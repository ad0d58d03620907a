import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT, VEND_AGENT, VMC_SIM, isolatedEnv } from './processes.ts';
import { checkedFetch, expectContract } from '@vend/cloud/testing/contract';

/**
 * Real processes for the cabinet end-to-end suites: the cloud (`apps/cloud/src/main.ts`, sandbox,
 * SQLite in a temp DATA_DIR), the board simulator (`vmc-sim` on a socat pseudo-terminal pair) and
 * the agent (`vend-agent run`). Every process is recorded and killed by its pid in `cleanup()`.
 */

export const SANDBOX = {
  fleetSecret: 'sbx-fleet-secret-4b2d',
  admin: 'vk_5bada0000000a001.sbx-admin-key-2f9c1e7d',
  alice: 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2',
} as const;

export interface Proc {
  child: ChildProcess;
  pid: number;
  /** Everything written so far. */
  out(): string;
  err(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<number | string | null>;
  kill(): Promise<number | string | null>;
}

const live = new Set<Proc>();

function spawnProc(args: string[], env: Record<string, string>, command: string = process.execPath): Proc {
  const child = spawn(command, args, { cwd: ROOT, env: isolatedEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  const proc: Proc = {
    child,
    pid: child.pid!,
    out: () => out,
    err: () => err,
    exited,
    stop: async (graceMs = 10_000) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(t);
      }
      live.delete(proc);
      return exited;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      live.delete(proc);
      return exited;
    },
  };
  live.add(proc);
  void exited.then(() => live.delete(proc));
  return proc;
}

/** Waits until `pick` finds something in the process output; fails with the output after `timeoutMs`. */
async function waitForOutput<T>(p: Proc, pick: (out: string) => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = pick(p.out());
    if (v !== undefined) return v;
    if (p.child.exitCode !== null || p.child.signalCode !== null)
      throw new Error(`${what}: exited (${p.child.exitCode ?? p.child.signalCode}) before ready\n${p.err()}\n${p.out()}`);
    if (Date.now() > until) throw new Error(`${what}: not ready after ${timeoutMs} ms\n${p.err()}\n${p.out().slice(-2000)}`);
    await sleep(25);
  }
}

/** Polls `fn` until it returns something other than undefined/false; fails after `timeoutMs` naming `what`. */
export async function waitFor<T>(fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs: number, what: string, everyMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await sleep(everyMs);
  }
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

// --- the cloud ---------------------------------------------------------------------------------

export interface CloudProc extends Proc {
  url: string;
  port: number;
  dataDir: string;
}

/** The cloud sandbox as a process. `port` 0 picks a free one (restart it on the same port to keep agents pointed at it). */
export async function startCloud(o: { dataDir: string; port?: number; env?: Record<string, string> }): Promise<CloudProc> {
  const p = spawnProc(['--import', 'tsx', 'apps/cloud/src/main.ts'], {
    DATA_DIR: o.dataDir,
    PORT: String(o.port ?? 0),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    VEND_MODE: 'sandbox',
    ...o.env,
  });
  const url = await waitForOutput(p, (out) => /listening on (http:\/\/[\d.]+:\d+)/.exec(out)?.[1], 60_000, 'cloud');
  // every answer a suite reads from it (checkedFetch, `api` below) is held to the document it serves (issue 30)
  await expectContract(url);
  return Object.assign(p, { url, port: Number(new URL(url).port), dataDir: o.dataDir });
}

/** A JSON call to the cloud's operator API (envelope `{code, message, data}`), its answer checked against the document. */
export async function api<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  key: string,
  body?: unknown,
): Promise<{ status: number; data: T; message: string }> {
  const res = await checkedFetch(base + path, {
    method,
    headers: { 'x-api-key': key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as { data: T; message: string };
  return { status: res.status, data: json.data, message: json.message };
}

// --- the board ---------------------------------------------------------------------------------

export interface SimProc extends Proc {
  port: string;
  control: string;
}

/** `vmc-sim` on a fresh pty pair; `args` add board settings and faults. */
export async function startSim(o: { link: string; args?: string[] }): Promise<SimProc> {
  const p = spawnProc([VMC_SIM, '--json', '--link', o.link, '--control-port', '0', ...(o.args ?? [])], {});
  const ready = await waitForOutput(
    p,
    (out) => {
      const line = out.split('\n').find((l) => l.includes('"event":"ready"'));
      return line ? (JSON.parse(line) as { port: string; control: string }) : undefined;
    },
    30_000,
    'vmc-sim',
  );
  return Object.assign(p, { port: ready.port, control: ready.control });
}

export interface MotorRun {
  at: number;
  seq: number;
  aisle: number;
  bootId: number;
}

export async function motorLog(sim: SimProc): Promise<MotorRun[]> {
  return (await (await fetch(`${sim.control}/motor-log`)).json()) as MotorRun[];
}

// --- the agent ---------------------------------------------------------------------------------

export interface AgentProc extends Proc {
  control: string;
  stateDir: string;
}

export interface AgentOptions {
  stateDir: string;
  cloudUrl: string;
  equipmentNo: string;
  serialPort: string;
  env?: Record<string, string>;
  args?: string[];
  /** Run a packaged release tree's launcher (`<tree>/bin/vend-agent`) instead of the sources. */
  launcher?: string;
  /** Arguments before the agent's own (with `launcher` a runtime: the bundle to run). */
  prefix?: string[];
}

export async function startAgent(o: AgentOptions): Promise<AgentProc> {
  const p = spawnProc(
    [
      ...(o.launcher ? (o.prefix ?? []) : [VEND_AGENT]),
      '--state-dir',
      o.stateDir,
      '--control-port',
      '0',
      'run',
      '--cloud-url',
      o.cloudUrl,
      '--equipment-no',
      o.equipmentNo,
      '--serial-port',
      o.serialPort,
      '--machine-id-file',
      '',
      ...(o.args ?? []),
    ],
    { VEND_AGENT_FLEET_SECRET: SANDBOX.fleetSecret, VEND_AGENT_BACKOFF_BASE_MS: '200', VEND_AGENT_BACKOFF_CAP_MS: '2000', ...o.env },
    o.launcher,
  );
  const control = await waitForOutput(
    p,
    (out) => {
      const line = out.split('\n').find((l) => l.includes('"event":"ready"'));
      return line ? (JSON.parse(line) as { control: string }).control : undefined;
    },
    30_000,
    'vend-agent',
  );
  return Object.assign(p, { control, stateDir: o.stateDir });
}

/** The control channel, authenticated with the token from the agent's state directory. */
export async function control<T = Record<string, unknown>>(
  agent: AgentProc,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(agent.control + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** Kills every process the rig started that is still running (afterAll), then removes the temp dirs given. */
export async function cleanup(...dirs: string[]): Promise<void> {
  await Promise.all([...live].map((p) => p.stop(5_000)));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
