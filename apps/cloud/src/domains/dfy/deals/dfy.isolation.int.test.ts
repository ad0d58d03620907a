import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../../testing/harness.ts';
import { okData, type Body } from '../../../testing/answers.ts';
import { newOperator } from '../../machines/machines.factories.ts';
import type { DealState } from './deal-model.ts';

type H = Record<string, string>;
const VENUE = { name: 'Civic Center', address: '1 Main St', lat: 34.05, lng: -118.25 };
const DIRECTORY_VENUE = {
  name: 'Civic Center',
  address: null,
  lat: 34.05,
  lng: -118.25,
  vertical: 'office',
  timeZone: 'America/Los_Angeles',
  email: 'desk@civic.test',
  phone: null,
  dailyVisitors: 500,
};
const ENVELOPE = { revenueShareTargetPct: 10, revenueShareMaxPct: 15, termMinMonths: 12, termTargetMonths: 24, termMaxMonths: 36 };

/**
 * Tenant isolation (spec 3 key rule 9): every deal, checkpoint, work order and portfolio endpoint answers
 * another operator's id with 404 and changes nothing; lists and views (the investment pool too) never show
 * another operator's rows.
 */
describe.each(DIALECTS)('done-for-you tenant isolation on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;
  const api = <T = unknown>(method: string, path: string, headers: H, json?: unknown, query?: Record<string, string>) =>
    call<Body<T>>(t.url, method, `/api/v1/dfy${path}`, { headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });

  it("another operator's deal, checkpoint and work order are 404 on every endpoint, and nothing changes", async () => {
    const owner = await newOperator(db(), t.clock.now());
    const other = await newOperator(db(), t.clock.now());
    const o = owner.headers;
    // a deal at shipped with an install work order and a resolved + open checkpoint history
    const d = okData(await api<DealState>('POST', '/deals', o, { tier: 'entry', hardwareVariant: 'agent' }));
    const scout = okData(await api<{ records: { id: string }[] }>('GET', '/checkpoints', o, undefined, { dealId: d.id })).records[0]!;
    okData(await api('POST', `/deals/${d.id}/scout/accept`, o, { venue: VENUE }));
    okData(await api('POST', `/deals/${d.id}/negotiation/start`, o, { confirm: true, envelope: ENVELOPE }));
    okData(await api('POST', `/deals/${d.id}/negotiation/terms`, o, { revenueSharePct: 10, termMonths: 24, rounds: 2 }));
    okData(await api('POST', `/deals/${d.id}/negotiation/review`, o));
    okData(await api('POST', `/deals/${d.id}/lease/send`, o, { confirm: true }));
    okData(await api('POST', `/deals/${d.id}/lease/signature`, o));
    okData(await api('POST', `/deals/${d.id}/order/checkout`, o, { confirm: true }));
    okData(await api('POST', `/deals/${d.id}/shipping/tracking`, o, { carrier: 'ACME', trackingNumber: 'T1' }));
    const wo = okData(await api<{ id: string }>('POST', `/deals/${d.id}/install/dispatch`, o, { confirm: true }));
    // a second deal at each early gate, so every deal action has a deal where it would otherwise apply
    const early = okData(await api<DealState>('POST', '/deals', o, { tier: 'pro', hardwareVariant: 'reyeah' }));
    const target = okData(await api<{ records: { id: string; kind: string }[] }>('GET', '/checkpoints', o, undefined, { dealId: early.id })).records[0]!;
    // outreach: the owner's directory venue and a deal whose outreach has started
    okData(await api('POST', '/directory/import', o, { venues: [DIRECTORY_VENUE] }));
    const venueId = okData(await api<{ records: { id: string }[] }>('GET', '/directory', o)).records[0]!.id;
    const reach = okData(await api<DealState>('POST', '/deals', o, { tier: 'pro', hardwareVariant: 'agent' }));
    okData(await api('POST', `/deals/${reach.id}/shortlist/accept`, o, { venueId }));
    okData(await api('POST', `/deals/${reach.id}/outreach/start`, o, {}));
    // the investment pool: a paid investment that funded one deal
    const inv = okData(await api<{ paymentIntentId: string }>('POST', '/fleets', o, { investUsd: 5500, confirm: true }));
    const paid = await call<Body<{ delivery: { answer: Body<{ dealsFunded: string[] }> } }>>(
      t.url,
      'POST',
      `/api/v1/marketplace/test-payments/${inv.paymentIntentId}/complete`,
    );
    const pooled = paid.body.data.delivery.answer.data.dealsFunded[0]!;

    const snapshot = async () =>
      JSON.stringify(
        await Promise.all([
          db().selectFrom('dfy_deals').selectAll().orderBy('id').execute(),
          db().selectFrom('dfy_deal_events').select(['deal_id', 'seq']).orderBy('deal_id').orderBy('seq').execute(),
          db().selectFrom('dfy_checkpoints').selectAll().orderBy('id').execute(),
          db().selectFrom('dfy_work_orders').selectAll().orderBy('id').execute(),
          db().selectFrom('dfy_payments').selectAll().orderBy('id').execute(),
          db().selectFrom('dfy_negotiation_mandates').selectAll().orderBy('deal_id').orderBy('version').execute(),
          db().selectFrom('dfy_negotiations').selectAll().orderBy('deal_id').execute(),
          db().selectFrom('dfy_negotiation_turns').selectAll().orderBy('deal_id').orderBy('seq').execute(),
          db().selectFrom('outreach_directory').selectAll().orderBy('id').execute(),
          db().selectFrom('outreach_deals').selectAll().orderBy('deal_id').execute(),
          db().selectFrom('outreach_messages').selectAll().orderBy('id').execute(),
          db().selectFrom('outreach_opt_outs').selectAll().orderBy('address').execute(),
          db().selectFrom('dfy_pools').selectAll().orderBy('operator_id').execute(),
          db().selectFrom('dfy_pool_investments').selectAll().orderBy('id').execute(),
          db().selectFrom('dfy_pool_allocations').selectAll().orderBy('id').execute(),
          db().selectFrom('dfy_pool_events').selectAll().orderBy('id').execute(),
        ]),
      );
    const before = await snapshot();

    const x = other.headers;
    const matrix: [string, string, unknown?, Record<string, string>?][] = [
      ['GET', `/deals/${d.id}`],
      ['GET', `/deals/${d.id}/replay`],
      ['POST', `/deals/${early.id}/preorder`, { confirm: true }],
      ['POST', `/deals/${early.id}/advance`, { to: 'outreach' }],
      ['POST', `/deals/${early.id}/scout/accept`, { venue: VENUE }],
      ['POST', `/deals/${d.id}/negotiation/start`, { confirm: true, envelope: ENVELOPE }],
      ['POST', `/deals/${early.id}/negotiation/start`, { confirm: true }],
      ['PUT', `/deals/${early.id}/negotiation/envelope`, ENVELOPE],
      ['GET', `/deals/${d.id}/negotiation`],
      ['POST', `/deals/${d.id}/negotiation/step`, {}],
      ['POST', `/deals/${d.id}/negotiation/advise`],
      [
        'POST',
        `/deals/${d.id}/negotiation/operator-turn`,
        { proposal: { revenueSharePct: 9, termMonths: 24, power: 'venue_outlet', installDate: '2026-12-01' } },
      ],
      ['GET', `/deals/${d.id}/negotiation/graph`],
      ['POST', `/deals/${d.id}/negotiation/terms`, { revenueSharePct: 10, termMonths: 24, rounds: 2 }],
      ['POST', `/deals/${d.id}/negotiation/review`],
      ['POST', `/deals/${d.id}/negotiation/approve-terms`, { confirm: true }],
      ['POST', `/deals/${d.id}/lease/send`, { confirm: true }],
      ['POST', `/deals/${d.id}/lease/signature`],
      ['POST', `/deals/${d.id}/order/checkout`, { confirm: true }],
      ['POST', `/deals/${d.id}/shipping/tracking`, { carrier: 'x', trackingNumber: 'y' }],
      ['POST', `/deals/${d.id}/autopilot`, { enabled: true }],
      ['POST', `/deals/${d.id}/cancel`, { reason: 'hostile' }],
      ['POST', `/deals/${early.id}/refund`, { confirm: true, reason: 'hostile' }],
      ['POST', `/deals/${d.id}/install/dispatch`, { confirm: true }],
      ['GET', `/install/orders/${wo.id}`],
      ['POST', `/install/orders/${wo.id}`, { state: 'completed' }],
      ['POST', `/checkpoints/${scout.id}/acknowledge`],
      ['POST', `/checkpoints/${target.id}/acknowledge`],
      ['GET', '/checkpoints', undefined, { dealId: d.id }],
      ['GET', `/deals/${early.id}/shortlist`],
      ['POST', `/deals/${early.id}/shortlist/accept`, { venueId }],
      ['POST', `/deals/${reach.id}/outreach/start`, {}],
      ['GET', `/deals/${reach.id}/outreach/preview`],
      ['POST', `/deals/${reach.id}/assist/outreach-draft`, {}],
      ['GET', `/deals/${pooled}`],
      ['POST', `/deals/${pooled}/cancel`, { reason: 'hostile' }],
      ['POST', `/deals/${pooled}/refund`, { confirm: true, reason: 'hostile' }],
    ];
    const got = [];
    for (const [method, path, json, query] of matrix) {
      const r = await api(method, path, x, json, query);
      got.push([method, path, r.status, r.body.data]);
    }
    expect(got).toEqual(matrix.map(([m, p]) => [m, p, 404, null]));
    expect(await snapshot()).toBe(before);

    // lists and views: the other operator sees none of it
    expect(okData(await api<{ total: number }>('GET', '/deals', x)).total).toBe(0);
    expect(okData(await api<{ total: number }>('GET', '/checkpoints', x)).total).toBe(0);
    expect(okData(await api<{ negotiations: unknown[]; verticals: unknown[] }>('GET', '/negotiation/graphs', x))).toEqual({ negotiations: [], verticals: [] });
    expect(okData(await api<{ negotiations: unknown[] }>('GET', '/negotiation/graphs', o)).negotiations).toHaveLength(1);
    expect(okData(await api<{ dealsInFlight: number; capitalValueUsd: number; checkpointInbox: { open: number } }>('GET', '/portfolio', x))).toMatchObject({
      dealsInFlight: 0,
      capitalValueUsd: 0,
      checkpointInbox: { open: 0 },
    });
    expect(okData(await api<{ modeCounts: Record<string, number> }>('GET', '/portfolio/securities', x)).modeCounts).toEqual({ auto: 0, hybrid: 0, manual: 0 });
    expect(okData(await api<{ examined: number }>('POST', '/autopilot/tick', x)).examined).toBe(0);
    // the pool is the caller's own: the other operator sees an empty one, and investing fills only its own
    const empty = { balanceUsd: 0, totalInvestedUsd: 0, machinesFunded: 0, history: [] };
    expect(okData(await api('GET', '/fleets', x))).toMatchObject(empty);
    expect(okData(await api('GET', '/fleets', o))).toMatchObject({ balanceUsd: 500, totalInvestedUsd: 5500, machinesFunded: 1 });
    okData(await api('POST', '/fleets', x, { investUsd: 100, confirm: true }));
    expect(okData(await api<{ history: unknown[] }>('GET', '/fleets', x)).history).toHaveLength(1);
    expect(okData(await api<{ history: unknown[] }>('GET', '/fleets', o)).history).toHaveLength(2);
    okData(
      await api('PUT', '/portfolio/settings', x, {
        autopilot: true,
        autoApproveScore: 1,
        maxAutoApprove: 1,
        installMode: 'team',
        autoInventory: false,
        inventoryMonthlyCapUsd: 0,
        moneyThresholdUsd: 0,
        capabilityDefaults: { placement: true, outreach: true, negotiation: true, contracting: true, install: true, inventory: true },
      }),
    );
    expect(okData(await api<{ autopilot: boolean }>('GET', '/portfolio/settings', o)).autopilot).toBe(false);
    // the owner still sees its deals; the pin machine is not the other operator's either
    expect(okData(await api<{ total: number }>('GET', '/deals', o)).total).toBe(4);
    const pin = okData(await api<DealState>('GET', `/deals/${d.id}`, o)).machineNo!;
    expect((await call(t.url, 'GET', `/api/v1/machines/${pin}`, { headers: x })).status).toBe(404);
    // the other operator's own deal cannot take the owner's directory venue, nor see it in a shortlist
    expect(okData(await api<{ total: number }>('GET', '/directory', x)).total).toBe(0);
    const mine = okData(await api<DealState>('POST', '/deals', x, { tier: 'entry', hardwareVariant: 'agent' }));
    expect(okData(await api<{ records: unknown[] }>('GET', `/deals/${mine.id}/shortlist`, x)).records).toEqual([]);
    expect((await api('POST', `/deals/${mine.id}/shortlist/accept`, x, { venueId })).status).toBe(404);
    expect(okData(await api<DealState>('GET', `/deals/${mine.id}`, x)).stage).toBe('shortlisting');
  });
});
