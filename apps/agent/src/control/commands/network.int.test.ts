import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { EXIT_CODES, main } from '../../cli.ts';
import { MemoryNetworkBackend } from '../../network/memory-backend.ts';
import { NetworkProvisioner } from '../../network/provisioner.ts';
import { ServiceGate, hashCode } from '../../service/index.ts';
import { StateDir } from '../../state/state-dir.ts';
import { startTestControl } from '../control.test-support.ts';
import type { ControlServer } from '../server.ts';
import { networkControl } from '../network-api.ts';

// `vend-agent network set` in process against a control channel whose daemon side is the real
// provisioner on the in-memory backend; one manual clock for both.

const dir = mkdtempSync(join(tmpdir(), 'agent-network-cli-'));
const clock = new ManualClock(Date.parse('2026-11-26T12:00:00Z'));
const backend = new MemoryNetworkBackend();
let server: ControlServer;

beforeAll(async () => {
  new StateDir(dir).ensure();
  writeFileSync(join(dir, 'control-token'), 'tok\n', { mode: 0o600 });
  backend.seed('Wired connection 1');
  backend.air.set('shop-wifi', 'correct horse');
  const hash = await hashCode('135790', Buffer.alloc(16, 3));
  const gate = new ServiceGate({ file: join(dir, 'service-code.json'), clock, hash: () => ({ hash, source: 'cloud' }), log: () => {} });
  const network = new NetworkProvisioner({
    file: join(dir, 'network.json'),
    backend,
    clock,
    random: (n) => Buffer.alloc(n, 4),
    reachable: () => Promise.resolve(backend.current?.startsWith('vend-') ?? false),
    log: { info: () => {}, warn: () => {} },
  });
  server = await startTestControl({ network: networkControl(network, gate, clock) });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the command while the manual clock moves on (the CLI polls once a second). */
async function cli(args: string[], secrets: { code: string; psk: string }) {
  const out: string[] = [];
  const err: string[] = [];
  let exit: number | null = null;
  const running = main(['node', 'vend-agent', '--state-dir', dir, '--control-port', String(server.port), 'network', ...args], {
    clock,
    env: {},
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    agent: { readSecret: (prompt) => Promise.resolve(prompt.startsWith('service') ? secrets.code : secrets.psk) },
  }).then((code) => (exit = code));
  for (let i = 0; i < 400 && exit === null; i++) {
    clock.advance(500);
    await new Promise((r) => setTimeout(r, 2));
  }
  await running;
  return { exit, out: out.join(''), err: err.join('') };
}

describe('vend-agent network set', () => {
  it('asks for the passphrase and the service code, switches, and follows the switch to its end', async () => {
    const ok = await cli(['set', '--wifi', 'shop-wifi'], { code: '135790', psk: 'correct horse' });
    expect(ok.exit, ok.err).toBe(EXIT_CODES.ok);
    expect(ok.err).toMatch(/switching to wifi:shop-wifi \(vend-1\)/);
    expect(ok.out).toMatch(/active +vend-1/);
    expect(ok.out).toMatch(/wifi:shop-wifi: connected/);

    const wrongPsk = await cli(['set', '--wifi', 'shop-wifi'], { code: '135790', psk: 'wrong horse' });
    expect(wrongPsk.exit, wrongPsk.err).toBe(EXIT_CODES.networkReverted);
    expect(wrongPsk.out).toMatch(/active +vend-1/);
    expect(wrongPsk.out).toMatch(/reverted/);
    expect(backend.current).toBe('vend-1');
  });

  it('a wrong service code switches nothing (exit 10); flags naming no network or two are usage errors', async () => {
    const wrong = await cli(['set', '--ethernet', 'eth0'], { code: '000000', psk: '' });
    expect(wrong.exit).toBe(EXIT_CODES.serviceRefused);
    expect(wrong.err).toMatch(/refused: wrong service code/);
    expect(backend.calls.filter((c) => c.startsWith('add'))).toHaveLength(2);
    expect((await cli(['set', '--wifi', 'a', '--ethernet', 'eth0'], { code: '', psk: '' })).exit).toBe(EXIT_CODES.usage);
    const badPsk = await cli(['set', '--wifi', 'shop-wifi'], { code: '135790', psk: 'short' });
    expect(badPsk.exit).toBe(EXIT_CODES.usage);
    expect(badPsk.err).toMatch(/psk: 8 to 63 printable ASCII/);
  });
});
