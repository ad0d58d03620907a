import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectRefused, expectStatus, type Body } from '../../testing/answers.ts';
import { ADMIN, FACTORY, FLEET, enrolled, keyHeader, newSerial, provision } from './gateway.test-support.ts';

/**
 * Input hardening (decisions: gateway-and-credentials, "Input hardening"): a NUL, another control
 * character or a lone surrogate in any string the gateway or its admin routes take is a 400 in the
 * envelope before anything is looked up or written (PostgreSQL text refuses NUL: a 500 otherwise),
 * and a refused first contact provisions nothing.
 */

/** Strings no stored text may hold. */
const UNSAFE = ['\u0000', 'a\u0000b', 'ab\u0001cd', 'ab\u007fcd', 'ab\u0085cd', '\ud800', 'a\udc00b'] as const;
/** The subset a URL can carry (a lone surrogate cannot be percent-encoded). */
const UNSAFE_IN_URL = ['\u0000', 'a\u0000b', 'ab\u0001cd', 'ab\u007fcd', 'ab\u0085cd'] as const;

describe.each(DIALECTS)('input hardening on %s', (dialect) => {
  let t: TestServer;
  let key: string;
  let serial: string;
  beforeAll(async () => {
    t = await startTestServer(dialect);
    ({ key, serial } = await enrolled(t));
  });
  afterAll(async () => t.close());

  async function machineCount(): Promise<number> {
    const r = await t.ctx.database.db
      .selectFrom('machines')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** No machine, aisle or terminal row for this serial. */
  async function expectNothingProvisioned(s: string): Promise<void> {
    const db = t.ctx.database.db;
    expect(await db.selectFrom('machines').select('id').where('machine_no', '=', s).executeTakeFirst()).toBeUndefined();
    const orphanAisles = await db
      .selectFrom('aisles')
      .leftJoin('machines', 'machines.id', 'aisles.machine_id')
      .select('aisles.machine_id')
      .where('machines.id', 'is', null)
      .execute();
    expect(orphanAisles).toEqual([]);
    const orphanTerminals = await db
      .selectFrom('payment_terminals')
      .leftJoin('machines', 'machines.id', 'payment_terminals.machine_id')
      .select('payment_terminals.machine_id')
      .where('machines.id', 'is', null)
      .execute();
    expect(orphanTerminals).toEqual([]);
  }

  describe('the serial is judged before any lookup', () => {
    it.each(UNSAFE_IN_URL)('query equipmentNo %j on the fleet secret: 400 on every fleet leg', async (bad) => {
      for (const [method, path] of [
        ['GET', '/cabinet/config'],
        ['GET', '/cabinet/goods'],
        ['POST', '/cabinet/register'],
        ['POST', '/cabinet/enrol'],
        ['POST', '/apk/getEquipment'],
        ['GET', '/apk/getAd'],
      ] as const) {
        const before = await machineCount();
        expectRefused(await call(t.url, method, path, { headers: FLEET, query: { equipmentNo: bad }, ...(method === 'POST' ? { json: {} } : {}) }), 400);
        expect(await machineCount()).toBe(before);
      }
    });

    it.each(UNSAFE)('body equipmentNo / serialNumber / machineNo %j: 400, nothing provisioned', async (bad) => {
      for (const field of ['equipmentNo', 'serialNumber']) {
        const before = await machineCount();
        expectRefused(await call(t.url, 'POST', '/cabinet/register', { headers: FLEET, json: { [field]: bad } }), 400);
        expect(await machineCount()).toBe(before);
      }
      for (const field of ['equipmentNo', 'serialNumber', 'machineNo']) {
        const before = await machineCount();
        expectRefused(await call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { [field]: bad } }), 400);
        expect(await machineCount()).toBe(before);
      }
    });

    it('a device-key call naming a malformed serial is 400 too', async () => {
      expectRefused(await call(t.url, 'GET', '/cabinet/pending', { headers: keyHeader(key), query: { equipmentNo: `${serial}\u0000` } }), 400);
      expectRefused(await call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(key), json: { equipmentNo: '\ud800' } }), 400);
    });
  });

  describe('gateway body strings', () => {
    const keyed: [string, string, Record<string, unknown>, (bad: string) => Record<string, unknown>][] = [
      ['POST', '/cabinet/heartbeat', {}, (bad) => ({ agentVersion: bad })],
      ['POST', '/cabinet/heartbeat', {}, (bad) => ({ vmcVersion: bad })],
      ['POST', '/cabinet/heartbeat', {}, (bad) => ({ capabilities: [bad] })],
      ['POST', '/cabinet/heartbeat', {}, (bad) => ({ deferring: { version: '1.2.3', count: 1, seconds: 1, reason: bad } })],
      ['POST', '/cabinet/register', {}, (bad) => ({ agentVersion: bad })],
      ['POST', '/cabinet/register', {}, (bad) => ({ vmcVersion: bad })],
      ['POST', '/cabinet/createOrder', {}, (bad) => ({ aisleNo: 1, cardBrand: bad })],
      ['POST', '/cabinet/report', {}, (bad) => ({ dispenseId: 'd-1', aisleNo: 1, success: true, outcome: bad })],
      ['POST', '/cabinet/report', {}, (bad) => ({ dispenseId: 'd-2', aisleNo: 1, success: true, outcome: 'ok', detail: bad })],
      ['POST', '/cabinet/report', {}, (bad) => ({ dispenseId: 'd-3', aisleNo: 1, success: true, outcome: 'ok', commandId: bad })],
      ['POST', '/cabinet/report', {}, (bad) => ({ dispenseId: 'd-4', aisleNo: 1, success: true, outcome: 'ok', orderNumber: bad })],
      ['POST', '/apk/saveAdRecord', {}, (bad) => ({ id: bad })],
      ['POST', '/apk/saveAdRecord', {}, (bad) => ({ records: [{ id: 'ok', campaignId: bad }] })],
      ['POST', '/apk/saveAdRecord', {}, (bad) => ({ id: 'ok', playedAt: bad })],
      ['POST', '/apk/apkUp', {}, (bad) => ({ apkVersion: bad })],
      ['POST', '/apk/validVmcVersion', {}, (bad) => ({ vmcVersion: bad })],
      ['POST', '/apk/getEquipment', {}, (bad) => ({ apkVersion: bad })],
      ['POST', '/apk/createOrder', {}, (bad) => ({ aisleNo: 1, cardBrand: bad })],
    ];
    it.each(UNSAFE)('%j in every string field is a 400 in the envelope', async (bad) => {
      for (const [method, path, , body] of keyed) {
        const r = await call(t.url, method, path, { headers: keyHeader(key), json: body(bad) });
        expect(r.status, `${path} ${JSON.stringify(body(bad))}: ${r.text}`).toBe(400);
        expect((r.body as Body).code).toBe(400);
      }
      // A lone surrogate cannot travel in a URL (it arrives as U+FFFD): the query leg sees the rest.
      if ((UNSAFE_IN_URL as readonly string[]).includes(bad)) {
        expectRefused(await call(t.url, 'GET', '/cabinet/upgrade', { headers: keyHeader(key), query: { agentVersion: bad } }), 400);
      }
    });

    it('the same fields accept ordinary text (and emoji, a surrogate pair)', async () => {
      await expectStatus(
        call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(key), json: { agentVersion: '1.2.3', capabilities: ['voice 😀'] } }),
        200,
      );
      await expectStatus(
        call(t.url, 'POST', '/cabinet/report', {
          headers: keyHeader(key),
          json: { dispenseId: 'd-ok', aisleNo: 1, success: true, outcome: 'dropped', detail: 'line one\nline two\tcafé 😀' },
        }),
        200,
      );
    });
  });

  describe('admin inputs', () => {
    it.each(UNSAFE_IN_URL)('machineNo path %j: 400 on arm, revoke, reset, pin, unpin, agent, build patch', async (bad) => {
      const m = encodeURIComponent(bad);
      expectRefused(await call(t.url, 'POST', `/api/v1/machines/${m}/device-credential/arm`, { headers: ADMIN, json: { reason: 'x' } }), 400);
      expectRefused(await call(t.url, 'POST', `/api/v1/machines/${m}/device-credential/disarm`, { headers: ADMIN, json: {} }), 400);
      expectRefused(await call(t.url, 'POST', `/api/v1/machines/${m}/device-credential/revoke`, { headers: ADMIN, json: { by: 'ops', reason: 'x' } }), 400);
      expectRefused(await call(t.url, 'POST', `/api/v1/machines/${m}/identity/reset`, { headers: ADMIN, json: { signer: 'ops', reason: 'x' } }), 400);
      expectRefused(await call(t.url, 'GET', `/api/v1/machines/${m}/agent`, { headers: ADMIN }), 400);
      expectRefused(await call(t.url, 'POST', `/api/v1/machines/${m}/agent/pin`, { headers: ADMIN, json: { version: '1.0.0', reason: 'test pin' } }), 400);
      expectRefused(await call(t.url, 'DELETE', `/api/v1/machines/${m}/agent/pin`, { headers: ADMIN }), 400);
      expectRefused(await call(t.url, 'PATCH', `/api/v1/factory/builds/${m}`, { headers: ADMIN, json: { qaPassed: true } }), 400);
      expectRefused(await call(t.url, 'GET', `/api/v1/machines/${m}/cabinet-settings`, { headers: ADMIN }), 400);
      expectRefused(await call(t.url, 'PUT', `/api/v1/machines/${m}/cabinet-settings`, { headers: ADMIN, json: { pollInterval: 5 } }), 400);
    });

    it.each(UNSAFE)('cabinet-settings kioskUiUrl %j: 400, nothing stored', async (bad) => {
      const path = `/api/v1/machines/${serial}/cabinet-settings`;
      const before = await expectStatus<{ settings: { kioskUiUrl: string | null } }>(call(t.url, 'GET', path, { headers: ADMIN }), 200);
      expectRefused(await call(t.url, 'PUT', path, { headers: ADMIN, json: { kioskUiUrl: `https://kiosk.example/${bad}` } }), 400);
      const after = await expectStatus<{ settings: { kioskUiUrl: string | null } }>(call(t.url, 'GET', path, { headers: ADMIN }), 200);
      expect(after.body.data.settings.kioskUiUrl).toBe(before.body.data.settings.kioskUiUrl);
    });

    it.each(UNSAFE)('reason / by / signer / plant %j: 400', async (bad) => {
      const s = await provision(t);
      expectRefused(await call(t.url, 'POST', `/api/v1/machines/${s}/device-credential/arm`, { headers: ADMIN, json: { reason: bad } }), 400);
      expectRefused(await call(t.url, 'POST', `/api/v1/machines/${s}/device-credential/revoke`, { headers: ADMIN, json: { by: bad, reason: 'stolen' } }), 400);
      expectRefused(await call(t.url, 'POST', `/api/v1/machines/${s}/device-credential/revoke`, { headers: ADMIN, json: { by: 'ops', reason: bad } }), 400);
      expectRefused(await call(t.url, 'POST', `/api/v1/machines/${s}/identity/reset`, { headers: ADMIN, json: { signer: bad, reason: 'swap' } }), 400);
      expectRefused(await call(t.url, 'POST', `/api/v1/machines/${s}/identity/reset`, { headers: ADMIN, json: { signer: 'ops', reason: bad } }), 400);
      expectRefused(await call(t.url, 'POST', '/api/v1/factory/builds', { headers: FACTORY, json: { machineNo: newSerial('BLD'), plant: bad } }), 400);
      expectRefused(await call(t.url, 'POST', `/api/v1/machines/${s}/agent/pin`, { headers: ADMIN, json: { version: '1.0.0', reason: `pin ${bad}` } }), 400);
      // Nothing was half-done: the cabinet is still on the fleet secret, unarmed.
      const fleet = await expectStatus<{ machines: { machineNo: string; state: string; enrolmentArmed: unknown }[] }>(
        call(t.url, 'GET', '/api/v1/machines/device-credentials/fleet', { headers: ADMIN, query: { size: '100' } }),
        200,
      );
      const row = fleet.body.data.machines.find((x) => x.machineNo === s);
      if (row) expect(row).toMatchObject({ state: 'fleet-secret', enrolmentArmed: null });
    });
  });

  describe('a refused first contact provisions nothing', () => {
    const refusals: [string, string, (s: string) => Record<string, unknown>, number][] = [
      ['/cabinet/register', 'agentVersion: 5', (s) => ({ equipmentNo: s, agentVersion: 5 }), 422],
      ['/cabinet/register', 'deviceId too short', (s) => ({ equipmentNo: s, deviceId: 'short' }), 400],
      ['/cabinet/register', 'capabilities not an array', (s) => ({ equipmentNo: s, capabilities: 'voice' }), 422],
      ['/cabinet/register', 'NUL agentVersion', (s) => ({ equipmentNo: s, agentVersion: '1\u00002' }), 400],
      ['/apk/getEquipment', 'apkVersion: 5', (s) => ({ equipmentNo: s, apkVersion: 5 }), 422],
      ['/apk/getEquipment', 'empty vmcVersion', (s) => ({ machineNo: s, vmcVersion: '' }), 400],
      ['/apk/getEquipment', 'lone surrogate apkVersion', (s) => ({ machineNo: s, apkVersion: '\ud800' }), 400],
    ];
    it.each(refusals)('%s with %s: refused, no machine, aisles or terminal', async (path, _label, body, status) => {
      const s = newSerial('REF');
      expectRefused(await call(t.url, 'POST', path, { headers: FLEET, json: body(s) }), status);
      await expectNothingProvisioned(s);
      // The same serial with a good body still provisions.
      const fixed = { ...body(s) };
      for (const k of ['agentVersion', 'apkVersion', 'vmcVersion', 'deviceId', 'capabilities']) delete fixed[k];
      await expectStatus(call(t.url, 'POST', path, { headers: FLEET, json: fixed }), 200);
      const row = await t.ctx.database.db.selectFrom('machines').select('id').where('machine_no', '=', s).executeTakeFirstOrThrow();
      const aisles = await t.ctx.database.db.selectFrom('aisles').select('aisle_no').where('machine_id', '=', row.id).execute();
      expect(aisles.length).toBeGreaterThan(0);
    });

    it('a body refused on an unclaimable serial is not remembered as a first-contact attempt', async () => {
      const bad = 'bad serial!';
      expectRefused(await call(t.url, 'POST', '/cabinet/register', { headers: FLEET, json: { equipmentNo: bad, agentVersion: 5 } }), 422);
      const list = await expectStatus<{ records: { serial: string }[] }>(
        call(t.url, 'GET', '/api/v1/machines/serials/unclaimable', { headers: ADMIN, query: { size: '100' } }),
        200,
      );
      expect(list.body.data.records.map((r) => r.serial)).not.toContain(bad);
    });

    it('credentials are still judged first: a wrong secret with a bad body is 401', async () => {
      expectRefused(await call(t.url, 'POST', '/cabinet/register', { headers: { secret: 'wrong' }, json: { equipmentNo: newSerial(), agentVersion: 5 } }), 401);
      expectRefused(await call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(key.slice(0, -1)), json: { agentVersion: 5 } }), 401);
    });
  });
});
