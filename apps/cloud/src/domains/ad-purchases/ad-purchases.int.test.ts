import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import { adLoop } from '../campaigns/campaigns.test-support.ts';
import type { Campaign } from '../campaigns/campaigns.schemas.ts';
import type { AdPurchase } from './ad-purchases.schemas.ts';
import { ADMIN, ALICE, BOB, marketplaceCast, paidPurchase, pay, qrOf, statusOf, buy } from './ad-purchases.test-support.ts';
import { SANDBOX_REJECTED_PURCHASE } from './sandbox-seed.ts';

type Page = { total: number; records: AdPurchase[] };
const ALICE_EMAIL = 'alice@sandbox.vend.test';

describe.each(DIALECTS)('paid ad purchases and their approval on %s', (dialect) => {
  let t: TestServer;
  let carol: Record<string, string>;
  let carolMachine: string;
  beforeAll(async () => {
    t = await startTestServer(dialect);
    ({ carol, carolMachine } = await marketplaceCast(t));
  });
  afterAll(async () => t.close());

  const list = (headers: Record<string, string>, query: Record<string, string> = {}) =>
    expectStatus<Page>(call(t.url, 'GET', '/api/v1/ad-purchases', { headers, query }), 200).then((r) => r.body.data);
  const approve = (id: string, headers: Record<string, string>, json: Record<string, unknown> = {}) =>
    call<Body<AdPurchase>>(t.url, 'POST', `/api/v1/ad-purchases/${id}/approve`, { headers, json });
  const reject = (id: string, headers: Record<string, string>, json: Record<string, unknown>) =>
    call<Body<AdPurchase>>(t.url, 'POST', `/api/v1/ad-purchases/${id}/reject`, { headers, json });
  const campaign = async (id: string, headers: Record<string, string>) =>
    (await expectStatus<Campaign>(call(t.url, 'GET', `/api/v1/campaigns/${id}`, { headers }), 200)).body.data;

  it('the test processor’s payment delivers a signed webhook over HTTP: pending approval, one draft campaign per operator', async () => {
    const source = { machineNo: 'SBX-ALICE-0001', qrId: qrOf(t, 'SBX-ALICE-0001') };
    const p = await buy(t, { source });
    const done = await pay(t, p.paymentIntentId);
    expect(done.intent.status).toBe('succeeded');
    expect(done.delivery).toMatchObject({ url: `${t.url}/api/v1/ad-purchases/webhook`, status: 200, error: null });
    expect(done.delivery.answer).toMatchObject({
      data: { eventId: `evt_${p.paymentIntentId}`, duplicate: false, purchaseId: p.purchaseId, status: 'pending_approval' },
    });

    const s = await statusOf(t, p.statusToken);
    expect(s.status).toBe('pending_approval');
    expect(s.checkoutUrl).toBeNull();
    expect(s.lines.map((l) => [l.operatorName, l.status, l.amountCents])).toEqual([
      ['Alice Vending Co', 'pending_approval', 17820],
      ['Carol Kiosks', 'pending_approval', 8910],
    ]);

    const mine = (await list(ALICE, { lineStatus: 'pending_approval' })).records.find((r) => r.id === p.purchaseId)!;
    expect(mine.lines).toHaveLength(1);
    expect(mine.buyer).toEqual({ name: 'Dana Deli', email: 'dana@deli.example', phone: '+1 212 555 0100' });
    const c = await campaign(mine.lines[0]!.campaignId!, ALICE);
    expect(c).toMatchObject({
      status: 'draft',
      name: 'Self-serve: Corner Deli',
      sponsorName: 'Corner Deli',
      targetGeo: { city: 'New York' },
      targetMachines: null,
      weight: 1,
      pricing: { model: 'flat-monthly', monthlyRatePerMachine: 89.1 },
      creativeSource: 'upload',
      sourceQrId: source.qrId,
      sourceMachineNo: 'SBX-ALICE-0001',
      adPurchaseId: p.purchaseId,
      buyerContact: { name: 'Dana Deli', email: 'dana@deli.example', phone: '+1 212 555 0100' },
      flightStart: s.flightStart,
      flightEnd: s.flightEnd,
    });
    expect(c.creative).toMatchObject({ url: s.creative.url });
    const carolsLine = (await list(carol)).records.find((r) => r.id === p.purchaseId)!.lines;
    expect(carolsLine.map((l) => l.operatorName)).toEqual(['Carol Kiosks']);
    expect((await campaign(carolsLine[0]!.campaignId!, carol)).status).toBe('draft');
    // bob sold nothing: he sees no purchase, and another operator's purchase is a 404 to him
    expect((await list(BOB)).total).toBe(0);
    expect((await call(t.url, 'GET', `/api/v1/ad-purchases/${p.purchaseId}`, { headers: BOB })).status).toBe(404);
  });

  it('approval by alice puts her campaign on air at once (in her kiosk’s getAd loop); carol’s line still waits; then carol rejects', async () => {
    const p = await paidPurchase(t, { reach: { kind: 'city', city: 'New York' }, slots: 2 });
    const a = await expectStatus<AdPurchase>(approve(p.purchaseId, ALICE), 200);
    expect(a.body.data.status).toBe('pending_approval');
    expect(a.body.data.lines).toMatchObject([{ operatorName: 'Alice Vending Co', status: 'approved', refundOwedCents: 0 }]);
    const aliceCampaign = await campaign(a.body.data.lines[0]!.campaignId!, ALICE);
    expect(aliceCampaign).toMatchObject({ status: 'active', weight: 2 });
    const loop = await adLoop(t, 'SBX-ALICE-0001');
    expect(loop.filter((e) => e.campaignId === aliceCampaign.id)).toHaveLength(2);
    expect((await adLoop(t, carolMachine)).some((e) => e.campaignId === aliceCampaign.id)).toBe(false);

    let s = await statusOf(t, p.statusToken);
    expect(s.lines.map((l) => l.status)).toEqual(['approved', 'pending_approval']);

    // illegal moves: twice, by bob (404), an unpaid purchase
    expect((await approve(p.purchaseId, ALICE)).status).toBe(409);
    expect((await reject(p.purchaseId, ALICE, { reason: 'changed my mind' })).status).toBe(409);
    expect((await approve(p.purchaseId, BOB)).status).toBe(404);
    const unpaid = await buy(t);
    expect((await approve(unpaid.purchaseId, ADMIN)).status).toBe(409);
    expect((await approve(unpaid.purchaseId, ALICE)).status).toBe(404); // no line of hers before payment

    const r = await expectStatus<AdPurchase>(reject(p.purchaseId, carol, { reason: 'Our venue does not allow food ads' }), 200);
    expect(r.body.data.status).toBe('partially_approved');
    expect(r.body.data.lines).toMatchObject([{ status: 'rejected', reason: 'Our venue does not allow food ads', refundOwedCents: 17820, campaignId: null }]);
    s = await statusOf(t, p.statusToken);
    expect(s.status).toBe('partially_approved');
    expect(s.lines[1]).toMatchObject({ operatorName: 'Carol Kiosks', status: 'rejected', reason: 'Our venue does not allow food ads', refundOwedCents: 17820 });
    expect(s.refundOwedCents).toBe(17820);
    expect((await approve(p.purchaseId, carol)).status).toBe(409); // a rejected line stays rejected
    expect((await list(carol, { lineStatus: 'pending_approval' })).records.map((x) => x.id)).not.toContain(p.purchaseId);
  });

  it('a purchase’s draft campaign airs only through the purchase: activating or deleting it directly is a 409', async () => {
    const p = await paidPurchase(t, { reach: { kind: 'machine', machineNo: 'SBX-ALICE-0002' } });
    const line = (await list(ALICE)).records.find((x) => x.id === p.purchaseId)!.lines[0]!;
    expect((await campaign(line.campaignId!, ALICE)).targetMachines).toEqual(['SBX-ALICE-0002']);
    expect((await call(t.url, 'POST', `/api/v1/campaigns/${line.campaignId}/activate`, { headers: ALICE })).status).toBe(409);
    expect((await call(t.url, 'DELETE', `/api/v1/campaigns/${line.campaignId}`, { headers: ALICE })).status).toBe(409);
    const r = await expectStatus<AdPurchase>(reject(p.purchaseId, ALICE, { reason: 'Screen under repair' }), 200);
    expect(r.body.data.status).toBe('rejected');
    expect((await call(t.url, 'GET', `/api/v1/campaigns/${line.campaignId}`, { headers: ALICE })).status).toBe(404);
  });

  it('an admin sees every line, approves one operator’s by operatorEmail, then every pending one', async () => {
    const p = await paidPurchase(t);
    const seen = (await list(ADMIN, { status: 'pending_approval' })).records.find((x) => x.id === p.purchaseId)!;
    expect(seen.lines.map((l) => l.operatorEmail)).toContain(ALICE_EMAIL);
    expect(seen.lines).toHaveLength(2);
    expect((await approve(p.purchaseId, ALICE, { operatorEmail: ALICE_EMAIL })).status).toBe(403);
    const one = await expectStatus<AdPurchase>(approve(p.purchaseId, ADMIN, { operatorEmail: ALICE_EMAIL }), 200);
    expect(one.body.data.lines.map((l) => l.status)).toEqual(['approved', 'pending_approval']);
    expect((await approve(p.purchaseId, ADMIN, { operatorEmail: 'nobody@example.test' })).status).toBe(400);
    const all = await expectStatus<AdPurchase>(approve(p.purchaseId, ADMIN), 200);
    expect(all.body.data.status).toBe('approved');
    expect(all.body.data.lines.every((l) => l.status === 'approved' && l.decidedBy === 'op_sbx_admin')).toBe(true);
    expect((await approve(p.purchaseId, ADMIN)).status).toBe(409);
    const audit = await t.ctx.database.db.selectFrom('audit_log').select('action').where('resource', 'like', `ad_purchase:${p.purchaseId}%`).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['ad_purchases.approve', 'ad_purchases.approve', 'ad_purchases.create', 'ad_purchases.paid']);
  });

  it('a rejection by every operator rejects the purchase and owes the whole amount back', async () => {
    const p = await paidPurchase(t);
    await expectStatus(reject(p.purchaseId, ALICE, { reason: 'No' }), 200);
    await expectStatus(reject(p.purchaseId, carol, { reason: 'No' }), 200);
    const s = await statusOf(t, p.statusToken);
    expect(s.status).toBe('rejected');
    expect(s.refundOwedCents).toBe(s.totalCents);
    expect((await reject(p.purchaseId, ALICE, { reason: '' })).status).toBe(400);
  });

  // last: it clears the store
  it('a sandbox reset clears purchases, their lines, drafts and intents with everything else', async () => {
    await paidPurchase(t);
    await expectStatus(call(t.url, 'POST', '/sandbox/reset', { headers: ADMIN }), 200);
    const db = t.ctx.database.db;
    // what is left is the seed's own rejected purchase, written again (ad-purchases/sandbox-seed.ts)
    for (const table of ['ad_purchases', 'ad_purchase_lines', 'ad_creative_drafts', 'ad_draft_creatives'] as const) {
      const rows = await db.selectFrom(table).select('id').execute();
      expect(
        rows.map((r) => r.id.includes('sbxdemo')),
        table,
      ).toEqual([true]);
    }
    const events = await db
      .selectFrom('ad_payment_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(events.n)).toBe(0);
    // the only intents left are the ones the sandbox seed writes again (alice's paid-in investment pool, the rejected purchase)
    const intents = await db.selectFrom('test_payment_intents').select('id').orderBy('id').execute();
    expect(intents.map((i) => i.id)).toEqual(['pi_sbx_pool_0001', 'pi_test_sbxdemo01']);
    expect((await list(ADMIN)).records.map((p) => p.id)).toEqual([SANDBOX_REJECTED_PURCHASE.id]);
  });
});
