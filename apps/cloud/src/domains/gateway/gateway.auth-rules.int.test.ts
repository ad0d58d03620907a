import { describe, expect, it } from 'vitest';
import { DIALECTS, call, type TestServer, suiteServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import {
  ADMIN,
  ALICE,
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
  send,
  KEY_LEGS,
} from './gateway.test-support.ts';

describe.each(DIALECTS)('spec 2 §5 authentication rules on %s', (dialect) => {
  const t = suiteServer(dialect);
  const clock = t.clock;

  it('rule 1: key verification precedes the fleet-secret check', async () => {
    const e = await enrolled(t);
    // A good key with a wrong secret header: the key decides.
    await expectStatus(call(t.url, 'GET', '/cabinet/config', { headers: { ...keyHeader(e.key), secret: 'wrong' } }), 200);
    // A bad key with the right fleet secret: still the key decides.
    await expectStatus(
      call(t.url, 'GET', '/cabinet/config', { headers: { ...keyHeader('dk_0000000000000000:' + 'A'.repeat(43)), ...FLEET, equipmentNo: e.serial } }),
      401,
    );
    await expectStatus(
      call(t.url, 'POST', `/api/v1/machines/${e.serial}/device-credential/revoke`, { headers: ADMIN, json: { by: 'ops', reason: 'test' } }),
      200,
    );
    await expectStatus(call(t.url, 'GET', '/cabinet/config', { headers: { ...keyHeader(e.key), ...FLEET, equipmentNo: e.serial } }), 403);
  });

  it('rule 2: an equipmentNo naming another machine than the credential’s is 403, on every leg', async () => {
    const e = await enrolled(t);
    for (const leg of KEY_LEGS) expect((await send(t, leg, { ...keyHeader(e.key), equipmentNo: 'SBX-BOB-0001' })).status, leg[1]).toBe(403);
    expect(
      (
        await call(t.url, 'POST', '/cabinet/report', {
          headers: keyHeader(e.key),
          json: { equipmentNo: 'SBX-BOB-0001', dispenseId: 'r2', aisleNo: 1, success: true, outcome: 'success' },
        })
      ).status,
    ).toBe(403);
    // Values that disagree among themselves are refused too.
    expect(
      (await call(t.url, 'GET', '/cabinet/config', { headers: { ...FLEET, equipmentNo: 'SBX-ALICE-0003', 'x-equipment-no': 'SBX-BOB-0002' } })).status,
    ).toBe(403);
  });

  it('rule 3: register from the wrong box is 403; another box presenting a bound serial is 409 (conflict recorded)', async () => {
    const e = await enrolled(t);
    await expectStatus(call(t.url, 'POST', '/cabinet/register', { headers: keyHeader(e.key), json: { deviceId: newDeviceId() } }), 403);
    const other = newDeviceId();
    // The bound serial's fleet-secret register from another box.
    const bound = await provision(t, newSerial(), newDeviceId());
    await expectStatus(call(t.url, 'POST', '/cabinet/register', { headers: FLEET, json: { equipmentNo: bound, deviceId: other } }), 409);
    const c = await expectStatus<{ records: { machineNo: string; presentedDeviceId: string }[] }>(
      call(t.url, 'GET', '/api/v1/machines/identity/conflicts', { headers: ADMIN, query: { size: '100' } }),
      200,
    );
    expect(c.body.data.records).toContainEqual(expect.objectContaining({ machineNo: bound, presentedDeviceId: other }));
  });

  it('rule 4: enrolment modes open, armed, closed; an unrecognised value reads as open', async () => {
    const setFleet = (mode: string) => t.ctx.database.db.updateTable('gateway_settings').set({ value: mode }).where('name', '=', 'enrolment_mode').execute();
    await expectStatus(call(t.url, 'PUT', '/api/v1/machines/device-credentials/mode', { headers: ADMIN, json: { mode: 'open' } }), 200);
    // open: a cabinet known by a trusted binding (made by an armed enrolment) enrols without an arm.
    const trusted = await provision(t);
    const box = newDeviceId();
    await expectStatus(arm(t, trusted), 200);
    await expectStatus(enrol(t, trusted, box), 200);
    const m = await machineRow(t, trusted);
    // Its credential cleared while the trusted binding stays (e.g. an agent reinstalled on the same box).
    await t.ctx.database.db.updateTable('device_credentials').set({ state: 'revoked' }).where('machine_id', '=', m.id).execute();
    await t.ctx.database.db.updateTable('device_identities').set({ cred_state: 'fleet-secret' }).where('machine_id', '=', m.id).execute();
    await expectStatus(enrol(t, trusted, box), 200);

    // armed: the trusted binding alone no longer vouches; an arm does.
    await t.ctx.database.db.updateTable('device_identities').set({ cred_state: 'fleet-secret' }).where('machine_id', '=', m.id).execute();
    await t.ctx.database.db.updateTable('device_credentials').set({ state: 'revoked' }).where('machine_id', '=', m.id).execute();
    await expectStatus(call(t.url, 'PUT', '/api/v1/machines/device-credentials/mode', { headers: ADMIN, json: { mode: 'armed' } }), 200);
    await expectStatus(enrol(t, trusted, box), 428);
    await expectStatus(arm(t, trusted), 200);
    await expectStatus(enrol(t, trusted, box), 200);

    // closed: no fleet-secret enrolment at all, armed or not.
    const shut = await provision(t);
    await expectStatus(call(t.url, 'PUT', '/api/v1/machines/device-credentials/mode', { headers: ADMIN, json: { mode: 'closed' } }), 200);
    await expectStatus(arm(t, shut), 200);
    const closed = await enrol(t, shut, newDeviceId());
    expect(closed.status).toBe(428);
    expect((closed.body as { message: string }).message).toContain('closed');

    // an unrecognised stored value reads as open: the arm works again.
    await setFleet('lockdown');
    await expectStatus(enrol(t, shut, newDeviceId()), 200);
    const fleet = await expectStatus<{ enrolmentWindow: { mode: string } }>(
      call(t.url, 'GET', '/api/v1/machines/device-credentials/fleet', { headers: ADMIN }),
      200,
    );
    expect(fleet.body.data.enrolmentWindow.mode).toBe('open');

    // A machine's own mode can only tighten the fleet's.
    const own = await provision(t);
    await setOwner(t, own, 'op_sbx_alice');
    await expectStatus(call(t.url, 'PUT', `/api/v1/machines/${own}/device-credential/mode`, { headers: ALICE, json: { mode: 'closed' } }), 200);
    await expectStatus(arm(t, own, { reason: 'owner arms' }, ALICE), 200);
    await expectStatus(enrol(t, own, newDeviceId()), 428);
    await expectStatus(call(t.url, 'PUT', `/api/v1/machines/${own}/device-credential/mode`, { headers: ALICE, json: { mode: null } }), 200);
    await expectStatus(enrol(t, own, newDeviceId()), 200);
    expect(clock.now()).toBeGreaterThan(0);
  });

  it('rule 5: the enrolment budget is per serial per window (429)', async () => {
    const serial = await provision(t);
    for (let i = 0; i < 10; i++) await expectStatus(enrol(t, serial, newDeviceId()), 428);
    await expectStatus(enrol(t, serial, newDeviceId()), 429);
    await expectStatus(enrol(t, await provision(t), newDeviceId()), 428);
  });

  it('rule 6: a factory key never registers a cabinet to an operator, and arms only unowned cabinets of its plant', async () => {
    const serial = newSerial('FAB');
    await expectStatus(call(t.url, 'POST', '/api/v1/machines/register', { headers: FACTORY, json: { machineNo: serial } }), 403);
    await provision(t, serial);
    // No build record yet: the factory may not arm it.
    await expectStatus(arm(t, serial, { reason: 'end of line' }, FACTORY), 403);
    const b = await expectStatus<{ plant: string; qaPassedAt: string | null }>(
      call(t.url, 'POST', '/api/v1/factory/builds', { headers: FACTORY, json: { machineNo: serial, plant: 'ELSEWHERE' } }),
      200,
    );
    expect(b.body.data).toMatchObject({ plant: 'PLANT-SZ1', qaPassedAt: null });
    const armed = await expectStatus<{ enrolmentArmed: { armedBy: { kind: string } } }>(arm(t, serial, { reason: 'end of line' }, FACTORY), 200);
    expect(armed.body.data.enrolmentArmed.armedBy.kind).toBe('factory');
    await expectStatus(enrol(t, serial, newDeviceId()), 200);

    // Another plant's build record does not let this factory arm.
    const foreign = await provision(t, newSerial('FAB'));
    await expectStatus(call(t.url, 'POST', '/api/v1/factory/builds', { headers: ADMIN, json: { machineNo: foreign, plant: 'PLANT-XX9' } }), 200);
    await expectStatus(arm(t, foreign, { reason: 'x' }, FACTORY), 403);
    // An owned cabinet is out of a factory key's reach, build record or not.
    const owned = await provision(t, newSerial('FAB'));
    await expectStatus(call(t.url, 'POST', '/api/v1/factory/builds', { headers: FACTORY, json: { machineNo: owned } }), 200);
    await setOwner(t, owned, 'op_sbx_alice');
    await expectStatus(arm(t, owned, { reason: 'x' }, FACTORY), 403);
    // ... and a build record cannot be made for a cabinet already registered to an operator.
    await expectStatus(call(t.url, 'POST', '/api/v1/factory/builds', { headers: FACTORY, json: { machineNo: 'SBX-ALICE-0001' } }), 409);
  });
});

async function setOwner(t: TestServer, serial: string, operatorId: string): Promise<void> {
  await t.ctx.database.db.updateTable('machines').set({ operator_id: operatorId }).where('machine_no', '=', serial).execute();
}
