import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { DEVICE_CREDENTIAL_HEADER, DEVICE_KEY_ID_PATTERN, DEVICE_SECRET_PATTERN, DEVICE_WITNESS_HEADER, type ManualClock } from '@vend/protocol';
import { DIALECTS, call, startTestServer, type TestServer, suiteServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import {
  ADMIN,
  ALICE,
  BOB,
  FACTORY,
  FLEET,
  arm,
  enrol,
  enrolled,
  keyHeader,
  machineRow,
  newDeviceId,
  newSerial,
  provision,
} from '../gateway/gateway.test-support.ts';
import type { FleetData } from './device-credentials.schemas.ts';

const pending = (t: TestServer, key: string, extra: Record<string, string> = {}) => call(t.url, 'GET', '/cabinet/pending', { headers: keyHeader(key, extra) });

async function fleetEntry(t: TestServer, serial: string) {
  const r = await expectStatus<FleetData>(call(t.url, 'GET', '/api/v1/machines/device-credentials/fleet', { headers: ADMIN, query: { size: '100' } }), 200);
  const all = r.body.data.machines;
  // machines[] is paged by machineNo; walk the pages until the serial shows up.
  for (let page = 2; !all.some((m) => m.machineNo === serial) && (page - 1) * 100 < r.body.data.total; page++) {
    const next = await expectStatus<FleetData>(
      call(t.url, 'GET', '/api/v1/machines/device-credentials/fleet', { headers: ADMIN, query: { size: '100', page: String(page) } }),
      200,
    );
    all.push(...next.body.data.machines);
  }
  return all.find((m) => m.machineNo === serial);
}

describe.each(DIALECTS)('device credentials on %s', (dialect) => {
  const t = suiteServer(dialect);
  const clock = t.clock;
  const db = () => t.ctx.database.db;

  it('enrolment answers {keyId, deviceKey, machineCode} once; only a salted SHA-256 of the secret is stored', async () => {
    const serial = await provision(t);
    await expectStatus(arm(t, serial), 200);
    const r = await expectStatus<{ keyId: string; deviceKey: string; machineCode: string }>(enrol(t, serial, newDeviceId()), 200);
    expect(r.body.data.keyId).toMatch(DEVICE_KEY_ID_PATTERN);
    expect(r.body.data.deviceKey).toMatch(DEVICE_SECRET_PATTERN);
    expect(r.body.data.machineCode).toBe(serial);
    const row = await db().selectFrom('device_credentials').selectAll().where('key_id', '=', r.body.data.keyId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ generation: 1, state: 'active' });
    expect(row.secret_hash).toMatch(/^s256\$[^$]+\$[0-9a-f]{64}$/);
    expect(row.secret_hash).not.toContain(r.body.data.deviceKey);
    expect(row.secret_hash).not.toContain(createHash('sha256').update(r.body.data.deviceKey).digest('hex'));
    const everything = JSON.stringify(await db().selectFrom('device_credentials').selectAll().execute());
    expect(everything).not.toContain(r.body.data.deviceKey);
    await expectStatus(pending(t, `${r.body.data.keyId}:${r.body.data.deviceKey}`), 200);
  });

  it('an arm lasts 30 minutes by default and at most 24 hours', async () => {
    const serial = await provision(t);
    const a = await expectStatus(arm(t, serial), 200);
    expect(Date.parse(a.body.data.enrolmentArmed.expiresAt.replace('+0000', 'Z')) - clock.now()).toBe(30 * 60_000);
    clock.advance(30 * 60_000);
    await expectStatus(enrol(t, serial, newDeviceId()), 428);
    await expectStatus(arm(t, serial, { reason: 'too long', ttlMinutes: 1441 }), 400);
    await expectStatus(arm(t, serial, { reason: 'no', ttlMinutes: 0 }), 400);
    await expectStatus(arm(t, serial, { ttlMinutes: 10 }), 400); // reason is required
    const day = await expectStatus(arm(t, serial, { reason: 'a day', ttlMinutes: 1440 }), 200);
    expect(Date.parse(day.body.data.enrolmentArmed.expiresAt.replace('+0000', 'Z')) - clock.now()).toBe(24 * 3_600_000);
    clock.advance(24 * 3_600_000 - 1);
    await expectStatus(enrol(t, serial, newDeviceId()), 200);
  });

  it('an arm is one use, spent only by a successful enrolment, and a deviceId pins it to one box', async () => {
    const serial = await provision(t);
    const box = newDeviceId();
    await expectStatus(arm(t, serial, { reason: 'pinned', deviceId: box }), 200);
    await expectStatus(enrol(t, serial, newDeviceId()), 428); // another box: refused, arm not spent
    expect((await fleetEntry(t, serial))?.enrolmentArmed).toMatchObject({ deviceId: box, reason: 'pinned' });
    await expectStatus(enrol(t, serial, box), 200);
    expect((await fleetEntry(t, serial))?.enrolmentArmed).toBeNull();
    const arms = await db()
      .selectFrom('enrolment_arms')
      .selectAll()
      .where('machine_id', '=', (await machineRow(t, serial)).id)
      .execute();
    expect(arms).toEqual([expect.objectContaining({ closed_reason: 'enrolled', armed_by_kind: 'admin' })]);
  });

  it('disarm closes the window', async () => {
    const serial = await provision(t);
    await expectStatus(arm(t, serial), 200);
    const d = await expectStatus<{ disarmed: boolean }>(call(t.url, 'POST', `/api/v1/machines/${serial}/device-credential/disarm`, { headers: ADMIN }), 200);
    expect(d.body.data.disarmed).toBe(true);
    await expectStatus(enrol(t, serial, newDeviceId()), 428);
    const again = await expectStatus<{ disarmed: boolean }>(
      call(t.url, 'POST', `/api/v1/machines/${serial}/device-credential/disarm`, { headers: ADMIN }),
      200,
    );
    expect(again.body.data.disarmed).toBe(false);
  });

  it('owners arm and rotate their own cabinets; another operator sees 404', async () => {
    const serial = await provision(t);
    await db().updateTable('machines').set({ operator_id: 'op_sbx_alice' }).where('machine_no', '=', serial).execute();
    await expectStatus(arm(t, serial, { reason: 'x' }, BOB), 404);
    const a = await expectStatus(arm(t, serial, { reason: 'installing the agent' }, ALICE), 200);
    expect(a.body.data.enrolmentArmed.armedBy.kind).toBe('owner');
    await expectStatus(enrol(t, serial, newDeviceId()), 200);
    await expectStatus(call(t.url, 'POST', `/api/v1/machines/${serial}/device-credential/rotate`, { headers: BOB }), 404);
    await expectStatus(call(t.url, 'POST', `/api/v1/machines/${serial}/device-credential/rotate`, { headers: ALICE }), 200);
    await expectStatus(
      call(t.url, 'POST', `/api/v1/machines/${serial}/device-credential/revoke`, { headers: ALICE, json: { by: 'alice', reason: 'mine' } }),
      403,
    );
    await expectStatus(arm(t, 'SBX-ALICE-0001', { reason: 'x' }, FACTORY), 403);
    await expectStatus(arm(t, newSerial('NONE'), { reason: 'x' }), 404);
  });

  it('rotate: the next authenticated response carries generation N+1; using N+1 retires N; replaying N is refused', async () => {
    const e = await enrolled(t);
    await expectStatus(call(t.url, 'POST', `/api/v1/machines/${e.serial}/device-credential/rotate`, { headers: keyHeader('x') }), 401);
    const r = await expectStatus<{ rotationDue: boolean; generation: number }>(
      call(t.url, 'POST', `/api/v1/machines/${e.serial}/device-credential/rotate`, { headers: ADMIN }),
      200,
    );
    expect(r.body.data).toMatchObject({ rotationDue: true, generation: 1 });
    const handover = await pending(t, e.key);
    expect(handover.status).toBe(200);
    const next = handover.headers.get(DEVICE_CREDENTIAL_HEADER);
    expect(next).toMatch(/^dk_[0-9a-f]{16}:[A-Za-z0-9_-]{43}$/);
    expect(next!.split(':')[0]).not.toBe(e.keyId);
    // Until N+1 is used, N still works (the handover response may have been lost).
    const lost = await pending(t, e.key);
    expect(lost.status).toBe(200);
    const alsoNext = lost.headers.get(DEVICE_CREDENTIAL_HEADER);
    expect(alsoNext).toBeTruthy();
    // Using N+1 retires N (and the other, unused handover).
    const used = await pending(t, next!);
    expect(used.status).toBe(200);
    expect(used.headers.get(DEVICE_CREDENTIAL_HEADER)).toBeNull();
    expect((await pending(t, e.key)).status).toBe(401);
    expect((await pending(t, alsoNext!)).status).toBe(401);
    expect(await fleetEntry(t, e.serial)).toMatchObject({ state: 'enrolled', generation: 2, keyId: next!.split(':')[0], rotationDue: false });
    const rows = await db()
      .selectFrom('device_credentials')
      .select(['generation', 'state'])
      .where('machine_id', '=', (await machineRow(t, e.serial)).id)
      .orderBy('created_at')
      .execute();
    expect(rows.filter((x) => x.state === 'active')).toEqual([{ generation: 2, state: 'active' }]);
    // Rotation needs an enrolled credential.
    await expectStatus(call(t.url, 'POST', `/api/v1/machines/${await provision(t)}/device-credential/rotate`, { headers: ADMIN }), 409);
  });

  it('revoke: by and reason are mandatory; every generation is invalid at once, replays included', async () => {
    const e = await enrolled(t);
    await expectStatus(call(t.url, 'POST', `/api/v1/machines/${e.serial}/device-credential/rotate`, { headers: ADMIN }), 200);
    const candidate = (await pending(t, e.key)).headers.get(DEVICE_CREDENTIAL_HEADER)!;
    await expectStatus(call(t.url, 'POST', `/api/v1/machines/${e.serial}/device-credential/revoke`, { headers: ADMIN, json: { reason: 'stolen' } }), 400);
    await expectStatus(call(t.url, 'POST', `/api/v1/machines/${e.serial}/device-credential/revoke`, { headers: ADMIN, json: { by: 'ops' } }), 400);
    const r = await expectStatus<{ generationsRevoked: number }>(
      call(t.url, 'POST', `/api/v1/machines/${e.serial}/device-credential/revoke`, { headers: ADMIN, json: { by: 'ops on call', reason: 'cabinet stolen' } }),
      200,
    );
    expect(r.body.data.generationsRevoked).toBe(2);
    expect((await pending(t, e.key)).status).toBe(403);
    expect((await pending(t, candidate)).status).toBe(403);
    await expectStatus(
      call(t.url, 'POST', `/api/v1/machines/${e.serial}/device-credential/revoke`, { headers: ADMIN, json: { by: 'ops', reason: 'again' } }),
      409,
    );
    expect(await fleetEntry(t, e.serial)).toMatchObject({ state: 'revoked', keyId: null, revoked: { by: 'ops on call', reason: 'cabinet stolen' } });
    // A revoked cabinet cannot be re-armed until its identity is reset.
    await expectStatus(arm(t, e.serial), 409);
  });

  it('identity reset (admin, signer and reason): clears credential, binding and arms; a new board may enrol', async () => {
    const e = await enrolled(t);
    await expectStatus(call(t.url, 'POST', `/api/v1/machines/${e.serial}/identity/reset`, { headers: ADMIN, json: { reason: 'new board' } }), 400);
    await expectStatus(call(t.url, 'POST', `/api/v1/machines/${e.serial}/identity/reset`, { headers: ALICE, json: { signer: 'a', reason: 'b' } }), 403);
    const newBoard = newDeviceId();
    const r = await expectStatus<{ state: string; enrolmentBinding: string; enrolmentArmed: { deviceId: string } | null }>(
      call(t.url, 'POST', `/api/v1/machines/${e.serial}/identity/reset`, {
        headers: ADMIN,
        json: { signer: 'Dana (field lead)', reason: 'control board replaced', arm: { deviceId: newBoard } },
      }),
      200,
    );
    expect(r.body.data).toMatchObject({ state: 'fleet-secret', enrolmentBinding: 'unbound', enrolmentArmed: { deviceId: newBoard } });
    expect((await pending(t, e.key)).status).toBe(403);
    await expectStatus(enrol(t, e.serial, e.deviceId), 428); // the arm is pinned to the new board
    const fresh = await expectStatus<{ keyId: string; deviceKey: string }>(enrol(t, e.serial, newBoard), 200);
    expect((await pending(t, `${fresh.body.data.keyId}:${fresh.body.data.deviceKey}`)).status).toBe(200);
    expect(await fleetEntry(t, e.serial)).toMatchObject({ state: 'enrolled', enrolmentBinding: 'device-id', deviceId: newBoard, generation: 2 });
    const identity = await db()
      .selectFrom('device_identities')
      .selectAll()
      .where('machine_id', '=', (await machineRow(t, e.serial)).id)
      .executeTakeFirstOrThrow();
    expect(identity).toMatchObject({ reset_by: 'Dana (field lead)', reset_reason: 'control board replaced' });
  });

  it('the witness token rotates on every response; a stale echo records a copy suspicion and never refuses the call', async () => {
    const e = await enrolled(t);
    const first = await pending(t, e.key);
    const w1 = first.headers.get(DEVICE_WITNESS_HEADER)!;
    expect(w1).toBeTruthy();
    const second = await pending(t, e.key, { [DEVICE_WITNESS_HEADER]: w1 });
    const w2 = second.headers.get(DEVICE_WITNESS_HEADER)!;
    expect(w2).not.toBe(w1);
    await expectStatus(pending(t, e.key, { [DEVICE_WITNESS_HEADER]: w2 }), 200);
    expect((await fleetEntry(t, e.serial))?.copySuspicions).toBe(0);
    // A copy of the key in a second box still holds w1 while this box goes on calling: once w1 is
    // more tokens behind than the window (an agent's concurrent legs) holds, its echo is a copy.
    let echo = second.headers.get(DEVICE_WITNESS_HEADER)!;
    for (let i = 0; i < t.services.runtime.devices.options.witnessKeep; i++) {
      const r = await pending(t, e.key, { [DEVICE_WITNESS_HEADER]: echo });
      echo = r.headers.get(DEVICE_WITNESS_HEADER)!;
    }
    expect((await fleetEntry(t, e.serial))?.copySuspicions).toBe(0);
    const copy = await pending(t, e.key, { [DEVICE_WITNESS_HEADER]: w1 });
    expect(copy.status).toBe(200);
    expect((await fleetEntry(t, e.serial))?.copySuspicions).toBe(1);
    const s = await expectStatus<{ records: { machineNo: string; keyId: string; count: number; leg: string }[] }>(
      call(t.url, 'GET', '/api/v1/machines/device-credentials/suspicions', { headers: ADMIN, query: { size: '100' } }),
      200,
    );
    expect(s.body.data.records).toContainEqual(expect.objectContaining({ machineNo: e.serial, keyId: e.keyId, count: 1, leg: 'cabinet.pending' }));
    // An invented token is stale too; suspicions are written at most once per interval per machine.
    clock.advance(t.services.runtime.devices.options.suspicionIntervalMs);
    await expectStatus(pending(t, e.key, { [DEVICE_WITNESS_HEADER]: 'invented' }), 200);
    expect((await fleetEntry(t, e.serial))?.copySuspicions).toBe(2);
    await expectStatus(pending(t, e.key, { [DEVICE_WITNESS_HEADER]: 'invented' }), 200);
    expect((await fleetEntry(t, e.serial))?.copySuspicions).toBe(2);
  });

  it('factory build records: plant forced to the key’s, QA before shipping, each plant sees its own', async () => {
    const serial = newSerial('FAB');
    const b = await expectStatus<{ plant: string; builtAt: string }>(
      call(t.url, 'POST', '/api/v1/factory/builds', { headers: FACTORY, json: { machineNo: serial, plant: 'PLANT-OTHER', builtAt: '2026-11-19T08:00:00Z' } }),
      200,
    );
    expect(b.body.data).toMatchObject({ plant: 'PLANT-SZ1', builtAt: '2026-11-19T08:00:00.000+0000' });
    await expectStatus(call(t.url, 'POST', '/api/v1/factory/builds', { headers: FACTORY, json: { machineNo: serial } }), 409);
    await expectStatus(call(t.url, 'PATCH', `/api/v1/factory/builds/${serial}`, { headers: FACTORY, json: { shipped: true } }), 409);
    const qa = await expectStatus<{ qaPassedAt: string; shippedAt: string | null }>(
      call(t.url, 'PATCH', `/api/v1/factory/builds/${serial}`, { headers: FACTORY, json: { qaPassed: true } }),
      200,
    );
    expect(qa.body.data).toMatchObject({ qaPassedAt: expect.any(String), shippedAt: null });
    await expectStatus(call(t.url, 'PATCH', `/api/v1/factory/builds/${serial}`, { headers: FACTORY, json: { shipped: true } }), 200);
    await expectStatus(call(t.url, 'POST', '/api/v1/factory/builds', { headers: FACTORY, json: { machineNo: 'bad serial' } }), 400);
    await expectStatus(call(t.url, 'POST', '/api/v1/factory/builds', { headers: ALICE, json: { machineNo: newSerial('FAB') } }), 403);
    await expectStatus(call(t.url, 'POST', '/api/v1/factory/builds', { headers: ADMIN, json: { machineNo: newSerial('FAB') } }), 400);
    await expectStatus(call(t.url, 'POST', '/api/v1/factory/builds', { headers: ADMIN, json: { machineNo: newSerial('FAB'), plant: 'PLANT-XX9' } }), 200);
    const mine = await expectStatus<{ records: { plant: string }[] }>(
      call(t.url, 'GET', '/api/v1/factory/builds', { headers: FACTORY, query: { size: '100' } }),
      200,
    );
    expect(mine.body.data.records.length).toBeGreaterThan(0);
    expect(mine.body.data.records.every((r) => r.plant === 'PLANT-SZ1')).toBe(true);
    const all = await expectStatus<{ records: { plant: string }[] }>(
      call(t.url, 'GET', '/api/v1/factory/builds', { headers: ADMIN, query: { size: '100' } }),
      200,
    );
    expect(all.body.data.records.some((r) => r.plant === 'PLANT-XX9')).toBe(true);
  });
});

describe.each(DIALECTS)('credential fleet view on %s', (dialect) => {
  const t = suiteServer(dialect);

  it('has every field of spec 2 §2.8 and counts what the shared secret still serves', async () => {
    const view = async () =>
      (await expectStatus<FleetData>(call(t.url, 'GET', '/api/v1/machines/device-credentials/fleet', { headers: ADMIN, query: { size: '100' } }), 200)).body
        .data;
    // The seed: six machines, every one armed for the demo, none has called yet.
    let v = await view();
    expect(v).toMatchObject({ onFleetSecret: 0, armed: 6, reachableOnFleetSecret: 6, total: 6 });
    expect(v.enrolmentWindow).toEqual({ mode: 'open', budgetAttempts: 10, budgetWindowSeconds: 900, armDefaultMinutes: 30, armMaxMinutes: 1440 });
    expect(v.machines[0]).toEqual({
      machineNo: 'SBX-ALICE-0001',
      state: 'fleet-secret',
      keyId: null,
      generation: null,
      enrolmentBinding: 'unbound',
      deviceId: null,
      rotationDue: false,
      enrolmentArmed: {
        reason: expect.any(String),
        deviceId: null,
        armedAt: '2026-11-20T12:00:00.000+0000',
        expiresAt: '2026-11-21T12:00:00.000+0000',
        armedBy: { kind: 'admin', keyId: '5bada0000000a001', operatorEmail: 'admin@sandbox.vend.test' },
      },
      revoked: null,
      copySuspicions: 0,
    });

    // A seed cabinet calls on the fleet secret, then enrols; a new serial appears on the fleet secret.
    await expectStatus(call(t.url, 'GET', '/cabinet/config', { headers: { ...FLEET, equipmentNo: 'SBX-ALICE-0001' } }), 200);
    v = await view();
    expect(v).toMatchObject({ onFleetSecret: 1, armed: 6, reachableOnFleetSecret: 6 });
    const k = await expectStatus<{ keyId: string }>(enrol(t, 'SBX-ALICE-0001', newDeviceId()), 200);
    const fresh = await provision(t);
    v = await view();
    expect(v).toMatchObject({ onFleetSecret: 1, armed: 5, reachableOnFleetSecret: 6, total: 7 });
    expect(v.machines.find((m) => m.machineNo === 'SBX-ALICE-0001')).toMatchObject({
      state: 'enrolled',
      keyId: k.body.data.keyId,
      generation: 1,
      enrolmentBinding: 'device-id',
      enrolmentArmed: null,
    });
    expect(v.machines.find((m) => m.machineNo === fresh)).toMatchObject({ state: 'fleet-secret', enrolmentBinding: 'unbound', enrolmentArmed: null });

    // Revoked and retired machines are not reachable on the fleet secret.
    await expectStatus(
      call(t.url, 'POST', '/api/v1/machines/SBX-BOB-0002/device-credential/revoke', { headers: ADMIN, json: { by: 'ops', reason: 'decommissioned' } }),
      200,
    );
    await t.ctx.database.db.updateTable('machines').set({ retired_at: 1 }).where('machine_no', '=', 'SBX-BOB-0001').execute();
    v = await view();
    expect(v).toMatchObject({ reachableOnFleetSecret: 4, armed: 3, total: 6 });
    const revoked = await expectStatus<FleetData>(
      call(t.url, 'GET', '/api/v1/machines/device-credentials/fleet', { headers: ADMIN, query: { state: 'revoked' } }),
      200,
    );
    expect(revoked.body.data.machines.map((m) => m.machineNo)).toEqual(['SBX-BOB-0002']);
    await expectStatus(call(t.url, 'GET', '/api/v1/machines/device-credentials/fleet', { headers: ADMIN, query: { state: 'nope' } }), 400);
  });
});

describe.each(DIALECTS)('the verified-key cache across replicas on %s, without the push: the change feed', (dialect) => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startTestServer(dialect);
    // A second replica on the same store, with its own cache and clock.
    b = await startTestServer(dialect, { database: { ...a.ctx.database, close: async () => {} } });
    // As if every push were lost (PostgreSQL, or Redis when configured, push at once; cross-replica.int.test.ts):
    // what remains is the change feed, whose bound these tests pin.
    await b.services.runtime.credentialPush?.close();
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('a revocation on one replica is immediate there and takes effect on the other within the sync interval', async () => {
    const e = await enrolled(a);
    await expectStatus(pending(b, e.key), 200); // b caches the verification
    await expectStatus(
      call(a.url, 'POST', `/api/v1/machines/${e.serial}/device-credential/revoke`, { headers: ADMIN, json: { by: 'ops', reason: 'test' } }),
      200,
    );
    expect((await pending(a, e.key)).status).toBe(403);
    const bClock = b.clock as ManualClock;
    bClock.advance(b.services.runtime.devices.options.syncIntervalMs - 1);
    expect((await pending(b, e.key)).status).toBe(200); // b has not looked at the change feed yet: the documented bound
    bClock.advance(1);
    expect((await pending(b, e.key)).status).toBe(403);
  });

  it('a rotation and an identity reset on one replica reach the other the same way', async () => {
    const e = await enrolled(a);
    const bClock = b.clock as ManualClock;
    await expectStatus(pending(b, e.key), 200);
    await expectStatus(call(a.url, 'POST', `/api/v1/machines/${e.serial}/device-credential/rotate`, { headers: ADMIN }), 200);
    bClock.advance(b.services.runtime.devices.options.syncIntervalMs);
    const handover = await pending(b, e.key);
    expect(handover.headers.get(DEVICE_CREDENTIAL_HEADER)).toBeTruthy();
    await expectStatus(
      call(a.url, 'POST', `/api/v1/machines/${e.serial}/identity/reset`, { headers: ADMIN, json: { signer: 'ops', reason: 'board swap' } }),
      200,
    );
    bClock.advance(b.services.runtime.devices.options.syncIntervalMs);
    expect((await pending(b, e.key)).status).toBe(403);
  });
});
