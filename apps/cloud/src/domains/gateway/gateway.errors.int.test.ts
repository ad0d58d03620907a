import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { ManualClock } from '@vend/protocol';
import { loadConfig } from '../../config.ts';
import { closeContext, createContext, type AppContext } from '../../context.ts';
import { seedIfEmpty } from '../../bootstrap.ts';
import { listen, type RunningServer } from '../../server.ts';
import { closeServices, createServices, type Services } from '../../services.ts';
import { DIALECTS, call, freshDatabase, suiteServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import {
  ADMIN,
  ALICE,
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
  FLEET_LEGS,
  KEY_LEGS,
} from './gateway.test-support.ts';

describe.each(DIALECTS)('spec 2 §7 error table on %s', (dialect) => {
  const t = suiteServer(dialect);
  const clock = t.clock;

  it.each(FLEET_LEGS)('400 missing equipmentNo on the fleet secret: %s %s', async (method, path) => {
    const r = await send(t, [method, path], FLEET);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 400, message: 'Bad request — invalid or missing parameters: equipmentNo is required', data: null });
  });

  it.each([
    ['ab_c', ['letters, digits, hyphens only', '8–32 characters']],
    ['A'.repeat(33), ['8–32 characters']],
    ['ABCDEFG!', ['letters, digits, hyphens only']],
  ])('400 serial %s breaks the claim rule: the message names every fault, and admins see it listed', async (serial, faults) => {
    for (const [path, field] of [
      ['/cabinet/register', 'equipmentNo'],
      ['/apk/getEquipment', 'machineNo'],
    ] as const) {
      const r = await call(t.url, 'POST', path, { headers: FLEET, json: { [field]: serial } });
      expect(r.status).toBe(400);
      for (const f of faults) expect((r.body as { message: string }).message).toContain(f);
    }
    const list = await expectStatus<{ records: { serial: string; faults: string[]; source: string; attempts: number }[] }>(
      call(t.url, 'GET', '/api/v1/machines/serials/unclaimable', { headers: ADMIN, query: { size: '100' } }),
      200,
    );
    expect(list.body.data.records).toContainEqual(expect.objectContaining({ serial, faults, source: 'first-contact', attempts: 2 }));
    expect(await t.ctx.database.db.selectFrom('machines').select('id').where('machine_no', '=', serial).execute()).toEqual([]);
  });

  it('unclaimable serials include machine records that break the rule', async () => {
    const now = clock.now();
    await t.ctx.database.db
      .insertInto('machines')
      .values({ id: `mch_legacy_${dialect}`, machine_no: `old_${dialect}`, operator_id: 'op_sbx_alice', name: 'legacy', created_at: now, updated_at: now })
      .execute();
    const list = await expectStatus<{ records: { serial: string; source: string }[] }>(
      call(t.url, 'GET', '/api/v1/machines/serials/unclaimable', { headers: ADMIN, query: { size: '100' } }),
      200,
    );
    expect(list.body.data.records).toContainEqual(expect.objectContaining({ serial: `old_${dialect}`, source: 'machine' }));
  });

  it.each(FLEET_LEGS)('401 wrong or missing bootstrap secret: %s %s', async (method, path) => {
    const serial = await provision(t);
    expect((await send(t, [method, path], { secret: 'not-the-fleet-secret' }, { equipmentNo: serial }, { equipmentNo: serial })).status).toBe(401);
    expect((await send(t, [method, path], {}, { equipmentNo: serial }, { equipmentNo: serial })).status).toBe(401);
  });

  it('401 for a malformed, unknown or wrong device key', async () => {
    const e = await enrolled(t);
    const [keyId, secret] = e.key.split(':') as [string, string];
    const wrongSecret = `${keyId}:${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const key of ['garbage', `dk_0000000000000000:${secret}`, wrongSecret, `${e.key}x`]) {
      const r = await call(t.url, 'GET', '/cabinet/pending', { headers: keyHeader(key) });
      expect(r.status, key).toBe(401);
    }
  });

  it.each(KEY_LEGS)('403 revoked credential: %s %s', async (method, path) => {
    const e = await enrolled(t);
    await expectStatus(
      call(t.url, 'POST', `/api/v1/machines/${e.serial}/device-credential/revoke`, { headers: ADMIN, json: { by: 'ops', reason: 'stolen' } }),
      200,
    );
    const r = await send(t, [method, path], keyHeader(e.key));
    expect(r.status).toBe(403);
    // ... and the fleet secret does not get around it.
    expect((await send(t, ['GET', '/cabinet/config'], { ...FLEET, equipmentNo: e.serial })).status).toBe(403);
  });

  it.each([
    ['header equipmentNo', (s: string) => ({ headers: { equipmentNo: s } })],
    ['header x-equipment-no', (s: string) => ({ headers: { 'x-equipment-no': s } })],
    ['query equipmentNo', (s: string) => ({ query: { equipmentNo: s } })],
    ['body equipmentNo', (s: string) => ({ json: { equipmentNo: s } })],
    ['body serialNumber', (s: string) => ({ json: { serialNumber: s } })],
  ] as const)('403 equipmentNo mismatch via %s', async (_where, where) => {
    const e = await enrolled(t);
    const other = await provision(t);
    const w = where(other) as { headers?: Record<string, string>; query?: Record<string, string>; json?: Record<string, unknown> };
    const r = await call(t.url, 'POST', '/cabinet/heartbeat', {
      headers: { ...keyHeader(e.key), ...w.headers },
      json: { ...w.json },
      ...(w.query ? { query: w.query } : {}),
    });
    expect(r.status).toBe(403);
    // Naming its own serial is fine: the serial is only a cross-check.
    const own = where(e.serial) as typeof w;
    expect(
      (
        await call(t.url, 'POST', '/cabinet/heartbeat', {
          headers: { ...keyHeader(e.key), ...own.headers },
          json: { ...own.json },
          ...(own.query ? { query: own.query } : {}),
        })
      ).status,
    ).toBe(200);
  });

  it('403 register from the wrong box, recorded as a conflict', async () => {
    const e = await enrolled(t);
    const intruder = newDeviceId();
    await expectStatus(call(t.url, 'POST', '/cabinet/register', { headers: keyHeader(e.key), json: { deviceId: intruder } }), 403);
    await expectStatus(call(t.url, 'POST', '/cabinet/register', { headers: keyHeader(e.key), json: { deviceId: e.deviceId } }), 200);
    const c = await expectStatus<{ records: { machineNo: string; presentedDeviceId: string; boundDeviceId: string }[] }>(
      call(t.url, 'GET', '/api/v1/machines/identity/conflicts', { headers: ADMIN, query: { size: '100' } }),
      200,
    );
    expect(c.body.data.records).toContainEqual(expect.objectContaining({ machineNo: e.serial, presentedDeviceId: intruder, boundDeviceId: e.deviceId }));
  });

  it.each([
    ['POST', '/api/v1/machines/SBX-ALICE-0001/device-credential/revoke', { by: 'me', reason: 'because' }],
    ['POST', '/api/v1/machines/SBX-ALICE-0001/identity/reset', { signer: 'me', reason: 'because' }],
    ['GET', '/api/v1/machines/device-credentials/fleet', undefined],
    ['GET', '/api/v1/machines/device-credentials/suspicions', undefined],
    ['PUT', '/api/v1/machines/device-credentials/mode', { mode: 'closed' }],
    ['GET', '/api/v1/machines/identity/conflicts', undefined],
    ['GET', '/api/v1/machines/serials/unclaimable', undefined],
  ] as const)('403 admin-only call by an operator: %s %s', async (method, path, json) => {
    const r = await call(t.url, method, path, { headers: ALICE, ...(json ? { json } : {}) });
    expect(r.status).toBe(403);
  });

  it.each([
    ['GET', '/cabinet/config'] as const,
    ['GET', '/cabinet/goods'] as const,
    ['POST', '/cabinet/createOrder'] as const,
    ['POST', '/cabinet/enrol'] as const,
  ])('404 unknown device: %s %s', async (method, path) => {
    const serial = newSerial('NOPE');
    const r = await send(t, [method, path], FLEET, { equipmentNo: serial }, { equipmentNo: serial });
    expect(r.status).toBe(404);
    expect(await t.ctx.database.db.selectFrom('machines').select('id').where('machine_no', '=', serial).execute()).toEqual([]);
  });

  it('409 second enrolment for one identity (includes agent state loss)', async () => {
    const e = await enrolled(t);
    // The agent lost its key and presents the fleet secret again, even with a fresh arm.
    await expectStatus(arm(t, e.serial), 409);
    await expectStatus(enrol(t, e.serial, e.deviceId), 409);
    // With its key it is enrolled already.
    await expectStatus(call(t.url, 'POST', '/cabinet/enrol', { headers: keyHeader(e.key), json: {} }), 409);
    // The fleet secret is refused for an enrolled cabinet on every other leg.
    for (const leg of FLEET_LEGS.filter(([, p]) => p !== '/cabinet/enrol')) {
      expect((await send(t, leg, FLEET, { equipmentNo: e.serial }, { equipmentNo: e.serial })).status, leg[1]).toBe(401);
    }
  });

  it('409 identity bound to a different device, with the conflict recorded on the machine', async () => {
    const boxA = newDeviceId();
    const boxB = newDeviceId();
    const serial = await provision(t, newSerial(), boxA);
    const r = await call(t.url, 'POST', '/cabinet/register', { headers: FLEET, json: { equipmentNo: serial, deviceId: boxB } });
    expect(r.status).toBe(409);
    const m = await machineRow(t, serial);
    const rows = await t.ctx.database.db.selectFrom('identity_conflicts').selectAll().where('machine_id', '=', m.id).execute();
    expect(rows).toEqual([expect.objectContaining({ bound_device_id: boxA, presented_device_id: boxB, leg: 'cabinet.register', binding: 'self-asserted' })]);
    // After an armed enrolment the binding is trusted: another box is refused even with an arm open.
    await expectStatus(arm(t, serial), 200);
    await expectStatus(enrol(t, serial, boxA), 200);
    await expectStatus(
      call(t.url, 'POST', `/api/v1/machines/${serial}/identity/reset`, { headers: ADMIN, json: { signer: 'ops lead', reason: 'board swap test' } }),
      200,
    );
    await expectStatus(enrol(t, serial, boxA), 428);
  });

  it('410 retired machine on every leg except /cabinet/report, which still accepts', async () => {
    const e = await enrolled(t);
    const pool = await provision(t);
    for (const s of [e.serial, pool]) await t.ctx.database.db.updateTable('machines').set({ retired_at: clock.now() }).where('machine_no', '=', s).execute();
    // A cached verification may say "not retired" for at most the cache TTL.
    clock.advance(t.services.runtime.devices.options.cacheTtlMs);
    for (const leg of KEY_LEGS) expect((await send(t, leg, keyHeader(e.key))).status, leg[1]).toBe(410);
    for (const leg of FLEET_LEGS) expect((await send(t, leg, FLEET, { equipmentNo: pool }, { equipmentNo: pool })).status, leg[1]).toBe(410);
    for (const path of ['/apk/getEquipment', '/apk/createOrder', '/apk/saveAdRecord', '/apk/apkUp', '/apk/validVmcVersion'])
      expect(
        (await call(t.url, 'POST', path, { headers: FLEET, json: { machineNo: pool, id: 'x', apkVersion: '1', vmcVersion: '1', aisleNo: 1 } })).status,
        path,
      ).toBe(410);
    expect((await call(t.url, 'GET', '/apk/getAd', { headers: FLEET, query: { equipmentNo: pool } })).status).toBe(410);
    const rep = await call(t.url, 'POST', '/cabinet/report', {
      headers: keyHeader(e.key),
      json: { dispenseId: `late-${e.serial}`, aisleNo: 1, success: true, outcome: 'success' },
    });
    expect(rep.status).toBe(200);
  });

  it('428 enrolment with nothing proving the claimant; the arm then lets it through', async () => {
    const serial = await provision(t);
    const r = await enrol(t, serial, newDeviceId());
    expect(r.status).toBe(428);
    expect(r.body).toMatchObject({ code: 428, data: null });
    await expectStatus(arm(t, serial), 200);
    await expectStatus(enrol(t, serial, newDeviceId()), 200);
  });

  it('429 when the enrolment budget of a serial is spent, with Retry-After; the window then refills', async () => {
    const serial = await provision(t);
    for (let i = 0; i < 10; i++) {
      await expectStatus(enrol(t, serial, newDeviceId()), 428);
      clock.advance(1000);
    }
    const over = await enrol(t, serial, newDeviceId());
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBe(15 * 60 - 10);
    // The budget is per serial: another cabinet is unaffected.
    expect((await enrol(t, await provision(t), newDeviceId())).status).toBe(428);
    clock.advance(15 * 60_000);
    await expectStatus(arm(t, serial), 200);
    await expectStatus(enrol(t, serial, newDeviceId()), 200);
  });
});

describe.each(DIALECTS)('503 on %s when no fleet secret is configured', (dialect) => {
  let ctx: AppContext;
  let server: RunningServer;
  let services: Services;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-data-'));
    const config = { ...loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir }), fleetSecret: undefined };
    ctx = await createContext(config, {
      clock: new ManualClock(Date.parse('2026-11-20T12:00:00Z')),
      logger: pino({ level: 'silent' }),
      database: await freshDatabase(dialect),
    });
    services = createServices(ctx);
    await seedIfEmpty(ctx, services.seedSteps);
    server = await listen(ctx, services, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await server.close();
    await closeServices(services);
    await closeContext(ctx);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(FLEET_LEGS)('bootstrap is "gateway disabled": %s %s', async (method, path) => {
    const r = await send(server, [method, path], FLEET, { equipmentNo: 'SBX-ALICE-0001' }, { equipmentNo: 'SBX-ALICE-0001' });
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ code: 503, message: expect.stringContaining('Gateway disabled'), data: null });
  });

  it('an enrolled cabinet keeps working on its device key', async () => {
    // Enrol through the service (the fleet-secret leg is disabled here).
    const creds = createServices(ctx).enrolment;
    const m = await ctx.database.db
      .selectFrom('machines')
      .select(['id', 'machine_no', 'operator_id', 'retired_at'])
      .where('machine_no', '=', 'SBX-ALICE-0002')
      .executeTakeFirstOrThrow();
    const k = await creds.enrol(m, newDeviceId());
    const r = await call(server.url, 'GET', '/cabinet/config', { headers: keyHeader(`${k.keyId}:${k.deviceKey}`) });
    expect(r.status).toBe(200);
  });
});
