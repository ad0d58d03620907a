import { describe, expect, it } from 'vitest';
import type { ConfigBlock } from '@vend/protocol';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import { ADMIN, ALICE, BOB, enrolled, keyHeader } from '../gateway/gateway.test-support.ts';

describe.each(DIALECTS)('cabinet settings on %s', (dialect) => {
  const t = suiteServer(dialect);

  const db = () => t.ctx.database.db;

  it('config carries per-machine feature settings, authoritative over defaults and reported capabilities', async () => {
    const e = await enrolled(t);
    await db().updateTable('machines').set({ operator_id: 'op_sbx_alice' }).where('machine_no', '=', e.serial).execute();
    await expectStatus(call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(e.key), json: { capabilities: ['voiceShopper'] } }), 200);
    let cfg = await expectStatus<ConfigBlock>(call(t.url, 'GET', '/cabinet/config', { headers: keyHeader(e.key) }), 200);
    expect(cfg.body.data.features.voiceShopper).toBe(true);

    const put = await expectStatus<{ config: ConfigBlock; settings: { adminPinSet: boolean } }>(
      call(t.url, 'PUT', `/api/v1/machines/${e.serial}/cabinet-settings`, {
        headers: ALICE,
        json: { features: { voiceShopper: false, testMode: true }, pollInterval: 5, module: 'SH', adminPin: '4321', kioskUiUrl: 'https://kiosk.example/a' },
      }),
      200,
    );
    expect(put.body.data.settings.adminPinSet).toBe(true);
    cfg = await expectStatus<ConfigBlock>(call(t.url, 'GET', '/cabinet/config', { headers: keyHeader(e.key) }), 200);
    expect(cfg.body.data).toMatchObject({ pollInterval: 5, module: 'SH', adminPin: '4321', adminPinSource: 'operator', kioskUiUrl: 'https://kiosk.example/a' });
    expect(cfg.body.data.features).toMatchObject({ voiceShopper: false, testMode: true, autoRescue: true });
    // The stored PIN is sealed, never in clear.
    const stored = await db().selectFrom('cabinet_settings').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain('4321');

    // null restores the default; another operator cannot see the machine; unknown settings are refused.
    await expectStatus(
      call(t.url, 'PUT', `/api/v1/machines/${e.serial}/cabinet-settings`, { headers: ALICE, json: { features: { voiceShopper: null }, adminPin: null } }),
      200,
    );
    cfg = await expectStatus<ConfigBlock>(call(t.url, 'GET', '/cabinet/config', { headers: keyHeader(e.key) }), 200);
    expect(cfg.body.data.features.voiceShopper).toBe(true);
    expect(cfg.body.data.adminPinSource).toBe('derived');
    await expectStatus(call(t.url, 'GET', `/api/v1/machines/${e.serial}/cabinet-settings`, { headers: BOB }), 404);
    await expectStatus(call(t.url, 'PUT', `/api/v1/machines/${e.serial}/cabinet-settings`, { headers: ALICE, json: { features: { teleport: true } } }), 400);
    await expectStatus(call(t.url, 'PUT', `/api/v1/machines/${e.serial}/cabinet-settings`, { headers: ALICE, json: { pollInterval: 0 } }), 400);
    await expectStatus(call(t.url, 'PUT', `/api/v1/machines/${e.serial}/cabinet-settings`, { headers: ALICE, json: {} }), 400);
    await expectStatus(call(t.url, 'GET', `/api/v1/machines/${e.serial}/cabinet-settings`, { headers: ADMIN }), 200);
  });
});
