import { describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { okData } from '../../testing/answers.ts';
import { sandboxMandate } from '../negotiation/sandbox-seed.ts';
import type { DealState } from '../dfy/deals/deal-model.ts';
import { MoveRefused } from '../dfy/deals/deal-writer.ts';
import { DfyAutopilotService } from './dfy-autopilot.service.ts';
import { dfyKit, type Person } from '../dfy/testing/dfy-test-kit.ts';

type Tick = {
  examined: number;
  accepted: { dealId: string; venueId: string; score: number }[];
  waiting: { dealId: string; checkpoint: string; reason: string }[];
  negotiationSteps: string[];
  reviewed: string[];
  gatesWaiting: { dealId: string; needs: string }[];
  inventory: { queued: string[]; pendingApproval: string[] };
};
type Checkpoint = { kind: string; resolved: boolean; detail: string | null };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const MANDATE = { ...sandboxMandate({ earliest: '2026-12-01', latest: '2026-12-31' }), vertical: 'gym' };
const DIRECTORY = [
  {
    name: 'Pier Fitness',
    address: '1 Pier St',
    lat: 40.7033,
    lng: -74.017,
    vertical: 'gym',
    timeZone: 'Europe/London',
    email: 'a@pier.test',
    phone: null,
    dailyVisitors: 250,
  },
  { name: 'Slow Cafe', address: null, lat: 40.9, lng: -74.3, vertical: 'cafe', timeZone: 'Europe/London', email: null, phone: null, dailyVisitors: 40 },
];

/** The autopilot within the portfolio settings (spec 3 §2, key rules 1, 2, 4; docs/decisions/dfy-modes.md). */
describe.each(DIALECTS)('the done-for-you autopilot on %s', (dialect) => {
  const t = suiteServer(dialect);
  const { api, person, atOutreach, live, settings } = dfyKit(t);
  const tick = async (who: Person) => okData(await api<Tick>('POST', '/autopilot/tick', who));
  const checkpoints = async (who: Person, dealId: string) =>
    okData(await api<{ records: Checkpoint[] }>('GET', '/checkpoints', who, undefined, { dealId })).records;
  const deal = async (who: Person, id: string) => okData(await api<DealState>('GET', `/deals/${id}`, who));
  const shortlisting = async (who: Person) => okData(await api<DealState>('POST', '/deals', who, { tier: 'pro', hardwareVariant: 'agent' })).id;

  it('placement: the top venue is accepted alone only at autoApproveScore and up to maxAutoApprove a UTC day; otherwise scout_outreach waits', async () => {
    t.clock.set(Date.parse('2026-11-20T12:00:00Z'));
    const me = await person();
    okData(await api('POST', '/directory/import', me, { venues: DIRECTORY }));
    const ids = [await shortlisting(me), await shortlisting(me), await shortlisting(me)];
    const top = okData(await api<{ records: { id: string; score: number }[] }>('GET', `/deals/${ids[0]}/shortlist`, me)).records[0]!;
    expect(top.score).toBeLessThan(100);

    // below the score: nothing accepted, the checkpoint stays for a person
    await settings(me, { autopilot: true, autoApproveScore: Math.floor(top.score) + 1, maxAutoApprove: 5 });
    let r = await tick(me);
    expect(r.accepted).toEqual([]);
    expect(r.waiting.map((w) => [w.checkpoint, w.reason])).toEqual(ids.map(() => ['scout_outreach', expect.stringMatching(/below autoApproveScore/)]));
    for (const id of ids)
      expect(await deal(me, id)).toMatchObject({ stage: 'shortlisting', openCheckpoints: [expect.objectContaining({ kind: 'scout_outreach' })] });

    // at the score (integer settings: its floor), two a day: two accepted, the third waits for tomorrow (UTC)
    await settings(me, { autopilot: true, autoApproveScore: Math.floor(top.score), maxAutoApprove: 2 });
    r = await tick(me);
    expect(r.accepted.map((a) => [a.venueId, a.score])).toEqual([0, 1].map(() => [top.id, top.score]));
    const chosen = r.accepted.map((a) => a.dealId);
    const third = ids.find((id) => !chosen.includes(id))!;
    expect(chosen.every((id) => ids.includes(id))).toBe(true);
    expect(r.waiting).toEqual([expect.objectContaining({ dealId: third, checkpoint: 'scout_outreach', reason: expect.stringMatching(/maxAutoApprove 2/) })]);
    expect(await tick(me)).toMatchObject({ accepted: [] });
    for (const id of chosen) {
      const d = await deal(me, id);
      expect(d).toMatchObject({ stage: 'outreach', venue: { name: 'Pier Fitness' } });
      expect(d.timeline.find((e) => e.event === 'venue_chosen')).toMatchObject({ actor: 'autopilot' });
      // outreach on: the run the autopilot linked is started and the first touch sent (the window is open in London)
      expect(d.timeline.filter((e) => e.event === 'outreach_touch').map((e) => e.actor)).toEqual(['autopilot']);
      // the negotiation is only asked for
      expect(d.negotiation.status).toBe('not_started');
      expect(d.openCheckpoints.map((c) => c.kind)).toContain('negotiation_target');
    }
    expect((await deal(me, third)).stage).toBe('shortlisting');
    t.clock.advance(DAY);
    r = await tick(me);
    expect(r.accepted.map((a) => a.dealId)).toEqual([third]);
    // a deal whose placement is switched off is left alone
    const manual = await shortlisting(me);
    okData(await api('PUT', `/mode/deal/${manual}`, me, { placement: false }));
    t.clock.advance(DAY);
    expect((await tick(me)).accepted).toEqual([]);
    expect((await deal(me, manual)).stage).toBe('shortlisting');
  });

  it('key rule 4: auto-negotiation with manual contracting converges and stops without lease_send; with contracting on it stops at lease_send', async () => {
    const me = await person();
    await settings(me, {
      autopilot: true,
      capabilityDefaults: { placement: null, outreach: null, negotiation: null, contracting: false, install: null, inventory: null },
    });
    const manual = (await atOutreach(me)).id;
    const auto = (await atOutreach(me)).id;
    okData(await api('PUT', `/mode/deal/${auto}`, me, { contracting: true }));
    for (const id of [manual, auto]) {
      // the autopilot never starts it: negotiation_target waits for the operator's confirmed start
      await tick(me);
      expect((await deal(me, id)).negotiation.status).toBe('not_started');
      okData(await api('PUT', `/deals/${id}/negotiation/envelope`, me, MANDATE));
      okData(await api('POST', `/deals/${id}/negotiation/start`, me, { confirm: true }));
    }
    let steps = 0;
    for (let i = 0; i < 30; i++) {
      t.clock.advance(HOUR);
      const r = await tick(me);
      steps += r.negotiationSteps.length;
      if (r.negotiationSteps.length === 0) break;
    }
    expect(steps).toBeGreaterThan(2);
    const m = await deal(me, manual);
    expect(m).toMatchObject({ stage: 'outreach', negotiation: { status: 'terms_recorded' } });
    expect(m.openCheckpoints.map((c) => c.kind)).toContain('negotiation_review');
    expect((await checkpoints(me, manual)).filter((c) => c.kind === 'lease_send')).toEqual([]);

    const a = await deal(me, auto);
    expect(a.stage).toBe('lease_chat');
    expect(a.lease).toMatchObject({ sent: false });
    const open = (await checkpoints(me, auto)).filter((c) => !c.resolved).map((c) => c.kind);
    expect(open).toContain('lease_send');
    // the gates stayed with the operator: the start was theirs, nothing sent, approved or paid by the autopilot
    const byAutopilot = a.timeline.filter((e) => e.actor === 'autopilot').map((e) => e.event);
    expect(byAutopilot).not.toEqual(expect.arrayContaining(['negotiation_started']));
    for (const e of ['negotiation_started', 'terms_approved', 'machine_paid', 'preorder_paid']) expect(byAutopilot).not.toContain(e);
    expect(a.timeline.find((e) => e.event === 'negotiation_started')).toMatchObject({ actor: 'operator' });
    expect(a.money).toMatchObject({ machinePaidUsd: 0 });
    const again = await tick(me);
    expect(again.gatesWaiting.filter((g) => g.dealId === auto).map((g) => g.needs)).toEqual(
      expect.arrayContaining([expect.stringMatching(/lease_sent → lease_sent needs a request with confirm: true/)]),
    );
    expect((await deal(me, auto)).stage).toBe('lease_chat');
  });

  it('a deal that changed under the tick (409) is left for the next one; the other deals go on', async () => {
    const me = await person();
    await settings(me, { autopilot: true });
    const [a, b] = [(await atOutreach(me)).id, (await atOutreach(me)).id];
    const s = t.services;
    const autopilot = new DfyAutopilotService({
      store: s.store,
      clock: t.clock,
      dfy: s.dfy,
      negotiation: s.negotiation,
      inventory: s.dfyInventory,
      outreach: {
        topShortlisted: (id) => s.outreach.topShortlisted(id),
        autoAccept: (id, venueId, allowed) => s.outreach.autoAccept(id, venueId, allowed),
        autopilotPass: async (id, on) => {
          if (id === a) throw new MoveRefused('Deal is outreach: changed meanwhile', 'illegal');
          return s.outreach.autopilotPass(id, on);
        },
      },
    });
    const r = await autopilot.tick(null);
    expect(r.conflicts).toEqual([{ dealId: a, message: 'Deal is outreach: changed meanwhile' }]);
    expect(r.gatesWaiting.map((g) => g.dealId)).toContain(b);
    expect(r.gatesWaiting.map((g) => g.dealId)).not.toContain(a);
  });

  it('the background loop runs the inventory tick: an order over moneyThresholdUsd waits for approval even under the monthly cap', async () => {
    const me = await person();
    await settings(me, { autopilot: true, autoInventory: true, inventoryMonthlyCapUsd: 10_000 });
    const small = await live(me, { 1: 2 });
    const large = await live(me, { 1: 0, 2: 0, 3: 0, 4: 0 });
    const estimate = async (machineNo: string) =>
      okData(await api<{ estimatedCostUsd: number }>('GET', '/inventory/suggestions', me, undefined, { machineNo })).estimatedCostUsd;
    const [lo, hi] = [await estimate(small.machineNo), await estimate(large.machineNo)];
    expect(lo).toBeLessThan(hi);
    await settings(me, { autopilot: true, autoInventory: true, inventoryMonthlyCapUsd: 10_000, moneyThresholdUsd: lo });
    expect((await t.services.jobs.dfyAutopilot.tick()).leader).toBe(true);
    const orders = await t.ctx.database.db
      .selectFrom('dfy_supplier_orders')
      .select(['deal_id', 'status', 'estimated_cost_cents'])
      .where('operator_id', '=', me.id)
      .execute();
    expect(orders.map((o) => [o.deal_id, o.status]).sort()).toEqual(
      [
        [small.dealId, 'queued'],
        [large.dealId, 'pending_approval'],
      ].sort(),
    );
    const cap = (await checkpoints(me, large.dealId)).find((c) => c.kind === 'inventory_cap' && !c.resolved);
    expect(cap?.detail).toMatch(/over the money threshold/);
    expect(cap?.detail).not.toMatch(/monthly cap/);
  });
});
