import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { expectRefused, okData } from '../../testing/answers.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { enrolled, keyHeader } from '../gateway/gateway.test-support.ts';
import { newOperator } from '../machines/machines.factories.ts';
import { admin, alice, bob, machinesApi } from '../machines/machines.test-support.ts';
import type { Order } from '../orders/orders.schemas.ts';
import { splitTax } from './tax-split.ts';
import type { BlockedRestatement, Remittance, Schedule } from './tax.schemas.ts';

type H = Record<string, string>;
type PageOf<T> = { page: number; size: number; total: number; records: T[] };
type Restated = { salesTaxRate: number | null; taxRestatement?: { restatedOrders: number; pinnedOrders: number; blockedPeriods: unknown[] } };

const at = (iso: string) => Date.parse(iso);
const ts = (ms: number) => formatTimestamp(ms)!;

describe.each(DIALECTS)('tax schedules, remittances and restatement on %s', (dialect) => {
  const t = suiteServer(dialect);
  const { db, api, register, patch } = machinesApi(() => t);
  const operator = () => newOperator(db(), t.clock.now());

  /** An order in the machine's history, as a sale path (or a pre-stamping release) left it. */
  const sell = async (machineNo: string, o: { at: number; cents: number; rate: number | null; status?: string }) => {
    const m = await db().selectFrom('machines').select(['id', 'operator_id']).where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
    const orderNumber = `TAX${randomBytes(6).toString('hex')}`;
    await db()
      .insertInto('orders')
      .values({
        order_number: orderNumber,
        machine_id: m.id,
        operator_id: m.operator_id,
        aisle_no: 1,
        quantity: 1,
        pay_status: o.status ?? 'shipped',
        paid_cents: o.cents,
        charged_cents: o.cents,
        tax_rate: o.rate,
        channel: 'walkup',
        pay_method: 'cash',
        vended: 1,
        created_at: o.at,
        updated_at: o.at,
      })
      .execute();
    return orderNumber;
  };
  const order = async (orderNumber: string, headers: H) => {
    const r = await api<Order>('GET', `/api/v1/orders/${orderNumber}`, headers);
    return okData(r);
  };
  const orderRow = (orderNumber: string) => db().selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();
  const remit = (headers: H, body: unknown) => api<Remittance>('POST', '/api/v1/tax/remittances', headers, body);
  const addSchedule = (headers: H, body: unknown) => api<Schedule>('POST', '/api/v1/tax/schedules', headers, body);
  const blocked = (headers: H, query: Record<string, string> = {}) =>
    api<PageOf<BlockedRestatement>>('GET', '/api/v1/tax/restatements-blocked', headers, undefined, query);
  const setRate = async (machineNo: string, headers: H, salesTaxRate: number | null) => {
    const r = await api<Restated>('PATCH', `/api/v1/machines/${machineNo}`, headers, { salesTaxRate });
    return okData(r);
  };
  /** A remote drop through the real API: enqueue, then the agent's ack records the sale. */
  const drop = async (machineNo: string, headers: H, priceCents: number) => {
    const m = await db().selectFrom('machines').select('id').where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
    await db().updateTable('aisles').set({ price_cents: priceCents, current_stock: 5 }).where('machine_id', '=', m.id).where('aisle_no', '=', 1).execute();
    const c = await api<{ commandId: string }>('POST', `/api/v1/machines/${machineNo}/commands/dispense`, headers, { aisleNo: 1, reason: 'tax test' });
    expect(c.status, c.text).toBe(200);
    t.clock.advance(1);
    const a = await api('POST', `/api/v1/machines/${machineNo}/commands/${c.body.data.commandId}/ack`, headers, { success: true, outcome: 'success' });
    expect(a.status, a.text).toBe(200);
    const row = await db().selectFrom('orders').select('order_number').where('command_id', '=', c.body.data.commandId).executeTakeFirstOrThrow();
    return order(row.order_number, headers);
  };

  it('recording a machine rate restates open periods, leaves remitted ones exactly as they were, and lists them as blocked', async () => {
    const op = await operator();
    const m = await register(op.headers);
    // history from before sales were stamped: unstamped orders follow the machine's rate (8%)
    await db().updateTable('machines').set({ sales_tax_rate: 8 }).where('machine_no', '=', m.machineNo).execute();
    const sep = [
      await sell(m.machineNo, { at: at('2026-09-10T10:00:00Z'), cents: 1000, rate: 5 }),
      await sell(m.machineNo, { at: at('2026-09-20T10:00:00Z'), cents: 1234, rate: null }),
      await sell(m.machineNo, { at: at('2026-09-30T23:59:59.999Z'), cents: 500, rate: null, status: 'refunded' }),
    ];
    const open = [
      await sell(m.machineNo, { at: at('2026-10-01T00:00:00Z'), cents: 1000, rate: 5 }),
      await sell(m.machineNo, { at: at('2026-10-15T10:00:00Z'), cents: 1234, rate: null }),
      await sell(m.machineNo, { at: at('2026-11-02T10:00:00Z'), cents: 999, rate: null }),
    ];

    const r = await remit(op.headers, { period: '2026-09', reference: 'ST-810 Q3' });
    expect(r.status, r.text).toBe(200);
    const tax = splitTax(1000, 5).taxCents + splitTax(1234, 8).taxCents;
    expect(r.body.data).toEqual({
      id: expect.any(String),
      period: '2026-09',
      reference: 'ST-810 Q3',
      orders: 2,
      salesCents: 2234,
      sales: 22.34,
      taxCents: tax,
      tax: tax / 100,
      netCents: 2234 - tax,
      net: (2234 - tax) / 100,
      remittedAt: ts(t.clock.now()),
    });

    const sepBefore = await Promise.all(sep.map((n) => order(n, op.headers)));
    const sepRowsBefore = await Promise.all(sep.map(orderRow));
    const openBefore = await Promise.all(open.map((n) => order(n, op.headers)));
    t.clock.advance(1000);
    const changed = await setRate(m.machineNo, op.headers, 6.5);
    expect(changed.salesTaxRate).toBe(6.5);
    expect(changed.taxRestatement).toEqual({ restatedOrders: 3, pinnedOrders: 2, blockedPeriods: [{ period: '2026-09', reason: 'remitted', orders: 3 }] });

    // the remitted period: every field the API shows is as it was; the rows differ only in the pin
    expect(await Promise.all(sep.map((n) => order(n, op.headers)))).toEqual(sepBefore);
    const sepRowsAfter = await Promise.all(sep.map(orderRow));
    expect(sepRowsAfter).toEqual(sepRowsBefore.map((row) => ({ ...row, tax_rate: row.tax_rate ?? 8 })));
    // the open periods: restated at 6.5%, the receipt amount untouched
    const openAfter = await Promise.all(open.map((n) => order(n, op.headers)));
    openAfter.forEach((o, i) => {
      const before = openBefore[i]!;
      const split = splitTax(before.chargedCents, 6.5);
      expect(o).toEqual({ ...before, taxRate: 6.5, taxCents: split.taxCents, tax: split.taxCents / 100, netCents: split.netCents });
      expect(o.netCents).not.toBe(before.netCents);
    });

    const actions = await db().selectFrom('audit_log').select('action').where('resource', '=', `machine:${m.machineNo}`).execute();
    expect(actions.map((x) => x.action)).toEqual(expect.arrayContaining(['tax.restate', 'machines.update']));
    expect(await db().selectFrom('audit_log').select('action').where('resource', '=', 'tax-period:2026-09').where('user_id', '=', op.id).execute()).toEqual([
      { action: 'tax.remit' },
    ]);
    const list = await blocked(op.headers, { machineNo: m.machineNo });
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toEqual({
      page: 1,
      size: 20,
      total: 1,
      records: [
        {
          id: expect.any(String),
          machineNo: m.machineNo,
          period: '2026-09',
          reason: 'remitted',
          requestedRate: 6.5,
          keptRate: 8,
          orders: 3,
          at: ts(t.clock.now()),
        },
      ],
    });

    // clearing the rate: open orders follow the schedule (none: no tax); the remitted period still does not move
    t.clock.advance(1000);
    const cleared = await setRate(m.machineNo, op.headers, null);
    expect(cleared.taxRestatement).toEqual({ restatedOrders: 3, pinnedOrders: 0, blockedPeriods: [{ period: '2026-09', reason: 'remitted', orders: 3 }] });
    expect(await Promise.all(sep.map((n) => order(n, op.headers)))).toEqual(sepBefore);
    for (const n of open) expect(await order(n, op.headers)).toMatchObject({ taxRate: null, taxCents: 0 });
    expect((await orderRow(open[0]!)).tax_rate).toBe(0);
    const again = await blocked(op.headers);
    expect(again.body.data.records.map((b) => [b.requestedRate, b.keptRate])).toEqual([
      [null, 6.5],
      [6.5, 8],
    ]);

    // re-sending the same rate restates nothing and answers no taxRestatement
    const same = await api<Restated>('PATCH', `/api/v1/machines/${m.machineNo}`, op.headers, { salesTaxRate: null, name: 'Lobby' });
    expect(same.status).toBe(200);
    expect(same.body.data).not.toHaveProperty('taxRestatement');
    expect((await blocked(op.headers)).body.data.total).toBe(2);
  });

  it('a period paid out to a host is closed too: its orders stay, the block says paid_out; the open month is restated', async () => {
    const op = await operator();
    const m = await register(op.headers);
    const oct = [
      await sell(m.machineNo, { at: at('2026-10-05T10:00:00Z'), cents: 2000, rate: null }),
      await sell(m.machineNo, { at: at('2026-10-25T10:00:00Z'), cents: 1500, rate: 4 }),
    ];
    const nov = await sell(m.machineNo, { at: at('2026-11-03T10:00:00Z'), cents: 1000, rate: null });
    // the machine had sold: a venue naming it with a deployment date accrues from that date, so October has a host line
    const v = await api<{ id: string }>('POST', '/api/v1/crm/venues', op.headers, {
      name: 'Depot',
      revShareBps: 1000,
      machineNos: [m.machineNo],
      deploymentDate: '2026-10-01',
    });
    expect(v.status, v.text).toBe(200);
    const paid = await api<{ status: string; lines: { machineNo: string; vends: number }[] }>('POST', '/api/v1/payouts', op.headers, {
      venueId: v.body.data.id,
      period: '2026-10',
    });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.data.lines).toEqual([expect.objectContaining({ machineNo: m.machineNo, vends: 2 })]);

    const octBefore = await Promise.all(oct.map((n) => order(n, op.headers)));
    t.clock.advance(1000);
    const changed = await setRate(m.machineNo, op.headers, 9);
    expect(changed.taxRestatement).toEqual({ restatedOrders: 1, pinnedOrders: 1, blockedPeriods: [{ period: '2026-10', reason: 'paid_out', orders: 2 }] });
    expect(await Promise.all(oct.map((n) => order(n, op.headers)))).toEqual(octBefore);
    const restated = await order(nov, op.headers);
    expect(restated).toMatchObject({ chargedCents: 1000, taxRate: 9, tax: splitTax(1000, 9).taxCents / 100, netCents: splitTax(1000, 9).netCents });
    const list = await blocked(op.headers, { machineNo: m.machineNo });
    expect(list.body.data.records).toEqual([expect.objectContaining({ machineNo: m.machineNo, period: '2026-10', reason: 'paid_out', orders: 2 })]);
  });

  it('remitted tax leaves the balance sheet: cash and tax payable both fall by the remitted amount, and it still balances', async () => {
    const op = await operator();
    const m = await register(op.headers);
    await sell(m.machineNo, { at: at('2026-10-05T10:00:00Z'), cents: 10_800, rate: 8 });
    await sell(m.machineNo, { at: at('2026-11-05T10:00:00Z'), cents: 5_400, rate: 8 });
    type Sheet = { assets: { cashCents: number }; cash: { taxRemittedCents: number }; liabilities: { salesTaxPayableCents: number }; balanced: boolean };
    const sheet = async () => {
      const r = await api<Sheet>('GET', '/api/v1/balance-sheet', op.headers);
      return okData(r);
    };
    const before = await sheet();
    expect(before.liabilities.salesTaxPayableCents).toBe(800 + 400);
    const r = await remit(op.headers, { period: '2026-10' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.taxCents).toBe(800);
    t.clock.advance(1000);
    const after = await sheet();
    expect(after.cash.taxRemittedCents).toBe(800);
    expect(after.liabilities.salesTaxPayableCents).toBe(400);
    expect(after.assets.cashCents).toBe(before.assets.cashCents - 800);
    expect(after.balanced).toBe(true);
  });

  it('without a remitted period every order is restated; another operator’s remittance closes nothing here', async () => {
    const [op, other] = [await operator(), await operator()];
    const m = await register(op.headers);
    const n = await sell(m.machineNo, { at: at('2026-08-10T10:00:00Z'), cents: 1000, rate: 5 });
    expect((await remit(other.headers, { period: '2026-08' })).status).toBe(200);
    const changed = await setRate(m.machineNo, op.headers, 10);
    expect(changed.taxRestatement).toEqual({ restatedOrders: 1, pinnedOrders: 0, blockedPeriods: [] });
    expect(await order(n, op.headers)).toMatchObject({ chargedCents: 1000, taxRate: 10, taxCents: 91, netCents: 909 });
    expect((await blocked(op.headers)).body.data.total).toBe(0);
  });

  it('the schedule in effect stamps new sales; a later row never reprices them; the machine’s own rate beats the schedule', async () => {
    const op = await operator();
    const m = await register(op.headers);
    const none = await drop(m.machineNo, op.headers, 250);
    expect(none).toMatchObject({ chargedCents: 250, taxRate: null, taxCents: 0 });

    const now = t.clock.now();
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const first = await addSchedule(op.headers, { bps: 888, effectiveAt: day(now) });
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toEqual({
      id: expect.any(String),
      bps: 888,
      ratePercent: 8.88,
      effectiveAt: day(now),
      effectiveFrom: ts(at(`${day(now)}T00:00:00Z`)),
      inEffect: true,
      createdAt: ts(now),
    });
    const later = await addSchedule(op.headers, { bps: 950, effectiveAt: day(now + 2 * 86_400_000) });
    expect(later.body.data.inEffect).toBe(false);
    // the schedule stamps only sales made after it: the earlier drop is not repriced
    expect(await order(none.orderNumber, op.headers)).toEqual(none);

    const stamped = await drop(m.machineNo, op.headers, 250);
    const split = splitTax(250, 8.88);
    expect(stamped).toMatchObject({ taxRate: 8.88, taxCents: split.taxCents, netCents: split.netCents });

    t.clock.advance(3 * 86_400_000);
    expect(await order(stamped.orderNumber, op.headers)).toEqual(stamped);
    expect((await drop(m.machineNo, op.headers, 250)).taxRate).toBe(9.5);
    const rows = (await api<PageOf<Schedule>>('GET', '/api/v1/tax/schedules', op.headers)).body.data;
    expect(rows.records.map((s) => [s.bps, s.inEffect])).toEqual([
      [888, false],
      [950, true],
    ]);

    await setRate(m.machineNo, op.headers, 4);
    expect((await drop(m.machineNo, op.headers, 250)).taxRate).toBe(4);
  });

  it('a walk-up order the cabinet opens is stamped from the schedule too (the unvended path)', async () => {
    const op = await operator();
    const e = await enrolled(t);
    await register(op.headers, { machineNo: e.serial });
    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    expect((await addSchedule(op.headers, { bps: 725, effectiveAt: today })).status).toBe(200);
    const opened = await api<{ orderNumber: string; payStatus: string }>('POST', '/cabinet/createOrder', keyHeader(e.key), {
      aisleNo: 1,
      quantity: 1,
      payMethod: 'cash',
    });
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.data.payStatus).toBe('paid');
    const o = await order(opened.body.data.orderNumber, op.headers);
    expect(o).toMatchObject({ taxRate: 7.25, taxCents: splitTax(o.chargedCents, 7.25).taxCents });
    expect((await orderRow(o.orderNumber)).tax_rate).toBe(7.25);
  });

  it('refuses bad schedule rows (422 wrong types, 400 out of rule, 409 a second row for a date) and writes nothing', async () => {
    const op = await operator();
    const count = async () => (await db().selectFrom('tax_schedules').select('id').where('operator_id', '=', op.id).execute()).length;
    for (const body of [
      { bps: 1.5, effectiveAt: '2026-12-01' },
      { bps: '800', effectiveAt: '2026-12-01' },
      { bps: 800, effectiveAt: 20261201 },
    ])
      expectRefused(await addSchedule(op.headers, body), 422);
    for (const body of [
      { bps: -1, effectiveAt: '2026-12-01' },
      { bps: 3001, effectiveAt: '2026-12-01' },
      { bps: 800, effectiveAt: '2026-13-01' },
      { bps: 800, effectiveAt: '1969-12-31' },
      { bps: 800, effectiveAt: '2026-12-01T00:00:00Z' },
      { bps: 800 },
      { bps: 800, effectiveAt: '2026-12-01', machineNo: 'X' },
    ])
      expectRefused(await addSchedule(op.headers, body), 400);
    expect(await count()).toBe(0);
    expect((await addSchedule(op.headers, { bps: 0, effectiveAt: '2026-12-01' })).status).toBe(200);
    expectRefused(await addSchedule(op.headers, { bps: 700, effectiveAt: '2026-12-01' }), 409, /2026-12-01/);
    expect(await count()).toBe(1);
    // another operator may use the same date; neither sees the other's rows; admins see every row with its operator
    const other = await operator();
    expect((await addSchedule(other.headers, { bps: 500, effectiveAt: '2026-12-01' })).status).toBe(200);
    const mine = (await api<PageOf<Schedule>>('GET', '/api/v1/tax/schedules', op.headers)).body.data;
    expect(mine.records.map((s) => s.bps)).toEqual([0]);
    const all = (await api<PageOf<Schedule>>('GET', '/api/v1/tax/schedules', admin, undefined, { size: '100' })).body.data;
    expect(all.records.filter((s) => s.operatorEmail === other.email).map((s) => s.bps)).toEqual([500]);
  });

  it('remits only ended periods, once each; the list is newest first and per operator', async () => {
    const op = await operator();
    const count = async () => (await db().selectFrom('tax_remittances').select('id').where('operator_id', '=', op.id).execute()).length;
    const current = new Date(t.clock.now()).toISOString().slice(0, 7);
    expectRefused(await remit(op.headers, { period: current }), 400, /current period/);
    expectRefused(await remit(op.headers, { period: '2099-01' }), 400, /not started/);
    for (const body of [
      { period: '2026-13' },
      { period: '2026-1' },
      {},
      { period: '2026-06', reference: '' },
      { period: '2026-06', reference: 'x'.repeat(101) },
      { period: '2026-06', extra: 1 },
    ])
      expectRefused(await remit(op.headers, body), 400);
    for (const body of [{ period: 202606 }, { period: '2026-06', reference: 7 }]) expectRefused(await remit(op.headers, body), 422);
    expect(await count()).toBe(0);

    const june = await remit(op.headers, { period: '2026-06' });
    expect(june.status, june.text).toBe(200);
    expect(june.body.data).toMatchObject({ period: '2026-06', reference: null, orders: 0, taxCents: 0 });
    expectRefused(await remit(op.headers, { period: '2026-06', reference: 'again' }), 409, /already remitted/);
    expect((await remit(op.headers, { period: '2026-07' })).status).toBe(200);
    expect(await count()).toBe(2);

    const list = (await api<PageOf<Remittance>>('GET', '/api/v1/tax/remittances', op.headers)).body.data;
    expect(list.records.map((r) => r.period)).toEqual(['2026-07', '2026-06']);
    expect(list.records[1]).toEqual(june.body.data);
    const theirs = (await api<PageOf<Remittance>>('GET', '/api/v1/tax/remittances', bob, undefined, { size: '100' })).body.data;
    expect(theirs.records.some((r) => r.id === june.body.data.id)).toBe(false);
    const asAdmin = (await api<PageOf<Remittance>>('GET', '/api/v1/tax/remittances', admin, undefined, { size: '100' })).body.data;
    expect(asAdmin.records.find((r) => r.id === june.body.data.id)?.operatorEmail).toBe(op.email);
  });

  it('the blocked list is the caller’s own: another operator’s machine is 404, its rows never shown', async () => {
    const op = await operator();
    const m = await register(op.headers);
    await sell(m.machineNo, { at: at('2026-05-10T10:00:00Z'), cents: 700, rate: null });
    expect((await remit(op.headers, { period: '2026-05' })).status).toBe(200);
    expect((await setRate(m.machineNo, op.headers, 7)).taxRestatement?.blockedPeriods).toHaveLength(1);

    expectRefused(await blocked(alice, { machineNo: m.machineNo }), 404, 'Machine not found');
    expectRefused(await blocked(op.headers, { machineNo: 'NO-SUCH-MACHINE-1' }), 404, 'Machine not found');
    const aliceAll = (await blocked(alice, { size: '100' })).body.data;
    expect(aliceAll.records.some((b) => b.machineNo === m.machineNo)).toBe(false);
    const asAdmin = (await blocked(admin, { machineNo: m.machineNo })).body.data;
    expect(asAdmin.records).toEqual([expect.objectContaining({ machineNo: m.machineNo, period: '2026-05', operatorEmail: op.email })]);
    // another operator cannot restate this machine at all
    expectRefused(await patch(m.machineNo, bob, { salesTaxRate: 1 }), 404);
    expect((await db().selectFrom('machines').select('sales_tax_rate').where('machine_no', '=', m.machineNo).executeTakeFirstOrThrow()).sales_tax_rate).toBe(7);
  });
});
