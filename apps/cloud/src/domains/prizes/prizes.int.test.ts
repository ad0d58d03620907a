import { describe, expect, it } from 'vitest';
import type { PrizeEventsData, PrizeStateData } from '@vend/protocol';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectRefused, okData, type Body } from '../../testing/answers.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { mintKey } from '../machines/machines.factories.ts';
import { admin, alice, bob, machinesApi } from '../machines/machines.test-support.ts';
import { FLEET, enrolled, keyHeader } from '../gateway/gateway.test-support.ts';
import type { OperatorView } from '../operator-view/operator-view.schemas.ts';
import type { PrizeMechanics, PrizesReport } from './prizes.schemas.ts';

type H = Record<string, string>;
type Ev = Record<string, unknown>;
const MIN = 60_000;

describe.each(DIALECTS)('prize game on %s', (dialect) => {
  const t = suiteServer(dialect);
  const { db, api } = machinesApi(() => t);
  const settingsPath = (no: string) => `/api/v1/machines/${no}/prize-mechanics`;
  const put = (no: string, body: unknown, headers: H = alice) => api<PrizeMechanics>('PUT', settingsPath(no), headers, body);
  const get = (no: string, headers: H = alice) => api<PrizeMechanics>('GET', settingsPath(no), headers);
  const report = (query: Record<string, string>, headers: H = alice) => api<PrizesReport>('GET', '/api/v1/prizes/report', headers, undefined, query);
  const send = (key: string, events: Ev[]) =>
    call<Body<PrizeEventsData>>(t.url, 'POST', '/cabinet/prize-events', { headers: keyHeader(key), json: { events } });
  const sendOk = async (key: string, events: Ev[]) => {
    const r = await send(key, events);
    return okData(r);
  };
  let seq = 0;
  const ev = (kind: string, extra: Ev = {}): Ev => ({ eventId: `e-${process.pid}-${++seq}`, kind, mechanic: 'spinToWin', at: t.clock.now(), ...extra });

  /** An enrolled cabinet that belongs to `operatorId`: its serial and device key. */
  const cabinet = async (operatorId: string = OPERATOR_IDS.alice) => {
    const e = await enrolled(t);
    await db().updateTable('machines').set({ operator_id: operatorId }).where('machine_no', '=', e.serial).execute();
    return e;
  };
  const state = async () =>
    JSON.stringify([
      await db().selectFrom('prize_settings').selectAll().orderBy('machine_id').execute(),
      await db().selectFrom('prize_mechanics').selectAll().orderBy('machine_id').orderBy('mechanic').execute(),
      await db().selectFrom('prize_events').select(['machine_id', 'event_id', 'refusal']).orderBy('id').execute(),
    ]);
  const SPIN = { spinToWin: { enabled: true, maxWinsPerDay: 3, maxPrizeValue: 5 } };

  it('a machine never set up has every mechanic off; PUT replaces the settings whole, GET reads them back; audited', async () => {
    const { serial } = await cabinet();
    const before = await get(serial);
    expect(before.status, before.text).toBe(200);
    expect(before.body.data).toMatchObject({ machineNo: serial, monthlyBudget: null, spent: 0, budgetLeft: null, updatedAt: null, period: '2026-11' });
    expect(Object.values(before.body.data.mechanics).every((m) => !m.enabled)).toBe(true);

    const r = await put(serial, { mechanics: { ...SPIN, scratchCard: { enabled: false, maxWinsPerDay: 1 } }, monthlyBudget: 125.5 });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({
      mechanics: {
        spinToWin: { enabled: true, maxWinsPerDay: 3, maxPrizeValue: 5, maxPrizeValueCents: 500, winsToday: 0 },
        scratchCard: { enabled: false, maxWinsPerDay: 1, maxPrizeValue: null, maxPrizeValueCents: null },
        loyaltyStamp: { enabled: false, maxWinsPerDay: null, maxPrizeValue: null },
      },
      monthlyBudget: 125.5,
      monthlyBudgetCents: 12550,
      spentCents: 0,
      budgetLeft: 125.5,
      budgetLeftCents: 12550,
      updatedAt: '2026-11-20T12:00:00.000+0000',
    });
    expect((await get(serial)).body.data).toEqual(r.body.data);
    // a second PUT leaving scratchCard out forgets it, and no budget is no budget
    const again = await put(serial, { mechanics: { loyaltyStamp: { enabled: true } } });
    expect(again.body.data.mechanics.scratchCard).toMatchObject({ enabled: false, maxWinsPerDay: null });
    expect(again.body.data.mechanics.spinToWin.enabled).toBe(false);
    expect(again.body.data).toMatchObject({ monthlyBudget: null, budgetLeft: null });
    const audit = await db().selectFrom('audit_log').select('action').where('resource', '=', `machine:${serial}`).execute();
    expect(audit.map((a) => a.action).filter((a) => a === 'prizes.mechanics')).toHaveLength(2);
  });

  it('refuses bad bodies (422 wrong types, 400 out of rule) and writes nothing', async () => {
    const { serial } = await cabinet();
    await put(serial, { mechanics: SPIN, monthlyBudget: 10 });
    const before = await state();
    const bad: [unknown, number, RegExp][] = [
      [{ mechanics: { spinToWin: { enabled: 'yes' } } }, 422, /enabled/],
      [{ mechanics: { spinToWin: { enabled: true, maxWinsPerDay: 1.5 } } }, 422, /maxWinsPerDay/],
      [{ mechanics: { spinToWin: { enabled: true, maxPrizeValue: '5' } } }, 422, /maxPrizeValue/],
      [{ mechanics: {}, monthlyBudget: '10' }, 422, /monthlyBudget/],
      [{ mechanics: 'all' }, 422, /mechanics/],
      [{ monthlyBudget: 10 }, 400, /mechanics/],
      [{ mechanics: { spinToWin: { enabled: true, maxWinsPerDay: -1 } } }, 400, /maxWinsPerDay/],
      [{ mechanics: { spinToWin: { enabled: true, maxPrizeValue: 1.005 } } }, 400, /maxPrizeValue/],
      [{ mechanics: { spinToWin: { enabled: true, maxPrizeValue: 10_001 } } }, 400, /maxPrizeValue/],
      [{ mechanics: {}, monthlyBudget: -1 }, 400, /monthlyBudget/],
      [{ mechanics: {}, monthlyBudget: 1.234 }, 400, /monthlyBudget/],
      [{ mechanics: { slotMachine: { enabled: true } } }, 400, /slotMachine/],
      [{ mechanics: { spinToWin: { enabled: true, jackpot: 1 } } }, 400, /jackpot/],
      [{ mechanics: { spinToWin: {} } }, 400, /enabled/],
    ];
    for (const [body, status, message] of bad) expectRefused(await put(serial, body), status, message);
    expect(await state()).toBe(before);
  });

  it("another operator's machine is 404 to read and to write; admin sees it; a read-only key cannot write", async () => {
    const { serial } = await cabinet();
    const before = await state();
    expectRefused(await get(serial, bob), 404, /Machine not found/);
    expectRefused(await put(serial, { mechanics: SPIN }, bob), 404, /Machine not found/);
    expectRefused(await get('NOPE-00000001'), 404, /Machine not found/);
    expectRefused(await report({ machineNo: serial }, bob), 404, /Machine not found/);
    const readOnly = { 'x-api-key': await mintKey(db(), OPERATOR_IDS.alice, 'machines:read') };
    expectRefused(await put(serial, { mechanics: SPIN }, readOnly), 403);
    expectRefused(await report({}, readOnly), 403);
    expect(await state()).toBe(before);
    expect((await put(serial, { mechanics: SPIN }, admin)).status).toBe(200);
    expect((await get(serial, admin)).body.data.mechanics.spinToWin.enabled).toBe(true);
  });

  it('the cabinet legs need the device key: none 401, the fleet secret 401, a bad key 401; body errors 400/422', async () => {
    const { serial, key } = await cabinet();
    for (const [method, path] of [
      ['POST', '/cabinet/prize-events'],
      ['GET', '/cabinet/prize-mechanics'],
    ] as const) {
      const json = method === 'POST' ? { events: [ev('scan')] } : undefined;
      const none = await call(t.url, method, path, json ? { json } : {});
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({ code: 401, data: null });
      expect(
        (await call(t.url, method, path, { headers: FLEET, ...(json ? { json: { ...json, equipmentNo: serial } } : { query: { equipmentNo: serial } }) }))
          .status,
      ).toBe(401);
      expect((await call(t.url, method, path, { headers: { 'x-device-key': 'dk_0000000000000000:nope' }, ...(json ? { json } : {}) })).status).toBe(401);
    }
    const before = await state();
    expect((await send(key, [])).status).toBe(400);
    expect((await send(key, [{ ...ev('win'), prizeValue: undefined, aisleNo: undefined }])).status).toBe(400);
    expect((await send(key, [ev('entry', { mechanic: undefined })])).status).toBe(400);
    expect((await send(key, [ev('play', { prizeValue: 1 })])).status).toBe(400);
    expect((await send(key, [ev('win', { prizeValue: 1.001 })])).status).toBe(400);
    expect((await send(key, [ev('jackpot')])).status).toBe(400);
    expect((await send(key, [ev('win', { prizeValue: '1' })])).status).toBe(422);
    expect((await send(key, [ev('scan', { at: 'yesterday' })])).status).toBe(400);
    expect((await send(key, [ev('scan', { eventId: 7 })])).status).toBe(422);
    expect(await state()).toBe(before);
  });

  it('judges every event: a disabled mechanic, the prize cap, the daily cap and the budget refuse; the answer lists them and the state to follow', async () => {
    const { serial, key } = await cabinet();
    await put(serial, { mechanics: { spinToWin: { enabled: true, maxWinsPerDay: 3, maxPrizeValue: 5 }, scratchCard: { enabled: false } }, monthlyBudget: 12 });
    const events = [
      ev('scan', { mechanic: undefined }),
      ev('entry'),
      ev('play'),
      ev('win', { prizeValue: 4 }), // accepted: 4 of 12
      ev('play', { mechanic: 'scratchCard' }), // off
      ev('win', { prizeValue: 5.01 }), // over the 5.00 cap
      ev('win', { prizeValue: 5 }), // accepted: 9 of 12
      ev('win', { prizeValue: 3.01 }), // 12.01 > 12: over budget
      ev('win', { prizeValue: 3 }), // accepted: 12 of 12, third win today
      ev('win', { prizeValue: 0 }), // fourth win today: over the daily cap
      ev('scan', { mechanic: undefined, at: t.clock.now() + 6 * MIN }), // ahead of the clock
    ];
    const d = await sendOk(key, events);
    expect(d.accepted).toBe(6);
    expect(d.duplicates).toBe(0);
    expect(d.refused).toEqual([
      { eventId: events[4]!['eventId'], reason: 'mechanic_disabled' },
      { eventId: events[5]!['eventId'], reason: 'over_max_prize_value' },
      { eventId: events[7]!['eventId'], reason: 'over_budget' },
      { eventId: events[9]!['eventId'], reason: 'over_daily_cap' },
      { eventId: events[10]!['eventId'], reason: 'clock_skew' },
    ]);
    expect(d.state).toEqual({
      mechanics: {
        spinToWin: { enabled: true, maxWinsPerDay: 3, winsLeftToday: 0, maxPrizeValue: 5 },
        scratchCard: { enabled: false, maxWinsPerDay: null, winsLeftToday: null, maxPrizeValue: null },
        loyaltyStamp: { enabled: false, maxWinsPerDay: null, winsLeftToday: null, maxPrizeValue: null },
      },
      period: '2026-11',
      budgetLeft: 0,
    } satisfies PrizeStateData);
    const cab = await call<{ data: PrizeStateData }>(t.url, 'GET', '/cabinet/prize-mechanics', { headers: keyHeader(key) });
    expect(cab.status).toBe(200);
    expect(cab.body.data).toEqual(d.state);
    expect((await get(serial)).body.data).toMatchObject({ spentCents: 1200, budgetLeftCents: 0, mechanics: { spinToWin: { winsToday: 3 } } });

    // the next machine-local day the daily cap starts again, but the month's budget is still spent
    t.clock.advance(86_400_000);
    const next = await sendOk(key, [ev('win', { prizeValue: 0.01 }), ev('win', { prizeValue: 0 })]);
    expect(next.refused.map((r) => r.reason)).toEqual(['over_budget']);
    expect(next.state.mechanics.spinToWin.winsLeftToday).toBe(2);
    // raising the budget reaches the cabinet with the next answer
    await put(serial, { mechanics: { spinToWin: { enabled: true, maxWinsPerDay: 3, maxPrizeValue: 5 } }, monthlyBudget: 20 });
    const raised = await call<{ data: PrizeStateData }>(t.url, 'GET', '/cabinet/prize-mechanics', { headers: keyHeader(key) });
    expect(raised.body.data.budgetLeft).toBe(8);
  });

  it('a retried batch counts once and gets the same verdicts, also when the retries race', async () => {
    const { serial, key } = await cabinet();
    await put(serial, { mechanics: { spinToWin: { enabled: true, maxWinsPerDay: 2 } }, monthlyBudget: 100 });
    const batch = [ev('scan'), ev('entry'), ev('play'), ev('win', { prizeValue: 1 }), ev('win', { prizeValue: 1 }), ev('win', { prizeValue: 1 })];
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(key, batch)));
    for (const a of answers) expect(a.status, a.text).toBe(200);
    const data = answers.map((a) => a.body.data);
    // one batch recorded the six events (five accepted, one refused); every other saw six duplicates
    expect(data.map((x) => [x.accepted, x.duplicates]).sort()).toEqual([
      [0, 6],
      [0, 6],
      [0, 6],
      [0, 6],
      [0, 6],
      [5, 0],
    ]);
    for (const x of data) {
      expect(x.refused).toEqual([{ eventId: batch[5]!['eventId'], reason: 'over_daily_cap' }]);
    }
    const again = await sendOk(key, [...batch, batch[0]!]);
    expect(again).toMatchObject({ accepted: 0, duplicates: 7, refused: [{ eventId: batch[5]!['eventId'], reason: 'over_daily_cap' }] });
    const m = await db().selectFrom('machines').select('id').where('machine_no', '=', serial).executeTakeFirstOrThrow();
    const rows = await db().selectFrom('prize_events').select(['event_id', 'refusal', 'prize_cents']).where('machine_id', '=', m.id).execute();
    expect(rows).toHaveLength(6);
    expect(rows.reduce((n, r) => n + Number(r.prize_cents ?? 0), 0)).toBe(200);
    // an id repeated inside one batch counts once too
    const twice = ev('entry');
    expect(await sendOk(key, [twice, twice])).toMatchObject({ accepted: 1, duplicates: 1 });
  });

  it("a product prize costs the FIFO unit cost of the aisle's oldest layer with units left (zero before any PO)", async () => {
    const { serial, key } = await cabinet();
    const sku = `PRZ-${process.pid}-${dialect}`;
    const m = await db().selectFrom('machines').select('id').where('machine_no', '=', serial).executeTakeFirstOrThrow();
    await db().updateTable('aisles').set({ sku }).where('machine_id', '=', m.id).where('aisle_no', '=', 2).execute();
    // aisle 3 holds a product no purchase order ever brought (alice's sandbox books have layers for the seed SKUs)
    await db()
      .updateTable('aisles')
      .set({ sku: `${sku}-NONE` })
      .where('machine_id', '=', m.id)
      .where('aisle_no', '=', 3)
      .execute();
    await put(serial, { mechanics: { scratchCard: { enabled: true, maxPrizeValue: 1 } } });
    const before = await sendOk(key, [ev('win', { mechanic: 'scratchCard', aisleNo: 2 })]);
    expect(before.accepted).toBe(1);
    const po = (poRef: string, unitCostUsd: number) =>
      api('POST', '/api/v1/purchases', alice, { vendor: 'Acme', poRef: `${poRef}-${sku}`, orderedOn: '2026-11-01', lines: [{ sku, qty: 5, unitCostUsd }] });
    expect((await po('A', 0.8)).status).toBe(200);
    t.clock.advance(1000);
    expect((await po('B', 1.4)).status).toBe(200);
    const d = await sendOk(key, [ev('win', { mechanic: 'scratchCard', aisleNo: 2 }), ev('win', { mechanic: 'scratchCard', aisleNo: 3 })]);
    expect(d.accepted).toBe(2);
    const costs = await db().selectFrom('prize_events').select(['aisle_no', 'prize_cents']).where('machine_id', '=', m.id).orderBy('id').execute();
    expect(costs.map((c) => [c.aisle_no, Number(c.prize_cents)]).sort()).toEqual([
      [2, 0],
      [2, 80],
      [3, 0],
    ]);
    // the oldest layer used up: the next layer's cost, now over the 1.00 cap
    await db().updateTable('lots').set({ qty_remaining: 0 }).where('sku', '=', sku).where('unit_cost_cents', '=', 80).execute();
    const over = await sendOk(key, [ev('win', { mechanic: 'scratchCard', aisleNo: 2 })]);
    expect(over.refused.map((r) => r.reason)).toEqual(['over_max_prize_value']);
  });

  it('reports the funnel, gross revenue, prize cost and budget use against hand-computed numbers', async () => {
    const a = await cabinet();
    const b = await cabinet();
    const other = await cabinet(OPERATOR_IDS.bob);
    await put(a.serial, { mechanics: { spinToWin: { enabled: true }, loyaltyStamp: { enabled: true } }, monthlyBudget: 50 });
    await put(b.serial, { mechanics: { spinToWin: { enabled: true } } });
    await put(other.serial, { mechanics: { spinToWin: { enabled: true } } }, bob);
    const now = t.clock.now();
    const n = (count: number, kind: string, extra: Ev = {}) => Array.from({ length: count }, () => ev(kind, extra));
    // machine a: 10 scans, 8 entries, 6 plays, 2 wins (1.50 + 2.25) on spinToWin; 4 entries, 4 plays, 1 win (0.75) on loyaltyStamp
    await sendOk(a.key, [
      ...n(10, 'scan', { mechanic: undefined }),
      ...n(8, 'entry'),
      ...n(6, 'play'),
      ev('win', { prizeValue: 1.5 }),
      ev('win', { prizeValue: 2.25 }),
      ...n(4, 'entry', { mechanic: 'loyaltyStamp' }),
      ...n(4, 'play', { mechanic: 'loyaltyStamp' }),
      ev('win', { mechanic: 'loyaltyStamp', prizeValue: 0.75 }),
      ev('play', { mechanic: 'scratchCard' }), // refused: not in the funnel
    ]);
    // machine b: 5 scans, 3 entries, 3 plays, 0 wins; and one scan last month (outside a November window)
    await sendOk(b.key, [...n(5, 'scan'), ...n(3, 'entry'), ...n(3, 'play'), ev('scan', { at: Date.parse('2026-10-31T23:59:59Z') })]);
    await sendOk(other.key, [...n(7, 'scan')]);
    // sales: a sells 2 × its aisle 1 price; one more sale refunded
    const sale = async (key: string) => {
      const r = await call<Body<{ orderNumber: string }>>(t.url, 'POST', '/apk/createOrder', {
        headers: keyHeader(key),
        json: { aisleNo: 1, quantity: 1 },
      });
      return okData(r).orderNumber;
    };
    await sale(a.key);
    await sale(a.key);
    const refunded = await sale(b.key);
    await db().updateTable('orders').set({ pay_status: 'refunded' }).where('order_number', '=', refunded).execute();
    const price = async (serial: string) =>
      Number(
        (
          await db()
            .selectFrom('aisles')
            .innerJoin('machines', 'machines.id', 'aisles.machine_id')
            .select('price_cents')
            .where('machine_no', '=', serial)
            .where('aisle_no', '=', 1)
            .executeTakeFirstOrThrow()
        ).price_cents,
      );
    const aGross = 2 * (await price(a.serial));

    const one = await report({ machineNo: a.serial, from: '2026-11-01', to: '2026-11-30' });
    expect(one.status, one.text).toBe(200);
    expect(one.body.data).toMatchObject({
      from: '2026-11-01T00:00:00.000+0000',
      to: '2026-12-01T00:00:00.000+0000',
      machineNo: a.serial,
      funnel: { scans: 10, entries: 12, plays: 10, wins: 3, scanToEntry: 1.2, entryToPlay: 0.8333, playToWin: 0.3, scanToWin: 0.3 },
      grossRevenueCents: aGross,
      grossRevenue: aGross / 100,
      prizeCost: 4.5,
      prizeCostCents: 450,
      refused: { mechanic_disabled: 1, over_budget: 0, over_daily_cap: 0, over_max_prize_value: 0, clock_skew: 0 },
      budget: [{ machineNo: a.serial, period: '2026-11', budget: 50, budgetCents: 5000, spent: 4.5, spentCents: 450, left: 45.5, leftCents: 4550, used: 0.09 }],
    });
    expect(one.body.data.byMechanic).toEqual([
      {
        mechanic: 'spinToWin',
        funnel: { scans: 0, entries: 8, plays: 6, wins: 2, scanToEntry: null, entryToPlay: 0.75, playToWin: 0.3333, scanToWin: null },
        prizeCost: 3.75,
        prizeCostCents: 375,
      },
      { mechanic: 'scratchCard', funnel: expect.objectContaining({ entries: 0, plays: 0, wins: 0 }), prizeCost: 0, prizeCostCents: 0 },
      {
        mechanic: 'loyaltyStamp',
        funnel: { scans: 0, entries: 4, plays: 4, wins: 1, scanToEntry: null, entryToPlay: 1, playToWin: 0.25, scanToWin: null },
        prizeCost: 0.75,
        prizeCostCents: 75,
      },
    ]);
    // the period form is the same window; b's October scan is outside it, its refunded sale is not revenue
    const both = await report({ period: '2026-11' });
    expect(both.status, both.text).toBe(200);
    const rows = both.body.data.byMachine.filter((r) => r.machineNo === a.serial || r.machineNo === b.serial);
    expect(rows).toEqual(
      [
        { machineNo: a.serial, funnel: one.body.data.funnel, grossRevenue: aGross / 100, grossRevenueCents: aGross, prizeCost: 4.5, prizeCostCents: 450 },
        {
          machineNo: b.serial,
          funnel: { scans: 5, entries: 3, plays: 3, wins: 0, scanToEntry: 0.6, entryToPlay: 1, playToWin: 0, scanToWin: 0 },
          grossRevenue: 0,
          grossRevenueCents: 0,
          prizeCost: 0,
          prizeCostCents: 0,
        },
      ].sort((x, y) => x.machineNo.localeCompare(y.machineNo)),
    );
    expect(both.body.data.budget.find((r) => r.machineNo === b.serial)).toMatchObject({ budget: null, spentCents: 0, left: null, used: null });
    expect(both.body.data.byMachine.map((r) => r.machineNo)).not.toContain(other.serial);
    const sum = (k: 'scans' | 'wins') => both.body.data.byMachine.reduce((s, r) => s + r.funnel[k], 0);
    expect(both.body.data.funnel.scans).toBe(sum('scans'));
    expect(both.body.data.funnel.wins).toBe(sum('wins'));
    const oct = await report({ machineNo: b.serial, period: '2026-10' });
    expect(oct.body.data.funnel.scans).toBe(1);
    // the admin sees bob's machine too
    expect((await report({ period: '2026-11' }, admin)).body.data.byMachine.map((r) => r.machineNo)).toEqual(expect.arrayContaining([a.serial, other.serial]));
    // a window over two months lists both months' budget use
    const span = await report({ machineNo: a.serial, from: '2026-10-15', to: '2026-11-20' });
    expect(span.body.data.budget.map((r) => [r.period, r.spentCents])).toEqual([
      ['2026-10', 0],
      ['2026-11', 450],
    ]);
    expect(now).toBe(t.clock.now());
  });

  it('refuses bad report queries: 400 out of rule, 422 wrong types', async () => {
    for (const [query, status] of [
      [{ period: '2026-13' }, 400],
      [{ period: '2026-11', from: '2026-11-01', to: '2026-11-02' }, 400],
      [{ from: '2026-11-01' }, 400],
      [{ from: '2026-11-05', to: '2026-11-01' }, 400],
      [{ from: '2025-01-01', to: '2026-11-01' }, 400],
      [{ from: '2026-02-30', to: '2026-03-01' }, 400],
      [{ machineNo: 'x' }, 400],
    ] as const) {
      expectRefused(await report(query as Record<string, string>), status);
    }
    const r = await call(t.url, 'GET', '/api/v1/prizes/report?period=2026-11&period=2026-10', { headers: alice });
    expect(r.status).toBe(422);
  });

  it('the operator view shows the real free-product and game figures of the last 30 days', async () => {
    const { serial, key } = await cabinet();
    await put(serial, { mechanics: { spinToWin: { enabled: true }, scratchCard: { enabled: true } }, monthlyBudget: 10 });
    await sendOk(key, [
      ev('scan'),
      ev('scan'),
      ev('entry'),
      ev('play'),
      ev('play', { mechanic: 'scratchCard' }),
      ev('win', { prizeValue: 2.5 }),
      ev('play', { at: t.clock.now() - 40 * 86_400_000 }), // older than 30 days
    ]);
    const m = await db().selectFrom('machines').select(['id', 'operator_id']).where('machine_no', '=', serial).executeTakeFirstOrThrow();
    const sku = `OVF-${process.pid}-${dialect}`;
    await db().updateTable('aisles').set({ sku }).where('machine_id', '=', m.id).where('aisle_no', '=', 1).execute();
    expect(
      (await api('POST', '/api/v1/purchases', alice, { vendor: 'V', poRef: sku, orderedOn: '2026-11-01', lines: [{ sku, qty: 9, unitCostUsd: 0.6 }] })).status,
    ).toBe(200);
    // a reward drop: a remote drop whose reason starts with reward ships free and draws its FIFO cost
    const cmd = await api<{ commandId: string }>('POST', `/api/v1/machines/${serial}/commands/dispense`, alice, {
      aisleNo: 1,
      reason: 'reward: spin win',
      externalRef: 'x',
    });
    expect(cmd.status, cmd.text).toBe(200);
    const ack = await api('POST', `/api/v1/machines/${serial}/commands/${cmd.body.data.commandId}/ack`, alice, {
      success: true,
      outcome: 'dropped',
      detail: '',
    });
    expect(ack.status, ack.text).toBe(200);
    const v = await api<OperatorView>('GET', `/api/v1/machines/${serial}/operator-view`, alice);
    expect(v.status, v.text).toBe(200);
    expect(v.body.data.money.freeProduct).toEqual({ drops30Days: 1, cost30Days: 0.6, costCents30Days: 60 });
    expect(v.body.data.money.game).toEqual({
      plays30Days: 2,
      prizeCost30Days: 2.5,
      prizeCostCents30Days: 250,
      scans30Days: 2,
      entries30Days: 1,
      wins30Days: 1,
      mechanicsEnabled: ['spinToWin', 'scratchCard'],
      period: '2026-11',
      monthlyBudget: 10,
      spentThisPeriod: 2.5,
      budgetLeft: 7.5,
    });
  });

  it('the sandbox seed tells a story: two of alice’s kiosks play, some wins refused, spend within budget; a reset gives it back byte for byte', async () => {
    // the seed is relative to its day: reset to seed it at this suite's clock
    expect((await api('POST', '/sandbox/reset', admin)).status).toBe(200);
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    const query = { from: new Date(t.clock.now() - 30 * 86_400_000).toISOString().slice(0, 10), to: today };
    const station = await report({ ...query, machineNo: 'SBX-ALICE-0001' });
    expect(station.status, station.text).toBe(200);
    const f = station.body.data.funnel;
    expect(f.scans).toBeGreaterThan(f.entries);
    expect(f.entries).toBeGreaterThan(0);
    expect(f.plays).toBeGreaterThan(f.wins);
    expect(f.wins).toBeGreaterThan(0);
    expect(station.body.data.byMechanic.filter((m) => m.funnel.wins > 0).map((m) => m.mechanic)).toEqual(['spinToWin', 'loyaltyStamp']);
    const library = await report({ ...query, machineNo: 'SBX-ALICE-0003' });
    const refusedTotal = (r: PrizesReport) => Object.values(r.refused).reduce((a, b) => a + b, 0);
    expect(refusedTotal(station.body.data) + refusedTotal(library.body.data)).toBeGreaterThan(0);
    for (const r of [station.body.data, library.body.data])
      for (const b of r.budget) {
        expect(b.budgetCents).not.toBeNull();
        expect(b.spentCents).toBeLessThanOrEqual(b.budgetCents!);
      }
    const view = await api<OperatorView>('GET', '/api/v1/machines/SBX-ALICE-0001/operator-view', alice);
    expect(view.body.data.money.game.plays30Days).toBeGreaterThan(0);
    expect(view.body.data.money.game.mechanicsEnabled).toEqual(['spinToWin', 'loyaltyStamp']);
    const reset = await api('POST', '/sandbox/reset', admin);
    expect(reset.status, reset.text).toBe(200);
    expect((await report({ ...query, machineNo: 'SBX-ALICE-0001' })).body.data).toEqual(station.body.data);
  });
});
