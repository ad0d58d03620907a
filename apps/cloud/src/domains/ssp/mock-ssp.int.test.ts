import { beforeEach, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import pino from 'pino';
import { DIALECTS, call, startTestServer, suiteServer } from '../../testing/harness.ts';
import { HttpSupply } from './http-supply.ts';
import { InProcessSupply } from './in-process-supply.ts';
import { MOCK_SSP } from './mock-ssp.service.ts';
import type { ReceiptsPage } from './mock-ssp.schemas.ts';
import type { SupplyRequest } from './supply.ts';
import type { WireGetAdResponse } from './vistar-wire.ts';
import { PRODUCTION_ENV } from '../../config.test-support.ts';
import { checkedFetch } from '../../testing/contract.ts';

/**
 * The mock SSP over a real listening server (spec 2 §4.2): get_ad leases at most 3 ads at net CPM 12.0,
 * each PoP is taken exactly once (409 after, 410 past expiry, 404 unknown), receipts list what popped,
 * and both adapters — HttpSupply over HTTP, InProcessSupply in process — work against it.
 */

const area = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  width: 1080,
  height: 1920,
  supported_media: ['image/png', 'video/mp4'],
  min_duration: 15,
  max_duration: 15,
  ...over,
});

const getAdBody = (over: Record<string, unknown> = {}) => ({
  network_id: MOCK_SSP.networkId,
  api_key: MOCK_SSP.apiKey,
  device_id: 'SBX-ALICE-0001',
  venue_id: 'venue-1',
  display_time: 1_795_000_000,
  display_area: [area('a1')],
  latitude: 52.52,
  longitude: 13.405,
  ...over,
});

const silent = pino({ level: 'silent' });

describe.each(DIALECTS)('mock SSP (%s)', (dialect) => {
  const t = suiteServer(dialect);
  const clock = t.clock;
  beforeEach(() => clock.set(Date.parse('2026-11-20T12:00:00Z')));

  const leases = () => t.ctx.database.db.selectFrom('ssp_mock_leases').selectAll().orderBy('issued_at').orderBy('lease_id').execute();
  const getAd = (body: unknown) => call<WireGetAdResponse>(t.url, 'POST', '/ssp/mock/get_ad/json', { json: body });
  const receipts = (query: Record<string, string> = {}) => call<ReceiptsPage>(t.url, 'GET', '/ssp/mock/receipts', { query });

  async function leaseOne(device = 'SBX-ALICE-0001'): Promise<WireGetAdResponse['advertisement'][number]> {
    const res = await getAd(getAdBody({ device_id: device }));
    expect(res.status).toBe(200);
    return res.body.advertisement[0]!;
  }

  describe('POST /ssp/mock/get_ad/json', () => {
    it('leases one ad per display area, at most 3, in its own JSON with absolute URLs, and writes each lease', async () => {
      const before = (await leases()).length;
      const now = clock.now();
      const res = await getAd(getAdBody({ display_area: ['a1', 'a2', 'a3', 'a4', 'a5'].map((id) => area(id)) }));
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('code');
      const ads = res.body.advertisement;
      expect(ads.map((a) => a.display_area_id)).toEqual(['a1', 'a2', 'a3']);
      for (const [i, ad] of ads.entries()) {
        expect(ad).toMatchObject({
          mime_type: 'image/png',
          width: 1080,
          height: 1920,
          length_in_seconds: 15,
          length_in_milliseconds: 15_000,
          net_cpm: 12,
          lease_expiry: Math.floor((now + 3_600_000) / 1000),
          asset_url: `${t.url}/ssp/mock/creative/${i + 1}.png`,
          proof_of_play_url: `${t.url}/ssp/mock/pop/${ad.lease_id}`,
        });
      }
      expect(new Set(ads.map((a) => a.lease_id)).size).toBe(3);
      const rows = (await leases()).slice(before);
      expect(rows.map((r) => r.lease_id).sort()).toEqual(ads.map((a) => a.lease_id).sort());
      for (const r of rows) {
        expect(r).toMatchObject({
          device_id: 'SBX-ALICE-0001',
          venue_id: 'venue-1',
          net_cpm_millis: 12_000,
          issued_at: now,
          expires_at: now + 3_600_000,
          popped_at: null,
        });
      }
    });

    it('answers no ad for an area that cannot show a PNG, and an empty list when none can', async () => {
      const res = await getAd(getAdBody({ display_area: [area('v', { supported_media: ['video/mp4'] }), area('p', { supported_media: ['IMAGE/PNG'] })] }));
      expect(res.body.advertisement.map((a) => a.display_area_id)).toEqual(['p']);
      const none = await getAd(getAdBody({ display_area: [area('v', { supported_media: ['video/mp4'] })] }));
      expect(none.status).toBe(200);
      expect(none.body).toEqual({ advertisement: [] });
    });

    it('runs an ad as long as the area asks (max, else min, else 15 s)', async () => {
      const res = await getAd(
        getAdBody({
          display_area: [
            area('a', { min_duration: 5, max_duration: 10 }),
            area('b', { max_duration: undefined, min_duration: 7 }),
            area('c', { min_duration: undefined, max_duration: undefined }),
          ],
        }),
      );
      expect(res.body.advertisement.map((a) => a.length_in_seconds)).toEqual([10, 7, 15]);
    });

    it('refuses another network or key with 401 in the envelope, and writes nothing', async () => {
      const before = (await leases()).length;
      for (const body of [getAdBody({ api_key: 'guess' }), getAdBody({ network_id: 'other-network' })]) {
        const res = await getAd(body);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: 401, message: 'Invalid API key: unknown network_id or api_key', data: null });
      }
      expect(await leases()).toHaveLength(before);
    });

    it('refuses a bad body in the envelope: missing or out of rule 400, wrong types 422; nothing written', async () => {
      const before = (await leases()).length;
      const cases: [unknown, number][] = [
        [{}, 400],
        [getAdBody({ display_area: [] }), 400],
        [getAdBody({ display_area: [area('a'), area('a')] }), 400],
        [getAdBody({ display_area: [area('a', { min_duration: 20, max_duration: 10 })] }), 400],
        [getAdBody({ latitude: 123 }), 400],
        [getAdBody({ device_id: 'a\u0000b' }), 400],
        [getAdBody({ display_area: 'all' }), 422],
        [getAdBody({ display_time: 'now' }), 422],
        [getAdBody({ display_area: [area('a', { width: '1080' })] }), 422],
      ];
      for (const [body, status] of cases) {
        const res = await getAd(body);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(res.body).toMatchObject({ code: status, data: null });
      }
      expect(await leases()).toHaveLength(before);
    });

    it('uses PUBLIC_BASE_URL for its URLs when one is set', async () => {
      const other = await startTestServer(dialect, { env: { PUBLIC_BASE_URL: 'https://cloud.example/' }, seed: false });
      try {
        const res = await call<WireGetAdResponse>(other.url, 'POST', '/ssp/mock/get_ad/json', { json: getAdBody() });
        expect(res.body.advertisement[0]?.asset_url).toBe('https://cloud.example/ssp/mock/creative/1.png');
        expect(res.body.advertisement[0]?.proof_of_play_url).toMatch(/^https:\/\/cloud\.example\/ssp\/mock\/pop\/lease_/);
      } finally {
        await other.close();
      }
    });
  });

  describe('GET /ssp/mock/pop/{leaseId}', () => {
    it('takes a PoP exactly once under 10 concurrent calls: one 200 with the receipt, nine 409', async () => {
      const ad = await leaseOne();
      const answers = await Promise.all(Array.from({ length: 10 }, () => call(t.url, 'GET', `/ssp/mock/pop/${ad.lease_id}`)));
      const ok = answers.filter((a) => a.status === 200);
      expect(ok).toHaveLength(1);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
      expect(ok[0]?.body).toMatchObject({ lease_id: ad.lease_id, device_id: 'SBX-ALICE-0001', net_cpm: 12, popped_at: '2026-11-20T12:00:00.000+0000' });
      const conflict = answers.find((a) => a.status === 409)!;
      expect(conflict.body).toEqual({ code: 409, message: 'Lease already popped at 2026-11-20T12:00:00.000+0000', data: null });
      const row = await t.ctx.database.db.selectFrom('ssp_mock_leases').selectAll().where('lease_id', '=', ad.lease_id).executeTakeFirstOrThrow();
      expect(row.popped_at).toBe(clock.now());
      const mine = await receipts();
      expect(mine.body.receipts.filter((r) => r.lease_id === ad.lease_id)).toHaveLength(1);
    });

    it('accepts a PoP up to the lease expiry and answers 410 after it; a popped lease stays 409 after expiry', async () => {
      const late = await leaseOne();
      const popped = await leaseOne();
      expect((await call(t.url, 'GET', `/ssp/mock/pop/${popped.lease_id}`)).status).toBe(200);
      clock.advance(3_600_000);
      expect((await call(t.url, 'GET', `/ssp/mock/pop/${late.lease_id}`, { query: { display_time: '1795000000' } })).status).toBe(200);
      const expired = await leaseOne();
      clock.advance(3_600_001);
      const res = await call(t.url, 'GET', `/ssp/mock/pop/${expired.lease_id}`);
      expect(res.status).toBe(410);
      expect(res.body).toEqual({ code: 410, message: 'Lease expired at 2026-11-20T14:00:00.000+0000', data: null });
      expect((await call(t.url, 'GET', `/ssp/mock/pop/${popped.lease_id}`)).status).toBe(409);
      const row = await t.ctx.database.db.selectFrom('ssp_mock_leases').select('popped_at').where('lease_id', '=', expired.lease_id).executeTakeFirstOrThrow();
      expect(row.popped_at).toBeNull();
    });

    it('answers 404 for an unknown lease, 400 for an id no lease can have, and 422 for a display_time that is not a number', async () => {
      const res = await call(t.url, 'GET', '/ssp/mock/pop/lease_nope');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 404, message: 'Lease not found', data: null });
      expect((await call(t.url, 'GET', '/ssp/mock/pop/lease%00x')).status).toBe(400);
      expect((await call(t.url, 'GET', `/ssp/mock/pop/${'x'.repeat(201)}`)).status).toBe(400);
      expect((await receipts({ device_id: 'a\u0000b' })).status).toBe(400);
      const ad = await leaseOne();
      expect((await call(t.url, 'GET', `/ssp/mock/pop/${ad.lease_id}`, { query: { display_time: 'yesterday' } })).status).toBe(422);
      expect((await call(t.url, 'GET', `/ssp/mock/pop/${ad.lease_id}`)).status).toBe(200);
    });
  });

  describe('GET /ssp/mock/receipts', () => {
    it('lists popped leases only, newest pop first, paged and by device', async () => {
      const device = `RCPT-${dialect}`;
      const a = await leaseOne(device);
      const b = await leaseOne(device);
      await leaseOne(device); // never popped
      await call(t.url, 'GET', `/ssp/mock/pop/${a.lease_id}`);
      clock.advance(1000);
      await call(t.url, 'GET', `/ssp/mock/pop/${b.lease_id}`);
      const page = await receipts({ device_id: device });
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ page: 1, size: 20, total: 2 });
      expect(page.body.receipts.map((r) => r.lease_id)).toEqual([b.lease_id, a.lease_id]);
      expect(page.body.receipts[0]).toEqual({
        lease_id: b.lease_id,
        device_id: device,
        venue_id: 'venue-1',
        asset_url: b.asset_url,
        net_cpm: 12,
        issued_at: '2026-11-20T12:00:00.000+0000',
        expires_at: '2026-11-20T13:00:00.000+0000',
        popped_at: '2026-11-20T12:00:01.000+0000',
      });
      const second = await receipts({ device_id: device, page: '2', size: '1' });
      expect(second.body).toMatchObject({ page: 2, size: 1, total: 2 });
      expect(second.body.receipts.map((r) => r.lease_id)).toEqual([a.lease_id]);
      expect((await receipts({ size: '101' })).status).toBe(400);
    });
  });

  describe('GET /ssp/mock/creative/{file}', () => {
    it('serves a 1080×1920 PNG for creatives 1 to 3, cacheable, and 404 for any other', async () => {
      for (const n of [1, 2, 3]) {
        const res = await checkedFetch(`${t.url}/ssp/mock/creative/${n}.png`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
        expect(res.headers.get('cache-control')).toContain('max-age');
        const png = PNG.sync.read(Buffer.from(await res.arrayBuffer()));
        expect([png.width, png.height]).toEqual([1080, 1920]);
      }
      for (const bad of ['4.png', '0.png', '1.jpg', 'x']) {
        const res = await call(t.url, 'GET', `/ssp/mock/creative/${bad}`);
        expect(res.status, bad).toBe(404);
        expect(res.body).toEqual({ code: 404, message: 'Creative not found', data: null });
      }
    });
  });

  describe('HttpSupply against the mock over HTTP', () => {
    const request = (over: Partial<SupplyRequest> = {}): SupplyRequest => ({
      machineNo: `HTTP-${dialect}`,
      maxFills: 2,
      slotSeconds: 15,
      screen: { width: 1080, height: 1920, lat: 52.52, lng: 13.405, venueCategoryId: null },
      now: clock.now(),
      ...over,
    });
    const http = (apiKey: string = MOCK_SSP.apiKey) =>
      new HttpSupply({ url: `${t.url}/ssp/mock/`, apiKey, networkId: MOCK_SSP.networkId, timeoutMs: 5000 }, silent);

    it('fills at most maxFills (and never more than the mock’s 3) with absolute URLs', async () => {
      const supply = http();
      const two = await supply.fill(request());
      expect(two).toHaveLength(2);
      for (const f of two) {
        expect(f.assetUrl).toMatch(new RegExp(`^${t.url}/ssp/mock/creative/[1-3]\\.png$`));
        expect(f.popUrl).toBe(`${t.url}/ssp/mock/pop/${f.leaseId}`);
        expect(f).toMatchObject({ mediaType: 'image/png', netCpmMillis: 12_000, expiresAt: clock.now() + 3_600_000 });
        expect(f.head).toMatch(/^Sponsored · Sandbox /);
      }
      expect(await supply.fill(request({ maxFills: 8 }))).toHaveLength(3);
      expect(await supply.fill(request({ maxFills: 1 }))).toHaveLength(1);
      expect(supply.stats()).toMatchObject({ requests: 3, fills: 6, failures: 0 });
    });

    it('fires a PoP once; firing it again is success without a second receipt', async () => {
      const supply = http();
      const [fill] = await supply.fill(request({ maxFills: 1, machineNo: `POP-${dialect}` }));
      await supply.firePop({ leaseId: fill!.leaseId, popUrl: fill!.popUrl, displayedAt: clock.now() });
      await supply.firePop({ leaseId: fill!.leaseId, popUrl: fill!.popUrl });
      const page = await receipts({ device_id: `POP-${dialect}` });
      expect(page.body.total).toBe(1);
      expect(page.body.receipts[0]?.lease_id).toBe(fill!.leaseId);
    });

    it('refuses for good a PoP the SSP does not know or took too late, and retries nothing it need not', async () => {
      const supply = http();
      await expect(supply.firePop({ leaseId: 'x', popUrl: `${t.url}/ssp/mock/pop/lease_unknown` })).rejects.toMatchObject({ permanent: true, status: 404 });
      const [fill] = await supply.fill(request({ maxFills: 1 }));
      clock.advance(3_600_001);
      await expect(supply.firePop({ leaseId: fill!.leaseId, popUrl: fill!.popUrl })).rejects.toMatchObject({ permanent: true, status: 410 });
      await expect(supply.firePop({ leaseId: 'rel', popUrl: '/ssp/mock/pop/rel' })).rejects.toMatchObject({ permanent: true });
    });

    it('answers [] and counts the failure when the SSP refuses its key', async () => {
      const supply = http('wrong-key');
      expect(await supply.fill(request())).toEqual([]);
      expect(supply.stats()).toMatchObject({ requests: 1, failures: 1, lastError: 'SSP answered HTTP 401' });
    });
  });

  describe('InProcessSupply (the sandbox default)', () => {
    it('is what the services use in the sandbox: fills from the mock’s book with paths, and fires each PoP once', async () => {
      const supply = t.services.supply;
      expect(supply).toBeInstanceOf(InProcessSupply);
      const machineNo = `INPROC-${dialect}`;
      const fills = await supply.fill({ machineNo, maxFills: 3, slotSeconds: 15, screen: null, now: clock.now() });
      expect(fills).toHaveLength(3);
      expect(fills.map((f) => f.popUrl)).toEqual(fills.map((f) => `/ssp/mock/pop/${f.leaseId}`));
      expect(fills.map((f) => f.assetUrl)).toEqual(['/ssp/mock/creative/1.png', '/ssp/mock/creative/2.png', '/ssp/mock/creative/3.png']);
      const rows = await t.ctx.database.db.selectFrom('ssp_mock_leases').select('lease_id').where('device_id', '=', machineNo).execute();
      expect(rows).toHaveLength(3);
      await supply.firePop(fills[0]!);
      await supply.firePop(fills[0]!);
      const page = await receipts({ device_id: machineNo });
      expect(page.body.total).toBe(1);
    });
  });
});

describe('outside the sandbox', () => {
  it('mounts no mock SSP route and fills nothing without an SSP', async () => {
    const t = await startTestServer(DIALECTS[0]!, {
      seed: false,
      env: { ...PRODUCTION_ENV },
    });
    try {
      expect((await call(t.url, 'POST', '/ssp/mock/get_ad/json', { json: getAdBody() })).status).toBe(404);
      expect((await call(t.url, 'GET', '/ssp/mock/receipts')).status).toBe(404);
      expect(t.services.supply.name).toBe('none');
      expect(await t.services.supply.fill({ machineNo: 'M-1', maxFills: 3, slotSeconds: 15, screen: null, now: 0 })).toEqual([]);
      const doc = (await (await checkedFetch(`${t.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths).filter((p) => p.startsWith('/ssp/'))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
