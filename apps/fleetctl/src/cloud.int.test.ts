import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES, main } from './cli.ts';
import { silentProgress } from './progress.ts';

/**
 * vendctl against a cloud that answers 200 with data of the wrong shape (a different version of the
 * cloud, a proxy, a bug): every answer is parsed with the cloud's own schemas (@vend/protocol), so a
 * mismatch is one clear line naming the field and exit 69 — never a table of "undefined".
 */

const rollout = {
  targetVersion: '1.2.0',
  phase: 'rolling',
  canary: [],
  percent: 10,
  allowDowngrade: false,
  note: '',
  holdReason: null,
  heldAt: null,
  setAt: '2026-11-20T12:00:00.000+0000',
  updatedAt: '2026-11-20T12:00:00.000+0000',
};

/** What the fake cloud answers next, by path. */
let answers: Record<string, unknown> = {};
let server: Server;
let url = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const body = JSON.stringify({ code: 0, message: 'ok', data: answers[path] ?? null });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function vendctl(...args: string[]) {
  let out = '';
  let err = '';
  const code = await main(['node', 'vendctl', ...args], {
    env: { VEND_CLOUD_URL: url, VEND_API_KEY: 'k' },
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    progress: silentProgress,
  });
  return { code, out, err };
}

describe('a malformed answer from the cloud', () => {
  it('releases: a record without its sha256 is refused, naming the field', async () => {
    answers = { '/api/v1/agent/releases': { total: 1, records: [{ version: '1.0.0', size: 10 }] } };
    const r = await vendctl('releases');
    expect(r.code).toBe(EXIT_CODES.unavailable);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^vendctl: GET \/api\/v1\/agent\/releases: the cloud answered 200 with data vendctl does not understand \(records\.0\.sha256: /);
    expect(r.err.trimEnd().split('\n')).toHaveLength(1);
  });

  it('rollout show: an unknown phase is refused', async () => {
    answers = { '/api/v1/agent/rollout': { ...rollout, phase: 'paused' } };
    const r = await vendctl('rollout', 'show');
    expect(r.code).toBe(EXIT_CODES.unavailable);
    expect(r.err).toMatch(/GET \/api\/v1\/agent\/rollout: .*phase: /);
  });

  it('fleet: a view without its machines is refused (not rendered as an empty fleet)', async () => {
    answers = {
      '/api/v1/agent/fleet': { target: null, rollout: null, total: 3, eligible: 0, onTarget: 0, pinned: 0, deferring: 0, blocked: 0, byVersion: {} },
    };
    const r = await vendctl('fleet', '--json');
    expect(r.code).toBe(EXIT_CODES.unavailable);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/machines: /);
  });

  it('unpin: a non-object answer is refused', async () => {
    answers = { '/api/v1/machines/CAB-1/agent/pin': 'removed' };
    const r = await vendctl('unpin', 'CAB-1');
    expect(r.code).toBe(EXIT_CODES.unavailable);
    expect(r.err).toMatch(/DELETE \/api\/v1\/machines\/CAB-1\/agent\/pin: .*\(\(data\): /);
  });

  it('a well-formed answer with a field this vendctl does not know is accepted', async () => {
    answers = { '/api/v1/agent/rollout': { ...rollout, addedLater: true } };
    const r = await vendctl('rollout', 'show');
    expect(r.err).toBe('');
    expect(r.code).toBe(EXIT_CODES.ok);
    expect(r.out).toBe('rollout 1.2.0 rolling — 10% of the rest\n');
  });
});
