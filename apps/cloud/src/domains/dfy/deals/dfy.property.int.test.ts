import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../../testing/harness.ts';
import { okData, type Body } from '../../../testing/answers.ts';
import { newOperator } from '../../machines/machines.factories.ts';
import { STAGE_RANK } from './deal-vocabulary.ts';
import { TRANSITIONS } from './transitions.ts';
import type { DealState } from './deal-model.ts';

type H = Record<string, string>;
const VENUE = { name: 'Random Venue', address: '1 Any St', lat: 45.5, lng: -122.6 };
const ENVELOPE = { revenueShareTargetPct: 10, revenueShareMaxPct: 15, termMinMonths: 12, termTargetMonths: 24, termMaxMonths: 36 };

/** Every operator action on one deal, as the API takes it (gates always confirmed: the table must still hold). */
const ACTIONS: Record<string, (id: string) => [method: string, path: string, body?: unknown]> = {
  preorder: (id) => ['POST', `/deals/${id}/preorder`, { confirm: true }],
  toShortlist: (id) => ['POST', `/deals/${id}/advance`, { to: 'shortlisting' }],
  toOutreach: (id) => ['POST', `/deals/${id}/advance`, { to: 'outreach' }],
  scout: (id) => ['POST', `/deals/${id}/scout/accept`, { venue: VENUE }],
  negotiate: (id) => ['POST', `/deals/${id}/negotiation/start`, { confirm: true, envelope: ENVELOPE }],
  termsSafe: (id) => ['POST', `/deals/${id}/negotiation/terms`, { revenueSharePct: 10, termMonths: 24, rounds: 2 }],
  termsEdge: (id) => ['POST', `/deals/${id}/negotiation/terms`, { revenueSharePct: 14.5, termMonths: 12, rounds: 9 }],
  review: (id) => ['POST', `/deals/${id}/negotiation/review`],
  approve: (id) => ['POST', `/deals/${id}/negotiation/approve-terms`, { confirm: true }],
  send: (id) => ['POST', `/deals/${id}/lease/send`, { confirm: true }],
  sign: (id) => ['POST', `/deals/${id}/lease/signature`],
  pay: (id) => ['POST', `/deals/${id}/order/checkout`, { confirm: true }],
  track: (id) => ['POST', `/deals/${id}/shipping/tracking`, { carrier: 'ACME', trackingNumber: 'P1' }],
  dispatch: (id) => ['POST', `/deals/${id}/install/dispatch`, { confirm: true }],
  cancel: (id) => ['POST', `/deals/${id}/cancel`, { reason: 'property' }],
  tick: () => ['POST', '/autopilot/tick'],
};

const KEYS = Object.keys(ACTIONS);
const ROAD = ['scout', 'negotiate', 'termsEdge', 'review', 'approve', 'send', 'sign', 'pay', 'track', 'dispatch'];
/** Any actions in any order. */
const anyOrder = fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 14 });
/** The road in its order with steps dropped and random actions slipped in, so the later stages are reached too. */
const nearlyTheRoad = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.option(fc.constantFrom(...KEYS), { nil: undefined })), { minLength: ROAD.length, maxLength: ROAD.length })
  .map((noise) => ROAD.flatMap((step, i) => [...(noise[i]![0] === 0 ? [] : [step]), ...(noise[i]![1] ? [noise[i]![1]] : [])]));

describe.each(DIALECTS)('done-for-you deals under random operator actions on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;
  const api = <T = unknown>(method: string, path: string, headers: H, json?: unknown) =>
    call<Body<T>>(t.url, method, `/api/v1/dfy${path}`, { headers, ...(json !== undefined ? { json } : {}) });

  it('property: through the API no backward move ever succeeds, every stage change is a table edge whose checkpoints were open, a refusal changes nothing', async () => {
    const me = await newOperator(db(), t.clock.now());
    okData(
      await api('PUT', '/portfolio/settings', me.headers, {
        autopilot: true,
        autoApproveScore: 50,
        maxAutoApprove: 1,
        installMode: 'team',
        autoInventory: false,
        inventoryMonthlyCapUsd: 0,
        moneyThresholdUsd: 0,
        capabilityDefaults: { placement: true, outreach: true, negotiation: true, contracting: true, install: true, inventory: false },
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.oneof(anyOrder, nearlyTheRoad), async (withVenue, steps) => {
        const d = okData(
          await api<DealState>('POST', '/deals', me.headers, { tier: 'entry', hardwareVariant: 'agent', ...(withVenue ? { venue: VENUE } : {}) }),
        );
        let before = d;
        for (const step of steps) {
          const [method, path, body] = ACTIONS[step]!(d.id);
          const r = await api(method, path, me.headers, body);
          const after = okData(await api<DealState>('GET', `/deals/${d.id}`, me.headers));
          if (r.status !== 200) {
            expect([400, 409], `${step}: ${r.text}`).toContain(r.status);
            expect(after, `${step} refused but changed the deal`).toEqual(before);
            continue;
          }
          expect(STAGE_RANK[after.stage]).toBeGreaterThanOrEqual(STAGE_RANK[before.stage]);
          const entered = after.stagesVisited.slice(before.stagesVisited.length);
          let from = before.stage;
          const open = new Set(before.openCheckpoints.map((c) => c.kind));
          for (const to of entered) {
            expect(before.stagesVisited, `${step} re-entered ${to}`).not.toContain(to);
            const edge = TRANSITIONS.filter((x) => x.from === from && x.to === to);
            expect(edge.length, `${step}: ${from} → ${to} is not in the table`).toBeGreaterThan(0);
            expect(
              edge.some((e) => e.checkpoints.every((k) => open.has(k))),
              `${step}: ${from} → ${to} without its checkpoint`,
            ).toBe(true);
            from = to;
          }
          expect(after.stagesVisited.at(-1)).toBe(after.stage);
          before = after;
        }
        const replay = okData(await api<{ matchesStored: boolean }>('GET', `/deals/${d.id}/replay`, me.headers));
        expect(replay.matchesStored).toBe(true);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
