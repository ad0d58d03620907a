import { describe, expect, it } from 'vitest';
import type { ManualClock } from '@vend/protocol';
import { call, DIALECTS, suiteServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import type { CampaignReport, ReportsSummary } from '../campaigns/campaigns.schemas.ts';
import { ALICE, BOB, FLEET, adLoop, aliceMachine, createCampaign, liveCampaign, newSerial, pngUpload, savePlays } from '../campaigns/campaigns.test-support.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { screenBody } from '../machines/screen.test-support.ts';
import { mp4 } from '../creatives/creatives.test-support.ts';

const DAY = 86_400_000;

describe.each(DIALECTS)('the attract loop and proof of play on %s', (dialect) => {
  const t = suiteServer(dialect);
  const clock = () => t.clock as ManualClock;
  const receipts = async (deviceId: string) =>
    (await call<{ receipts: { lease_id: string }[] }>(t.url, 'GET', `/ssp/mock/receipts?device_id=${deviceId}&size=100`)).body.receipts.map((r) => r.lease_id);

  it('assembles direct-sold campaigns by weight, then programmatic fill (at most 3), then house padding, 8 slots', async () => {
    const m = await aliceMachine(t);
    const a = await liveCampaign(t, { targetMachines: [m], weight: 2 });
    const b = await liveCampaign(t, { targetMachines: [m] });
    const loop = await adLoop(t, m);
    expect(loop).toHaveLength(8);
    expect(loop.slice(0, 3).map((e) => e.campaignId)).toEqual([a.id, b.id, a.id]);
    expect(loop.slice(0, 3).every((e) => e.source === 'direct-sold' && e.url.startsWith('/media/'))).toBe(true);
    expect(loop.slice(3, 6).map((e) => e.source)).toEqual(['programmatic', 'programmatic', 'programmatic']);
    expect(loop.slice(6).map((e) => e.source)).toEqual(['house', 'house']);
    expect(loop[7]!.url).toBe(`/advertise/poster/${m}.png`);
    // A second poll reuses the fills this machine leased and has not played.
    const again = await adLoop(t, m);
    expect(again.slice(3, 6).map((e) => e.id)).toEqual(loop.slice(3, 6).map((e) => e.id));
  });

  it('shows only campaigns in flight: not before flightStart, not after flightEnd, not paused, not another machine', async () => {
    const m = await aliceMachine(t);
    const other = await aliceMachine(t);
    const now = t.clock.now();
    const later = await liveCampaign(t, {
      targetMachines: [m],
      flightStart: new Date(now + DAY).toISOString(),
      flightEnd: new Date(now + 3 * DAY).toISOString(),
    });
    const paused = await liveCampaign(t, { targetMachines: [m] });
    await expectStatus(call(t.url, 'POST', `/api/v1/campaigns/${paused.id}/pause`, { headers: ALICE }), 200);
    const ids = async (no: string) => (await adLoop(t, no)).map((e) => e.campaignId).filter(Boolean);
    expect(await ids(m)).toEqual([]);
    clock().advance(DAY + 1000);
    expect(await ids(m)).toEqual([later.id]);
    expect(await ids(other)).toEqual([]);
    clock().advance(2 * DAY);
    expect(await ids(m)).toEqual([]);
  });

  it('geo targets resolve at flight time: a machine given a screen in the ZIP later is picked up', async () => {
    const zip = `9${String(Math.floor(Math.random() * 9000) + 1000)}`;
    const inZip = await aliceMachine(t, screenBody({ address: { line1: '1 Main St', city: 'Springfield', postalCode: zip, country: 'US' } }));
    const c = await liveCampaign(t, { targetGeo: { zips: [zip] } });
    const late = await aliceMachine(t);
    expect((await adLoop(t, inZip)).some((e) => e.campaignId === c.id)).toBe(true);
    expect((await adLoop(t, late)).some((e) => e.campaignId === c.id)).toBe(false);
    await expectStatus(
      call(t.url, 'PUT', `/api/v1/machines/${late}/screen`, {
        headers: ALICE,
        json: screenBody({ address: { line1: '9 Elm St', city: 'Springfield', postalCode: zip, country: 'US' } }),
      }),
      200,
    );
    expect((await adLoop(t, late)).some((e) => e.campaignId === c.id)).toBe(true);
    const report = await expectStatus<CampaignReport>(call(t.url, 'GET', `/api/v1/campaigns/${c.id}/report`, { headers: ALICE }), 200);
    expect(report.body.data.machines).toBe(2);
  });

  it("a screen's loop shape sets the loop length; an unclaimed cabinet's screen is not for sale: no advertise poster, nothing to show", async () => {
    const m = await aliceMachine(t, screenBody({ loop: { slots: 4, slotSeconds: 10 } }));
    const r = await expectStatus<{ slotSeconds: number; entries: unknown[] }>(call(t.url, 'GET', '/apk/getAd', { headers: { ...FLEET, equipmentNo: m } }), 200);
    expect(r.body.data.slotSeconds).toBe(10);
    expect(r.body.data.entries).toHaveLength(4);
    const pool = newSerial('POOL');
    await expectStatus(call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { machineNo: pool } }), 200);
    expect(await adLoop(t, pool)).toEqual([]);
  });

  it('the advertise poster pads only a screen whose operator sells through the marketplace: alice yes, bob no, the next loop follows the opt-in', async () => {
    const isPoster = (e: { id: string; url: string }) => e.id.startsWith('house:poster:') || e.url.startsWith('/advertise/poster/');
    const alices = await adLoop(t, 'SBX-ALICE-0002');
    expect(alices).toHaveLength(8);
    expect(alices.at(-1)).toMatchObject({ source: 'house', url: '/advertise/poster/SBX-ALICE-0002.png' });
    // bob has not opted in: no poster whose QR would say the screen is not for sale; his loop is what is on air (fills)
    const bobs = await adLoop(t, 'SBX-BOB-0001');
    expect(bobs.some(isPoster)).toBe(false);
    expect(bobs.length).toBeGreaterThan(0);
    expect(bobs.every((e) => e.source === 'programmatic')).toBe(true);
    const optIn = (on: boolean) =>
      t.ctx.database.db
        .updateTable('operators')
        .set({ marketplace_opt_in: on ? 1 : 0 })
        .where('id', '=', OPERATOR_IDS.bob)
        .execute();
    try {
      await optIn(true);
      const selling = await adLoop(t, 'SBX-BOB-0001');
      expect(selling).toHaveLength(8);
      expect(selling.at(-1)).toMatchObject({ source: 'house', url: '/advertise/poster/SBX-BOB-0001.png' });
    } finally {
      await optIn(false);
    }
    expect((await adLoop(t, 'SBX-BOB-0001')).some(isPoster)).toBe(false);
  });

  it("a screen not for sale pads with its operator's own screensavers again", async () => {
    const m = newSerial('BOBADS');
    await expectStatus(call(t.url, 'POST', '/api/v1/machines/register', { headers: BOB, json: { machineNo: m, name: 'Bob screen' } }), 200);
    const saver = await expectStatus<{ id: string }>(
      call(t.url, 'POST', '/api/v1/screensavers', { headers: BOB, json: { name: 'Bob snacks', machineNos: [m], ...pngUpload() } }),
      200,
    );
    await expectStatus(call(t.url, 'POST', `/api/v1/screensavers/${saver.body.data.id}/approve`, { headers: BOB }), 200);
    const loop = await adLoop(t, m);
    expect(loop).toHaveLength(8);
    const own = loop.filter((e) => e.id.startsWith(`scr:${saver.body.data.id}`));
    expect(own.map((e) => e.id)).toEqual([`scr:${saver.body.data.id}`, ...own.slice(1).map((_, i) => `scr:${saver.body.data.id}:${i + 2}`)]);
    expect(own.length).toBe(8 - loop.filter((e) => e.source === 'programmatic').length);
    expect(loop.every((e) => !e.url.startsWith('/advertise/poster/'))).toBe(true);
    // a repeat's play is the operator's own content: counted as house
    const played = await savePlays(t, m, [{ id: own.at(-1)!.id, playedAt: t.clock.now() }]);
    expect(played.body.data).toEqual({ accepted: 1, duplicates: 0, unattributed: 0 });
  });

  it('a direct-sold entry is captioned "Sponsored · <sponsor>", as the buyer\'s form promises', async () => {
    const m = await aliceMachine(t);
    const c = await liveCampaign(t, { targetMachines: [m], sponsorName: "Joe's Coffee", name: "Self-serve: Joe's Coffee" });
    const entry = (await adLoop(t, m)).find((e) => e.campaignId === c.id);
    expect(entry?.head).toBe("Sponsored · Joe's Coffee");
  });

  it("a video longer than a screen's slot is left out of that screen's loop, shown where it fits", async () => {
    const short = await aliceMachine(t, screenBody({ loop: { slots: 8, slotSeconds: 10 } }));
    const standard = await aliceMachine(t);
    const c = await createCampaign(t, { targetMachines: [short, standard] });
    const video = { contentType: 'video/mp4', dataBase64: mp4({ width: 1080, height: 1920, durationMs: 14_000 }).toString('base64') };
    await expectStatus(call(t.url, 'POST', `/api/v1/campaigns/${c.id}/creative/upload`, { headers: ALICE, json: video }), 200);
    await expectStatus(call(t.url, 'POST', `/api/v1/campaigns/${c.id}/activate`, { headers: ALICE }), 200);
    expect((await adLoop(t, standard)).filter((e) => e.campaignId === c.id)).toEqual([expect.objectContaining({ source: 'direct-sold' })]);
    expect((await adLoop(t, short)).some((e) => e.campaignId === c.id)).toBe(false);
  });

  it("approved screensavers take a slot each after the campaigns; pending and retired ones don't", async () => {
    const m = await aliceMachine(t);
    const create = await expectStatus<{ id: string; status: string }>(
      call(t.url, 'POST', '/api/v1/screensavers', { headers: ALICE, json: { name: 'Our snacks', machineNos: [m], ...pngUpload() } }),
      200,
    );
    expect(create.body.data.status).toBe('pending');
    const saverIds = async () => (await adLoop(t, m)).filter((e) => e.id.startsWith('scr:')).map((e) => e.id);
    expect(await saverIds()).toEqual([]);
    await expectStatus(call(t.url, 'POST', `/api/v1/screensavers/${create.body.data.id}/approve`, { headers: BOB }), 404);
    await expectStatus(call(t.url, 'POST', `/api/v1/screensavers/${create.body.data.id}/approve`, { headers: ALICE }), 200);
    expect(await saverIds()).toEqual([`scr:${create.body.data.id}`]);
    expect((await call(t.url, 'POST', `/api/v1/screensavers/${create.body.data.id}/approve`, { headers: ALICE })).status).toBe(409);
    await expectStatus(call(t.url, 'POST', `/api/v1/screensavers/${create.body.data.id}/retire`, { headers: ALICE }), 200);
    expect(await saverIds()).toEqual([]);
  });

  it('proof of play: written once per showing; a programmatic play fires its one-shot PoP exactly once', async () => {
    const m = await aliceMachine(t);
    const c = await liveCampaign(t, { targetMachines: [m], pricing: { model: 'cpm', cpmRate: 20 } });
    const loop = await adLoop(t, m);
    const direct = loop.find((e) => e.campaignId === c.id)!;
    const fill = loop.find((e) => e.source === 'programmatic')!;
    const at = new Date(t.clock.now()).toISOString();
    const records = [
      { id: direct.id, campaignId: c.id, playedAt: at },
      { id: fill.id, source: 'programmatic', playedAt: at },
      { id: 'house:poster:1', playedAt: at },
    ];
    const first = await savePlays(t, m, records);
    expect(first.body.data).toEqual({ accepted: 3, duplicates: 0, unattributed: 0 });
    expect(await receipts(m)).toEqual([fill.id.slice(4)]);
    const retry = await savePlays(t, m, records);
    expect(retry.body.data).toEqual({ accepted: 0, duplicates: 3, unattributed: 0 });
    expect(await receipts(m)).toEqual([fill.id.slice(4)]);
    // The same fill reported again at another time is a second showing, but its PoP is not fired twice.
    await savePlays(t, m, [{ id: fill.id, playedAt: t.clock.now() + 15_000 }]);
    expect(await receipts(m)).toHaveLength(1);
    // A played fill is not offered again.
    expect((await adLoop(t, m)).map((e) => e.id)).not.toContain(fill.id);

    const pop = await expectStatus<{ total: number; records: { source: string; leaseId: string | null; campaignId: string | null }[] }>(
      call(t.url, 'GET', `/api/v1/dooh/proof-of-play?machineNo=${m}&size=100`, { headers: ALICE }),
      200,
    );
    expect(pop.body.data.total).toBe(4);
    const bySource = (s: string) => pop.body.data.records.filter((r) => r.source === s);
    expect(bySource('direct-sold')).toEqual([expect.objectContaining({ campaignId: c.id })]);
    expect(bySource('programmatic').every((r) => r.leaseId === fill.id.slice(4))).toBe(true);
    const filtered = await expectStatus<{ total: number }>(call(t.url, 'GET', `/api/v1/dooh/proof-of-play?campaignId=${c.id}`, { headers: ALICE }), 200);
    expect(filtered.body.data.total).toBe(1);
    await expectStatus(call(t.url, 'GET', `/api/v1/dooh/proof-of-play?machineNo=${m}`, { headers: BOB }), 404);
    const since = await expectStatus<{ total: number }>(
      call(t.url, 'GET', `/api/v1/dooh/proof-of-play?machineNo=${m}&since=${encodeURIComponent(new Date(t.clock.now() + 1000).toISOString())}`, {
        headers: ALICE,
      }),
      200,
    );
    expect(since.body.data.total).toBe(1);
  });

  it("a play naming another operator's campaign is kept but credited to no campaign", async () => {
    const m = await aliceMachine(t);
    const bobs = await createCampaign(t, { targetGeo: { nationwide: true } }, BOB);
    const r = await savePlays(t, m, [{ id: `cmp:${bobs.id}:1`, campaignId: bobs.id }]);
    expect(r.body.data).toEqual({ accepted: 1, duplicates: 0, unattributed: 1 });
    const report = await expectStatus<CampaignReport>(call(t.url, 'GET', `/api/v1/campaigns/${bobs.id}/report`, { headers: BOB }), 200);
    expect(report.body.data.plays).toBe(0);
  });

  it('reports: plays, impressions by the screen estimate, revenue by pricing model, and the loop-wide split', async () => {
    const m = await aliceMachine(t, screenBody({ impressionsPerPlay: 4 }));
    const start = t.clock.now();
    const flat = await liveCampaign(t, {
      targetMachines: [m],
      flightStart: new Date(start).toISOString(),
      flightEnd: new Date(start + 60 * DAY).toISOString(),
      pricing: { model: 'flat-monthly', monthlyRatePerMachine: 99 },
    });
    const cpm = await liveCampaign(t, { targetMachines: [m], pricing: { model: 'cpm', cpmRate: 25 } });
    const plays = (id: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `cmp:${id}:1`, campaignId: id, playedAt: start + i * 1000 }));
    await savePlays(t, m, [...plays(flat.id, 5), ...plays(cpm.id, 250)]);
    clock().advance(15 * DAY);
    const rep = async (id: string) =>
      (await expectStatus<CampaignReport>(call(t.url, 'GET', `/api/v1/campaigns/${id}/report`, { headers: ALICE }), 200)).body.data;
    const f = await rep(flat.id);
    expect(f).toMatchObject({ plays: 5, estImpressions: 20, machines: 1, playsByMachine: [{ machineNo: m, plays: 5 }], estMonthlyValue: 99 });
    expect(f.estRevenue).toBe(49.5); // half a month of 99.00
    expect(f.lastPlayAt).toBe(new Date(start + 4000).toISOString().replace('Z', '+0000'));
    const c = await rep(cpm.id);
    expect(c).toMatchObject({ plays: 250, estImpressions: 1000, estRevenue: 25 }); // 25.00 per 1000 impressions
    clock().advance(60 * DAY);
    expect((await rep(flat.id)).estRevenue).toBe(198); // stops at flightEnd: two months
    const summary = await expectStatus<ReportsSummary>(call(t.url, 'GET', '/api/v1/campaigns/reports/summary', { headers: ALICE }), 200);
    const split = summary.body.data.loop;
    expect(split.plays).toBe(split['direct-sold'].plays + split.programmatic.plays + split.house.plays);
    expect(split['direct-sold'].plays).toBeGreaterThanOrEqual(255);
    expect(summary.body.data.campaigns.map((x) => x.campaignId)).toEqual(expect.arrayContaining([flat.id, cpm.id]));
    const draft = await createCampaign(t, { targetMachines: [m] });
    expect((await rep(draft.id)).estRevenue).toBe(0);
  });

  it('the operator view shows real screen-ad money', async () => {
    const m = await aliceMachine(t);
    await liveCampaign(t, {
      targetMachines: [m],
      flightStart: new Date(t.clock.now()).toISOString(),
      pricing: { model: 'flat-monthly', monthlyRatePerMachine: 60 },
    });
    clock().advance(10 * DAY);
    const view = await expectStatus<{ money: { screenAds: { estRevenue30Days: number; activeCampaigns: number } } }>(
      call(t.url, 'GET', `/api/v1/machines/${m}/operator-view`, { headers: ALICE }),
      200,
    );
    expect(view.body.data.money.screenAds).toEqual({ estRevenue30Days: 20, activeCampaigns: 1 });
  });
});
