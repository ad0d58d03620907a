import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRIZE_EVENT_KINDS, PRIZE_MECHANICS, type PrizeEventsData } from '@vend/protocol';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { alice } from '../machines/machines.test-support.ts';
import { enrolled, keyHeader } from '../gateway/gateway.test-support.ts';
import type { PrizesReport } from './prizes.schemas.ts';

const DAY = 86_400_000;
const HOSTILE = ['\u0000', 'a\u0000b', '\u0001', '\u007f', '\ud800', 'x'.repeat(300)];

describe.each(DIALECTS)('prize game under random input on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;
  let runs = 0;

  const cabinet = async () => {
    const e = await enrolled(t);
    const m = await db()
      .updateTable('machines')
      .set({ operator_id: OPERATOR_IDS.alice })
      .where('machine_no', '=', e.serial)
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ...e, id: m.id };
  };
  const written = async () => JSON.stringify(await db().selectFrom('prize_events').select(['machine_id', 'event_id']).orderBy('id').execute());

  it('whatever the cabinet sends, accepted wins never pass a cap or the budget, and the report counts exactly the accepted events', async () => {
    const caps = fc.record({
      spin: fc.record({
        enabled: fc.boolean(),
        maxWinsPerDay: fc.option(fc.integer({ min: 0, max: 4 })),
        maxPrizeValue: fc.option(fc.integer({ min: 0, max: 500 }).map((c) => c / 100)),
      }),
      budget: fc.option(
        fc.integer({ min: 0, max: 1000 }).map((c) => c / 100),
        { freq: 4 },
      ),
    });
    const event = fc.record({
      kind: fc.constantFrom(...PRIZE_EVENT_KINDS, 'win', 'win'),
      mechanic: fc.constantFrom('spinToWin', 'scratchCard'),
      dayOffset: fc.integer({ min: 0, max: 2 }),
      cents: fc.integer({ min: 0, max: 600 }),
      /** index of an earlier event to repeat instead (a retry) */
      repeat: fc.option(fc.nat()),
    });
    await fc.assert(
      fc.asyncProperty(caps, fc.array(event, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 4 }), async (c, evs, batches) => {
        const run = ++runs;
        const { serial, key, id } = await cabinet();
        const put = await call(t.url, 'PUT', `/api/v1/machines/${serial}/prize-mechanics`, {
          headers: alice,
          json: { mechanics: { spinToWin: c.spin, scratchCard: { enabled: true } }, monthlyBudget: c.budget },
        });
        expect(put.status, put.text).toBe(200);
        const start = Date.parse('2026-11-18T12:00:00Z');
        const built: Record<string, unknown>[] = [];
        for (const [i, e] of evs.entries()) {
          const prior = e.repeat !== null && built.length > 0 ? built[e.repeat % built.length] : undefined;
          if (prior) {
            built.push(prior);
            continue;
          }
          built.push({
            eventId: `p${run}-${i}`,
            kind: e.kind,
            mechanic: e.mechanic,
            at: start + e.dayOffset * DAY + i * 1000,
            ...(e.kind === 'win' ? { prizeValue: e.cents / 100 } : {}),
          });
        }
        const size = Math.ceil(built.length / batches);
        for (let i = 0; i < built.length; i += size) {
          const r = await call<{ data: PrizeEventsData }>(t.url, 'POST', '/cabinet/prize-events', {
            headers: keyHeader(key),
            json: { events: built.slice(i, i + size) },
          });
          expect(r.status, r.text).toBe(200);
        }
        const rows = await db().selectFrom('prize_events').selectAll().where('machine_id', '=', id).execute();
        expect(rows.length).toBe(new Set(built.map((b) => b['eventId'])).size);
        const wins = rows.filter((r) => r.kind === 'win' && r.refusal === null);
        const capCents = c.spin.maxPrizeValue === null ? null : Math.round(c.spin.maxPrizeValue * 100);
        for (const w of wins) {
          expect(w.mechanic === 'scratchCard' || c.spin.enabled).toBe(true);
          if (w.mechanic === 'spinToWin' && capCents !== null) expect(Number(w.prize_cents)).toBeLessThanOrEqual(capCents);
        }
        if (c.spin.maxWinsPerDay !== null)
          for (let d = 0; d < 3; d++) {
            const day = Date.parse('2026-11-18T00:00:00Z') + d * DAY;
            expect(wins.filter((w) => w.mechanic === 'spinToWin' && Number(w.at) >= day && Number(w.at) < day + DAY).length).toBeLessThanOrEqual(
              c.spin.maxWinsPerDay,
            );
          }
        const spent = wins.reduce((n, w) => n + Number(w.prize_cents), 0);
        if (c.budget !== null) expect(spent).toBeLessThanOrEqual(Math.round(c.budget * 100));
        const accepted = rows.filter((r) => r.refusal === null);
        const report = await call<{ data: PrizesReport }>(t.url, 'GET', '/api/v1/prizes/report', {
          headers: alice,
          query: { machineNo: serial, period: '2026-11' },
        });
        expect(report.status, report.text).toBe(200);
        const count = (k: string) => accepted.filter((r) => r.kind === k).length;
        expect(report.body.data.funnel).toMatchObject({ scans: count('scan'), entries: count('entry'), plays: count('play'), wins: count('win') });
        expect(report.body.data.prizeCostCents).toBe(spent);
        expect(Object.values(report.body.data.refused).reduce((a, b) => a + b, 0)).toBe(rows.length - accepted.length);
      }),
      { numRuns: 20 },
    );
  });

  it('random and hostile bodies answer 400/422 in the envelope, never 5xx, and write nothing', async () => {
    const { serial, key } = await cabinet();
    const value = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double(),
      fc.string({ maxLength: 20 }),
      fc.constantFrom(...HOSTILE),
      fc.constantFrom(...PRIZE_MECHANICS, ...PRIZE_EVENT_KINDS),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const bad = fc.dictionary(fc.constantFrom('eventId', 'kind', 'mechanic', 'at', 'aisleNo', 'prizeValue', 'x'), value, { minKeys: 1, maxKeys: 6 });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.array(bad, { maxLength: 3 }), fc.jsonValue({ maxDepth: 2 })), async (events) => {
        const before = await written();
        const r = await call(t.url, 'POST', '/cabinet/prize-events', { headers: keyHeader(key), json: { events } });
        expect(r.status, r.text).toBeLessThan(500);
        expect(r.body).toMatchObject({ code: r.status, message: expect.any(String) });
        if (r.status !== 200) {
          expect(r.body).toMatchObject({ data: null });
          expect(await written()).toBe(before);
        }
        const s = await call(t.url, 'PUT', `/api/v1/machines/${serial}/prize-mechanics`, {
          headers: alice,
          json: { mechanics: { spinToWin: events }, monthlyBudget: events },
        });
        expect([400, 422]).toContain(s.status);
      }),
      { numRuns: 60 },
    );
  });
});
