import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { ServiceGate, controlVerdict, hashCode } from '../service/index.ts';
import { startTestControl } from './control.test-support.ts';

const root = mkdtempSync(join(tmpdir(), 'agent-service-ctl-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('control channel: the service code for the kiosk UI', () => {
  it('POST /v1/service/check answers 403 wrong (with what is left), 423 locked, 200 ok, 409 without a code; bearer required', async () => {
    const clock = new ManualClock(Date.parse('2026-11-26T12:00:00Z'));
    let hash: string | null = await hashCode('135790', Buffer.alloc(16, 1));
    const gate = new ServiceGate({ file: join(root, 'g.json'), clock, hash: () => (hash ? { hash, source: 'cloud' } : null), log: () => {} });
    const server = await startTestControl({
      service: {
        status: () => gate.status(),
        check: async (code, action) => controlVerdict(await gate.check(code, action, 'control'), clock),
      },
    });
    const check = async (code: string, token = 'tok') => {
      const res = await fetch(`${server.url}/v1/service/check`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ code, action: 'network' }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    try {
      expect((await check('135790', 'nope')).status).toBe(401);
      expect(gate.status().unreported).toBe(0);
      expect(await check('135790')).toEqual({ status: 200, body: { result: 'ok', message: 'service code accepted' } });
      for (let i = 1; i <= 4; i++) expect((await check('000000')).body).toMatchObject({ result: 'wrong', remaining: 5 - i, lockedUntil: null });
      const fifth = await check('12'); // malformed still counts
      expect(fifth.status).toBe(403);
      expect(fifth.body).toMatchObject({ result: 'wrong', remaining: 0, lockedUntil: '2026-11-26T12:05:00.000Z' });
      expect(await check('135790')).toMatchObject({ status: 423, body: { result: 'locked', lockedUntil: '2026-11-26T12:05:00.000Z' } });
      const status = (await (await fetch(`${server.url}/v1/service`, { headers: { authorization: 'Bearer tok' } })).json()) as Record<string, unknown>;
      expect(status).toMatchObject({ codeSet: true, source: 'cloud', remaining: 0, lockedUntil: '2026-11-26T12:05:00.000Z', unreported: 7 });
      clock.advance(300_000);
      expect((await check('135790')).status).toBe(200);
      hash = null;
      expect(await check('135790')).toMatchObject({ status: 409, body: { result: 'no-code' } });
      const bad = await fetch(`${server.url}/v1/service/check`, {
        method: 'POST',
        headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
        body: JSON.stringify({ code: '135790', action: 'teleport' }),
      });
      expect(bad.status).toBe(400);
    } finally {
      await server.close();
    }
  });
});
