import { describe, expect, it } from 'vitest';
import { EXIT_CODES, main } from './cli.ts';
import type { SerialTransport } from './vmc/transport.ts';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, deps: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) } };
}

const udevadmMissing: SerialTransport = {
  open: async () => {
    throw new Error('ENOENT: no such file or directory');
  },
  list: async () => {
    throw new Error('spawn udevadm ENOENT');
  },
};
const twoPorts: SerialTransport = {
  open: async () => {
    throw new Error('ENOENT');
  },
  list: async () => [{ path: '/dev/ttyUSB0', manufacturer: 'FTDI' }, { path: '/dev/ttyS0' }],
};
const argv = (...a: string[]): string[] => ['node', 'vend-agent', ...a];

describe('vend-agent CLI', () => {
  it('vmc ports survives a port listing that throws (no udevadm)', async () => {
    const { out, err, deps } = io();
    expect(await main(argv('vmc', 'ports'), { ...deps, transport: udevadmMissing })).toBe(EXIT_CODES.ok);
    expect(err.join('')).toMatch(/cannot list serial ports: spawn udevadm ENOENT/);
    expect(out.join('')).toMatch(/no serial ports found/);
    const j = io();
    expect(await main(argv('vmc', 'ports', '--json'), { ...j.deps, transport: udevadmMissing })).toBe(EXIT_CODES.ok);
    expect(JSON.parse(j.out.join(''))).toEqual({ ports: [], error: 'cannot list serial ports: spawn udevadm ENOENT' });
  });

  it('vmc ports lists what the OS knows', async () => {
    const { out, deps } = io();
    expect(await main(argv('vmc', 'ports'), { ...deps, transport: twoPorts })).toBe(EXIT_CODES.ok);
    expect(out.join('')).toBe('/dev/ttyUSB0  (FTDI)\n/dev/ttyS0\n');
  });

  it('vmc test without --port is a usage error that suggests ports, even when listing fails', async () => {
    const a = io();
    expect(await main(argv('vmc', 'test'), { ...a.deps, transport: twoPorts })).toBe(EXIT_CODES.usage);
    expect(a.err.join('')).toMatch(/--port <path> is required[\s\S]*\/dev\/ttyUSB0, \/dev\/ttyS0/);
    const b = io();
    expect(await main(argv('vmc', 'test'), { ...b.deps, transport: udevadmMissing })).toBe(EXIT_CODES.usage);
    expect(b.err.join('')).toMatch(/cannot list serial ports/);
  });

  it('vmc test on a port that never opens exits 2 with the reason, after the asked attempts', async () => {
    const { out, deps } = io();
    let opens = 0;
    const t: SerialTransport = { ...udevadmMissing, open: async () => (opens++, Promise.reject(new Error('ENOENT: no such file'))) };
    const code = await main(argv('vmc', 'test', '--port', '/dev/ttyNOPE', '--open-attempts', '3', '--json'), {
      ...deps,
      transport: t,
      timings: { openBackoffMs: 1 },
    });
    expect(code).toBe(EXIT_CODES.boardUnavailable);
    expect(opens).toBe(3);
    expect(JSON.parse(out.join(''))).toMatchObject({
      ok: false,
      error: { code: 'board_unavailable', message: expect.stringMatching(/after 3 attempts: ENOENT/) },
    });
  });

  it('rejects bad options with the usage exit code', async () => {
    const { deps } = io();
    expect(await main(argv('vmc', 'test', '--port', '/dev/x', '--open-attempts', '0'), deps)).toBe(EXIT_CODES.usage);
    expect(await main(argv('vmc', 'frobnicate'), deps)).toBe(EXIT_CODES.usage);
    expect(await main(argv('nope'), deps)).toBe(EXIT_CODES.usage);
    expect(await main(argv(), deps)).toBe(EXIT_CODES.usage); // help on stderr, nothing was asked
    expect(await main(argv('vmc'), deps)).toBe(EXIT_CODES.usage);
  });

  it('documents its exit codes in help', async () => {
    const { out, deps } = io();
    expect(await main(argv('vmc', 'test', '--help'), deps)).toBe(EXIT_CODES.ok);
    expect(out.join('')).toMatch(/Exit codes:[\s\S]*0 +the board answered and reports no faults[\s\S]*64 +bad usage/);
    const top = io();
    expect(await main(argv('--help'), top.deps)).toBe(EXIT_CODES.ok);
    expect(top.out.join('').replace(/\s+/g, ' ')).toMatch(/77 a state-directory file this user cannot read or write \(run as root or as the vend-agent user\)/);
  });
});
