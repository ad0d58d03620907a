import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '@vend/protocol';
import { call, DIALECTS, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import type { Campaign } from './campaigns.schemas.ts';
import { ADMIN, ALICE, BOB, FACTORY, aliceMachine, createCampaign, liveCampaign, pngUpload } from './campaigns.test-support.ts';

describe.each(DIALECTS)('campaigns on %s', (dialect) => {
  let t: TestServer;
  let machineNo: string;
  beforeAll(async () => {
    t = await startTestServer(dialect);
    machineNo = await aliceMachine(t);
  });
  afterAll(async () => t.close());
  const clock = () => t.clock as ManualClock;
  const db = () => t.ctx.database.db;
  const path = (id: string, tail = '') => `/api/v1/campaigns/${id}${tail}`;

  it('create is always a draft, echoes its fields, and is listed newest first with a status filter', async () => {
    const a = await createCampaign(t, {
      name: 'First',
      targetMachines: [machineNo],
      weight: 2,
      flightStart: '2026-12-01T00:00:00Z',
      flightEnd: '2027-01-01T00:00:00-05:00',
    });
    expect(a).toMatchObject({
      status: 'draft',
      name: 'First',
      targetMachines: [machineNo],
      targetGeo: null,
      weight: 2,
      flightStart: '2026-12-01T00:00:00.000+0000',
      flightEnd: '2027-01-01T05:00:00.000+0000',
      pricing: { model: 'flat-monthly', monthlyRatePerMachine: 99 },
      creative: null,
      generations: 0,
      generationsLeft: 3,
    });
    expect(a).not.toHaveProperty('operatorEmail');
    clock().advance(1000);
    const b = await createCampaign(t, { name: 'Second', targetGeo: { zips: ['10001'], city: 'New York' }, pricing: { model: 'cpm', cpmRate: 12.5 } });
    expect(b).toMatchObject({ targetMachines: null, targetGeo: { zips: ['10001'], city: 'New York' }, weight: 1, pricing: { model: 'cpm', cpmRate: 12.5 } });
    const list = await expectStatus<{ total: number; records: Campaign[] }>(
      call(t.url, 'GET', '/api/v1/campaigns?status=draft&size=100', { headers: ALICE }),
      200,
    );
    const ids = list.body.data.records.map((c) => c.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    const active = await expectStatus<{ records: Campaign[] }>(call(t.url, 'GET', '/api/v1/campaigns?status=active', { headers: ALICE }), 200);
    expect(active.body.data.records.map((c) => c.id)).not.toContain(a.id);
  });

  it.each([
    ['a machine outside the fleet, named', { targetMachines: ['SBX-BOB-0001'] }, 'not in your fleet: SBX-BOB-0001'],
    ['both kinds of targeting', { targetMachines: ['SBX-ALICE-0001'], targetGeo: { nationwide: true } }, 'not both'],
    ['no targeting', {}, 'targetMachines or a targetGeo'],
    ['an empty geo', { targetGeo: {} }, 'zips, a city or nationwide'],
    [
      'a flight that ends before it starts',
      { targetGeo: { nationwide: true }, flightStart: '2026-12-02T00:00:00Z', flightEnd: '2026-12-01T00:00:00Z' },
      'flightEnd must be after flightStart',
    ],
    ['a rate with three decimals', { targetGeo: { nationwide: true }, pricing: { model: 'cpm', cpmRate: 1.234 } }, 'two decimals'],
    ['an unknown sponsor type', { targetGeo: { nationwide: true }, sponsorType: 'charity' }, 'sponsorType'],
  ])('refuses %s with a 400 naming it, and writes nothing', async (_n, body, message) => {
    const before = await db().selectFrom('campaigns').select('id').execute();
    const r = await call(t.url, 'POST', '/api/v1/campaigns', {
      headers: ALICE,
      json: { name: 'x', sponsorName: 'y', sponsorType: 'local-business', pricing: { model: 'flat-monthly', monthlyRatePerMachine: 1 }, ...body },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(message);
    expect(await db().selectFrom('campaigns').select('id').execute()).toHaveLength(before.length);
  });

  it('wrong types are 422; scopes: ads:read to read, ads:write to write', async () => {
    expect((await call(t.url, 'POST', '/api/v1/campaigns', { headers: ALICE, json: { name: 5 } })).status).toBe(422);
    expect((await call(t.url, 'GET', '/api/v1/campaigns', { headers: FACTORY })).status).toBe(403);
    expect((await call(t.url, 'POST', '/api/v1/campaigns', { headers: FACTORY, json: {} })).status).toBe(403);
    expect((await call(t.url, 'GET', '/api/v1/campaigns')).status).toBe(401);
  });

  it("another operator's campaign is a 404 everywhere; admins see it, with operatorEmail", async () => {
    const c = await createCampaign(t, { targetGeo: { nationwide: true } });
    for (const [method, tail] of [
      ['GET', ''],
      ['PUT', ''],
      ['DELETE', ''],
      ['POST', '/activate'],
      ['POST', '/pause'],
      ['POST', '/complete'],
      ['GET', '/report'],
      ['POST', '/creative/upload'],
      ['POST', '/creative/contentx'],
    ] as const) {
      const body = tail === '/creative/upload' ? pngUpload() : tail === '/creative/contentx' ? { brief: 'x' } : method === 'PUT' ? { name: 'z' } : undefined;
      const r = await call(t.url, method, path(c.id, tail), { headers: BOB, ...(body ? { json: body } : {}) });
      expect(r.status, `${method} ${tail}`).toBe(404);
    }
    const admin = await expectStatus<Campaign>(call(t.url, 'GET', path(c.id), { headers: ADMIN }), 200);
    expect(admin.body.data.operatorEmail).toBe('alice@sandbox.vend.test');
    const bobs = await expectStatus<{ records: Campaign[] }>(call(t.url, 'GET', '/api/v1/campaigns?size=100', { headers: BOB }), 200);
    expect(bobs.body.data.records.map((x) => x.id)).not.toContain(c.id);
  });

  it('an admin creates for an operator named by operatorEmail; an operator may not name one', async () => {
    const c = await createCampaign(t, { targetGeo: { nationwide: true }, operatorEmail: 'bob@sandbox.vend.test' }, ADMIN);
    expect(c.operatorEmail).toBe('bob@sandbox.vend.test');
    await expectStatus(call(t.url, 'GET', path(c.id), { headers: BOB }), 200);
    const r = await call(t.url, 'POST', '/api/v1/campaigns', {
      headers: ALICE,
      json: {
        name: 'x',
        sponsorName: 'y',
        sponsorType: 'local-business',
        targetGeo: { nationwide: true },
        pricing: { model: 'cpm', cpmRate: 1 },
        operatorEmail: 'bob@sandbox.vend.test',
      },
    });
    expect(r.status).toBe(403);
  });

  it('lifecycle: activate needs a creative; draft → active ⇄ paused → completed; every other move is a 409 naming the state', async () => {
    const c = await createCampaign(t, { targetMachines: [machineNo] });
    const act = (action: string) => call<Body<Campaign>>(t.url, 'POST', path(c.id, `/${action}`), { headers: ALICE });
    const noCreative = await act('activate');
    expect(noCreative.status).toBe(409);
    expect(noCreative.body.message).toContain('creative');
    expect((await act('pause')).status).toBe(409);
    expect((await act('complete')).body.message).toContain('draft');
    await expectStatus(call(t.url, 'POST', path(c.id, '/creative/upload'), { headers: ALICE, json: pngUpload() }), 200);
    const active = await expectStatus<Campaign>(act('activate'), 200);
    expect(active.body.data).toMatchObject({ status: 'active', creativeSource: 'upload' });
    expect(active.body.data.activatedAt).not.toBeNull();
    expect((await act('activate')).status).toBe(409);
    expect((await expectStatus<Campaign>(act('pause'), 200)).body.data.status).toBe('paused');
    expect((await act('pause')).status).toBe(409);
    expect((await expectStatus<Campaign>(act('activate'), 200)).body.data.status).toBe('active');
    const done = await expectStatus<Campaign>(act('complete'), 200);
    expect(done.body.data).toMatchObject({ status: 'completed' });
    expect(done.body.data.completedAt).not.toBeNull();
    for (const a of ['activate', 'pause', 'complete']) expect((await act(a)).status, a).toBe(409);
    expect((await call(t.url, 'PUT', path(c.id), { headers: ALICE, json: { name: 'late' } })).status).toBe(409);
    expect((await call(t.url, 'POST', path(c.id, '/creative/upload'), { headers: ALICE, json: pngUpload() })).status).toBe(409);
  });

  it('activate refuses a flight that has already ended', async () => {
    const c = await createCampaign(t, { targetMachines: [machineNo], flightStart: '2026-01-01T00:00:00Z', flightEnd: '2026-02-01T00:00:00Z' });
    await expectStatus(call(t.url, 'POST', path(c.id, '/creative/upload'), { headers: ALICE, json: pngUpload() }), 200);
    const r = await call(t.url, 'POST', path(c.id, '/activate'), { headers: ALICE });
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('ended');
  });

  it('DELETE removes drafts only', async () => {
    const draft = await createCampaign(t, { targetGeo: { nationwide: true } });
    await expectStatus(call(t.url, 'DELETE', path(draft.id), { headers: ALICE }), 200);
    await expectStatus(call(t.url, 'GET', path(draft.id), { headers: ALICE }), 404);
    const live = await liveCampaign(t, { targetMachines: [machineNo] });
    const r = await call(t.url, 'DELETE', path(live.id), { headers: ALICE });
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('active');
    await expectStatus(call(t.url, 'GET', path(live.id), { headers: ALICE }), 200);
  });

  it('PUT changes only the fields sent; targeting switches kind; machines outside the fleet are refused', async () => {
    const c = await createCampaign(t, { targetMachines: [machineNo], weight: 1 });
    const r = await expectStatus<Campaign>(call(t.url, 'PUT', path(c.id), { headers: ALICE, json: { weight: 3, targetGeo: { city: 'Springfield' } } }), 200);
    expect(r.body.data).toMatchObject({ weight: 3, name: c.name, targetMachines: null, targetGeo: { city: 'Springfield' } });
    const bad = await call(t.url, 'PUT', path(c.id), { headers: ALICE, json: { targetMachines: ['SBX-BOB-0002'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('SBX-BOB-0002');
    expect((await expectStatus<Campaign>(call(t.url, 'GET', path(c.id), { headers: ALICE }), 200)).body.data.targetGeo).toEqual({ city: 'Springfield' });
  });

  it('the studio: the built-in renderer makes a real portrait poster; at most 3 generations per campaign (409 after)', async () => {
    const c = await createCampaign(t, { targetMachines: [machineNo] });
    for (let i = 1; i <= 3; i++) {
      const r = await expectStatus<Campaign>(
        call(t.url, 'POST', path(c.id, '/creative/contentx'), { headers: ALICE, json: { brief: `Fresh coffee ${i}` } }),
        200,
      );
      expect(r.body.data).toMatchObject({ creativeSource: 'contentx', generations: i, generationsLeft: 3 - i });
      expect(r.body.data.contentxRef).toBeTruthy();
      expect(r.body.data.creative).toMatchObject({ mediaType: 'image/png', kind: 'image' });
      expect(r.body.data.creative!.height).toBeGreaterThan(r.body.data.creative!.width);
      const png = await call(t.url, 'GET', r.body.data.creative!.url);
      expect(png.status).toBe(200);
      expect(png.headers.get('content-type')).toBe('image/png');
    }
    const fourth = await call(t.url, 'POST', path(c.id, '/creative/contentx'), { headers: ALICE, json: { brief: 'one more' } });
    expect(fourth.status).toBe(409);
    expect(fourth.body.message).toContain('3');
  });

  it('concurrent generations cannot pass the cap', async () => {
    const c = await createCampaign(t, { targetMachines: [machineNo] });
    const all = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call(t.url, 'POST', path(c.id, '/creative/contentx'), { headers: ALICE, json: { brief: `b${i}` } })),
    );
    expect(all.filter((r) => r.status === 200)).toHaveLength(3);
    expect(all.filter((r) => r.status === 409)).toHaveLength(3);
    expect((await expectStatus<Campaign>(call(t.url, 'GET', path(c.id), { headers: ALICE }), 200)).body.data.generations).toBe(3);
  });

  it('an upload refused for its media is a 400 with the reason; the campaign keeps no creative', async () => {
    const c = await createCampaign(t, { targetMachines: [machineNo] });
    const creativesBefore = (await db().selectFrom('creatives').select('id').execute()).length;
    const landscape = await call(t.url, 'POST', path(c.id, '/creative/upload'), { headers: ALICE, json: pngUpload(960, 540) });
    expect(landscape.status).toBe(400);
    expect(landscape.body.message).toMatch(/landscape/i);
    const small = await call(t.url, 'POST', path(c.id, '/creative/upload'), { headers: ALICE, json: pngUpload(270, 480) });
    expect(small.status).toBe(400);
    expect(small.body.message).toMatch(/small|540/i);
    expect((await expectStatus<Campaign>(call(t.url, 'GET', path(c.id), { headers: ALICE }), 200)).body.data.creative).toBeNull();
    expect(await db().selectFrom('creatives').select('id').execute()).toHaveLength(creativesBefore);
  });
});
