import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectRefused, type Body } from '../../testing/answers.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { mintKey, newOperator } from '../machines/machines.factories.ts';
import { admin, bob, machinesApi } from '../machines/machines.test-support.ts';
import { screenBody } from '../machines/screen.test-support.ts';
import type { DoohScreen, VenueTypesView } from './dooh.schemas.ts';

type InventoryPage = { page: number; size: number; total: number; records: DoohScreen[] };

describe.each(DIALECTS)('the DOOH inventory export on %s', (dialect) => {
  let t: TestServer;
  const { db, api, register } = machinesApi(() => t);
  const inventory = (headers: Record<string, string>, query: Record<string, string> = {}) =>
    api<InventoryPage>('GET', '/api/v1/dooh/inventory', headers, undefined, { size: '100', ...query });
  const setScreen = async (machineNo: string, headers: Record<string, string>, over: Record<string, unknown> = {}) => {
    const r = await api('PUT', `/api/v1/machines/${machineNo}/screen`, headers, screenBody(over));
    expect(r.status, r.text).toBe(200);
  };

  /** An operator of its own with two screened machines, one unscreened and one screened but retired. */
  let op: Awaited<ReturnType<typeof newOperator>>;
  let screened: string[];
  let bobsScreen: string;

  beforeAll(async () => {
    t = await startTestServer(dialect);
    op = await newOperator(db());
    const [a, b, plain, retired] = [await register(op.headers), await register(op.headers), await register(op.headers), await register(op.headers)];
    await setScreen(a!.machineNo, op.headers, { venueCategoryId: 202, geo: { lat: 40.7, lng: -74 }, loop: { slots: 6, slotSeconds: 10 } });
    await setScreen(b!.machineNo, op.headers, { venueName: 'Mall east', venueCategoryId: 20501 });
    await setScreen(retired!.machineNo, op.headers);
    await db().updateTable('machines').set({ retired_at: t.clock.now() }).where('machine_no', '=', retired!.machineNo).execute();
    await db()
      .updateTable('machines')
      .set({ status: 'online', last_seen: t.clock.now() - 60_000 })
      .where('machine_no', '=', a!.machineNo)
      .execute();
    expect(plain).toBeDefined();
    screened = [a!.machineNo, b!.machineNo].sort();
    bobsScreen = (await register(bob)).machineNo;
    await setScreen(bobsScreen, bob);
  });
  afterAll(async () => t.close());

  it("lists only the caller's live machines that have a screen block, by machineNo, in the SSP shape", async () => {
    const r = await inventory(op.headers);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.total).toBe(2);
    expect(r.body.data.records.map((s) => s.screenId)).toEqual(screened);
    const first = r.body.data.records.find((s) => s.venue.category.id === 202)!;
    expect(first).toMatchObject({
      status: 'online',
      venue: {
        name: 'Penn Station Concourse',
        category: { id: 202, name: 'Convenience Stores', fullName: 'Retail / Convenience Stores', idPath: [2, 202], adcomTaxonomyId: 5 },
      },
      geo: { lat: 40.7, lng: -74, source: 'screen' },
      address: { city: 'New York', country: 'US' },
      loop: { slots: 6, slotSeconds: 10, loopSeconds: 60 },
      impressionsPerPlay: 1,
      maxSpotSeconds: 10,
      orientation: 'portrait',
    });
    expect(first).not.toHaveProperty('operatorEmail');
    const other = r.body.data.records.find((s) => s.venue.category.id === 20501)!;
    expect(other.status).toBe('offline');
    expect(other.loop).toMatchObject({ slots: 8, slotSeconds: 15, loopSeconds: 120 });

    const bobs = (await inventory(bob)).body.data.records.map((s) => s.screenId);
    expect(bobs).toContain(bobsScreen);
    for (const no of screened) expect(bobs).not.toContain(no);
  });

  it('a cleared block leaves the export', async () => {
    const own = await register(op.headers);
    await setScreen(own.machineNo, op.headers);
    expect((await inventory(op.headers)).body.data.total).toBe(3);
    expect((await api('DELETE', `/api/v1/machines/${own.machineNo}/screen`, op.headers)).status).toBe(200);
    expect((await inventory(op.headers)).body.data.records.map((s) => s.screenId)).toEqual(screened);
  });

  it('gives admin credentials every operator’s screens with operatorEmail, filterable; operators may not filter', async () => {
    const all = await inventory(admin);
    expect(all.status).toBe(200);
    const live = await db().selectFrom('machines').select('machine_no').where('screen_json', 'is not', null).where('retired_at', 'is', null).execute();
    expect(all.body.data.total).toBe(live.length);
    expect(all.body.data.records.map((s) => s.screenId)).toEqual(expect.arrayContaining([...screened, bobsScreen]));
    expect(all.body.data.records.find((s) => s.screenId === bobsScreen)?.operatorEmail).toBe(SANDBOX_CREDENTIALS.bob.email);

    const one = await inventory(admin, { operatorEmail: op.email.toUpperCase() });
    expect(one.body.data.records.map((s) => [s.screenId, s.operatorEmail])).toEqual(screened.map((no) => [no, op.email]));
    expectRefused(await inventory(op.headers, { operatorEmail: op.email }), 403, /admin/);
  });

  it('pages like every list: page and size, total across pages, an empty page past the end', async () => {
    const pages = await Promise.all(['1', '2', '3'].map((page) => inventory(op.headers, { page, size: '1' })));
    expect(pages.map((p) => p.body.data.total)).toEqual([2, 2, 2]);
    expect(pages.map((p) => p.body.data.records.map((s) => s.screenId))).toEqual([[screened[0]], [screened[1]], []]);
    expect(pages[1]!.body.data).toMatchObject({ page: 2, size: 1 });
    expectRefused(await inventory(op.headers, { size: '101' }), 400);
    expectRefused(await inventory(op.headers, { page: '0' }), 400);
  });

  it('needs ads:read', async () => {
    const machinesOnly = { 'x-api-key': await mintKey(db(), op.id, 'machines:read machines:write') };
    expectRefused(await inventory(machinesOnly), 403);
    expectRefused(await inventory({}), 401);
    const adsOnly = { 'x-api-key': await mintKey(db(), op.id, 'ads:read') };
    expect((await inventory(adsOnly)).body.data.total).toBe(2);
  });

  it('lists the OpenOOH venue types without a credential, with what a screen may be assigned', async () => {
    const r = await call<Body<VenueTypesView>>(t.url, 'GET', '/api/v1/dooh/venue-types');
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toMatch(/max-age=/);
    expect(r.body.data).toMatchObject({ taxonomy: 'OpenOOH Venue Taxonomy', version: '1.1', adcomTaxonomyId: 5 });
    const byId = new Map(r.body.data.records.map((v) => [v.id, v]));
    expect(byId.get(202)).toMatchObject({ name: 'Convenience Stores', tier: 'child', parentId: 2, assignable: true });
    expect(byId.get(2)).toMatchObject({ name: 'Retail', tier: 'parent', assignable: false });
    expect(byId.get(10105)).toMatchObject({ fullName: 'Transit / Airports / Gates', idPath: [1, 101, 10105], assignable: true });
  });
});
