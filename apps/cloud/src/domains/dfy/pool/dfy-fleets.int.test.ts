import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SANDBOX_SECRETS } from '../../../config.ts';
import { DIALECTS, call, suiteServer } from '../../../testing/harness.ts';
import { expectRefused, okData, type Body } from '../../../testing/answers.ts';
import { signWebhook } from '../../../http/webhook-signature.ts';
import type { DealState } from '../deals/deal-model.ts';
import { dfyKit, type Person } from '../testing/dfy-test-kit.ts';

type Investment = { id: string; status: string; investUsd: number; paymentIntentId: string; checkoutUrl: string; targetModel: string };
type History = {
  kind: 'investment' | 'allocation';
  id: string;
  amountUsd: number;
  status?: string;
  dealId?: string;
  tier?: string;
  returnedAt?: string | null;
};
type Pool = {
  balanceUsd: number;
  totalInvestedUsd: number;
  machinesFunded: number;
  feePercentage: number;
  targetModel: string;
  targetPriceUsd: number;
  history: History[];
};
type Result = { eventId: string; duplicate: boolean; investmentId: string | null; status: string | null; dealsFunded: string[] };
type SecMachine = { machineNo: string; poolFunded: boolean; poolFeeMtdUsd: number; profitMtdUsd: number; profitActualMtdUsd: number; hasEstimates: boolean };
type Securities = {
  machines: SecMachine[];
  costLines: { name: string; usd: number; estimate: boolean }[];
  netMtdUsd: number;
  revenueMtdUsd: number;
  profitMtdUsd: number;
  profitActualMtdUsd: number;
  hasEstimates: boolean;
  fleetRollups: { profitMtdUsd: number };
};

const WEBHOOK = '/api/v1/dfy/fleets/webhook';
const SECRET: string = SANDBOX_SECRETS.AD_PAYMENTS_WEBHOOK_SECRET;

/** The managed investment pool over HTTP (spec 3 key rule 7, §8): investing, the processor's events, allocation, the fee line. */
describe.each(DIALECTS)('the DFY investment pool on %s', (dialect) => {
  const t = suiteServer(dialect);
  const { db, api, person, placed, live, settings } = dfyKit(t);

  const invest = async (who: Person, body: Record<string, unknown>) => okData(await api<Investment>('POST', '/fleets', who, { confirm: true, ...body }));
  const pool = async (who: Person) => okData(await api<Pool>('GET', '/fleets', who));
  const eventOf = (inv: Investment, over: Record<string, unknown> = {}, id = `evt_${inv.paymentIntentId}`) =>
    JSON.stringify({
      id,
      type: 'payment_intent.succeeded',
      data: { intentId: inv.paymentIntentId, purchaseId: inv.id, amountCents: Math.round(inv.investUsd * 100), currency: 'USD', ...over },
    });
  const deliver = (body: string) => {
    const ts = Math.floor(t.clock.now() / 1000);
    return call<Body<Result>>(t.url, 'POST', WEBHOOK, {
      body,
      headers: { 'content-type': 'application/json', 'x-vend-timestamp': String(ts), 'x-vend-signature': signWebhook(SECRET, ts, body) },
    });
  };
  /** The sandbox's test processor pays the intent and delivers its signed event to the pool webhook over HTTP. */
  const pay = async (inv: Investment) => {
    const r = await call<Body<{ delivery: { url: string; status: number; answer: Body<Result> } }>>(
      t.url,
      'POST',
      `/api/v1/marketplace/test-payments/${inv.paymentIntentId}/complete`,
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.delivery.url).toMatch(/\/api\/v1\/dfy\/fleets\/webhook$/);
    expect(r.body.data.delivery.status, JSON.stringify(r.body.data.delivery)).toBe(200);
    return r.body.data.delivery.answer.data;
  };
  const poolRows = async (operatorId: string) =>
    JSON.stringify(
      await Promise.all([
        db().selectFrom('dfy_pools').selectAll().where('operator_id', '=', operatorId).execute(),
        db().selectFrom('dfy_pool_investments').selectAll().where('operator_id', '=', operatorId).orderBy('id').execute(),
        db().selectFrom('dfy_pool_allocations').selectAll().where('operator_id', '=', operatorId).orderBy('id').execute(),
        db().selectFrom('dfy_deals').select(['id', 'stage']).where('operator_id', '=', operatorId).orderBy('id').execute(),
      ]),
    );

  it('refuses an investment without confirm (400), outside 50–250,000 USD (400) and malformed (422: a wrong type, "yes" for confirm included), writing nothing', async () => {
    const me = await person();
    const before = await poolRows(me.id);
    for (const [body, status, message] of [
      [{ investUsd: 100 }, 400, /confirm/],
      [{ investUsd: 100, confirm: false }, 400, /confirm/],
      [{ investUsd: 49.99, confirm: true }, 400, /at least 50/],
      [{ investUsd: 250_000.01, confirm: true }, 400, /at most 250000/],
      [{ investUsd: 100.001, confirm: true }, 400, /whole cents/],
      [{ confirm: true }, 400, /investUsd/],
      [{ investUsd: 100, confirm: true, targetModel: 'mega' }, 400, /targetModel/],
      [{ investUsd: '100', confirm: true }, 422, /investUsd/],
      [{ investUsd: null, confirm: true }, 422, /investUsd/],
      [{ investUsd: 100, confirm: 'yes' }, 422, /confirm/], // a string where the constant true belongs: a malformed type (spec 1 §7)
    ] as const) {
      const r = await api('POST', '/fleets', me, body);
      expect([r.status, r.text]).toEqual([status, expect.stringMatching(message)]);
    }
    expect(await poolRows(me.id)).toBe(before);
    // the bounds themselves are accepted
    expect((await invest(me, { investUsd: 50 })).status).toBe('awaiting_payment');
    expect((await invest(me, { investUsd: 250_000 })).status).toBe('awaiting_payment');
  });

  it('capital lands in the pool on payment; each time the balance covers the target price a fully managed deal is funded; the rest waits', async () => {
    const me = await person();
    const empty = await pool(me);
    expect(empty).toEqual({ balanceUsd: 0, totalInvestedUsd: 0, machinesFunded: 0, feePercentage: 2, targetModel: 'pro', targetPriceUsd: 5000, history: [] });

    const inv = await invest(me, { investUsd: 12_000 });
    expect(inv).toMatchObject({ status: 'awaiting_payment', investUsd: 12_000, targetModel: 'pro', checkoutUrl: expect.stringContaining('/pay/test/') });
    // not paid yet: nothing in the pool
    expect(await pool(me)).toMatchObject({ balanceUsd: 0, totalInvestedUsd: 0, history: [{ kind: 'investment', id: inv.id, status: 'awaiting_payment' }] });

    const paid = await pay(inv);
    expect(paid).toMatchObject({ duplicate: false, status: 'paid', investmentId: inv.id });
    expect(paid.dealsFunded).toHaveLength(2);
    const after = await pool(me);
    expect(after).toMatchObject({ balanceUsd: 2000, totalInvestedUsd: 12_000, machinesFunded: 2 });
    expect(after.history.map((h) => [h.kind, h.amountUsd, h.status ?? h.tier])).toEqual([
      ['allocation', 5000, 'pro'],
      ['allocation', 5000, 'pro'],
      ['investment', 12_000, 'paid'],
    ]);
    expect(new Set(after.history.filter((h) => h.kind === 'allocation').map((h) => h.dealId))).toEqual(new Set(paid.dealsFunded));

    // each funded deal: created like a request, pool-funded, paid at the catalog price, fully managed
    for (const id of paid.dealsFunded) {
      const d = okData(await api<DealState>('GET', `/deals/${id}`, me));
      expect(d).toMatchObject({ origin: 'pool', tier: 'pro', stage: 'shortlisting', autopilot: true, money: { machinePaidUsd: 5000 } });
      const mode = okData(await api<{ label: string; capabilities: Record<string, boolean> }>('GET', `/mode/deal/${id}`, me));
      expect(mode.label).toBe('auto');
    }
    // the pool paid for the machine: the signed lease goes straight to ready_to_ship, no money checkpoint, no second charge
    const shipped = await placed(me, paid.dealsFunded[0]);
    expect(shipped).toMatchObject({ stage: 'ready_to_ship', machineNo: expect.any(String), money: { machinePaidUsd: 5000 } });
    expect(shipped.stagesVisited).not.toContain('signed');
    const payments = await db().selectFrom('dfy_payments').select(['kind', 'amount_cents']).where('deal_id', '=', shipped.id).execute();
    expect(payments.map((x) => [x.kind, Number(x.amount_cents)])).toEqual([['pool', 500_000]]);
    const money = okData(await api<{ total: number }>('GET', '/checkpoints', me, undefined, { dealId: shipped.id, kind: 'money' }));
    expect(money.total).toBe(0);

    // a second investment with another target: 2,000 + 3,000 covers one entry machine (3,000); 2,000 waits
    const second = await invest(me, { investUsd: 3000, targetModel: 'entry' });
    expect(second.targetModel).toBe('entry');
    expect((await pay(second)).dealsFunded).toHaveLength(1);
    expect(await pool(me)).toMatchObject({ balanceUsd: 2000, totalInvestedUsd: 15_000, machinesFunded: 3, targetModel: 'entry', targetPriceUsd: 3000 });
    // below the price: the capital waits
    const small = await invest(me, { investUsd: 50 });
    expect((await pay(small)).dealsFunded).toEqual([]);
    expect(await pool(me)).toMatchObject({ balanceUsd: 2050, totalInvestedUsd: 15_050, machinesFunded: 3 });
  });

  it('applies a payment once under 20 concurrent replays of the same event, and once per investment across event ids', async () => {
    const me = await person();
    const inv = await invest(me, { investUsd: 5000 });
    const body = eventOf(inv);
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(body)));
    for (const r of answers) expect(r.status, r.text).toBe(200);
    const applied = answers.filter((r) => !r.body.data.duplicate);
    expect(applied).toHaveLength(1);
    expect(applied[0]!.body.data.dealsFunded).toHaveLength(1);
    expect(answers.filter((r) => r.body.data.duplicate).every((r) => r.body.data.dealsFunded.length === 0)).toBe(true);
    expect(await pool(me)).toMatchObject({ balanceUsd: 0, totalInvestedUsd: 5000, machinesFunded: 1 });
    const events = await db().selectFrom('dfy_pool_events').select('id').where('investment_id', '=', inv.id).execute();
    expect(events).toHaveLength(1);
    expect(await db().selectFrom('dfy_deals').select('id').where('operator_id', '=', me.id).execute()).toHaveLength(1);

    // another event id for the same, already paid, investment: a duplicate, nothing changes
    const again = await deliver(eventOf(inv, {}, `evt_other_${randomBytes(4).toString('hex')}`));
    expect(again.body.data).toMatchObject({ duplicate: true, status: 'paid' });
    expect(await pool(me)).toMatchObject({ balanceUsd: 0, totalInvestedUsd: 5000, machinesFunded: 1 });
  });

  it('refuses an event that does not match its investment (400, nothing recorded, so the corrected retry applies); 401 unsigned', async () => {
    const me = await person();
    const inv = await invest(me, { investUsd: 100 });
    const before = await poolRows(me.id);
    const refusals = [
      await deliver(eventOf(inv, { amountCents: 9999 })),
      await deliver(eventOf(inv, { currency: 'EUR' })),
      await deliver(eventOf(inv, { intentId: 'pi_not_this_one' })),
      await deliver(eventOf(inv, { purchaseId: 'dinv_unknown' })),
    ];
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    const unsigned = await call(t.url, 'POST', WEBHOOK, { body: eventOf(inv), headers: { 'content-type': 'application/json' } });
    expect(unsigned.status).toBe(401);
    expect(await poolRows(me.id)).toBe(before);
    expect(await db().selectFrom('dfy_pool_events').select('id').where('investment_id', '=', inv.id).execute()).toEqual([]);
    expect((await deliver(eventOf(inv))).body.data).toMatchObject({ duplicate: false, status: 'paid' });
    expect(await pool(me)).toMatchObject({ balanceUsd: 100, totalInvestedUsd: 100 });
  });

  it('a pool-funded deal cancelled before shipping returns its price to the pool', async () => {
    const me = await person();
    const paid = await pay(await invest(me, { investUsd: 5000, targetModel: 'pro' }));
    const dealId = paid.dealsFunded[0]!;
    okData(await api('POST', `/deals/${dealId}/cancel`, me, { reason: 'venue fell through' }));
    const p = await pool(me);
    expect(p).toMatchObject({ balanceUsd: 5000, totalInvestedUsd: 5000, machinesFunded: 0 });
    expect(p.history[0]).toMatchObject({ kind: 'allocation', dealId, returnedAt: expect.any(String) });
    // cancelling again returns nothing more
    expectRefused(await api('POST', `/deals/${dealId}/cancel`, me, { reason: 'again' }), 409, /cancel/);
    expect((await pool(me)).balanceUsd).toBe(5000);
  });

  it('charges the pool fee on pool-funded machines only, as its own cost line, inside profit and the fleet rollups', async () => {
    const me = await person();
    const dealId = (await pay(await invest(me, { investUsd: 5000, targetModel: 'pro' }))).dealsFunded[0]!;
    const pooled = await live(me, { 1: 0 }, dealId); // aisle 1 empty: the inventory tick below orders it
    const own = await live(me);
    const sell = async (machineNo: string, cents: number) => {
      const m = await db().selectFrom('machines').select('id').where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
      const now = t.clock.now();
      await db()
        .insertInto('orders')
        .values({
          order_number: `PF${randomBytes(6).toString('hex')}`,
          machine_id: m.id,
          operator_id: me.id,
          aisle_no: 1,
          quantity: 1,
          pay_status: 'shipped',
          pay_method: 'cash',
          paid_cents: cents,
          charged_cents: cents,
          channel: 'walkup',
          vended: 1,
          created_at: now - 3_600_000,
          updated_at: now - 3_600_000,
        })
        .execute();
    };
    await sell(pooled.machineNo, 100_000);
    await sell(own.machineNo, 100_000);

    const line = (s: Securities) => s.costLines.find((c) => c.name.startsWith('pool fee'))!;
    const by = (s: Securities, no: string) => s.machines.find((m) => m.machineNo === no)!;
    // 1,000.00 revenue, no costs: 20.00 + 2% × 980.00 = 39.60
    let sec = okData(await api<Securities>('GET', '/portfolio/securities', me));
    expect(line(sec)).toEqual({ name: 'pool fee (2%, pool-funded machines only)', usd: 39.6, estimate: false });
    expect(by(sec, pooled.machineNo)).toMatchObject({ poolFunded: true, poolFeeMtdUsd: 39.6, profitMtdUsd: 960.4, profitActualMtdUsd: 960.4 });
    expect(by(sec, own.machineNo)).toMatchObject({ poolFunded: false, poolFeeMtdUsd: 0, profitMtdUsd: 1000, profitActualMtdUsd: 1000 });
    expect(sec).toMatchObject({
      revenueMtdUsd: 2000,
      profitMtdUsd: 1960.4,
      profitActualMtdUsd: 1960.4,
      fleetRollups: { profitMtdUsd: 1960.4 },
      netMtdUsd: 1960.4,
    });
    const portfolio = okData(await api<Securities>('GET', '/portfolio', me));
    expect(line(portfolio)).toMatchObject({ usd: 39.6 });

    // a supplier order on the pooled machine (at its estimate): the fee's profit part shrinks and is flagged an estimate
    await settings(me, { autopilot: true, autoInventory: true, inventoryMonthlyCapUsd: 10_000 });
    const tick = okData(
      await api<{ ordered: { id: string; machineNo: string; estimatedCostUsd: number; lines: { sku: string; quantity: number }[] }[] }>(
        'POST',
        '/inventory/tick',
        me,
      ),
    );
    const order = tick.ordered.find((o) => o.machineNo === pooled.machineNo)!;
    const est = Math.round(order.estimatedCostUsd * 100);
    const feeOn = (costs: number) => 2000 + Math.floor((Math.max(0, 100_000 - costs - 2000) * 2 + 50) / 100);
    sec = okData(await api<Securities>('GET', '/portfolio/securities', me));
    expect(line(sec)).toEqual({ name: 'pool fee (2%, pool-funded machines only)', usd: feeOn(est) / 100, estimate: true });
    expect(by(sec, pooled.machineNo)).toMatchObject({
      poolFeeMtdUsd: feeOn(est) / 100,
      profitMtdUsd: (100_000 - est - feeOn(est)) / 100,
      profitActualMtdUsd: (100_000 - feeOn(0)) / 100,
      hasEstimates: true,
    });
    // received at 0.50 a unit: actual costs settle both profits and the line
    const units = order.lines.reduce((a, l) => a + l.quantity, 0);
    okData(await api('POST', `/inventory/orders/${order.id}/receive`, me, { unitCostsUsd: Object.fromEntries(order.lines.map((l) => [l.sku, 0.5])) }));
    const actual = units * 50;
    sec = okData(await api<Securities>('GET', '/portfolio/securities', me));
    expect(line(sec)).toMatchObject({ usd: feeOn(actual) / 100, estimate: false });
    expect(by(sec, pooled.machineNo)).toMatchObject({
      profitMtdUsd: (100_000 - actual - feeOn(actual)) / 100,
      profitActualMtdUsd: (100_000 - actual - feeOn(actual)) / 100,
    });
    expect(sec.fleetRollups.profitMtdUsd).toBe((200_000 - actual - feeOn(actual)) / 100);
  });
});
