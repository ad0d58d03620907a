import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectRefused } from '../../testing/answers.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { mintKey } from './machines.factories.ts';
import { admin, alice, bob, machinesApi, type Page } from './machines.test-support.ts';
import { screenBody } from './screen.test-support.ts';
import { ScreenView } from './screen.schemas.ts';

describe.each(DIALECTS)('the screen block of a machine on %s', (dialect) => {
  let t: TestServer;
  const { db, api, register, row } = machinesApi(() => t);
  const put = (machineNo: string, headers: Record<string, string>, body: unknown) => api('PUT', `/api/v1/machines/${machineNo}/screen`, headers, body);
  const auditCount = async (action: string, machineNo: string) =>
    (await db().selectFrom('audit_log').select('id').where('action', '=', action).where('resource', '=', `machine:${machineNo}`).execute()).length;

  beforeAll(async () => {
    t = await startTestServer(dialect);
  });
  afterAll(async () => t.close());

  it('PUT sets the block with its defaults, audited; every machine read returns it; a second PUT replaces it whole', async () => {
    const m = await register(alice);
    expect(m.screen).toBeNull();
    const body = screenBody({
      geo: { lat: 40.7506, lng: -73.9935 },
      address: { line1: '7th Ave & 32nd St', city: ' New  York ', postalCode: ' 10001 ', country: 'us' },
      operatingHours: { fri: [{ open: '18:00', close: '02:00' }], mon: [{ open: '07:00', close: '22:00' }] },
      loop: { slots: 6, slotSeconds: 10 },
      impressionsPerPlay: 2.5,
    });
    const r = await put(m.machineNo, alice, body);
    expect(r.status, r.text).toBe(200);
    const expected = {
      panel: { diagonalInches: 32 },
      resolution: { width: 1080, height: 1920 },
      venueName: 'Penn Station Concourse',
      address: { line1: '7th Ave & 32nd St', line2: null, city: 'New York', region: null, postalCode: '10001', country: 'US' },
      geo: { lat: 40.7506, lng: -73.9935 },
      operatingHours: { mon: [{ open: '07:00', close: '22:00' }], tue: [], wed: [], thu: [], fri: [{ open: '18:00', close: '02:00' }], sat: [], sun: [] },
      loop: { slots: 6, slotSeconds: 10 },
      impressionsPerPlay: 2.5,
      venueCategoryId: 10602,
    };
    expect(r.body.data.screen).toEqual(expected);
    expect(await auditCount('machines.screen.set', m.machineNo)).toBe(1);

    expect((await api('GET', `/api/v1/machines/${m.machineNo}`, alice)).body.data.screen).toEqual(expected);
    const list = await api<Page>('GET', '/api/v1/machines', alice, undefined, { size: '100' });
    expect(list.body.data.records.find((x) => x.machineNo === m.machineNo)?.screen).toEqual(expected);
    expect((await api('GET', '/api/v1/machines/SBX-ALICE-0003', alice)).body.data.screen).toBeNull();

    // PUT replaces the block: what the second body leaves out goes back to its default
    const again = await put(m.machineNo, alice, screenBody({ venueCategoryId: 202 }));
    expect(again.status, again.text).toBe(200);
    expect(again.body.data.screen).toMatchObject({
      geo: null,
      operatingHours: null,
      loop: { slots: 8, slotSeconds: 15 },
      impressionsPerPlay: 1,
      venueCategoryId: 202,
    });
  });

  it('refuses out-of-rule blocks with 400 and wrong types with 422, writing nothing', async () => {
    const m = await register(alice);
    const ok = await put(m.machineNo, alice, screenBody());
    expect(ok.status, ok.text).toBe(200);
    const before = await row(m.machineNo);
    const audits = await auditCount('machines.screen.set', m.machineNo);

    expectRefused(await put(m.machineNo, alice, screenBody({ venueCategoryId: 4242 })), 400, /venueCategoryId 4242 is not an OpenOOH 1\.1 venue type/);
    expectRefused(await put(m.machineNo, alice, screenBody({ venueCategoryId: 1 })), 400, /venueCategoryId 1 \(Transit\) is a parent category/);
    expectRefused(
      await put(
        m.machineNo,
        alice,
        screenBody({
          operatingHours: {
            mon: [
              { open: '09:00', close: '17:00' },
              { open: '16:00', close: '20:00' },
            ],
          },
        }),
      ),
      400,
      /overlaps/,
    );
    expectRefused(
      await put(m.machineNo, alice, screenBody({ operatingHours: { tue: [{ open: '08:00', close: '08:00' }] } })),
      400,
      /close must differ from open/,
    );
    expectRefused(await put(m.machineNo, alice, screenBody({ loop: { slots: 30 } })), 400, /loop\.slots must be between 1 and 24/);
    expectRefused(await put(m.machineNo, alice, screenBody({ address: { line1: 'x', city: 'y', country: 'XX' } })), 400, /ISO 3166-1 alpha-2/);
    expectRefused(await put(m.machineNo, alice, screenBody({ venueName: undefined })), 400, /venueName/);
    expectRefused(await put(m.machineNo, alice, {}), 400);
    expectRefused(await put(m.machineNo, alice, screenBody({ resolution: { width: '1080', height: 1920 } })), 422, /resolution\.width/);
    expectRefused(await put(m.machineNo, alice, screenBody({ venueCategoryId: '10602' })), 422);
    expectRefused(await put(m.machineNo, alice, screenBody({ loop: { slots: 8.5 } })), 422);
    expectRefused(await put(m.machineNo, alice, [screenBody()]), 422);

    expect(await row(m.machineNo)).toEqual(before);
    expect(await auditCount('machines.screen.set', m.machineNo)).toBe(audits);
  });

  it("answers 404 'Machine not found' for another operator's machine and 403 without machines:write, changing nothing", async () => {
    const bobs = await register(bob);
    expect((await put(bobs.machineNo, bob, screenBody())).status).toBe(200);
    const before = await row(bobs.machineNo);
    expectRefused(await put(bobs.machineNo, alice, screenBody({ venueName: 'hijacked' })), 404, /^Machine not found$/);
    expectRefused(await api('DELETE', `/api/v1/machines/${bobs.machineNo}/screen`, alice), 404, /^Machine not found$/);
    expectRefused(await put('NOPE-0000-0000', alice, screenBody()), 404, /^Machine not found$/);
    expectRefused(await put('SBX-POOL-0001', alice, screenBody()), 404, /^Machine not found$/);

    const readOnly = { 'x-api-key': await mintKey(db(), OPERATOR_IDS.alice, 'machines:read ads:read ads:write') };
    const own = await register(alice);
    expectRefused(await put(own.machineNo, readOnly, screenBody()), 403);
    expectRefused(await api('DELETE', `/api/v1/machines/${own.machineNo}/screen`, readOnly), 403);
    expectRefused(await put(own.machineNo, {}, screenBody()), 401);
    expect((await row(own.machineNo)).screen_json).toBeNull();
    expect(await row(bobs.machineNo)).toEqual(before);

    // admin credentials may set any machine's block
    const byAdmin = await put(bobs.machineNo, admin, screenBody({ venueName: 'Set by admin' }));
    expect(byAdmin.status, byAdmin.text).toBe(200);
    expect((await api('GET', `/api/v1/machines/${bobs.machineNo}`, bob)).body.data.screen?.venueName).toBe('Set by admin');
  });

  it('DELETE clears the block (audited once; clearing nothing changes nothing)', async () => {
    const m = await register(alice);
    expect((await put(m.machineNo, alice, screenBody())).status).toBe(200);
    const cleared = await api('DELETE', `/api/v1/machines/${m.machineNo}/screen`, alice);
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.data.screen).toBeNull();
    expect((await row(m.machineNo)).screen_json).toBeNull();
    const again = await api('DELETE', `/api/v1/machines/${m.machineNo}/screen`, alice);
    expect(again.status).toBe(200);
    expect(again.body.data.screen).toBeNull();
    expect(await auditCount('machines.screen.clear', m.machineNo)).toBe(1);
  });
  it('hostile bodies: never a 5xx; a refusal writes nothing, an answer shows what was stored', async () => {
    const m = await register(alice);
    const hhmm = fc.integer({ min: 0, max: 1440 }).map((n) => `${String(Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`);
    const hours = fc.dictionary(
      fc.constantFrom('mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'),
      fc.array(fc.record({ open: hhmm, close: hhmm }), { maxLength: 5 }),
    );
    const hostile = fc.oneof(
      fc.string(),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('', ' ', 'a\u0000b', '\ud800', 'x'.repeat(300), '24:00', '1e3', '__proto__'),
      fc.array(fc.anything(), { maxLength: 3 }),
      fc.object({ maxDepth: 1 }),
      hours,
    );
    const paths = [
      'panel',
      'panel.diagonalInches',
      'resolution.width',
      'venueName',
      'address',
      'address.city',
      'address.postalCode',
      'address.country',
      'geo',
      'geo.lat',
      'operatingHours',
      'loop',
      'loop.slots',
      'loop.slotSeconds',
      'impressionsPerPlay',
      'venueCategoryId',
      'extra',
      '__proto__',
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...paths), hostile), { minLength: 1, maxLength: 3 }), async (edits) => {
        const body = JSON.parse(JSON.stringify(screenBody({ geo: { lat: 1, lng: 2 }, loop: { slots: 8 } }))) as Record<string, unknown>;
        for (const [path, value] of edits) {
          const keys = path.split('.');
          let at = body;
          for (const k of keys.slice(0, -1)) at = (typeof at[k] === 'object' && at[k] !== null ? at[k] : (at[k] = {})) as Record<string, unknown>;
          Object.defineProperty(at, keys.at(-1)!, { value, enumerable: true, configurable: true, writable: true });
        }
        const before = await row(m.machineNo);
        const r = await put(m.machineNo, alice, body);
        expect([200, 400, 422], r.text).toContain(r.status);
        if (r.status === 200) {
          const stored = ScreenView.parse(JSON.parse((await row(m.machineNo)).screen_json!));
          expect(r.body.data.screen).toEqual(stored);
        } else {
          expect(await row(m.machineNo)).toEqual(before);
        }
      }),
      { numRuns: 80 },
    );
  });
});
