import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, type TestServer } from '../../testing/harness.ts';
import type { Body } from '../../testing/answers.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { ADMIN, ALICE, BOB, catalogued, machineIdOf, startServer } from '../payments/operator-core.test-support.ts';

/** The summary's `byDay` series (issue 33: sales over time per day), the list's pay-status and channel filters, the summary's currency. */

interface Money {
  count: number;
  grossCents: number;
  refundedCents: number;
  salesCents: number;
  taxCents: number;
  netCents: number;
}
type Summary = Body<
  Money & {
    machineNo: string | null;
    timeZone: string;
    currency: string | null;
    byMachine: (Money & { machineNo: string })[];
    byDay: (Money & { date: string })[] | null;
  }
>;
type OrdersPage = Body<{ total: number; records: { orderNumber: string; payStatus: string; channel: string; machineNo: string }[] }>;

const ZERO: Money = { count: 0, grossCents: 0, refundedCents: 0, salesCents: 0, taxCents: 0, netCents: 0 };
const pick = (m: Money): Money => ({
  count: m.count,
  grossCents: m.grossCents,
  refundedCents: m.refundedCents,
  salesCents: m.salesCents,
  taxCents: m.taxCents,
  netCents: m.netCents,
});
const dateIn = (zone: string, ms: number): string => new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short' }).format(new Date(ms));

describe.each(DIALECTS)('orders by day on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer(dialect);
  });
  afterAll(async () => t.close());

  const db = () => t.ctx.database.db;
  const summary = (query: Record<string, string>, headers = ALICE) => call<Summary>(t.url, 'GET', '/api/v1/orders/summary', { headers, query });
  const ordersOf = (operatorId: string) =>
    db()
      .selectFrom('orders')
      .innerJoin('machines', 'machines.id', 'orders.machine_id')
      .selectAll('orders')
      .select(['machines.machine_no', 'machines.sales_tax_rate'])
      .where('orders.operator_id', '=', operatorId)
      .execute();
  /** The rollup computed the slow way, order by order. */
  function expectedRollup(rows: Awaited<ReturnType<typeof ordersOf>>): Money {
    const m = { ...ZERO };
    for (const o of rows) {
      const rate = o.tax_rate ?? o.sales_tax_rate;
      const tax = rate ? Math.round((o.charged_cents * rate) / (100 + rate)) : 0;
      m.count++;
      m.grossCents += o.charged_cents;
      if (o.pay_status === 'refunded') m.refundedCents += o.charged_cents;
      else {
        m.salesCents += o.charged_cents;
        m.taxCents += tax;
        m.netCents += o.charged_cents - tax;
      }
    }
    return m;
  }
  let seq = 0;
  const sell = async (machineNo: string, at: number, chargedCents: number, payStatus = 'shipped') => {
    const orderNumber = `ord_byday_${dialect}_${++seq}`;
    await db()
      .insertInto('orders')
      .values({
        order_number: orderNumber,
        machine_id: await machineIdOf(t, machineNo),
        operator_id: OPERATOR_IDS.alice,
        aisle_no: 1,
        quantity: 1,
        pay_status: payStatus,
        paid_cents: chargedCents,
        charged_cents: chargedCents,
        tax_rate: null,
        channel: 'walkup',
        pay_method: 'cash',
        terminal_id: null,
        card_brand: null,
        card_last4: null,
        settlement_account: null,
        command_id: null,
        dispense_id: null,
        vended: 1,
        payment_ref: null,
        request_ref: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return orderNumber;
  };

  it('gives one entry per UTC day of the window, each the rollup of that day, summing to the totals', async () => {
    await db().updateTable('machines').set({ sales_tax_rate: 8.875 }).where('machine_no', '=', 'SBX-ALICE-0001').execute();
    const mine = await ordersOf(OPERATOR_IDS.alice);
    const last = dateIn('UTC', Math.max(...mine.map((o) => o.created_at)));
    const first = new Date(Date.parse(`${last}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    const r = await summary({ startTime: `${first} 00:00:00`, endTime: `${last} 23:59:59` });
    expect(r.status).toBe(200);
    const days = r.body.data.byDay!;
    expect(days).toHaveLength(30);
    expect(days[0]!.date).toBe(first);
    expect(days[29]!.date).toBe(last);
    const inWindow = mine.filter((o) => dateIn('UTC', o.created_at) >= first);
    expect(inWindow.length).toBeGreaterThan(0);
    for (const d of days) expect([d.date, pick(d)]).toEqual([d.date, expectedRollup(inWindow.filter((o) => dateIn('UTC', o.created_at) === d.date))]);
    const sum = days.reduce((a, d) => {
      for (const k of Object.keys(ZERO) as (keyof Money)[]) a[k] += d[k];
      return a;
    }, pick(ZERO));
    expect(sum).toEqual(pick(r.body.data));
    expect(sum.taxCents).toBeGreaterThan(0);
    await db().updateTable('machines').set({ sales_tax_rate: null }).where('machine_no', '=', 'SBX-ALICE-0001').execute();
  });

  it("puts a sale just before local midnight on the machine's local day, across a daylight-saving change, empty days as zeros", async () => {
    // Los Angeles springs forward on 2021-03-14: that day has 23 hours.
    const a = await sell('SBX-ALICE-0003', Date.parse('2021-03-14T07:59:30Z'), 150); // 2021-03-13 23:59:30 PST
    await sell('SBX-ALICE-0003', Date.parse('2021-03-15T06:30:00Z'), 200, 'refunded'); // 2021-03-14 23:30:00 PDT
    await sell('SBX-ALICE-0003', Date.parse('2021-03-15T07:10:00Z'), 250); // 2021-03-15 00:10:00 PDT
    const r = await summary({ machineNo: 'SBX-ALICE-0003', startTime: '2021-03-12 00:00:00', endTime: '2021-03-16 23:59:59' });
    expect(r.status).toBe(200);
    expect(r.body.data.timeZone).toBe('America/Los_Angeles');
    expect(r.body.data.byDay).toEqual([
      { date: '2021-03-12', ...ZERO },
      { date: '2021-03-13', count: 1, grossCents: 150, refundedCents: 0, salesCents: 150, taxCents: 0, netCents: 150 },
      { date: '2021-03-14', count: 1, grossCents: 200, refundedCents: 200, salesCents: 0, taxCents: 0, netCents: 0 },
      { date: '2021-03-15', count: 1, grossCents: 250, refundedCents: 0, salesCents: 250, taxCents: 0, netCents: 250 },
      { date: '2021-03-16', ...ZERO },
    ]);
    expect(pick(r.body.data)).toEqual({ count: 3, grossCents: 600, refundedCents: 200, salesCents: 400, taxCents: 0, netCents: 400 });
    // the window's ends are honoured inside their days
    const part = await summary({ machineNo: 'SBX-ALICE-0003', startTime: '2021-03-13 23:59:31', endTime: '2021-03-15 00:09:59' });
    expect(part.body.data.byDay!.map((d) => [d.date, d.count])).toEqual([
      ['2021-03-13', 0],
      ['2021-03-14', 1],
      ['2021-03-15', 0],
    ]);
    // without a machine the same instants are read in UTC: the first sale is on the 14th there
    const utc = await summary({ startTime: '2021-03-13 00:00:00', endTime: '2021-03-15 23:59:59' });
    expect(utc.body.data.timeZone).toBe('UTC');
    expect(utc.body.data.byDay!.map((d) => [d.date, d.count])).toEqual([
      ['2021-03-13', 0],
      ['2021-03-14', 1],
      ['2021-03-15', 2],
    ]);
    // bob's series over the same days holds none of alice's sales
    const bob = await summary({ startTime: '2021-03-13 00:00:00', endTime: '2021-03-15 23:59:59' }, BOB);
    expect(bob.body.data.byDay!.every((d) => d.count === 0)).toBe(true);
    expect(bob.body.data.currency).toBe('GBP');
    const order = await call(t.url, 'GET', `/api/v1/orders/${a}`, { headers: ALICE });
    expect(order.status).toBe(200);
  });

  it('covers at most 366 days: a longer window is 400 in the envelope; an open window has no series', async () => {
    const year = await summary({ startTime: '2020-01-01 00:00:00', endTime: '2020-12-31 23:59:59' });
    expect(year.status).toBe(200);
    expect(year.body.data.byDay).toHaveLength(366);
    const tooLong = await summary({ startTime: '2020-01-01 00:00:00', endTime: '2021-01-01 00:00:00' });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ code: 400, message: expect.stringMatching(catalogued(400, 'query.endTime: the window spans 367 days')), data: null });
    const open = await summary({ startTime: '2021-03-01 00:00:00' });
    expect(open.status).toBe(200);
    expect(open.body.data.byDay).toBeNull();
    expect((await summary({})).body.data.byDay).toBeNull();
  });

  it("names the amounts' currency: the operator's; the machine owner's for an admin naming one; none for an admin's fleet", async () => {
    expect((await summary({})).body.data.currency).toBe('USD');
    expect((await summary({ machineNo: 'SBX-BOB-0001' }, ADMIN)).body.data.currency).toBe('GBP');
    expect((await summary({}, ADMIN)).body.data.currency).toBeNull();
  });

  it('filters the list by pay status and by channel', async () => {
    const mine = await ordersOf(OPERATOR_IDS.alice);
    const list = (query: Record<string, string>) => call<OrdersPage>(t.url, 'GET', '/api/v1/orders', { headers: ALICE, query: { size: '100', ...query } });
    const refunded = await list({ payStatus: 'refunded' });
    expect(refunded.status).toBe(200);
    expect(refunded.body.data.total).toBe(mine.filter((o) => o.pay_status === 'refunded').length);
    expect(refunded.body.data.total).toBeGreaterThan(0);
    expect(refunded.body.data.records.every((o) => o.payStatus === 'refunded')).toBe(true);
    const walkup = await list({ channel: 'walkup', machineNo: 'SBX-ALICE-0002' });
    expect(walkup.body.data.total).toBe(mine.filter((o) => o.channel === 'walkup' && o.machine_no === 'SBX-ALICE-0002').length);
    expect((await list({ channel: 'no-such-channel' })).body.data.total).toBe(0);
    const tooLong = await list({ payStatus: 'x'.repeat(33) });
    expect(tooLong.status).toBe(400);
  });
});
