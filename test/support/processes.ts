import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const VMC_SIM = `${ROOT}firmware-sim/bin/vmc-sim.js`;
export const VEND_AGENT = `${ROOT}apps/agent/bin/vend-agent.js`;

/**
 * The environment for a spawned service: this one, with a Redis namespace of its own. CI shares one
 * Redis server between runs, and the sandbox keys are the same in every run, so without it a
 * rate-limit counter left by an earlier run (or a neighbouring test) would spend this one's budget.
 */
export function isolatedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, REDIS_KEY_PREFIX: `test-${randomBytes(6).toString('hex')}:`, ...extra };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (killed after `timeoutMs`); `input` is written to its stdin, `env` replaces the environment. */
export function run(bin: string, args: string[], timeoutMs = 30_000, opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: ROOT,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      ...(opts.env ? { env: opts.env } : {}),
    });
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface Running {
  child: ChildProcess;
  ready: Record<string, unknown>;
  stderr: () => string;
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s). Resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts a long-running command that prints one JSON "ready" line on stdout when it is up. */
export function start(bin: string, args: string[], timeoutMs = 20_000): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const stop = async (): Promise<number | null> => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(t);
      return code;
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready after ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0 && timer) {
        clearTimeout(timer);
        try {
          resolve({ child, ready: JSON.parse(out.slice(0, nl)) as Record<string, unknown>, stderr: () => err, stop });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before ready: ${err}`));
    });
  });
}
