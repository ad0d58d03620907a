import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '@vend/protocol';
import { DEVICE_RUNTIME_DEFAULTS } from '../device-credentials/runtime.ts';
import { DIALECTS, call, startReplicas, type Replicas, type TestServer, suiteServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import { ADMIN, FLEET, arm, enrol, enrolled, keyHeader, newDeviceId, newSerial, provision } from './gateway.test-support.ts';

const SEC = 1000;
const deferral = (version = '2.0.0', count = 1) => ({ version, count, seconds: 30, reason: 'vend in progress' });
const blockedAt = (minFrom: string) => ({ version: '2.0.0', minFrom, count: 1, seconds: 60 });

async function statusRow(t: TestServer, serial: string) {
  return t.ctx.database.db
    .selectFrom('cabinet_status')
    .innerJoin('machines', 'machines.id', 'cabinet_status.machine_id')
    .select(['deferring_json', 'deferring_first_at', 'blocked_json', 'blocked_first_at'])
    .where('machines.machine_no', '=', serial)
    .executeTakeFirstOrThrow();
}

describe.each(DIALECTS)('heartbeat reports on %s', (dialect) => {
  const t = suiteServer(dialect);
  const clock = t.clock;

  const heartbeat = (key: string, body: Record<string, unknown>) =>
    expectStatus(call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(key), json: { agentVersion: '1.5.0', ...body } }), 200);

  it('firstReportedAt survives an agent restart: a deferral that clears and comes back within one check interval keeps it', async () => {
    const cab = await enrolled(t);
    const t0 = clock.now();
    await heartbeat(cab.key, { deferring: deferral() });
    expect((await statusRow(t, cab.serial)).deferring_first_at).toBe(t0);
    // The agent restarts: it heartbeats without the deferral right after register ...
    clock.advance(10 * SEC);
    await heartbeat(cab.key, { deferring: null });
    expect(await statusRow(t, cab.serial)).toMatchObject({ deferring_json: null, deferring_first_at: null });
    // ... and reports it again at its first upgrade check, about a minute later.
    clock.advance(60 * SEC);
    await heartbeat(cab.key, { deferring: deferral('2.0.0', 1) });
    expect((await statusRow(t, cab.serial)).deferring_first_at).toBe(t0);

    // A deferral of another version is a new block.
    clock.advance(10 * SEC);
    await heartbeat(cab.key, {});
    clock.advance(10 * SEC);
    await heartbeat(cab.key, { deferring: deferral('2.1.0') });
    expect((await statusRow(t, cab.serial)).deferring_first_at).toBe(clock.now());
  });

  it('a deferral that comes back after more than one check interval starts anew', async () => {
    const cab = await enrolled(t);
    await heartbeat(cab.key, { deferring: deferral() });
    clock.advance(10 * SEC);
    await heartbeat(cab.key, {});
    clock.advance(DEVICE_RUNTIME_DEFAULTS.reportRecallMs + SEC);
    await heartbeat(cab.key, { deferring: deferral() });
    expect((await statusRow(t, cab.serial)).deferring_first_at).toBe(clock.now());
  });

  it('a blocked block keeps its first time across a restart only for the same version and floor', async () => {
    const cab = await enrolled(t);
    const t0 = clock.now();
    await heartbeat(cab.key, { agentVersion: '1.0.0', blocked: blockedAt('1.5.0') });
    clock.advance(10 * SEC);
    await heartbeat(cab.key, { agentVersion: '1.0.0' });
    expect((await statusRow(t, cab.serial)).blocked_json).toBeNull();
    clock.advance(60 * SEC);
    await heartbeat(cab.key, { agentVersion: '1.0.0', blocked: blockedAt('1.5.0') });
    expect((await statusRow(t, cab.serial)).blocked_first_at).toBe(t0);
    clock.advance(10 * SEC);
    await heartbeat(cab.key, { agentVersion: '1.0.0' });
    clock.advance(60 * SEC);
    await heartbeat(cab.key, { agentVersion: '1.0.0', blocked: blockedAt('1.4.0') });
    expect((await statusRow(t, cab.serial)).blocked_first_at).toBe(clock.now());
  });

  it('a credential enrolled without a deviceId is bound to the first box that registers with it; another box is then 403', async () => {
    const serial = await provision(t, newSerial());
    await expectStatus(arm(t, serial), 200);
    const e = await expectStatus(enrol(t, serial), 200);
    const d = e.body.data as { keyId: string; deviceKey: string };
    const key = `${d.keyId}:${d.deviceKey}`;
    const box = newDeviceId();
    const register = (deviceId: string) => call(t.url, 'POST', '/cabinet/register', { headers: keyHeader(key), json: { deviceId } });
    await expectStatus(register(box), 200);
    const wrong = await expectStatus(register(newDeviceId()), 403);
    expect(wrong.body.message).toContain('other than the one this credential was enrolled to');
    await expectStatus(register(box), 200);
    const identity = await t.ctx.database.db
      .selectFrom('device_identities')
      .innerJoin('machines', 'machines.id', 'device_identities.machine_id')
      .select(['binding', 'device_id'])
      .where('machines.machine_no', '=', serial)
      .executeTakeFirstOrThrow();
    expect(identity).toEqual({ binding: 'device-id', device_id: box });
    const conflicts = await expectStatus<{ records: { machineNo?: string; presentedDeviceId?: string }[] }>(
      call(t.url, 'GET', '/api/v1/machines/identity/conflicts', { headers: ADMIN, query: { size: '100' } }),
      200,
    );
    expect(JSON.stringify(conflicts.body.data)).toContain(serial);
  });
});

/**
 * Two replicas on one store (one clock). The harness's close() closes the database it was given, so
 * each replica gets a borrowed handle and the test closes the shared store last.
 */
describe.each(DIALECTS)('heartbeat reports with two replicas on one %s store', (dialect) => {
  let replicas: Replicas;
  let a: TestServer;
  let b: TestServer;
  let clock: ManualClock;
  beforeAll(async () => {
    replicas = await startReplicas(dialect);
    ({ a, b, clock } = replicas);
  });
  afterAll(async () => replicas.close());

  it('a clearing heartbeat on one replica clears a deferral the other wrote, even when it last wrote the same clear report itself', async () => {
    const cab = await enrolled(a);
    const heartbeat = (via: TestServer, body: Record<string, unknown>) =>
      expectStatus(call(via.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(cab.key), json: { agentVersion: '1.5.0', ...body } }), 200);
    await heartbeat(b, {});
    clock.advance(60 * SEC);
    await heartbeat(a, { deferring: deferral() });
    expect((await statusRow(a, cab.serial)).deferring_json).not.toBeNull();
    clock.advance(60 * SEC);
    await heartbeat(b, {});
    expect(await statusRow(a, cab.serial)).toMatchObject({ deferring_json: null, deferring_first_at: null });
  });

  it('an unchanged report is written once however many replicas receive it', async () => {
    const cab = await enrolled(a);
    const body = { agentVersion: '1.5.0', deferring: deferral() };
    await expectStatus(call(a.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(cab.key), json: body }), 200);
    const first = await statusRow(a, cab.serial);
    clock.advance(30 * SEC);
    await expectStatus(call(b.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(cab.key), json: body }), 200);
    // Not rewritten: the stored deferral still carries the first report's time.
    expect((await statusRow(a, cab.serial)).deferring_json).toBe(first.deferring_json);
  });
});

/**
 * Walk-up sales of an un-enrolled cabinet: createOrder takes the fleet secret, so its report must be
 * able to settle the order too (else the refund sweep refunds every sale). The service takes a
 * fleet-secret report for a walk-up order of the caller's machine only; remote drops and local
 * dispenses stay device-key legs.
 */
describe.each(DIALECTS)('fleet-secret reports in the gateway service on %s', (dialect) => {
  const t = suiteServer(dialect);

  it('settles a walk-up order of the caller’s machine and refuses local dispenses and remote drops with 401', async () => {
    const serial = await provision(t, newSerial('WLK'));
    const order = await expectStatus<{ orderNumber: string }>(
      call(t.url, 'POST', '/cabinet/createOrder', { headers: FLEET, json: { equipmentNo: serial, aisleNo: 2, quantity: 1, payMethod: 'cash' } }),
      200,
    );
    const report = (body: Record<string, unknown>) =>
      call<Body<Record<string, unknown>>>(t.url, 'POST', '/cabinet/report', {
        headers: FLEET,
        json: { equipmentNo: serial, aisleNo: 2, success: true, outcome: 'ok', detail: '', ...body },
      });
    expect((await report({ dispenseId: `d-${serial}-1` })).status).toBe(401);
    expect((await report({ dispenseId: `d-${serial}-2`, commandId: 'cmd_x' })).status).toBe(401);
    const r = (await expectStatus<Record<string, unknown>>(report({ dispenseId: `d-${serial}-3`, orderNumber: order.body.data.orderNumber }), 200)).body.data;
    expect(r).toMatchObject({ kind: 'order', status: 'shipped', duplicate: false });
    const stored = await t.ctx.database.db
      .selectFrom('orders')
      .select(['pay_status', 'vended'])
      .where('order_number', '=', order.body.data.orderNumber)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ pay_status: 'shipped', vended: 1 });
  });
});
