import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '@vend/protocol';
import type { ControlUpgradeCheck, ControlUpgradeProgress } from '@vend/protocol';
import { EXIT_CODES } from '../exit-codes.ts';
import { upgradeMain } from './cli.ts';

/**
 * `vend-agent upgrade check` against a local control channel: a small HTTP server that answers the two
 * routes the command uses as a daemon would while it downloads (progress growing poll by poll) and
 * then the check's outcome. The command's real path: configuration, control token, HTTP, rendering.
 */

const MiB = 1024 * 1024;
const TOTAL = 40 * MiB;

interface FakeDaemon {
  port: number;
  stateDir: string;
  authorisations: (string | undefined)[];
  close(): Promise<void>;
}

const open: FakeDaemon[] = [];
afterEach(async () => {
  for (const d of open.splice(0)) await d.close();
});

/** A control channel whose download advances `step` bytes per progress poll; the check answers `outcome` once it is whole. */
async function fakeDaemon(step: number, outcome: ControlUpgradeCheck = { result: 'installed', version: '1.4.0', from: '1.3.0' }): Promise<FakeDaemon> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-upgrade-check-'));
  fs.writeFileSync(path.join(stateDir, 'control-token'), 'tok-123\n');
  let received = 0;
  let polls = 0;
  const waiting: (() => void)[] = [];
  const authorisations: (string | undefined)[] = [];
  const server = http.createServer((req, res) => {
    authorisations.push(req.headers.authorization);
    const send = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/v1/upgrade/progress') {
      polls++;
      const p: ControlUpgradeProgress =
        received >= TOTAL
          ? { state: 'installing', version: '1.4.0' }
          : { state: 'downloading', version: '1.4.0', received, total: TOTAL, elapsedMs: polls * 1000 };
      received = Math.min(TOTAL, received + step);
      if (received >= TOTAL) setTimeout(() => waiting.splice(0).forEach((w) => w()), 30);
      return send(p);
    }
    if (req.method === 'POST' && req.url === '/v1/upgrade/check') {
      if (received >= TOTAL) return send(outcome);
      waiting.push(() => send(outcome));
      return;
    }
    res.statusCode = 404;
    send({ error: 'not-found', message: req.url });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const d: FakeDaemon = {
    port: (server.address() as AddressInfo).port,
    stateDir,
    authorisations,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
  open.push(d);
  return d;
}

async function check(d: { port: number; stateDir: string }, isTTY: boolean, ...extra: string[]) {
  let out = '';
  let err = '';
  const code = await upgradeMain(['node', 'vend-agent', 'upgrade', 'check', '--state-dir', d.stateDir, '--control-port', String(d.port), ...extra], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    clock: systemClock,
    env: {},
    isTTY,
    pollMs: 10,
  });
  return { code, out, err };
}

describe('vend-agent upgrade check', () => {
  it('not on a terminal: one progress line per 10 %, then the outcome on stdout', async () => {
    const d = await fakeDaemon(TOTAL / 40);
    const r = await check(d, false);
    expect(r.code, r.err).toBe(EXIT_CODES.ok);
    expect(r.out).toBe('installed 1.4.0 (from 1.3.0); the agent restarts into it now\n');
    const lines = r.err.trimEnd().split('\n');
    expect(lines.map((l) => Number(/(\d+)%/.exec(l)?.[1]))).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(lines[5]).toMatch(/^downloading 1\.4\.0 {3}50% {2}20\.0 MiB of 40\.0 MiB {2}\d+(\.\d+)? (KiB|MiB)\/s {2}about \d+ s left$/);
    expect(r.err).not.toContain('\r');
    // the control token of the state directory went with every request
    expect(new Set(d.authorisations)).toEqual(new Set(['Bearer tok-123']));
  });

  it('on a terminal: the line is redrawn in place, and ended before the outcome', async () => {
    const d = await fakeDaemon(TOTAL / 8);
    const r = await check(d, true);
    expect(r.code).toBe(EXIT_CODES.ok);
    const frames = r.err.split('\r').filter(Boolean);
    expect(frames.length).toBeGreaterThanOrEqual(8);
    expect(frames[0]).toMatch(/^downloading 1\.4\.0 {4}0% {2}0 B of 40\.0 MiB/);
    expect(frames[4]).toMatch(/ 50% {2}20\.0 MiB of 40\.0 MiB {2}[\d.]+ MiB\/s/);
    expect(frames.every((f) => f.includes('\x1b[K'))).toBe(true);
    expect(r.err.endsWith('\n')).toBe(true);
  });

  it('--json prints the outcome; --no-progress shows none; a refusal exits 6', async () => {
    const refused: ControlUpgradeCheck = { result: 'refused', step: 4, code: 'wrong-arch', reason: '1.4.0 has no artifact for arm64', version: '1.4.0' };
    const d = await fakeDaemon(TOTAL / 4, refused);
    const r = await check(d, false, '--json', '--no-progress');
    expect(r.code).toBe(EXIT_CODES.refused);
    expect(JSON.parse(r.out)).toEqual(refused);
    expect(r.err).toBe('');
  });

  it('no daemon: says so and exits 5', async () => {
    const d = await fakeDaemon(TOTAL);
    const port = d.port;
    await d.close();
    open.splice(0);
    const r = await check({ port, stateDir: fs.mkdtempSync(path.join(os.tmpdir(), 'vend-upgrade-check-')) }, false);
    expect(r.code).toBe(EXIT_CODES.daemonDown);
    expect(r.err).toMatch(/does not answer[^]*is the agent running/);
  });
});
