import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../../testing/harness.ts';
import { expectRefused, okData, type Body } from '../../../testing/answers.ts';
import { newOperator } from '../../machines/machines.factories.ts';
import type { DealState } from './deal-model.ts';
import { describeGraph } from './deal-graph.ts';

type H = Record<string, string>;
type Person = { id: string; email: string; headers: H };
type Checkpoint = { id: string; kind: string; dealId: string; resolved: boolean; dealStage: string };
type WorkOrder = { id: string; dealId: string; type: string; state: string };

const VENUE = { name: 'Harbor Gym', address: '12 Pier St', lat: 40.7033, lng: -74.017 };
const ENVELOPE = { revenueShareTargetPct: 10, revenueShareMaxPct: 15, termMinMonths: 12, termTargetMonths: 24, termMaxMonths: 36 };

describe.each(DIALECTS)('done-for-you deals on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;
  const api = <T = unknown>(method: string, path: string, who: { headers: H }, json?: unknown, query?: Record<string, string>) =>
    call<Body<T>>(t.url, method, `/api/v1/dfy${path}`, { headers: who.headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });
  const person = (): Promise<Person> => newOperator(db(), t.clock.now());
  const inbox = async (who: Person, q: Record<string, string> = {}) =>
    okData(await api<{ records: Checkpoint[] }>('GET', '/checkpoints', who, undefined, q)).records;
  const replayMatches = async (who: Person, id: string) => {
    const deal = okData(await api<DealState>('GET', `/deals/${id}`, who));
    const replay = okData(await api<{ deal: DealState; matchesStored: boolean }>('GET', `/deals/${id}/replay`, who));
    expect(replay.matchesStored).toBe(true);
    expect(JSON.stringify(replay.deal)).toBe(JSON.stringify(deal));
  };

  /** A requested deal walked to lease_chat (terms far from the edge: no terms approval). */
  const toLeaseChat = async (who: Person, terms = { revenueSharePct: 10, termMonths: 24, rounds: 3 }) => {
    const d = okData(await api<DealState>('POST', '/deals', who, { tier: 'pro', hardwareVariant: 'agent' }));
    okData(await api('POST', `/deals/${d.id}/scout/accept`, who, { venue: VENUE }));
    okData(await api('POST', `/deals/${d.id}/negotiation/start`, who, { confirm: true, envelope: ENVELOPE }));
    okData(await api('POST', `/deals/${d.id}/negotiation/terms`, who, terms));
    return okData(await api<DealState>('POST', `/deals/${d.id}/negotiation/review`, who));
  };

  it('GET /api/v1/meta/state-machines/dfy_deal serves the table the API enforces, without a credential', async () => {
    const r = await call<Body<ReturnType<typeof describeGraph>>>(t.url, 'GET', '/api/v1/meta/state-machines/dfy_deal');
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual(JSON.parse(JSON.stringify(describeGraph())));
    const pay = r.body.data.transitions.find((x) => x.trigger === 'payment')!;
    expect(pay).toMatchObject({ from: 'signed', to: 'ready_to_ship', checkpoints: ['money'], confirmGate: true, actors: ['operator'] });
    expect(r.body.data.checkpoints).toHaveLength(12);
    expect((await call(t.url, 'GET', '/api/v1/meta/state-machines/nope')).status).toBe(400);
  });

  it('the catalog: three tiers in USD from the server', async () => {
    const me = await person();
    const c = okData(await api<{ tiers: { tier: string; priceUsd: number }[] }>('GET', '/catalog', me));
    expect(c.tiers.map((x) => [x.tier, x.priceUsd])).toEqual([
      ['entry', 3000],
      ['pro', 5000],
      ['pro-max', 7000],
    ]);
  });

  it('a pre-order: confirmed, paid at the catalog price whatever the client sends, refundable until shipped', async () => {
    const me = await person();
    expectRefused(await api('POST', '/preorder', me, { tier: 'entry', hardwareVariant: 'agent' }), 400, /Bad request/);
    expectRefused(await api('POST', '/preorder', me, { tier: 'entry', hardwareVariant: 'agent', confirm: true, amountUsd: 'cheap' }), 422, /Validation/);
    // a client amount is ignored: the catalog price of the tier is charged
    const d = okData(await api<DealState>('POST', '/preorder', me, { tier: 'pro-max', hardwareVariant: 'reyeah', confirm: true, amountUsd: 1 }));
    expect(d).toMatchObject({
      stage: 'pre_ordered',
      stagesVisited: ['pre_ordered'],
      origin: 'preorder',
      priceUsd: 7000,
      money: { preorderPaidUsd: 7000 },
      openCheckpoints: [],
    });
    const pay = await db().selectFrom('dfy_payments').selectAll().where('deal_id', '=', d.id).execute();
    expect(pay.map((x) => [x.kind, Number(x.amount_cents)])).toEqual([['preorder', 700_000]]);
    expectRefused(
      await api('POST', `/deals/${d.id}/advance`, me, { to: 'outreach' }),
      409,
      /^Deal is pre_ordered: advance → outreach needs a venue named on the deal/,
    );
    const s = okData(await api<DealState>('POST', `/deals/${d.id}/advance`, me, { to: 'shortlisting' }));
    expect(s.openCheckpoints.map((c) => c.kind)).toEqual(['scout_outreach']);
    expectRefused(await api('POST', `/deals/${d.id}/refund`, me, { reason: 'changed my mind' }), 400, /Bad request/);
    const r = okData(await api<DealState>('POST', `/deals/${d.id}/refund`, me, { confirm: true, reason: 'changed my mind' }));
    expect(r).toMatchObject({ stage: 'cancelled', cancelReason: 'changed my mind', money: { refundedUsd: 7000 }, openCheckpoints: [] });
    const after = await db().selectFrom('dfy_payments').select('refunded_at').where('deal_id', '=', d.id).execute();
    expect(after.every((x) => x.refunded_at !== null)).toBe(true);
    expectRefused(await api('POST', `/deals/${d.id}/refund`, me, { confirm: true, reason: 'again' }), 409, /cancelled/);
    expectRefused(await api('POST', `/deals/${d.id}/advance`, me, { to: 'outreach' }), 409, /^Deal is cancelled/);
    await replayMatches(me, d.id);
  });

  it('a pre-order with a venue advances to outreach; a preorder is not refundable once shipped', async () => {
    const me = await person();
    const d = okData(await api<DealState>('POST', '/preorder', me, { tier: 'entry', hardwareVariant: 'agent', confirm: true, venue: VENUE }));
    const o = okData(await api<DealState>('POST', `/deals/${d.id}/advance`, me, { to: 'outreach' }));
    expect(o.stage).toBe('outreach');
    expect(o.openCheckpoints.map((c) => c.kind)).toEqual(['negotiation_target']);
    okData(await api('POST', `/deals/${d.id}/negotiation/start`, me, { confirm: true, envelope: ENVELOPE }));
    okData(await api('POST', `/deals/${d.id}/negotiation/terms`, me, { revenueSharePct: 10, termMonths: 24, rounds: 2 }));
    okData(await api('POST', `/deals/${d.id}/negotiation/review`, me));
    const sent = okData(await api<DealState>('POST', `/deals/${d.id}/lease/send`, me, { confirm: true }));
    // the pre-order paid the machine: no money checkpoint, and the signature goes straight to ready_to_ship
    expect(sent.openCheckpoints.some((c) => c.kind === 'money')).toBe(false);
    expectRefused(
      await api('POST', `/deals/${d.id}/order/checkout`, me, { confirm: true }),
      409,
      /^Deal is lease_sent: the machine is already paid \(by its pre-order\)/,
    );
    const ready = okData(await api<DealState>('POST', `/deals/${d.id}/lease/signature`, me));
    expect(ready.stage).toBe('ready_to_ship');
    expect(ready.machineNo).toMatch(/^DFY-/);
    okData(await api('POST', `/deals/${d.id}/shipping/tracking`, me, { carrier: 'ACME', trackingNumber: '1Z999' }));
    expectRefused(await api('POST', `/deals/${d.id}/refund`, me, { confirm: true, reason: 'late' }), 409, /^Deal is shipped: refundable only until shipped/);
    await replayMatches(me, d.id);
  });

  it('a requested deal pre-ordered while shortlisting: the scout checkpoint is superseded at outreach; shortlisting is never re-entered', async () => {
    const me = await person();
    const d = okData(await api<DealState>('POST', '/deals', me, { tier: 'entry', hardwareVariant: 'agent', venue: VENUE }));
    expectRefused(await api('POST', `/deals/${d.id}/preorder`, me, {}), 400, /confirm/);
    const p = okData(await api<DealState>('POST', `/deals/${d.id}/preorder`, me, { confirm: true }));
    expect(p).toMatchObject({ stage: 'pre_ordered', stagesVisited: ['shortlisting', 'pre_ordered'], money: { preorderPaidUsd: 3000 } });
    expectRefused(await api('POST', `/deals/${d.id}/preorder`, me, { confirm: true }), 409, /^Deal is pre_ordered/);
    expectRefused(await api('POST', `/deals/${d.id}/advance`, me, { to: 'shortlisting' }), 409, /^Deal is pre_ordered: shortlisting was already held/);
    const o = okData(await api<DealState>('POST', `/deals/${d.id}/advance`, me, { to: 'outreach' }));
    expect(o.openCheckpoints.map((c) => c.kind)).toEqual(['negotiation_target']);
    const scout = (await inbox(me, { dealId: d.id, kind: 'scout_outreach' }))[0]!;
    expect(scout).toMatchObject({ resolved: true, resolvedBy: 'superseded' });
    await replayMatches(me, d.id);
  });

  it('the whole road: every gate on a confirmed operator request, the fleet pin at the leased coordinates, install forward only', async () => {
    const me = await person();
    const d = okData(await api<DealState>('POST', '/deals', me, { tier: 'pro', hardwareVariant: 'agent', note: 'lobby please' }));
    expect(d).toMatchObject({ stage: 'shortlisting', origin: 'request', autopilot: null, priceUsd: 5000 });
    expect((await inbox(me, { dealId: d.id, resolved: 'false' })).map((c) => c.kind)).toEqual(['scout_outreach']);
    expectRefused(
      await api('POST', `/deals/${d.id}/negotiation/start`, me, { confirm: true, envelope: ENVELOPE }),
      409,
      /^Deal is shortlisting: start_negotiation needs the deal at outreach/,
    );
    okData(await api('POST', `/deals/${d.id}/scout/accept`, me, { venue: VENUE }));
    // gate 1: start negotiation
    expectRefused(await api('POST', `/deals/${d.id}/negotiation/start`, me, { envelope: ENVELOPE }), 400, /confirm/);
    expectRefused(
      await api('POST', `/deals/${d.id}/negotiation/review`, me),
      409,
      /^Deal is outreach: negotiation_reviewed → lease_chat needs open checkpoint negotiation_review/,
    );
    okData(await api('POST', `/deals/${d.id}/negotiation/start`, me, { confirm: true, envelope: ENVELOPE }));
    expectRefused(await api('POST', `/deals/${d.id}/negotiation/terms`, me, { revenueSharePct: 16, termMonths: 24, rounds: 3 }), 409, /outside the mandate/);
    // at the share ceiling and 9 rounds: terms approval needed
    const first = okData(await api<DealState>('POST', `/deals/${d.id}/negotiation/terms`, me, { revenueSharePct: 14.5, termMonths: 24, rounds: 2 }));
    expect(first.openCheckpoints.map((c) => c.kind).sort()).toEqual(['negotiation_review', 'terms_approval']);
    // recorded again in the comfortable band: the approval request is superseded
    const calm = okData(await api<DealState>('POST', `/deals/${d.id}/negotiation/terms`, me, { revenueSharePct: 11, termMonths: 24, rounds: 3 }));
    expect(calm.openCheckpoints.map((c) => c.kind)).toEqual(['negotiation_review']);
    const rec = okData(await api<DealState>('POST', `/deals/${d.id}/negotiation/terms`, me, { revenueSharePct: 14.5, termMonths: 36, rounds: 9 }));
    expect(rec.negotiation.approvalReasons).toHaveLength(3);
    okData(await api('POST', `/deals/${d.id}/negotiation/review`, me));
    // gate 3 before gate 2: 409 until the terms are approved
    expectRefused(
      await api('POST', `/deals/${d.id}/lease/send`, me, { confirm: true }),
      409,
      /^Deal is lease_chat: lease_sent → lease_sent needs checkpoint terms_approval resolved first/,
    );
    expectRefused(await api('POST', `/deals/${d.id}/negotiation/approve-terms`, me, {}), 400, /confirm/);
    okData(await api('POST', `/deals/${d.id}/negotiation/approve-terms`, me, { confirm: true }));
    expectRefused(await api('POST', `/deals/${d.id}/lease/send`, me, {}), 400, /confirm/);
    const sent = okData(await api<DealState>('POST', `/deals/${d.id}/lease/send`, me, { confirm: true }));
    expect(sent.stage).toBe('lease_sent');
    expect(sent.openCheckpoints.map((c) => c.kind)).toEqual(['money']);
    expectRefused(await api('POST', `/deals/${d.id}/shipping/tracking`, me, { carrier: 'x', trackingNumber: 'y' }), 409, /^Deal is lease_sent/);
    const signed = okData(await api<DealState>('POST', `/deals/${d.id}/lease/signature`, me));
    expect(signed.stage).toBe('signed');
    expect(signed.machineNo).toBeNull();
    // gate 4: pay; a client amount is ignored
    expectRefused(await api('POST', `/deals/${d.id}/order/checkout`, me, { amountUsd: 5000 }), 400, /confirm/);
    const paid = okData(await api<DealState>('POST', `/deals/${d.id}/order/checkout`, me, { confirm: true, amountUsd: 0.01 }));
    expect(paid).toMatchObject({ stage: 'ready_to_ship', money: { machinePaidUsd: 5000 }, openCheckpoints: [] });
    const pay = await db().selectFrom('dfy_payments').selectAll().where('deal_id', '=', d.id).execute();
    expect(pay.map((x) => [x.kind, Number(x.amount_cents)])).toEqual([['checkout', 500_000]]);
    // the fleet pin: the operator's machine at the leased coordinates, offline, no terminal yet
    const m = await call<Body<{ lat: string; lng: string; status: string; location: string; paymentTerminal: unknown }>>(
      t.url,
      'GET',
      `/api/v1/machines/${paid.machineNo}`,
      { headers: me.headers },
    );
    expect(m.status, m.text).toBe(200);
    expect(m.body.data).toMatchObject({ status: 'offline', location: '12 Pier St', paymentTerminal: null });
    expect([Number(m.body.data.lat), Number(m.body.data.lng)]).toEqual([40.7033, -74.017]);
    expectRefused(
      await api('POST', `/deals/${d.id}/order/checkout`, me, { confirm: true }),
      409,
      /^Deal is ready_to_ship: payment needs the deal at lease_sent or signed/,
    );
    expectRefused(
      await api('POST', `/deals/${d.id}/install/dispatch`, me, { confirm: true }),
      409,
      /^Deal is ready_to_ship: install dispatch needs the deal at shipped/,
    );
    okData(await api('POST', `/deals/${d.id}/shipping/tracking`, me, { carrier: 'ACME', trackingNumber: '1Z999' }));
    expectRefused(await api('POST', `/deals/${d.id}/install/dispatch`, me, {}), 400, /confirm/);
    const wo = okData(await api<WorkOrder>('POST', `/deals/${d.id}/install/dispatch`, me, { confirm: true }));
    expect(wo).toMatchObject({ dealId: d.id, type: 'dfy_install', state: 'open' });
    expectRefused(await api('POST', `/deals/${d.id}/install/dispatch`, me, { confirm: true }), 409, /already open/);
    okData(await api('POST', `/install/orders/${wo.id}`, me, { state: 'assigned', assignee: 'Sam' }));
    okData(await api('POST', `/install/orders/${wo.id}`, me, { state: 'en_route' }));
    expectRefused(await api('POST', `/install/orders/${wo.id}`, me, { state: 'scheduled' }), 409, /forward only/);
    expectRefused(await api('POST', `/install/orders/${wo.id}`, me, { state: 'en_route' }), 409, /forward only/);
    expectRefused(await api('POST', `/install/orders/${wo.id}`, me, { state: 'teleported' }), 400, /Bad request/);
    expect(okData(await api<WorkOrder>('POST', `/install/orders/${wo.id}`, me, { state: 'on_site' })).state).toBe('on_site');
    const installing = okData(await api<DealState>('GET', `/deals/${d.id}`, me));
    expect(installing.stage).toBe('installing');
    // the install opened an enrolment arm on the pin
    const arm = await db()
      .selectFrom('enrolment_arms as a')
      .innerJoin('machines as m', 'm.id', 'a.machine_id')
      .select(['a.closed_at', 'a.expires_at'])
      .where('m.machine_no', '=', installing.machineNo!)
      .execute();
    expect(arm).toHaveLength(1);
    expect(arm[0]!.closed_at).toBeNull();
    // a cabinet not seen yet: the onboarding tick leaves the deal installing
    await t.services.jobs.dfyOnboarding.tick();
    expect(okData(await api<DealState>('GET', `/deals/${d.id}`, me)).stage).toBe('installing');
    expect(installing.stagesVisited).toEqual(['shortlisting', 'outreach', 'lease_chat', 'lease_sent', 'signed', 'ready_to_ship', 'shipped', 'installing']);
    expect(installing.timeline.map((x) => x.seq)).toEqual(installing.timeline.map((_, i) => i + 1));
    await replayMatches(me, d.id);
    const audit = await db().selectFrom('audit_log').select('action').where('resource', '=', `deal:${d.id}`).execute();
    expect(audit.map((a) => a.action)).toContain('dfy.checkout');
  });

  it('the checkpoint inbox: filters, acknowledgement only for acknowledgement kinds, gates only by their action', async () => {
    const me = await person();
    const d = await toLeaseChat(me);
    const open = await inbox(me, { resolved: 'false' });
    expect(open.map((c) => [c.kind, c.dealStage])).toEqual([['lease_send', 'lease_chat']]);
    const all = await inbox(me, { dealId: d.id });
    expect(all.map((c) => [c.kind, c.resolved]).sort()).toEqual(
      [
        ['lease_send', false],
        ['negotiation_review', true],
        ['negotiation_target', true],
        ['scout_outreach', true],
      ].sort(),
    );
    expectRefused(await api('POST', `/checkpoints/${open[0]!.id}/acknowledge`, me), 409, /lease_send is resolved only by lease_sent/);
    expectRefused(await api('POST', `/checkpoints/chk_nope/acknowledge`, me), 404, /Checkpoint not found/);
    expectRefused(await api('GET', '/checkpoints', me, undefined, { kind: 'bogus' }), 400, /Bad request/);
  });

  it('autopilot: a tick raises negotiation_target and ships in the sandbox, and never passes a confirm gate', async () => {
    const me = await person();
    okData(
      await api('PUT', '/portfolio/settings', me, {
        autopilot: true,
        autoApproveScore: 90,
        maxAutoApprove: 2,
        installMode: 'team',
        autoInventory: false,
        inventoryMonthlyCapUsd: 300,
        moneyThresholdUsd: 100,
        capabilityDefaults: { placement: true, outreach: true, negotiation: true, contracting: true, install: true, inventory: false },
      }),
    );
    // one deal parked at each gate, one ready to ship
    const atTarget = okData(await api<DealState>('POST', '/deals', me, { tier: 'entry', hardwareVariant: 'agent' }));
    okData(await api('POST', `/deals/${atTarget.id}/scout/accept`, me, { venue: VENUE }));
    const target = (await inbox(me, { dealId: atTarget.id, kind: 'negotiation_target' }))[0]!;
    // resolve it by starting? no: leave it open, the tick must not start the negotiation
    const atLease = await toLeaseChat(me, { revenueSharePct: 14.5, termMonths: 24, rounds: 3 });
    const atMoney = await toLeaseChat(me);
    okData(await api('POST', `/deals/${atMoney.id}/lease/send`, me, { confirm: true }));
    okData(await api('POST', `/deals/${atMoney.id}/lease/signature`, me));
    const ready = await toLeaseChat(me);
    okData(await api('POST', `/deals/${ready.id}/lease/send`, me, { confirm: true }));
    okData(await api('POST', `/deals/${ready.id}/order/checkout`, me, { confirm: true }));
    okData(await api('POST', `/deals/${ready.id}/lease/signature`, me));
    const manual = await toLeaseChat(me);
    okData(await api('POST', `/deals/${manual.id}/autopilot`, me, { enabled: false }));

    const before = await Promise.all([atTarget, atLease, atMoney].map(async (x) => okData(await api<DealState>('GET', `/deals/${x.id}`, me))));
    const tick = okData(await api<{ examined: number; shipped: string[]; gatesWaiting: { dealId: string; needs: string }[] }>('POST', '/autopilot/tick', me));
    expect(tick.shipped).toEqual([ready.id]);
    expect(tick.examined).toBe(4);
    expect(tick.gatesWaiting.map((g) => g.dealId)).toEqual(expect.arrayContaining([atTarget.id, atLease.id, atMoney.id]));
    for (const g of tick.gatesWaiting) expect(g.needs).toMatch(/confirm: true from an operator credential/);
    for (const b of before) {
      const now = okData(await api<DealState>('GET', `/deals/${b.id}`, me));
      expect([now.stage, now.negotiation.status, now.lease, now.money]).toEqual([b.stage, b.negotiation.status, b.lease, b.money]);
    }
    expect((await inbox(me, { dealId: atTarget.id, kind: 'negotiation_target' }))[0]).toMatchObject({ id: target.id, resolved: false });
    expect(okData(await api<DealState>('GET', `/deals/${ready.id}`, me))).toMatchObject({ stage: 'shipped', shipment: { carrier: 'sandbox-freight' } });
    expect(okData(await api<DealState>('GET', `/deals/${manual.id}`, me)).stage).toBe('lease_chat');
    // the tick's writer runs as the autopilot: a gate asked through it is refused by the table itself
    const { DealWriter, MoveRefused } = await import('./deal-writer.ts');
    const row = (await t.services.store.repos.dfy.deal(atLease.id))!;
    await expect(
      t.services.store.transaction(async (tx) => {
        const w = await DealWriter.open(tx, row, t.clock.now(), 'autopilot');
        await w.move('lease_sent', { confirm: true });
      }),
    ).rejects.toBeInstanceOf(MoveRefused);
    const tick2 = okData(await api<{ raised: unknown[] }>('POST', '/autopilot/tick', me));
    expect(tick2.raised).toEqual([]);
    await replayMatches(me, ready.id);
  });

  it('the autopilot loop (leader only, every minute) does for every operator what its tick does, and passes no gate', async () => {
    const me = await person();
    const other = await person();
    for (const who of [me, other]) {
      okData(
        await api('PUT', '/portfolio/settings', who, {
          autopilot: true,
          autoApproveScore: 90,
          maxAutoApprove: 2,
          installMode: 'team',
          autoInventory: false,
          inventoryMonthlyCapUsd: 300,
          moneyThresholdUsd: 100,
          capabilityDefaults: { placement: true, outreach: true, negotiation: true, contracting: true, install: true, inventory: false },
        }),
      );
    }
    const ready = await toLeaseChat(me);
    okData(await api('POST', `/deals/${ready.id}/lease/send`, me, { confirm: true }));
    okData(await api('POST', `/deals/${ready.id}/order/checkout`, me, { confirm: true }));
    okData(await api('POST', `/deals/${ready.id}/lease/signature`, me));
    const atLease = await toLeaseChat(other);
    const result = await t.services.jobs.dfyAutopilot.tick();
    expect(result.leader).toBe(true);
    expect(result.resolved).toBeGreaterThanOrEqual(1);
    expect(okData(await api<DealState>('GET', `/deals/${ready.id}`, me))).toMatchObject({ stage: 'shipped', shipment: { carrier: 'sandbox-freight' } });
    // the other operator's deal waits at its gate: the loop, like the tick, cannot send a lease
    expect(okData(await api<DealState>('GET', `/deals/${atLease.id}`, other)).stage).toBe('lease_chat');
    expect((await inbox(other, { dealId: atLease.id, kind: 'lease_send' }))[0]).toMatchObject({ resolved: false });
  });

  it('portfolio settings are validated and stored whole; the views count deals, capital and the inbox', async () => {
    const me = await person();
    const s = okData(await api<{ autopilot: boolean; updatedAt: string | null }>('GET', '/portfolio/settings', me));
    expect(s).toMatchObject({ autopilot: false, installMode: 'team', updatedAt: null });
    const good = {
      autopilot: false,
      autoApproveScore: 70,
      maxAutoApprove: 1,
      installMode: 'self',
      autoInventory: true,
      inventoryMonthlyCapUsd: 250.5,
      moneyThresholdUsd: 0,
      capabilityDefaults: { placement: true, outreach: false, negotiation: false, contracting: false, install: true, inventory: true },
    };
    for (const bad of [
      { ...good, installMode: 'robot' },
      { ...good, autoApproveScore: 101 },
      { ...good, inventoryMonthlyCapUsd: -1 },
      { ...good, capabilityDefaults: { ...good.capabilityDefaults, teleport: true } },
      { autopilot: true },
    ]) {
      expectRefused(await api('PUT', '/portfolio/settings', me, bad), 400, /Bad request/);
    }
    expectRefused(await api('PUT', '/portfolio/settings', me, { ...good, autopilot: 'yes' }), 422, /Validation/);
    expect(okData(await api('GET', '/portfolio/settings', me))).toMatchObject({ updatedAt: null });
    expect(okData(await api('PUT', '/portfolio/settings', me, good))).toMatchObject({ ...good, updatedAt: expect.any(String) });

    okData(await api('POST', '/preorder', me, { tier: 'entry', hardwareVariant: 'agent', confirm: true }));
    await toLeaseChat(me);
    const p = okData(
      await api<{ dealsInFlight: number; capitalValueUsd: number; checkpointInbox: { open: number; byKind: Record<string, number> } }>('GET', '/portfolio', me),
    );
    expect(p).toMatchObject({
      dealsInFlight: 2,
      capitalValueUsd: 3000,
      machinesOwned: 0,
      revenueMtdUsd: 0,
      checkpointInbox: { open: 1, byKind: { lease_send: 1 } },
    });
    const sec = okData(await api<{ modeCounts: Record<string, number>; profitMtdUsd: number; hasEstimates: boolean }>('GET', '/portfolio/securities', me));
    // the defaults turn placement, install and inventory on, the rest off: both deals are Hybrid (key rule 4)
    expect(sec).toMatchObject({ modeCounts: { auto: 0, hybrid: 2, manual: 0 }, profitMtdUsd: 0, hasEstimates: false, dealsInFlight: 2 });
  });

  it('cancelling is the correction: from any open stage, never from live or cancelled, refunds only before shipping', async () => {
    const me = await person();
    const d = await toLeaseChat(me);
    const c = okData(await api<DealState>('POST', `/deals/${d.id}/cancel`, me, { reason: 'venue closed' }));
    expect(c).toMatchObject({ stage: 'cancelled', cancelReason: 'venue closed', openCheckpoints: [] });
    expect((await inbox(me, { dealId: d.id, resolved: 'false' })).length).toBe(0);
    expectRefused(await api('POST', `/deals/${d.id}/cancel`, me, { reason: 'again' }), 409, /^Deal is cancelled/);
    expectRefused(await api('POST', `/deals/${d.id}/cancel`, me, {}), 400, /Bad request/);
    await replayMatches(me, d.id);
  });

  it('bad input is 400/422 and writes nothing', async () => {
    const me = await person();
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom('dfy_deals')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const n = await count();
    expectRefused(await api('POST', '/deals', me, { tier: 'mega', hardwareVariant: 'agent' }), 400, /Bad request/);
    expectRefused(await api('POST', '/deals', me, { tier: 'pro', hardwareVariant: 'toaster' }), 400, /Bad request/);
    expectRefused(await api('POST', '/deals', me, { tier: 'pro', hardwareVariant: 'agent', note: 5 }), 422, /Validation/);
    expectRefused(await api('POST', '/deals', me, { tier: 'pro', hardwareVariant: 'agent', venue: { name: 'x', lat: 91, lng: 0 } }), 400, /Bad request/);
    expectRefused(await api('POST', '/deals', me, { tier: 'pro', hardwareVariant: 'agent', autopilot: 'maybe' }), 422, /Validation/);
    expectRefused(await api('GET', '/deals', me, undefined, { size: '500' }), 400, /Bad request/);
    const d = okData(await api<DealState>('POST', '/deals', me, { tier: 'pro', hardwareVariant: 'agent' }));
    expectRefused(await api('POST', `/deals/${d.id}/scout/accept`, me, { venue: { name: 'x', lat: 'north', lng: 1 } }), 422, /Validation/);
    okData(await api('POST', `/deals/${d.id}/scout/accept`, me, { venue: VENUE }));
    expectRefused(
      await api('POST', `/deals/${d.id}/negotiation/start`, me, { confirm: true, envelope: { ...ENVELOPE, termMinMonths: 40 } }),
      400,
      /termMinMonths ≤ termTargetMonths/,
    );
    expect(await count()).toBe(n + 1);
    const unchanged = okData(await api<DealState>('GET', `/deals/${d.id}`, me));
    expect(unchanged.negotiation.status).toBe('not_started');
    expect((await call(t.url, 'GET', '/api/v1/dfy/deals', {})).status).toBe(401);
  });
});
