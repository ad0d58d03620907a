import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_CREDENTIALS } from './db/seed.ts';
import { checkedFetch, expectContract } from './testing/contract.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const main = path.join(here, 'main.ts');
const repo = path.resolve(here, '../../..');
const children: ChildProcess[] = [];

function run(env: Record<string, string>) {
  // One process, not the tsx CLI: tsx forks a grandchild that a SIGKILL of the CLI would leave running.
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    cwd: repo,
    env: { PATH: process.env['PATH'] ?? '', ...env },
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

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

describe('the cloud process', () => {
  it('exits 1 with a clear message on a bad configuration value', async () => {
    const p = run({ PORT: 'not-a-port', VEND_MODE: 'sandbox' });
    expect(await p.exited).toBe(1);
    expect(p.err()).toMatch(/invalid configuration:[\s\S]*PORT/);
  });

  it('refuses to start in production without its secrets', async () => {
    const p = run({ VEND_MODE: 'production' });
    expect(await p.exited).toBe(1);
    expect(p.err()).toContain('FLEET_SECRET: is required when VEND_MODE=production');
  });

  it('starts the sandbox on a SQLite file in DATA_DIR, prints its URL and credentials, and stops on SIGTERM', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-main-'));
    const p = run({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
    await until(() => p.out().includes('Try:'), 20_000);
    const url = /listening on (http:\/\/\S+)/.exec(p.out())?.[1];
    expect(url).toBeDefined();
    expect(p.out()).toContain(SANDBOX_CREDENTIALS.alice.apiKey);
    expect(fs.existsSync(path.join(dir, 'vend-sandbox.sqlite'))).toBe(true);
    await expectContract(url!);
    const health = await checkedFetch(`${url}/health`);
    expect(health.status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
