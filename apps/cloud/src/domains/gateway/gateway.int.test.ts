import { describe, expect, it } from 'vitest';
import type { CreateOrderData } from '@vend/protocol';
import { ConfigBlock, GoodsData, HeartbeatData, PendingData, ReportData } from '@vend/protocol';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import { ADMIN, ALICE, FLEET, enrolled, keyHeader, machineRow, newDeviceId, newSerial, provision } from './gateway.test-support.ts';

describe.each(DIALECTS)('cabinet gateway legs on %s', (dialect) => {
  const t = suiteServer(dialect);
  const clock = t.clock;

  const db = () => t.ctx.database.db;

  it('every answer is the {code, message, data} envelope', async () => {
    const e = await enrolled(t);
    const r = await call(t.url, 'GET', '/cabinet/config', { headers: keyHeader(e.key) });
    expect(r.body).toEqual({ code: 200, message: 'success', data: expect.any(Object) });
    const bad = await call(t.url, 'GET', '/cabinet/config', { headers: { 'x-device-key': 'nope' } });
    expect(bad.body).toEqual({ code: 401, message: expect.any(String), data: null });
  });

  it('register of an unknown claimable serial provisions it into the unclaimed pool, fully stocked, online', async () => {
    const serial = newSerial();
    const r = await expectStatus<ConfigBlock>(
      call(t.url, 'POST', '/cabinet/register', {
        headers: FLEET,
        json: { equipmentNo: serial, agentVersion: '1.4.2', vmcVersion: 'VMC-2.4.1', deviceId: newDeviceId() },
      }),
      200,
    );
    expect(ConfigBlock.parse(r.body.data).machineCode).toBe(serial);
    const m = await machineRow(t, serial);
    expect(m).toMatchObject({
      operator_id: null,
      status: 'online',
      last_seen: clock.now(),
      agent_version: '1.4.2',
      vmc_version: 'VMC-2.4.1',
      platform: 'agent',
    });
    const aisles = await db().selectFrom('aisles').selectAll().where('machine_id', '=', m.id).execute();
    expect(aisles).toHaveLength(10);
    for (const a of aisles) {
      expect(a.current_stock).toBe(a.max_stock);
      expect(a.price_cents).toBeGreaterThan(0);
    }
    const terminal = await db().selectFrom('payment_terminals').selectAll().where('machine_id', '=', m.id).executeTakeFirstOrThrow();
    expect(terminal).toMatchObject({ operator_id: null, merchant_account: 'acct_unclaimed_pool' });
    const identity = await db().selectFrom('device_identities').selectAll().where('machine_id', '=', m.id).executeTakeFirstOrThrow();
    expect(identity).toMatchObject({ binding: 'self-asserted', cred_state: 'fleet-secret' });
  });

  it('register answers every default of the configuration block with machineCode', async () => {
    const e = await enrolled(t);
    const r = await expectStatus<ConfigBlock>(call(t.url, 'POST', '/cabinet/register', { headers: keyHeader(e.key), json: { agentVersion: '2.0.0' } }), 200);
    expect(r.body.data).toMatchObject({
      module: 'SH_YAxis',
      columnsPerRow: 10,
      rows: 6,
      pollInterval: 3,
      heartbeatInterval: 60,
      dispatchMode: 'both',
      machineCode: e.serial,
    });
    expect(r.body.data.features).toMatchObject({ autoRescue: true, voiceShopper: false, testMode: false });
    expect(r.body.data.adminPin).toMatch(/^\d{6}$/);
    expect(r.body.data.adminPinSource).toBe('derived');
    expect((await machineRow(t, e.serial)).agent_version).toBe('2.0.0');
  });

  it('heartbeat marks the machine online and records agentVersion, vmcVersion and the deferral/blocked reports', async () => {
    const e = await enrolled(t);
    const m = await machineRow(t, e.serial);
    await db().updateTable('machines').set({ status: 'offline', last_seen: 1 }).where('id', '=', m.id).execute();
    t.services.runtime.devices.presence.forget(`seen:${m.id}`);
    const deferring = { version: '1.5.0', count: 2, seconds: 40, reason: 'vend lock held' };
    const hb = await expectStatus<HeartbeatData>(
      call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(e.key), json: { agentVersion: '1.4.2', vmcVersion: 'VMC-3', deferring } }),
      200,
    );
    expect(HeartbeatData.parse(hb.body.data)).toEqual({ status: 'online', serverTime: '2026-11-20T12:00:00.000+0000' });
    expect(await machineRow(t, e.serial)).toMatchObject({
      status: 'online',
      last_seen: clock.now(),
      agent_version: '1.4.2',
      vmc_version: 'VMC-3',
      platform: 'agent',
    });
    const service = t.services.gateway;
    const first = await service.agentReports(m.id);
    expect(first.deferring).toMatchObject({ ...deferring, firstReportedAt: '2026-11-20T12:00:00.000+0000' });
    expect(first.blocked).toBeNull();

    // Still deferring the same version a minute later (after an agent restart, say): firstReportedAt holds.
    clock.advance(60_000);
    const blocked = { version: '2.0.0', minFrom: '1.5.0', count: 1, seconds: 0 };
    await expectStatus(
      call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(e.key), json: { deferring: { ...deferring, count: 3, seconds: 100 }, blocked } }),
      200,
    );
    const second = await service.agentReports(m.id);
    expect(second.deferring).toMatchObject({ count: 3, reportedAt: '2026-11-20T12:01:00.000+0000', firstReportedAt: '2026-11-20T12:00:00.000+0000' });
    expect(second.blocked).toMatchObject({ ...blocked, firstReportedAt: '2026-11-20T12:01:00.000+0000' });

    // The condition ends: both blocks clear.
    clock.advance(60_000);
    await expectStatus(call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(e.key), json: { deferring: null } }), 200);
    expect(await service.agentReports(m.id)).toEqual({ deferring: null, blocked: null });
  });

  it('polls do not write last_seen on every call: at most once per presence interval', async () => {
    const e = await enrolled(t);
    const m = await machineRow(t, e.serial);
    await expectStatus(call(t.url, 'GET', '/cabinet/pending', { headers: keyHeader(e.key) }), 200);
    const seen = (await machineRow(t, e.serial)).last_seen;
    clock.advance(3_000);
    await expectStatus(call(t.url, 'GET', '/cabinet/pending', { headers: keyHeader(e.key) }), 200);
    expect((await machineRow(t, e.serial)).last_seen).toBe(seen);
    clock.advance(t.services.runtime.devices.options.presenceIntervalMs - 3_000);
    await expectStatus(call(t.url, 'GET', '/cabinet/pending', { headers: keyHeader(e.key) }), 200);
    expect((await machineRow(t, e.serial)).last_seen).toBe(clock.now());
    expect(m.id).toBeTruthy();
  });

  it('goods lists SKUs, prices, stock, faulted lanes and the pictures the operator set on the planogram', async () => {
    const e = await enrolled(t);
    const m = await machineRow(t, e.serial);
    await db().updateTable('aisles').set({ faulted: 1 }).where('machine_id', '=', m.id).where('aisle_no', '=', 3).execute();
    await db().updateTable('aisles').set({ current_stock: 0 }).where('machine_id', '=', m.id).where('aisle_no', '=', 4).execute();
    const picture = '/media/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.png';
    await expectStatus(call(t.url, 'PUT', `/api/v1/inventory/machines/${e.serial}/aisles/2`, { headers: ADMIN, json: { imageUrl: picture } }), 200);
    const goods = async () =>
      GoodsData.parse(
        (await expectStatus<GoodsData>(call(t.url, 'GET', '/cabinet/goods', { headers: keyHeader(e.key), query: { equipmentNo: e.serial } }), 200)).body.data,
      );
    const g = await goods();
    expect(g.aisles).toHaveLength(10);
    expect(g.aisles[0]).toMatchObject({
      aisleNo: 1,
      sku: 'SKU-COLA-355',
      price: 1.75,
      priceCents: 175,
      stock: 10,
      faulted: false,
      sellable: true,
      imageUrl: null,
    });
    expect(g.aisles[1]).toMatchObject({ aisleNo: 2, imageUrl: picture });
    expect(g.aisles[2]).toMatchObject({ aisleNo: 3, faulted: true, sellable: false });
    expect(g.aisles[3]).toMatchObject({ aisleNo: 4, stock: 0, sellable: false });
    await expectStatus(call(t.url, 'PUT', `/api/v1/inventory/machines/${e.serial}/aisles/2`, { headers: ADMIN, json: { imageUrl: null } }), 200);
    expect((await goods()).aisles.map((a) => a.imageUrl)).toEqual(Array(10).fill(null));
  });

  it('selling legs work on the fleet secret for an un-enrolled cabinet (report: walk-up orders only, gateway.reports); the others need the device key', async () => {
    const serial = await provision(t);
    const h = { ...FLEET, equipmentNo: serial };
    await expectStatus(call(t.url, 'GET', '/cabinet/config', { headers: h }), 200);
    await expectStatus(call(t.url, 'GET', '/cabinet/goods', { headers: FLEET, query: { equipmentNo: serial } }), 200);
    await expectStatus(call(t.url, 'POST', '/cabinet/createOrder', { headers: FLEET, json: { equipmentNo: serial, aisleNo: 1, quantity: 1 } }), 200);
    for (const [method, path] of [
      ['POST', '/cabinet/heartbeat'],
      ['GET', '/cabinet/pending'],
      ['GET', '/cabinet/upgrade'],
    ] as const) {
      const r = await call(t.url, method, path, { headers: h, ...(method === 'POST' ? { json: { equipmentNo: serial } } : {}) });
      expect(r.status, path).toBe(401);
    }
  });

  it('createOrder opens a paid order on the machine’s operator; the report ships it and takes the stock', async () => {
    const e = await enrolled(t);
    const m = await machineRow(t, e.serial);
    await db().updateTable('machines').set({ operator_id: 'op_sbx_bob' }).where('id', '=', m.id).execute();
    t.services.runtime.devices.invalidate(m.id);
    const o = await expectStatus<CreateOrderData>(
      call(t.url, 'POST', '/cabinet/createOrder', {
        headers: keyHeader(e.key),
        json: { aisleNo: 2, quantity: 2, payMethod: 'card', cardBrand: 'visa', cardLast4: '4242' },
      }),
      200,
    );
    expect(o.body.data).toMatchObject({ aisleNo: 2, quantity: 2, amount: 2.5, amountCents: 250, payStatus: 'paid', machineCode: e.serial });
    const order = await db().selectFrom('orders').selectAll().where('order_number', '=', o.body.data.orderNumber).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ operator_id: 'op_sbx_bob', channel: 'walkup', pay_status: 'paid', vended: 0, card_brand: 'visa', card_last4: '4242' });
    expect(order.terminal_id).not.toBeNull();

    const rep = await expectStatus<ReportData>(
      call(t.url, 'POST', '/cabinet/report', {
        headers: keyHeader(e.key),
        json: { dispenseId: `d-${e.serial}-1`, orderNumber: o.body.data.orderNumber, aisleNo: 2, success: true, outcome: 'success', detail: '' },
      }),
      200,
    );
    expect(ReportData.parse(rep.body.data)).toMatchObject({ duplicate: false, kind: 'order', status: 'shipped', orderNumber: o.body.data.orderNumber });
    const after = await db().selectFrom('orders').selectAll().where('order_number', '=', o.body.data.orderNumber).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ pay_status: 'shipped', vended: 1, dispense_id: `d-${e.serial}-1` });
    const aisle = await db().selectFrom('aisles').selectAll().where('machine_id', '=', m.id).where('aisle_no', '=', 2).executeTakeFirstOrThrow();
    expect(aisle.current_stock).toBe(8);

    // The same order cannot be settled twice by another dispense.
    await expectStatus(
      call(t.url, 'POST', '/cabinet/report', {
        headers: keyHeader(e.key),
        json: { dispenseId: `d-${e.serial}-2`, orderNumber: o.body.data.orderNumber, aisleNo: 2, success: true, outcome: 'success' },
      }),
      409,
    );
  });

  it('a failed walk-up vend refunds the order and leaves the stock', async () => {
    const e = await enrolled(t);
    const o = await expectStatus<CreateOrderData>(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: 5 } }), 200);
    const rep = await expectStatus<ReportData>(
      call(t.url, 'POST', '/cabinet/report', {
        headers: keyHeader(e.key),
        json: { dispenseId: `f-${e.serial}`, orderNumber: o.body.data.orderNumber, aisleNo: 5, success: false, outcome: 'motor_jam', detail: 'lane 5 jammed' },
      }),
      200,
    );
    expect(rep.body.data.status).toBe('refunded');
    const m = await machineRow(t, e.serial);
    const aisle = await db().selectFrom('aisles').selectAll().where('machine_id', '=', m.id).where('aisle_no', '=', 5).executeTakeFirstOrThrow();
    expect(aisle.current_stock).toBe(aisle.max_stock);
  });

  it('createOrder refuses an unknown, faulted or short aisle without writing anything', async () => {
    const e = await enrolled(t);
    const m = await machineRow(t, e.serial);
    await db().updateTable('aisles').set({ faulted: 1 }).where('machine_id', '=', m.id).where('aisle_no', '=', 7).execute();
    const count = async () => (await db().selectFrom('orders').select('order_number').where('machine_id', '=', m.id).execute()).length;
    await expectStatus(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: 11 } }), 400);
    await expectStatus(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: 7 } }), 409);
    await expectStatus(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: 1, quantity: 10 } }), 200);
    await expectStatus(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: 1, quantity: 11 } }), 400);
    await expectStatus(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: '1' } }), 422);
    expect(await count()).toBe(1);
  });

  it('pending lists the remote drops enqueued through the operator API, and the report completes one as the operator ack does', async () => {
    const e = await enrolled(t);
    await db().updateTable('machines').set({ operator_id: 'op_sbx_alice' }).where('machine_no', '=', e.serial).execute();
    const cmd = await expectStatus<{ commandId: string }>(
      call(t.url, 'POST', `/api/v1/machines/${e.serial}/commands/dispense`, {
        headers: ALICE,
        json: { aisleNo: 4, reason: 'promo', externalRef: `ref-${e.serial}` },
      }),
      200,
    );
    const pending = await expectStatus<PendingData>(call(t.url, 'GET', '/cabinet/pending', { headers: keyHeader(e.key) }), 200);
    expect(PendingData.parse(pending.body.data).commands).toEqual(
      [{ commandId: cmd.body.data.commandId, aisleNo: 4, reason: 'promo', externalRef: `ref-${e.serial}`, createdAt: '2026-11-20T12:00:00.000+0000' }].map(
        (c) => ({ ...c, createdAt: expect.any(String) }),
      ),
    );

    const rep = await expectStatus<ReportData>(
      call(t.url, 'POST', '/cabinet/report', {
        headers: keyHeader(e.key),
        json: { dispenseId: `cmd-${e.serial}`, commandId: cmd.body.data.commandId, aisleNo: 4, success: true, outcome: 'success', detail: 'dropped' },
      }),
      200,
    );
    expect(rep.body.data).toMatchObject({ kind: 'command', status: 'acknowledged', commandId: cmd.body.data.commandId, duplicate: false });
    expect(rep.body.data.orderNumber).toEqual(expect.any(String));
    const viaApi = await expectStatus<{ status: string; orderNumber: string }>(
      call(t.url, 'GET', `/api/v1/machines/${e.serial}/commands/${cmd.body.data.commandId}`, { headers: ALICE }),
      200,
    );
    expect(viaApi.body.data).toMatchObject({ status: 'acknowledged', orderNumber: rep.body.data.orderNumber });
    const order = await db().selectFrom('orders').selectAll().where('order_number', '=', rep.body.data.orderNumber!).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ pay_status: 'shipped', channel: 'api_drop', operator_id: 'op_sbx_alice' });
    expect((await expectStatus<PendingData>(call(t.url, 'GET', '/cabinet/pending', { headers: keyHeader(e.key) }), 200)).body.data.commands).toEqual([]);
  });

  it('a report naming an unknown command or the wrong aisle writes nothing', async () => {
    const e = await enrolled(t);
    await db().updateTable('machines').set({ operator_id: 'op_sbx_alice' }).where('machine_no', '=', e.serial).execute();
    const cmd = await expectStatus<{ commandId: string }>(
      call(t.url, 'POST', `/api/v1/machines/${e.serial}/commands/dispense`, {
        headers: ALICE,
        json: { aisleNo: 4, reason: 'promo', externalRef: `w-${e.serial}` },
      }),
      200,
    );
    const report = (commandId: string, aisleNo: number) =>
      call(t.url, 'POST', '/cabinet/report', {
        headers: keyHeader(e.key),
        json: { dispenseId: `x-${e.serial}`, commandId, aisleNo, success: true, outcome: 'success' },
      });
    await expectStatus(report('cmd_nope', 4), 404);
    await expectStatus(report(cmd.body.data.commandId, 5), 400);
    expect(await db().selectFrom('dispense_reports').selectAll().where('dispense_id', '=', `x-${e.serial}`).execute()).toEqual([]);
    await expectStatus(report(cmd.body.data.commandId, 4), 200);
  });

  it('50 simultaneous duplicate reports of one dispenseId write one sale', async () => {
    const e = await enrolled(t);
    const m = await machineRow(t, e.serial);
    await db().updateTable('machines').set({ operator_id: 'op_sbx_alice' }).where('id', '=', m.id).execute();
    const cmd = await expectStatus<{ commandId: string }>(
      call(t.url, 'POST', `/api/v1/machines/${e.serial}/commands/dispense`, {
        headers: ALICE,
        json: { aisleNo: 6, reason: 'promo', externalRef: `c-${e.serial}` },
      }),
      200,
    );
    const body = { dispenseId: `dup-${e.serial}`, commandId: cmd.body.data.commandId, aisleNo: 6, success: true, outcome: 'success', detail: '' };
    const results = await Promise.all(
      Array.from({ length: 50 }, () => call<Body<ReportData>>(t.url, 'POST', '/cabinet/report', { headers: keyHeader(e.key), json: body })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(results.filter((r) => !r.body.data.duplicate)).toHaveLength(1);
    const first = results.find((r) => !r.body.data.duplicate)!.body.data;
    for (const r of results) expect({ ...r.body.data, duplicate: false }).toEqual(first);
    const orders = await db().selectFrom('orders').selectAll().where('machine_id', '=', m.id).execute();
    expect(orders).toHaveLength(1);
    const aisle = await db().selectFrom('aisles').selectAll().where('machine_id', '=', m.id).where('aisle_no', '=', 6).executeTakeFirstOrThrow();
    expect(aisle.current_stock).toBe(aisle.max_stock - 1);
    expect(await db().selectFrom('dispense_reports').selectAll().where('dispense_id', '=', body.dispenseId).execute()).toHaveLength(1);
  });

  it('50 simultaneous duplicate walk-up reports settle the order once and take the stock once', async () => {
    const e = await enrolled(t);
    const m = await machineRow(t, e.serial);
    const o = await expectStatus<CreateOrderData>(call(t.url, 'POST', '/cabinet/createOrder', { headers: keyHeader(e.key), json: { aisleNo: 8 } }), 200);
    const body = { dispenseId: `walk-${e.serial}`, orderNumber: o.body.data.orderNumber, aisleNo: 8, success: true, outcome: 'success' };
    const results = await Promise.all(
      Array.from({ length: 50 }, () => call<Body<ReportData>>(t.url, 'POST', '/cabinet/report', { headers: keyHeader(e.key), json: body })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    expect(results.filter((r) => !r.body.data.duplicate)).toHaveLength(1);
    const aisle = await db().selectFrom('aisles').selectAll().where('machine_id', '=', m.id).where('aisle_no', '=', 8).executeTakeFirstOrThrow();
    expect(aisle.current_stock).toBe(aisle.max_stock - 1);
    expect(await db().selectFrom('orders').selectAll().where('machine_id', '=', m.id).execute()).toHaveLength(1);
  });

  it('a local (service) dispense report takes one unit from the aisle, once', async () => {
    const e = await enrolled(t);
    const m = await machineRow(t, e.serial);
    const body = { dispenseId: `local-${e.serial}`, aisleNo: 9, success: true, outcome: 'success' };
    const a = await expectStatus<ReportData>(call(t.url, 'POST', '/cabinet/report', { headers: keyHeader(e.key), json: body }), 200);
    const b = await expectStatus<ReportData>(call(t.url, 'POST', '/cabinet/report', { headers: keyHeader(e.key), json: body }), 200);
    expect(a.body.data).toMatchObject({ kind: 'local', duplicate: false, status: null });
    expect(b.body.data).toMatchObject({ kind: 'local', duplicate: true });
    const aisle = await db().selectFrom('aisles').selectAll().where('machine_id', '=', m.id).where('aisle_no', '=', 9).executeTakeFirstOrThrow();
    expect(aisle.current_stock).toBe(aisle.max_stock - 1);
  });

  it('a dispenseId another cabinet already reported is 409', async () => {
    const a = await enrolled(t);
    const b = await enrolled(t);
    const body = { dispenseId: `shared-${a.serial}`, aisleNo: 1, success: false, outcome: 'lane_empty' };
    await expectStatus(call(t.url, 'POST', '/cabinet/report', { headers: keyHeader(a.key), json: body }), 200);
    await expectStatus(call(t.url, 'POST', '/cabinet/report', { headers: keyHeader(b.key), json: body }), 409);
  });

  it('upgrade answers nothing (data: null) until releases exist', async () => {
    const e = await enrolled(t);
    const r = await expectStatus(call(t.url, 'GET', '/cabinet/upgrade', { headers: keyHeader(e.key), query: { agentVersion: '1.0.0' } }), 200);
    expect(r.body).toEqual({ code: 200, message: 'success', data: null });
  });
});
