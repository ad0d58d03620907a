import { describe, expect, it } from 'vitest';
import type { SoftwareData } from '@vend/protocol';
import { AdLoopData, ApkEquipmentData } from '@vend/protocol';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import { dispenseDecisionWork, refundSweepWork } from '../../background-jobs.ts';
import { ALICE, BOB, FLEET, aisleStock, keyHeader, enrolled, machineRow, newSerial } from '../gateway/gateway.test-support.ts';

describe.each(DIALECTS)('family-A routes on %s', (dialect) => {
  const t = suiteServer(dialect);
  const clock = t.clock;
  const db = () => t.ctx.database.db;

  it('getEquipment: first contact provisions an unseen board into the unclaimed pool, fully stocked; later contacts find it', async () => {
    const serial = newSerial('APK');
    const first = await expectStatus<ApkEquipmentData>(
      call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { machineNo: serial, apkVersion: '3.2.1', vmcVersion: 'VMC-2.4.1' } }),
      200,
    );
    const d = ApkEquipmentData.parse(first.body.data);
    expect(d).toMatchObject({ machineCode: serial, claimed: false, provisioned: true });
    expect(d.goods.aisles).toHaveLength(10);
    expect(d.goods.aisles.every((a) => a.stock === a.maxStock && a.sellable)).toBe(true);
    // family A's planogram is the one it always had: no product pictures (those are for the agent's storefront, /cabinet/goods)
    expect(first.body.data.goods.aisles.some((a) => 'imageUrl' in a)).toBe(false);
    // Spec 2 §2.5: apkVersion is written only by apkUp, not by first contact.
    expect(await machineRow(t, serial)).toMatchObject({ operator_id: null, platform: 'apk', apk_version: null, vmc_version: 'VMC-2.4.1', status: 'online' });
    const again = await expectStatus<ApkEquipmentData>(call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { equipmentNo: serial } }), 200);
    expect(again.body.data.provisioned).toBe(false);
    expect(await db().selectFrom('machines').select('id').where('machine_no', '=', serial).execute()).toHaveLength(1);
  });

  it('getEquipment needs the fleet secret, and refuses an unclaimable serial with every fault named', async () => {
    await expectStatus(call(t.url, 'POST', '/apk/getEquipment', { json: { machineNo: newSerial('APK') } }), 401);
    const r = await expectStatus(call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { machineNo: 'no good!' } }), 400);
    expect(r.body.message).toContain('letters, digits, hyphens only');
    await expectStatus(call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: {} }), 400);
  });

  it('concurrent first contacts of one serial provision it once', async () => {
    const serial = newSerial('APK');
    const all = await Promise.all(Array.from({ length: 8 }, () => call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { machineNo: serial } })));
    expect(all.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await db().selectFrom('machines').select('id').where('machine_no', '=', serial).execute()).toHaveLength(1);
    expect(
      await db().selectFrom('aisles').select('aisle_no').innerJoin('machines', 'machines.id', 'aisles.machine_id').where('machine_no', '=', serial).execute(),
    ).toHaveLength(10);
  });

  it('createOrder records a vended sale (family A has no report leg): shipped, stock taken, nothing for the refund sweeps', async () => {
    const serial = newSerial('APK');
    await expectStatus(call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { machineNo: serial } }), 200);
    const before = await aisleStock(t, serial, 4);
    const o = await expectStatus<{ orderNumber: string; payStatus: string }>(
      call(t.url, 'POST', '/apk/createOrder', { headers: FLEET, json: { machineNo: serial, aisleNo: 4, quantity: 2, payMethod: 'cash' } }),
      200,
    );
    expect(o.body.data.payStatus).toBe('shipped');
    expect(await aisleStock(t, serial, 4)).toBe(before - 2);
    // Long past every grace period, the sweeps find nothing to refund.
    clock.advance(24 * 3600_000);
    await refundSweepWork({ store: t.services.store, clock, audit: t.ctx.audit, events: t.services.events }, 0)();
    await dispenseDecisionWork({ store: t.services.store, clock, audit: t.ctx.audit, commands: t.services.commands }, 0)();
    const row = await db().selectFrom('orders').select(['pay_status', 'vended']).where('order_number', '=', o.body.data.orderNumber).executeTakeFirstOrThrow();
    expect(row).toEqual({ pay_status: 'shipped', vended: 1 });
  });

  it("createOrder opens a sale; getAd answers an unclaimed board's loop without the advertise poster (nobody sells its screen)", async () => {
    const serial = newSerial('APK');
    await expectStatus(call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { machineNo: serial } }), 200);
    const o = await expectStatus<{ orderNumber: string; amountCents: number }>(
      call(t.url, 'POST', '/apk/createOrder', { headers: FLEET, json: { machineNo: serial, aisleNo: 3, quantity: 1, payMethod: 'cash' } }),
      200,
    );
    expect(o.body.data.amountCents).toBe(150);
    const loop = await expectStatus<AdLoopData>(call(t.url, 'GET', '/apk/getAd', { headers: { ...FLEET, equipmentNo: serial } }), 200);
    const l = AdLoopData.parse(loop.body.data);
    expect(l).toEqual({ machineCode: serial, slotSeconds: 15, entries: [] });
  });

  it('saveAdRecord takes a single record or {records: [...]}; a retried showing is counted once', async () => {
    const serial = newSerial('APK');
    await expectStatus(call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { machineNo: serial } }), 200);
    const single = await expectStatus<{ accepted: number; duplicates: number }>(
      call(t.url, 'POST', '/apk/saveAdRecord', { headers: FLEET, json: { machineNo: serial, id: 'house:poster:1', playedAt: '2026-11-20T11:59:00.000+0000' } }),
      200,
    );
    expect(single.body.data).toEqual({ accepted: 1, duplicates: 0, unattributed: 0 });
    const batch = await expectStatus<{ accepted: number; duplicates: number }>(
      call(t.url, 'POST', '/apk/saveAdRecord', {
        headers: FLEET,
        json: {
          machineNo: serial,
          records: [
            { id: 'house:poster:1', playedAt: '2026-11-20T11:59:00.000+0000' },
            { id: 'house:poster:2', playedAt: Date.parse('2026-11-20T11:59:15Z'), durationMs: 15000 },
            { id: 'cmp-entry-1', campaignId: 'cmp_1', playedAt: '2026-11-20T11:59:30Z' },
          ],
        },
      }),
      200,
    );
    // An unclaimed pool cabinet has no operator, so no campaign of its: `cmp_1` is kept but credited to none.
    expect(batch.body.data).toEqual({ accepted: 2, duplicates: 1, unattributed: 1 });
    const m = await machineRow(t, serial);
    const plays = await db().selectFrom('ad_play_records').selectAll().where('machine_id', '=', m.id).orderBy('played_at').execute();
    expect(plays.map((p) => [p.entry_id, p.source, p.campaign_id])).toEqual([
      ['house:poster:1', 'house', null],
      ['house:poster:2', 'house', null],
      ['cmp-entry-1', 'direct-sold', null],
    ]);
    // A bad record refuses the whole call: nothing half-written.
    await expectStatus(
      call(t.url, 'POST', '/apk/saveAdRecord', {
        headers: FLEET,
        json: { machineNo: serial, records: [{ id: 'house:poster:3' }, { id: 'x', playedAt: 'yesterday' }] },
      }),
      400,
    );
    expect(await db().selectFrom('ad_play_records').selectAll().where('machine_id', '=', m.id).execute()).toHaveLength(3);
  });

  it('apkUp records the app version, validVmcVersion the controller firmware; an agent cabinet keeps its platform', async () => {
    const serial = newSerial('APK');
    await expectStatus(call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { machineNo: serial } }), 200);
    const up = await expectStatus<SoftwareData>(call(t.url, 'POST', '/apk/apkUp', { headers: FLEET, json: { machineNo: serial, version: '3.3.0' } }), 200);
    expect(up.body.data).toMatchObject({ apkVersion: '3.3.0', platform: 'apk', agentVersion: null });
    const vmc = await expectStatus<SoftwareData>(
      call(t.url, 'POST', '/apk/validVmcVersion', { headers: FLEET, json: { machineNo: serial, vmcVersion: 'VMC-2.5.0' } }),
      200,
    );
    expect(vmc.body.data).toMatchObject({ vmcVersion: 'VMC-2.5.0', apkVersion: '3.3.0' });
    await expectStatus(call(t.url, 'POST', '/apk/apkUp', { headers: FLEET, json: { machineNo: serial } }), 400);

    const agent = await enrolled(t);
    await expectStatus(call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(agent.key), json: { agentVersion: '1.0.0' } }), 200);
    // Spec 2 §2.5: apkVersion stays null for an agent cabinet; its apkUp is answered and not recorded.
    const both = await expectStatus<SoftwareData>(call(t.url, 'POST', '/apk/apkUp', { headers: keyHeader(agent.key), json: { apkVersion: '9.9.9' } }), 200);
    expect(both.body.data).toMatchObject({ platform: 'agent', agentVersion: '1.0.0', apkVersion: null });
    expect((await machineRow(t, agent.serial)).apk_version).toBeNull();
    // A family-A cabinet that moves to the agent (reports through /cabinet) drops its app version.
    await expectStatus(call(t.url, 'POST', '/cabinet/register', { headers: FLEET, json: { equipmentNo: serial, agentVersion: '1.0.0' } }), 200);
    expect(await machineRow(t, serial)).toMatchObject({ platform: 'agent', apk_version: null, agent_version: '1.0.0' });
  });

  it('claiming (spec 1 §3): a pool machine provisioned by first contact, with vends, moves into the operator’s fleet with its vends and terminal', async () => {
    const serial = newSerial('POOL');
    await expectStatus(call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { machineNo: serial } }), 200);
    // Two vends while unclaimed: a cabinet walk-up through /apk and one through /cabinet.
    const o1 = await expectStatus<{ orderNumber: string }>(
      call(t.url, 'POST', '/apk/createOrder', { headers: FLEET, json: { machineNo: serial, aisleNo: 1 } }),
      200,
    );
    const o2 = await expectStatus<{ orderNumber: string }>(
      call(t.url, 'POST', '/cabinet/createOrder', { headers: FLEET, json: { equipmentNo: serial, aisleNo: 2 } }),
      200,
    );
    const before = await db().selectFrom('orders').selectAll().where('order_number', 'in', [o1.body.data.orderNumber, o2.body.data.orderNumber]).execute();
    expect(before.every((o) => o.operator_id === null && o.settlement_account === 'acct_unclaimed_pool')).toBe(true);
    // The pool machine is nobody's: operators do not see it.
    await expectStatus(call(t.url, 'GET', `/api/v1/machines/${serial}`, { headers: ALICE }), 404);

    clock.advance(60_000);
    const claimed = await expectStatus<{ machineNo: string; paymentTerminal: { merchantAccount: string } }>(
      call(t.url, 'POST', '/api/v1/machines/register', { headers: ALICE, json: { machineNo: serial, name: 'Claimed kiosk' } }),
      200,
    );
    expect(claimed.body.data.machineNo).toBe(serial);
    expect(claimed.body.data.paymentTerminal.merchantAccount).toBe('acct_op_sbx_alice');
    expect(await machineRow(t, serial)).toMatchObject({ operator_id: 'op_sbx_alice', name: 'Claimed kiosk' });
    const after = await db().selectFrom('orders').selectAll().where('order_number', 'in', [o1.body.data.orderNumber, o2.body.data.orderNumber]).execute();
    expect(after.map((o) => o.operator_id)).toEqual(['op_sbx_alice', 'op_sbx_alice']);
    const listed = await expectStatus<{ records: { orderNumber: string }[] }>(
      call(t.url, 'GET', '/api/v1/orders', { headers: ALICE, query: { machineNo: serial } }),
      200,
    );
    expect(listed.body.data.records.map((r) => r.orderNumber).sort()).toEqual([o1.body.data.orderNumber, o2.body.data.orderNumber].sort());
    // The cabinet now sells for its operator.
    const o3 = await expectStatus<{ orderNumber: string }>(
      call(t.url, 'POST', '/apk/createOrder', { headers: FLEET, json: { machineNo: serial, aisleNo: 3 } }),
      200,
    );
    const third = await db().selectFrom('orders').selectAll().where('order_number', '=', o3.body.data.orderNumber).executeTakeFirstOrThrow();
    expect(third).toMatchObject({ operator_id: 'op_sbx_alice', settlement_account: 'acct_op_sbx_alice' });
    // A serial owned by another operator is 409.
    await expectStatus(call(t.url, 'POST', '/api/v1/machines/register', { headers: BOB, json: { machineNo: serial } }), 409);
  });

  it('a pool machine first seen through /cabinet/register is claimable the same way', async () => {
    const serial = newSerial('POOL');
    await expectStatus(call(t.url, 'POST', '/cabinet/register', { headers: FLEET, json: { equipmentNo: serial, agentVersion: '1.0.0' } }), 200);
    await expectStatus(call(t.url, 'POST', '/api/v1/machines/register', { headers: BOB, json: { machineNo: serial } }), 200);
    expect((await machineRow(t, serial)).operator_id).toBe('op_sbx_bob');
  });
});
