import { afterEach, describe, expect, it } from 'vitest';
import { HeartbeatRequest, ManualClock } from '@vend/protocol';
import { DIALECTS, TEST_EPOCH, call, freshDatabase, startTestServer, suiteServer, type TestServer } from '../../testing/harness.ts';
import { okData, type Body } from '../../testing/answers.ts';
import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { newOperator } from '../machines/machines.factories.ts';
import { verifyWebhook } from '../../http/webhook-signature.ts';
import { refundSweepWork } from '../../background-jobs.ts';
import type { Delivery, Endpoint, EndpointWithSecret } from './webhooks.schemas.ts';
import { DISABLE_AFTER_FAILURES, FIRST_BACKOFF_MS, RETRY_WINDOW_MS } from './webhooks.rules.ts';
import { startReceiver, type Receiver } from './webhooks.test-support.ts';
import { commandsApi, machineId, paidOrder, setAisle } from '../commands/commands.test-support.ts';
import { paidPurchase, qrOf } from '../ad-purchases/ad-purchases.test-support.ts';
import type { EventType } from './webhook-events.ts';

type H = Record<string, string>;
const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
const TIMEOUT_MS = 200;

describe.each(DIALECTS)('outbound webhooks on %s', (dialect) => {
  const t = suiteServer(dialect, { env: { RATE_LIMIT_PER_HOUR: '100000' }, services: { webhookTimeoutMs: TIMEOUT_MS } });
  const db = () => t.ctx.database.db;
  const receivers: Receiver[] = [];
  const api = <T>(method: string, path: string, headers: H, json?: unknown, query?: Record<string, string>) =>
    call<Body<T>>(t.url, method, `/api/v1/webhooks${path}`, { headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });
  const receiver = async () => {
    const r = await startReceiver();
    receivers.push(r);
    return r;
  };
  const subscribe = async (headers: H, url: string, eventTypes: EventType[]) => {
    const r = await api<EndpointWithSecret>('POST', '', headers, { url, eventTypes });
    return okData(r);
  };
  const emit = (operatorId: string, type: EventType, machineNo: string | null, data: Record<string, unknown> = {}) =>
    t.services.store.transaction((tx) => t.services.events.emit(tx, { operatorId, type, machineNo, data }));
  const tick = () => t.services.webhookDelivery.deliverDue();
  /** One of alice's cabinets calling the gateway with its device key (the heartbeat tests). */
  const cabinetCaller = async (machine: string) => ({
    machineId: await machineId(t, machine),
    machineNo: machine,
    operatorId: OPERATOR_IDS.alice,
    retired: false,
    via: 'device-key' as const,
    keyId: null,
    generation: null,
    credentialDeviceId: null,
    provisioned: false,
  });
  const deliveries = async (headers: H, id: string) => (await api<{ records: Delivery[] }>('GET', `/${id}/deliveries`, headers)).body.data.records;
  const signed = (secret: string, r: Receiver['got'][number]) =>
    verifyWebhook({
      secret,
      timestamp: r.headers['x-vend-timestamp'],
      signature: r.headers['x-vend-signature'],
      rawBody: Buffer.from(r.body),
      nowMs: t.clock.now(),
    });

  afterEach(async () => {
    await db().deleteFrom('webhook_endpoints').execute();
    for (const r of receivers.splice(0)) await r.close();
  });

  it('creates, lists, rotates and deletes endpoints; the secret is shown once and sealed at rest; others get 404', async () => {
    const me = await newOperator(db(), t.clock.now());
    const other = await newOperator(db(), t.clock.now());
    const ep = await subscribe(me.headers, 'http://127.0.0.1:9/hook', ['machine.offline', 'order.paid', 'machine.offline']);
    expect(ep).toMatchObject({ url: 'http://127.0.0.1:9/hook', eventTypes: ['machine.offline', 'order.paid'], enabled: true, consecutiveFailures: 0 });
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const stored = await db().selectFrom('webhook_endpoints').select('secret_sealed').where('id', '=', ep.id).executeTakeFirstOrThrow();
    expect(stored.secret_sealed).not.toContain(ep.secret);
    const listed = (await api<Endpoint[]>('GET', '', me.headers)).body.data;
    expect(listed).toEqual([{ ...ep, secret: undefined }].map(({ secret: _, ...rest }) => rest));
    expect((await api('GET', `/${ep.id}`, other.headers)).status).toBe(404);
    expect((await api('DELETE', `/${ep.id}`, other.headers)).status).toBe(404);
    expect((await api('POST', `/${ep.id}/rotate-secret`, other.headers)).status).toBe(404);
    const rotated = (await api<EndpointWithSecret>('POST', `/${ep.id}/rotate-secret`, me.headers)).body.data;
    expect(rotated.secret).not.toBe(ep.secret);
    expect((await api('DELETE', `/${ep.id}`, me.headers)).status).toBe(200);
    expect((await api<Endpoint[]>('GET', '', me.headers)).body.data).toEqual([]);
  });

  it('refuses wrong types with 422, out-of-rule values and URLs with credentials with 400', async () => {
    const me = await newOperator(db(), t.clock.now());
    expect((await api('POST', '', me.headers, { url: 5, eventTypes: ['order.paid'] })).status).toBe(422);
    expect((await api('POST', '', me.headers, { url: 'https://x.test/h', eventTypes: 'order.paid' })).status).toBe(422);
    expect((await api('POST', '', me.headers, { url: 'not a url', eventTypes: ['order.paid'] })).status).toBe(400);
    expect((await api('POST', '', me.headers, { url: 'https://x.test/h', eventTypes: ['order.eaten'] })).status).toBe(400);
    expect((await api('POST', '', me.headers, { url: 'https://x.test/h', eventTypes: [] })).status).toBe(400);
    expect((await api('POST', '', me.headers, { url: 'ftp://x.test/h', eventTypes: ['order.paid'] })).status).toBe(400);
    expect((await api('POST', '', me.headers, { url: 'https://u:p@x.test/h', eventTypes: ['order.paid'] })).status).toBe(400);
  });

  it('the test event arrives signed with the current secret, carrying its event id; the delivery shows the response code', async () => {
    const me = await newOperator(db(), t.clock.now());
    const rx = await receiver();
    const ep = await subscribe(me.headers, rx.url, ['order.paid']);
    const d = (await api<Delivery>('POST', `/${ep.id}/test`, me.headers)).body.data;
    expect(d).toMatchObject({ type: 'webhook.test', status: 'delivered', attempts: 1, responseCode: 200 });
    expect(rx.got).toHaveLength(1);
    const got = rx.got[0]!;
    expect(signed(ep.secret, got)).toEqual({ ok: true });
    expect(got.json).toMatchObject({ id: d.eventId, type: 'webhook.test', machineNo: null, data: { endpointId: ep.id } });
    expect(got.headers['x-vend-event-id']).toBe(d.eventId);
    // after a rotation, the old secret no longer verifies
    const rotated = (await api<EndpointWithSecret>('POST', `/${ep.id}/rotate-secret`, me.headers)).body.data;
    await api('POST', `/${ep.id}/test`, me.headers);
    expect(signed(rotated.secret, rx.got[1]!)).toEqual({ ok: true });
    expect(signed(ep.secret, rx.got[1]!)).toEqual({ ok: false, reason: 'signature does not match' });
  });

  it('sends only subscribed types, none for a rolled-back change, and keeps each machine in commit order across a 5xx', async () => {
    const me = await newOperator(db(), t.clock.now());
    const rx = await receiver();
    const ep = await subscribe(me.headers, rx.url, ['machine.offline', 'machine.online']);
    expect(await emit(me.id, 'order.paid', 'M-A')).toBeNull();
    await expect(
      t.services.store.transaction(async (tx) => {
        await t.services.events.emit(tx, { operatorId: me.id, type: 'machine.offline', machineNo: 'M-A', data: { rolledBack: true } });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    const a1 = await emit(me.id, 'machine.offline', 'M-A');
    const a2 = await emit(me.id, 'machine.online', 'M-A');
    const b1 = await emit(me.id, 'machine.offline', 'M-B');
    rx.plan.push(503); // the first request (machine A's first event) fails
    await tick();
    // A's second event waits behind its first; B is not held up by A
    expect(rx.got.map((g) => g.json.id).sort()).toEqual([a1, b1].sort());
    expect(rx.got.find((g) => g.json.id === a1)).toBeDefined();
    await tick();
    expect(rx.got).toHaveLength(2); // A's retry is not due yet and nothing jumps it
    const failed = (await deliveries(me.headers, ep.id)).find((d) => d.eventId === a1)!;
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, responseCode: 503, lastError: 'HTTP 503' });
    t.clock.advance(FIRST_BACKOFF_MS);
    await tick();
    await tick();
    const forA = rx.got.filter((g) => g.json.machineNo === 'M-A').map((g) => g.json.id);
    expect(forA).toEqual([a1, a1, a2]);
    expect(rx.got.some((g) => g.json.data['rolledBack'])).toBe(false);
    const all = await deliveries(me.headers, ep.id);
    expect(all.every((d) => d.status === 'delivered' && d.responseCode === 200)).toBe(true);
    expect(new Set(rx.got.map((g) => g.json.type))).toEqual(new Set(['machine.offline', 'machine.online']));
  });

  it('an attempt with no answer within the timeout is retried later and then delivered', async () => {
    const me = await newOperator(db(), t.clock.now());
    const rx = await receiver();
    const ep = await subscribe(me.headers, rx.url, ['aisle.out']);
    const id = await emit(me.id, 'aisle.out', 'M-T', { aisleNo: 3 });
    rx.plan.push('hang');
    await tick();
    const [d] = await deliveries(me.headers, ep.id);
    expect(d).toMatchObject({ status: 'pending', attempts: 1, responseCode: null, lastError: `no response within ${TIMEOUT_MS} ms` });
    t.clock.advance(FIRST_BACKOFF_MS);
    await tick();
    expect((await deliveries(me.headers, ep.id))[0]).toMatchObject({ status: 'delivered', attempts: 2, responseCode: 200 });
    expect(rx.got.map((g) => g.json.id)).toEqual([id, id]);
  });

  it(`backs off exponentially; ${DISABLE_AFTER_FAILURES} failures in a row disable the endpoint until it is enabled again`, async () => {
    const me = await newOperator(db(), t.clock.now());
    const rx = await receiver();
    const ep = await subscribe(me.headers, rx.url, ['dispense.failed']);
    await emit(me.id, 'dispense.failed', 'M-D');
    rx.plan.push(...Array.from({ length: DISABLE_AFTER_FAILURES + 5 }, () => 500));
    const waits: number[] = [];
    for (let i = 0; i < DISABLE_AFTER_FAILURES + 3; i++) {
      await tick();
      const [d] = await deliveries(me.headers, ep.id);
      if (d?.nextAttemptAt) {
        const next = Date.parse(d.nextAttemptAt.replace('+0000', 'Z'));
        waits.push(next - t.clock.now());
        t.clock.advance(next - t.clock.now());
      }
    }
    expect(waits.slice(0, 4)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(Math.max(...waits)).toBe(3_600_000);
    expect(rx.got).toHaveLength(DISABLE_AFTER_FAILURES);
    const now = (await api<Endpoint>('GET', `/${ep.id}`, me.headers)).body.data;
    expect(now).toMatchObject({ enabled: false, consecutiveFailures: DISABLE_AFTER_FAILURES });
    expect(now.disabledAt).not.toBeNull();
    // a disabled endpoint receives nothing new
    expect(await emit(me.id, 'dispense.failed', 'M-D')).toBeNull();
    rx.plan.splice(0);
    expect((await api<Endpoint>('POST', `/${ep.id}/enable`, me.headers)).body.data).toMatchObject({ enabled: true, consecutiveFailures: 0 });
    await tick();
    expect((await deliveries(me.headers, ep.id))[0]).toMatchObject({ status: 'delivered', attempts: DISABLE_AFTER_FAILURES + 1 });
  });

  it('gives a delivery up once its next try would fall past 24 h after the event', async () => {
    const me = await newOperator(db(), t.clock.now());
    const rx = await receiver();
    const ep = await subscribe(me.headers, rx.url, ['aisle.fault']);
    await emit(me.id, 'aisle.fault', 'M-G');
    const a2 = await emit(me.id, 'aisle.fault', 'M-G');
    rx.plan.push(500, 500);
    await tick();
    t.clock.advance(RETRY_WINDOW_MS - 10_000); // the next try (30 s later) would be past the window
    await tick();
    const list = await deliveries(me.headers, ep.id);
    expect(list.find((d) => d.eventId !== a2)).toMatchObject({ status: 'failed', attempts: 2, nextAttemptAt: null });
    await tick(); // the machine's next event is no longer held behind it
    expect(rx.got.at(-1)!.json.id).toBe(a2);
  });

  it('wires command.expired, dispense.failed, command.acknowledged and order.refund_owed from the services that own them', async () => {
    const rx = await receiver();
    const types: EventType[] = ['command.expired', 'dispense.failed', 'command.acknowledged', 'order.refund_owed'];
    const ep = await subscribe(alice, rx.url, types);
    const machine = 'SBX-ALICE-0001';
    const { enqueue: enqueueCmd, ack } = commandsApi(() => t);
    const enqueue = async (aisleNo: number) => {
      const r = await enqueueCmd({ aisleNo, reason: 'webhook test' }, alice, machine);
      return okData(r).commandId;
    };
    const failedCmd = await enqueue(1);
    expect((await ack(failedCmd, { success: false, outcome: 'motor_jam', detail: 'aisle 1 jammed' }, alice, machine)).status).toBe(200);
    const okCmd = await enqueue(2);
    expect((await ack(okCmd, { success: true, outcome: 'success', detail: '' }, alice, machine)).status).toBe(200);
    const lateCmd = await enqueue(3);
    t.clock.advance(1000);
    expect(await t.services.commands.expireOverdue(500)).toBeGreaterThanOrEqual(1);
    // a paid order no vend reached, flagged by the refund sweep
    const owed = await paidOrder(t, { machineNo: machine, createdAt: t.clock.now() - 10, aisleNo: 4 });
    await refundSweepWork({ store: t.services.store, clock: t.clock, audit: t.ctx.audit, events: t.services.events }, 0)();
    for (let i = 0; i < 5; i++) await tick();
    const byType = (type: string) => rx.got.filter((g) => g.json.type === type).map((g) => g.json);
    expect(byType('dispense.failed')).toEqual([
      expect.objectContaining({ machineNo: machine, data: expect.objectContaining({ commandId: failedCmd, outcome: 'motor_jam' }) }),
    ]);
    expect(byType('command.acknowledged')).toEqual([expect.objectContaining({ data: expect.objectContaining({ commandId: okCmd, aisleNo: 2 }) })]);
    expect(byType('command.expired').map((e) => e.data['commandId'])).toContain(lateCmd);
    expect(byType('order.refund_owed')).toEqual([
      expect.objectContaining({ machineNo: machine, data: expect.objectContaining({ orderNumber: owed, chargedCents: 175 }) }),
    ]);
    // one machine, one stream: they arrived in the order the changes committed
    expect(rx.got.map((g) => g.json.type)).toEqual(['dispense.failed', 'command.acknowledged', 'command.expired', 'order.refund_owed']);
    expect(ep.eventTypes).toEqual(types);
  });

  it('wires order.paid, aisle.low and aisle.out from the sale, and aisle.fault from the operator’s edit', async () => {
    const rx = await receiver();
    await subscribe(alice, rx.url, ['order.paid', 'aisle.low', 'aisle.out', 'aisle.fault']);
    const machine = 'SBX-ALICE-0002';
    await setAisle(t, machine, 6, { stock: 2, faulted: false, priceCents: 125 });
    await db()
      .updateTable('aisles')
      .set({ alert_threshold: 1 })
      .where('machine_id', '=', await machineId(t, machine))
      .where('aisle_no', '=', 6)
      .execute();
    const m = { machineId: await machineId(t, machine), machineNo: machine };
    const first = await t.services.sales.openWalkup(m, { aisleNo: 6, quantity: 1, payMethod: 'cash' }, { vended: true });
    await t.services.sales.openWalkup(m, { aisleNo: 6, quantity: 1, payMethod: 'cash' }, { vended: true });
    const patch = await call(t.url, 'PUT', `/api/v1/inventory/machines/${machine}/aisles/7`, { headers: alice, json: { faulted: true } });
    expect(patch.status, patch.text).toBe(200);
    await call(t.url, 'PUT', `/api/v1/inventory/machines/${machine}/aisles/7`, { headers: alice, json: { faulted: true } }); // already faulted: no second event
    for (let i = 0; i < 6; i++) await tick();
    const seen = rx.got.map((g) => [g.json.type, g.json.data['aisleNo']]);
    // the stock leaves the aisle as the sale is recorded, before the order is announced, in one transaction
    expect(seen).toEqual([
      ['aisle.low', 6],
      ['order.paid', 6],
      ['aisle.out', 6],
      ['order.paid', 6],
      ['aisle.fault', 7],
    ]);
    expect(rx.got[1]!.json.data).toMatchObject({ orderNumber: first.orderNumber, chargedCents: 125, payMethod: 'cash' });
    expect(rx.got[0]!.json.data).toMatchObject({ stock: 1, alertThreshold: 1 });
  });

  it('wires campaign.approved and campaign.rejected from the operator’s decision on a paid ad purchase', async () => {
    const rx = await receiver();
    await subscribe(alice, rx.url, ['campaign.approved', 'campaign.rejected']);
    const source = { machineNo: 'SBX-ALICE-0001', qrId: qrOf(t, 'SBX-ALICE-0001') };
    const approved = await paidPurchase(t, { source });
    const rejected = await paidPurchase(t, { source });
    const decide = (id: string, action: string, json: Record<string, unknown>) =>
      call(t.url, 'POST', `/api/v1/ad-purchases/${id}/${action}`, { headers: alice, json });
    expect((await decide(approved.purchaseId, 'approve', {})).status).toBe(200);
    expect((await decide(rejected.purchaseId, 'reject', { reason: 'not on our screens' })).status).toBe(200);
    for (let i = 0; i < 3; i++) await tick();
    expect(rx.got.map((g) => [g.json.type, g.json.data['purchaseId'], g.json.data['reason']])).toEqual([
      ['campaign.approved', approved.purchaseId, null],
      ['campaign.rejected', rejected.purchaseId, 'not on our screens'],
    ]);
    expect(rx.got[0]!.json.data['campaignId']).toEqual(expect.any(String));
  });

  it('wires agent.upgrade_blocked once per block an agent reports, not on every heartbeat carrying it', async () => {
    const rx = await receiver();
    await subscribe(alice, rx.url, ['agent.upgrade_blocked']);
    const machine = 'SBX-ALICE-0001';
    const caller = await cabinetCaller(machine);
    const beat = (blocked: { version: string; minFrom: string } | null, seconds: number) =>
      t.services.gateway.heartbeat(caller, HeartbeatRequest.parse({ agentVersion: '1.0.0', blocked: blocked && { ...blocked, count: 1, seconds } }));
    await beat({ version: '2.0.0', minFrom: '1.5.0' }, 10);
    t.clock.advance(60 * 60 * 1000);
    await beat({ version: '2.0.0', minFrom: '1.5.0' }, 3610); // the same block, still reported
    t.clock.advance(60 * 60 * 1000);
    await beat({ version: '2.1.0', minFrom: '1.5.0' }, 5); // a new release, blocked too
    for (let i = 0; i < 3; i++) await tick();
    expect(rx.got.map((g) => [g.json.type, g.json.machineNo, g.json.data['version']])).toEqual([
      ['agent.upgrade_blocked', machine, '2.0.0'],
      ['agent.upgrade_blocked', machine, '2.1.0'],
    ]);
  });

  it('wires agent.upgrade_reverted once per revert the agent reports (it repeats its last one in every heartbeat)', async () => {
    const rx = await receiver();
    await subscribe(alice, rx.url, ['agent.upgrade_reverted']);
    const machine = 'SBX-ALICE-0002';
    const caller = await cabinetCaller(machine);
    const revert = (version: string, at: string) => ({ version, from: '1.0.0', reason: `${version} did not reach the cloud within 300 s of booting`, at });
    const beat = (reverted: ReturnType<typeof revert> | null) =>
      t.services.gateway.heartbeat(caller, HeartbeatRequest.parse({ agentVersion: '1.0.0', ...(reverted ? { reverted } : {}) }));
    await beat(null);
    await beat(revert('2.0.0', '2026-11-20T11:00:00.000Z'));
    t.clock.advance(60 * 60 * 1000);
    await beat(revert('2.0.0', '2026-11-20T11:00:00.000Z')); // the same revert, carried on
    t.clock.advance(60 * 60 * 1000);
    await beat(revert('2.0.1', '2026-11-20T13:30:00.000Z')); // the next release reverted too
    for (let i = 0; i < 3; i++) await tick();
    expect(rx.got.map((g) => [g.json.type, g.json.machineNo, g.json.data['version'], g.json.data['from']])).toEqual([
      ['agent.upgrade_reverted', machine, '2.0.0', '1.0.0'],
      ['agent.upgrade_reverted', machine, '2.0.1', '1.0.0'],
    ]);
  });

  it('wires dfy.checkpoint_raised from the deal that raises it, once per checkpoint', async () => {
    const rx = await receiver();
    await subscribe(alice, rx.url, ['dfy.checkpoint_raised']);
    const made = await call<Body<{ id: string; openCheckpoints: { id: string; kind: string }[] }>>(t.url, 'POST', '/api/v1/dfy/deals', {
      headers: alice,
      json: { tier: 'pro', hardwareVariant: 'agent' },
    });
    expect(made.status, made.text).toBe(200);
    for (let i = 0; i < 3; i++) await tick();
    const raised = made.body.data.openCheckpoints;
    expect(raised.length).toBeGreaterThan(0);
    expect(rx.got.map((g) => g.json.data)).toEqual(raised.map((c) => expect.objectContaining({ dealId: made.body.data.id, checkpointId: c.id, kind: c.kind })));
    expect(rx.got.every((g) => g.json.type === 'dfy.checkpoint_raised' && g.json.machineNo === null)).toBe(true);
  });
});

describe.each(DIALECTS)('outbound webhooks across a crash on %s', (dialect) => {
  it('an event committed before a crash is delivered exactly once by the replica that carries on, even with two ticking at once', async () => {
    const database = await freshDatabase(dialect);
    const borrowed = { ...database, close: async () => {} };
    const clock = new ManualClock(TEST_EPOCH);
    const rx = await startReceiver();
    const servers: TestServer[] = [];
    try {
      const first = await startTestServer(dialect, { database: borrowed, clock });
      servers.push(first);
      const ep = (
        await call<Body<EndpointWithSecret>>(first.url, 'POST', '/api/v1/webhooks', { headers: alice, json: { url: rx.url, eventTypes: ['order.paid'] } })
      ).body.data;
      const id = await first.services.store.transaction((tx) =>
        first.services.events.emit(tx, { operatorId: OPERATOR_IDS.alice, type: 'order.paid', machineNo: 'SBX-ALICE-0001', data: {} }),
      );
      await first.close(); // the change committed; nothing was sent before the "crash"
      servers.length = 0;
      const [b, c] = [
        await startTestServer(dialect, { database: borrowed, clock, seed: false }),
        await startTestServer(dialect, { database: borrowed, clock, seed: false }),
      ];
      servers.push(b, c);
      await Promise.all([b.services.webhookDelivery.deliverDue(), c.services.webhookDelivery.deliverDue()]);
      clock.advance(60 * 60 * 1000);
      await Promise.all([b.services.webhookDelivery.deliverDue(), c.services.webhookDelivery.deliverDue()]);
      expect(rx.got.map((g) => g.json.id)).toEqual([id]);
      expect(
        verifyWebhook({
          secret: ep.secret,
          timestamp: rx.got[0]!.headers['x-vend-timestamp'],
          signature: rx.got[0]!.headers['x-vend-signature'],
          rawBody: Buffer.from(rx.got[0]!.body),
          nowMs: clock.now() - 60 * 60 * 1000,
        }),
      ).toEqual({ ok: true });
    } finally {
      for (const s of servers) await s.close();
      await rx.close();
      await database.close();
    }
  });
});
