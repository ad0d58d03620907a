import { scrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseServiceCodeHash, type ConfigBlock } from '@vend/protocol';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import { ALICE, BOB, enrolled, keyHeader } from '../gateway/gateway.test-support.ts';

interface ServiceCodeView {
  set: boolean;
  setAt: string | null;
  lock: { failures: number; lockedUntil: string | null } | null;
  attempts: { at: string; action: string; result: string; source: string }[];
}

function checks(code: string, hash: string): Promise<boolean> {
  const h = parseServiceCodeHash(hash)!;
  return new Promise((resolve, reject) =>
    scrypt(code, Buffer.from(h.salt, 'base64url'), 32, { N: h.N, r: h.r, p: h.p }, (err, key) =>
      err ? reject(err) : resolve(key.toString('base64url') === h.hash),
    ),
  );
}

describe.each(DIALECTS)('cabinet service code on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;

  it('the operator sets and rotates it; it is stored and delivered as a hash only; the cabinet reports attempts once each', async () => {
    const e = await enrolled(t);
    await db().updateTable('machines').set({ operator_id: 'op_sbx_alice' }).where('machine_no', '=', e.serial).execute();
    const path = `/api/v1/machines/${e.serial}/service-code`;

    let cfg = await expectStatus<ConfigBlock>(call(t.url, 'GET', '/cabinet/config', { headers: keyHeader(e.key) }), 200);
    expect(cfg.body.data.serviceCode).toBeNull();
    const none = await expectStatus<ServiceCodeView>(call(t.url, 'GET', path, { headers: ALICE }), 200);
    expect(none.body.data).toMatchObject({ set: false, setAt: null, lock: null, attempts: [] });

    const put = await expectStatus<ServiceCodeView>(call(t.url, 'PUT', path, { headers: ALICE, json: { code: '20261126' } }), 200);
    expect(put.body.data.set).toBe(true);
    expect(JSON.stringify(put.body.data)).not.toContain('20261126');
    const stored = await db().selectFrom('cabinet_settings').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain('20261126');
    cfg = await expectStatus<ConfigBlock>(call(t.url, 'GET', '/cabinet/config', { headers: keyHeader(e.key) }), 200);
    const first = cfg.body.data.serviceCode!;
    expect(first).toBe(stored.service_code_hash);
    expect(await checks('20261126', first)).toBe(true);
    expect(await checks('20261127', first)).toBe(false);

    // rotation: a new hash (new salt) that only the new code matches
    await expectStatus(call(t.url, 'PUT', path, { headers: ALICE, json: { code: '555123' } }), 200);
    cfg = await expectStatus<ConfigBlock>(call(t.url, 'GET', '/cabinet/config', { headers: keyHeader(e.key) }), 200);
    expect(await checks('555123', cfg.body.data.serviceCode!)).toBe(true);
    expect(await checks('20261126', cfg.body.data.serviceCode!)).toBe(false);

    // bad codes and strangers
    for (const code of ['12345', '1234567890123', 'abcdef']) await expectStatus(call(t.url, 'PUT', path, { headers: ALICE, json: { code } }), 400);
    await expectStatus(call(t.url, 'PUT', path, { headers: ALICE, json: { code: 123456 } }), 422);
    await expectStatus(call(t.url, 'PUT', path, { headers: BOB, json: { code: '123456' } }), 404);

    // the heartbeat's report: the lock and each attempt once, however often it is repeated
    const report = {
      failures: 0,
      lockedUntil: '2026-11-26T12:05:00.000Z',
      dropped: 0,
      attempts: [
        { id: 1, at: '2026-11-26T12:00:00.000Z', action: 'motor-test', result: 'wrong', source: 'cli' },
        { id: 2, at: '2026-11-26T12:00:01.000Z', action: 'motor-test', result: 'locked', source: 'control' },
      ],
    };
    await expectStatus(call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(e.key), json: { serviceCode: report } }), 200);
    await expectStatus(call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(e.key), json: { serviceCode: report } }), 200);
    const view = await expectStatus<ServiceCodeView>(call(t.url, 'GET', path, { headers: ALICE }), 200);
    expect(view.body.data.lock).toMatchObject({ failures: 0, lockedUntil: '2026-11-26T12:05:00.000Z' });
    expect(view.body.data.attempts.map((a) => [a.action, a.result, a.source])).toEqual([
      ['motor-test', 'locked', 'control'],
      ['motor-test', 'wrong', 'cli'],
    ]);

    await expectStatus(call(t.url, 'DELETE', path, { headers: ALICE }), 200);
    cfg = await expectStatus<ConfigBlock>(call(t.url, 'GET', '/cabinet/config', { headers: keyHeader(e.key) }), 200);
    expect(cfg.body.data.serviceCode).toBeNull();
  });
});
