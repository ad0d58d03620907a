import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import type { AdPricing, SubscriptionPricing } from '../pricing/pricing.schemas.ts';
import type { CreativeDraftView, KioskView } from './ad-purchases.schemas.ts';
import { brief, buy, marketplaceCast, pngUpload, qrOf, quote, statusOf, uploadedDraft } from './ad-purchases.test-support.ts';
import type { TestIntent } from './test-processor.ts';

describe.each(DIALECTS)('the self-serve marketplace, buyer side, on %s', (dialect) => {
  let t: TestServer;
  let carolMachine: string;
  beforeAll(async () => {
    t = await startTestServer(dialect);
    ({ carolMachine } = await marketplaceCast(t));
  });
  afterAll(async () => t.close());

  describe('public price lists', () => {
    it('GET /api/v1/pricing: no key, the envelope, integer cents, version and effective date, cacheable', async () => {
      const r = await expectStatus<AdPricing>(call(t.url, 'GET', '/api/v1/pricing'), 200);
      expect(r.headers.get('cache-control')).toBe('public, max-age=300');
      expect(r.body.data).toMatchObject({
        version: '2026-01',
        effectiveDate: '2026-01-01',
        currency: 'USD',
        rates: { 'local-business': 9900, 'brand-coop': 17500 },
        volumeTiers: [
          { minMachines: 1, maxMachines: 1, multiplierBps: 10000 },
          { minMachines: 2, maxMachines: 5, multiplierBps: 9000 },
          { minMachines: 6, maxMachines: 20, multiplierBps: 8000 },
          { minMachines: 21, maxMachines: null, multiplierBps: 7000 },
        ],
        slotTiers: { standard: 1, double: 2 },
        months: { min: 1, max: 6 },
        generationsPerPurchase: 3,
      });
    });

    it('GET /api/v1/subscriptions/pricing: per device per month, 14-day trial, 30-day period', async () => {
      const r = await expectStatus<SubscriptionPricing>(call(t.url, 'GET', '/api/v1/subscriptions/pricing'), 200);
      expect(r.body.data).toEqual({
        version: '2026-01',
        effectiveDate: '2026-01-01',
        currency: 'USD',
        perDeviceMonthlyCents: 1900,
        trialDays: 14,
        periodDays: 30,
      });
    });
  });

  describe('quotes: only opted-in operators’ kiosks, computed on the server', () => {
    it('a city reaches alice’s and carol’s New York kiosks, never bob’s (he has not opted in)', async () => {
      const r = await expectStatus(quote(t, brief()), 200);
      const q = r.body.data;
      expect(q.machines).toBe(3);
      expect(q.operators.map((o) => [o.operatorName, o.machineNos])).toEqual([
        ['Alice Vending Co', ['SBX-ALICE-0001', 'SBX-ALICE-0002']],
        ['Carol Kiosks', [carolMachine]],
      ]);
      expect(q).toMatchObject({ catalogVersion: '2026-01', rateCents: 9900, multiplierBps: 9000, monthlyRatePerMachineCents: 8910, totalCents: 26730 });
      expect(q.operators.map((o) => o.amountCents)).toEqual([17820, 8910]);
      expect(JSON.stringify(q)).not.toContain('SBX-BOB');
    });

    it('the network is every opted-in operator’s kiosks (alice 3, carol 1): not bob’s two, not the unclaimed pool', async () => {
      const q = (await expectStatus(quote(t, brief({ reach: { kind: 'network' }, sponsorType: 'brand-coop', slots: 2, months: 6 })), 200)).body.data;
      expect(q.machines).toBe(4);
      expect(q.operators.flatMap((o) => o.machineNos)).not.toContain('SBX-BOB-0001');
      expect(q.totalCents).toBe(17500 * 0.9 * 2 * 4 * 6);
    });

    it('ZIPs match the screen block’s postal code; bob’s kiosk in the same ZIP is not counted', async () => {
      const q = (await expectStatus(quote(t, brief({ reach: { kind: 'zip', zips: ['10001'] } })), 200)).body.data;
      expect(q.operators.flatMap((o) => o.machineNos).sort()).toEqual([carolMachine, 'SBX-ALICE-0001'].sort());
      const several = (await expectStatus(quote(t, brief({ reach: { kind: 'zips', zips: ['10001', '10004'] } })), 200)).body.data;
      expect(several.machines).toBe(3);
    });

    it('"this kiosk" is the QR’s machine; an opted-out operator’s kiosk is refused, as is a QR of another machine', async () => {
      const source = { machineNo: 'SBX-ALICE-0001', qrId: qrOf(t, 'SBX-ALICE-0001') };
      const q = (await expectStatus(quote(t, brief({ reach: { kind: 'machine' }, source })), 200)).body.data;
      expect(q).toMatchObject({ machines: 1, multiplierBps: 10000, totalCents: 9900, reach: { kind: 'machine', machineNo: 'SBX-ALICE-0001' }, source });
      const bob = await quote(t, brief({ reach: { kind: 'machine' }, source: { machineNo: 'SBX-BOB-0001', qrId: qrOf(t, 'SBX-BOB-0001') } }));
      expect(bob.status).toBe(400);
      expect(bob.body.message).toContain('kiosk SBX-BOB-0001 is not offered for advertising');
      const wrongQr = await quote(t, brief({ reach: { kind: 'machine' }, source: { machineNo: 'SBX-ALICE-0001', qrId: qrOf(t, 'SBX-ALICE-0002') } }));
      expect(wrongQr.status).toBe(400);
      expect(wrongQr.body.message).toContain('source.qrId');
    });

    it('an empty reach, months outside 1–6, a past flight start are 400s; wrong types 422', async () => {
      for (const body of [
        brief({ reach: { kind: 'city', city: 'Boston' } }),
        brief({ reach: { kind: 'machine', machineNo: 'NO-SUCH-0001' } }),
        brief({ reach: { kind: 'machine', machineNo: 'SBX-POOL-0001' } }),
        brief({ months: 7 }),
        brief({ slots: 3 }),
        brief({ flightStart: '2026-11-19' }),
        brief({ reach: { kind: 'zip', zips: ['10001', '10004'] } }),
        brief({ reach: { kind: 'machine' } }),
      ]) {
        const r = await quote(t, body);
        expect(r.status, JSON.stringify(body)).toBe(400);
      }
      expect((await quote(t, brief({ months: '1' }))).status).toBe(422);
    });

    it('a kiosk lookup tells the page whether the QR is the machine’s own and whether it is offered', async () => {
      const own = await expectStatus<KioskView>(
        call(t.url, 'GET', '/api/v1/marketplace/kiosks/SBX-ALICE-0001', { query: { qr: qrOf(t, 'SBX-ALICE-0001') } }),
        200,
      );
      expect(own.body.data).toEqual({
        machineNo: 'SBX-ALICE-0001',
        qrValid: true,
        sellable: true,
        venueName: 'Union Station, Concourse A',
        city: 'New York',
        postalCode: '10001',
        operatorName: 'Alice Vending Co',
      });
      const bob = await expectStatus<KioskView>(call(t.url, 'GET', '/api/v1/marketplace/kiosks/SBX-BOB-0001', { query: { qr: 'qr_0000000000000000' } }), 200);
      expect(bob.body.data).toMatchObject({ qrValid: false, sellable: false, operatorName: null, venueName: null });
      expect((await call(t.url, 'GET', '/api/v1/marketplace/kiosks/NO-SUCH-0001')).status).toBe(404);
    });
  });

  describe('creative drafts', () => {
    it('holds at most 3 studio generations; the 4th is a 409 and an upload still works', async () => {
      let draft = (
        await expectStatus<CreativeDraftView>(call(t.url, 'POST', '/api/v1/marketplace/drafts/generate', { json: { brief: 'Deli: lunch for 8.99' } }), 200)
      ).body.data;
      expect(draft).toMatchObject({ generationsUsed: 1, generationsLeft: 2, usedByPurchase: false });
      expect(draft.creatives[0]).toMatchObject({ source: 'contentx', kind: 'image', width: 1080, height: 1920 });
      for (const n of [2, 3]) {
        draft = (
          await expectStatus<CreativeDraftView>(
            call(t.url, 'POST', '/api/v1/marketplace/drafts/generate', { json: { draftToken: draft.draftToken, brief: `take ${n}` } }),
            200,
          )
        ).body.data;
      }
      expect(draft).toMatchObject({ generationsUsed: 3, generationsLeft: 0 });
      expect(draft.creatives).toHaveLength(3);
      const fourth = await call<Body>(t.url, 'POST', '/api/v1/marketplace/drafts/generate', { json: { draftToken: draft.draftToken, brief: 'take 4' } });
      expect(fourth.status).toBe(409);
      const upload = await expectStatus<CreativeDraftView>(
        call(t.url, 'POST', '/api/v1/marketplace/drafts/upload', { json: { draftToken: draft.draftToken, ...pngUpload() } }),
        200,
      );
      expect(upload.body.data.creatives.map((c) => c.source)).toEqual(['contentx', 'contentx', 'contentx', 'upload']);
      const looked = await expectStatus<CreativeDraftView>(
        call(t.url, 'POST', '/api/v1/marketplace/drafts/lookup', { json: { draftToken: draft.draftToken } }),
        200,
      );
      expect(looked.body.data.generationsUsed).toBe(3);
    });

    it('refuses a landscape upload with the reason and keeps nothing; an unknown token is a 404', async () => {
      const r = await call<Body>(t.url, 'POST', '/api/v1/marketplace/drafts/upload', { json: pngUpload(960, 540) });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('landscape');
      expect(
        (await call(t.url, 'POST', '/api/v1/marketplace/drafts/lookup', { json: { draftToken: `acd_0mhp4c2g0a1b2c3d4e5f60718.${'a'.repeat(43)}` } })).status,
      ).toBe(404);
    });
  });

  describe('purchases', () => {
    it('recompute the quote on the server: any amount the client sends is ignored', async () => {
      const p = await buy(t, { totalCents: 1, amountCents: 1, quote: { totalCents: 1, rateCents: 1, multiplierBps: 1 }, rateCents: 1, machines: 1 });
      expect(p.quote.totalCents).toBe(26730);
      expect(p.status).toBe('awaiting_payment');
      const intent = await expectStatus<TestIntent>(call(t.url, 'GET', `/api/v1/marketplace/test-payments/${p.paymentIntentId}`), 200);
      expect(intent.body.data).toMatchObject({ amountCents: 26730, currency: 'USD', status: 'requires_payment', purchaseId: p.purchaseId });
      expect(p.checkoutUrl).toBe(`/pay/test/${p.paymentIntentId}`);
      const s = await statusOf(t, p.statusToken);
      expect(s).toMatchObject({ status: 'awaiting_payment', totalCents: 26730, checkoutUrl: p.checkoutUrl, lines: [], refundOwedCents: 0 });
      expect(s.operators.map((o) => o.amountCents)).toEqual([17820, 8910]);
    });

    it('never sell an opted-out operator’s kiosk, whatever the reach', async () => {
      for (const reach of [{ kind: 'network' }, { kind: 'city', city: 'New York' }, { kind: 'zip', zips: ['10001'] }]) {
        const p = await buy(t, { reach });
        const s = await statusOf(t, p.statusToken);
        expect(s.operators.map((o) => o.operatorName)).not.toContain('Bob Snacks Ltd');
        expect(JSON.stringify(s)).not.toContain('SBX-BOB');
      }
      const refused = await call<Body>(t.url, 'POST', '/api/v1/marketplace/purchases', {
        json: {
          ...brief({ reach: { kind: 'machine', machineNo: 'SBX-BOB-0002' } }),
          sponsorName: 'X',
          buyer: { name: 'X', email: 'x@x.example' },
          creative: await uploadedDraft(t),
        },
      });
      expect(refused.status).toBe(400);
    });

    it('take a draft once: a second purchase with the same draft is a 409', async () => {
      const creative = await uploadedDraft(t);
      await buy(t, { creative });
      const again = await call(t.url, 'POST', '/api/v1/marketplace/purchases', {
        json: { ...brief(), sponsorName: 'Corner Deli', buyer: { name: 'Dana', email: 'dana@deli.example' }, creative },
      });
      expect(again.status).toBe(409);
      const other = await call(t.url, 'POST', '/api/v1/marketplace/purchases', {
        json: {
          ...brief(),
          sponsorName: 'Corner Deli',
          buyer: { name: 'Dana', email: 'dana@deli.example' },
          creative: { ...(await uploadedDraft(t)), creativeId: 'adc_nope' },
        },
      });
      expect(other.status).toBe(400);
    });

    it('the status token: a wrong one is a 404, and it is never stored in clear', async () => {
      const p = await buy(t);
      const secret = p.statusToken.split('.')[1]!;
      expect((await call(t.url, 'POST', '/api/v1/marketplace/purchases/lookup', { json: { statusToken: `${p.purchaseId}.${'A'.repeat(43)}` } })).status).toBe(
        404,
      );
      expect((await call(t.url, 'POST', '/api/v1/marketplace/purchases/lookup', { json: { statusToken: 'nonsense' } })).status).toBe(404);
      const row = await t.ctx.database.db.selectFrom('ad_purchases').selectAll().where('id', '=', p.purchaseId).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(row.status_token_hash).toMatch(/^s256\$/);
      expect(p.statusUrl).toBe(`/advertise/status/${p.statusToken}`);
    });
  });
});
