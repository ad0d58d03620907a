import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer, TEST_EPOCH } from '../../testing/harness.ts';
import { expectRefused, okData } from '../../testing/answers.ts';
import { mintKey } from '../machines/machines.factories.ts';
import { admin, alice } from '../machines/machines.test-support.ts';
import { identityBalances } from './finance.rules.ts';
import { financeBooks } from './finance.test-support.ts';
import type { Entry, StatementView } from './finance.schemas.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const tag = () => randomBytes(4).toString('hex');
const ts = (iso: string) => new Date(iso).toISOString().replace('Z', '+0000');

describe.each(DIALECTS)('P&L, payouts and the balance sheet on %s', (dialect) => {
  const t = suiteServer(dialect);

  it('tells a hand-worked story: P&L to the cent with its host lines (vends 0 = the move rule), statements, payouts frozen, the balance sheet', async () => {
    expect(t.clock.now()).toBe(TEST_EPOCH); // 2026-11-20T12:00Z
    const b = await financeBooks(t);
    const sku = `S-${tag()}`;
    const m1 = await b.machine([{ priceCents: 1000, sku }]);
    const m2 = await b.machine([{ priceCents: 500, sku: null }]);
    await b.patchMachine(m1.machineNo, { salesTaxRate: 8 });
    await b.receive(`PO-${tag()}`, [{ sku, qty: 10, unitCostUsd: 4 }]);
    const v = await b.venue({ name: 'Corner Deli', revShareBps: 1500 });
    // 12:00: 2 × 10.00 taxed 8 % (tax 1.48), a failed vend (refunded), 5.00 untaxed on m2 — all before the machines move
    await b.sell(m1, 1, 2);
    await b.failVend(m1, 1);
    await b.sell(m2, 1);
    t.clock.advance(HOUR);
    await b.patchMachine(m1.machineNo, { venueId: v.id });
    await b.patchMachine(m2.machineNo, { venueId: v.id });
    t.clock.advance(HOUR);
    // 14:00: 10.00 (tax 0.74) at the venue: the only sale the host shares
    await b.sell(m1, 1);
    await b.entry({ kind: 'referral', amount: 5, occurredOn: '2026-11-20' });
    await b.entry({ kind: 'payroll', amount: 20, occurredOn: '2026-11-20' });
    await b.entry({ kind: 'expense', amount: 3.5, occurredOn: '2026-11-20', venueId: v.id });

    const day = { from: '2026-11-20', to: '2026-11-20' };
    const pnl = await b.pnl(day);
    expect(pnl).toMatchObject({
      from: '2026-11-20',
      to: '2026-11-20',
      timeZone: 'UTC',
      vends: 3,
      refundedCount: 1,
      refundedCents: 1000,
      grossCents: 3500,
      taxCents: 222,
      netCents: 3278,
      fifoCogsCents: 1200,
      hostShareCents: 139,
      referralsCents: 500,
      payrollCents: 2000,
      feeCents: 70,
      expensesCents: 350,
      operatorNetCents: -981,
      gross: 35,
      operatorNet: -9.81,
      identity: '35.00 − 2.22 = 32.78 − 12.00 − 1.39 − 5.00 − 20.00 − 0.70 − 3.50 = -9.81',
    });
    expect(identityBalances(pnl.identity)).toBe(true);
    const line = (machineNo: string, vends: number, net: number, share: number) => ({
      venueId: v.id,
      venueName: 'Corner Deli',
      machineNo,
      period: '2026-11',
      commissionRule: 'move',
      commissionFrom: ts('2026-11-20T13:00:00Z'),
      windowFrom: ts('2026-11-20T13:00:00Z'),
      windowTo: ts('2026-11-21T00:00:00Z'),
      vends,
      netSalesCents: net,
      netSales: net / 100,
      bps: 1500,
      shareCents: share,
      share: share / 100,
      paid: false,
    });
    const lines = [line(m1.machineNo, 1, 926, 139), line(m2.machineNo, 0, 0, 0)].sort((x, y) => x.machineNo.localeCompare(y.machineNo));
    expect(pnl.hostLines).toEqual(lines);

    // one machine: its sales, its host line, no untagged entries
    expect(await b.pnl({ ...day, machineNo: m1.machineNo })).toMatchObject({
      grossCents: 3000,
      fifoCogsCents: 1200,
      hostShareCents: 139,
      feeCents: 60,
      expensesCents: 0,
      operatorNetCents: 1379,
    });
    // one venue: its machines while there (the 14:00 sale), its host lines, the entry against it
    const atVenue = await b.pnl({ ...day, venueId: v.id });
    expect(atVenue).toMatchObject({
      grossCents: 1000,
      taxCents: 74,
      netCents: 926,
      fifoCogsCents: 400,
      hostShareCents: 139,
      feeCents: 20,
      expensesCents: 350,
      operatorNetCents: 17,
    });
    expect(atVenue.hostLines).toEqual(lines);
    // the admin sees the same books by operatorEmail
    expect(await b.pnl({ ...day, operatorEmail: b.op.email }, admin)).toMatchObject({ operatorNetCents: -981, operatorEmail: b.op.email });

    // the current period cannot be paid out; its statement is open
    const early = await b.api('POST', '/api/v1/payouts', { json: { venueId: v.id, period: '2026-11' } });
    expect(early.status, early.text).toBe(400);
    expect(await b.payouts({ period: '2026-11', venueId: v.id })).toMatchObject({
      period: '2026-11',
      statements: [{ venueId: v.id, status: 'unpaid', payable: false, totalCents: 139, vends: 1, netSalesCents: 926 }],
    });

    t.clock.advance(12 * DAY); // 2026-12-02
    const open = await b.payouts({ venueId: v.id });
    expect(open.period).toBe('2026-11');
    expect(open.statements).toEqual([
      expect.objectContaining({ status: 'unpaid', payable: true, bps: 1500, totalCents: 139, total: 1.39, reference: null, paidAt: null }),
    ]);
    const paid = okData(await b.api<StatementView>('POST', '/api/v1/payouts', { json: { venueId: v.id, period: '2026-11', reference: 'CHK-1001' } }));
    expect(paid).toMatchObject({ status: 'paid', payable: false, totalCents: 139, reference: 'CHK-1001', paidAt: ts('2026-12-02T14:00:00Z') });
    // the statement covers the whole month
    expect(paid.lines).toEqual(lines.map(({ venueId: _v, venueName: _n, ...l }) => ({ ...l, windowTo: ts('2026-12-01T00:00:00Z'), paid: true })));
    const again = await b.api('POST', '/api/v1/payouts', { json: { venueId: v.id, period: '2026-11' } });
    expect(again.status, again.text).toBe(409);
    const stranger = await b.api('POST', '/api/v1/payouts', { json: { venueId: v.id, period: '2026-11' }, headers: alice });
    expect(stranger.status).toBe(404);
    expect((await b.api('GET', '/api/v1/payouts', { query: { venueId: v.id }, headers: alice })).status).toBe(404);

    // the tax contract: both machines were on the paid statement
    const repo = t.services.store.repos.payouts;
    expect(await repo.paidOutPeriodsOf(m1.id)).toEqual(['2026-11']);
    expect(await repo.paidOutPeriodsOf(m2.id)).toEqual(['2026-11']);
    const m3 = await b.machine([]);
    expect(await repo.paidOutPeriodsOf(m3.id)).toEqual([]);

    // a later rate change reprices open periods only: the paid statement and November's P&L keep 1500 bps
    okData(await b.api('PATCH', `/api/v1/crm/venues/${v.id}`, { json: { revShareBps: 3000 } }));
    expect((await b.payouts({ venueId: v.id, period: '2026-11' })).statements[0]).toMatchObject({ status: 'paid', bps: 1500, totalCents: 139 });
    const november = await b.pnl({ from: '2026-11-01', to: '2026-11-30' });
    expect(november.hostShareCents).toBe(139);
    expect(november.hostLines.every((l) => l.paid && l.bps === 1500)).toBe(true);
    const december = await b.pnl({});
    expect(december).toMatchObject({ from: '2026-12-01', to: '2026-12-02', grossCents: 0, hostShareCents: 0 });
    expect(december.hostLines.map((l) => [l.period, l.bps, l.vends])).toEqual([
      ['2026-12', 3000, 0],
      ['2026-12', 3000, 0],
    ]);

    // the balance sheet: cash −35.59 and inventory 28.00 (7 of the 10 units at 4.00 left) = tax 2.22 + equity −9.81
    const now = await b.balance();
    expect(now).toMatchObject({
      asOf: '2026-12-02',
      assets: { cashCents: 3500 - 70 - 4000 - 139 - 500 - 2000 - 350, inventoryCents: 2800, totalCents: -759 },
      cash: { collectedCents: 3500, feesCents: 70, purchasesCents: 4000, payoutsCents: 139, taxRemittedCents: 0 },
      liabilities: { salesTaxPayableCents: 222, hostCommissionPayableCents: 0, refundsOwedCents: 0, awaitingVendCents: 0, totalCents: 222 },
      equity: { retainedEarningsCents: -981, totalCents: -981 },
      identity: '-7.59 = 2.22 + -9.81',
      balanced: true,
    });
    // before the payout, the commission was owed
    expect(await b.balance({ asOf: '2026-11-20' })).toMatchObject({
      liabilities: { hostCommissionPayableCents: 139, totalCents: 361 },
      assets: { totalCents: -620 },
      balanced: true,
    });
    expect(await b.balance({ asOf: '2026-11-19' })).toMatchObject({ assets: { totalCents: 0 }, liabilities: { totalCents: 0 }, equity: { totalCents: 0 } });
  });

  it('refuses bad reads: 400 out of rule, 422 never for query strings, 403 operatorEmail for operators, 404 for another operator’s machine or venue', async () => {
    const b = await financeBooks(t);
    const other = await financeBooks(t);
    const theirs = await other.machine([]);
    const theirVenue = await other.venue({});
    const status = async (path: string, query: Record<string, string>) => (await b.api('GET', path, { query })).status;
    expect(await status('/api/v1/pnl', { from: '2026-11-02', to: '2026-11-01' })).toBe(400);
    expect(await status('/api/v1/pnl', { from: '2026-02-30' })).toBe(400);
    expect(await status('/api/v1/pnl', { to: 'today' })).toBe(400);
    expect(await status('/api/v1/pnl', { operatorEmail: other.op.email })).toBe(403);
    expect(await status('/api/v1/pnl', { machineNo: theirs.machineNo })).toBe(404);
    expect(await status('/api/v1/pnl', { venueId: theirVenue.id })).toBe(404);
    const mine = await b.machine([]);
    const myVenue = await b.venue({});
    expect(await status('/api/v1/pnl', { machineNo: mine.machineNo, venueId: myVenue.id })).toBe(400);
    expect(await status('/api/v1/payouts', { period: '2026-13' })).toBe(400);
    expect(await status('/api/v1/payouts', { venueId: theirVenue.id })).toBe(404);
    expect(await status('/api/v1/balance-sheet', { asOf: '2026/11/01' })).toBe(400);
    expect(await status('/api/v1/balance-sheet', { operatorEmail: other.op.email })).toBe(403);
    expect((await b.api('GET', '/api/v1/balance-sheet', { query: { operatorEmail: 'nobody@nowhere.test' }, headers: admin })).status).toBe(400);
    const pay = async (json: unknown) => (await b.api('POST', '/api/v1/payouts', { json })).status;
    expect(await pay({ venueId: myVenue.id, period: '2026-1' })).toBe(400);
    expect(await pay({ venueId: myVenue.id, period: 202610 })).toBe(422);
    expect(await pay({ venueId: myVenue.id, period: '2026-10', extra: 1 })).toBe(400);
    expect(await pay({ venueId: theirVenue.id, period: '2026-10' })).toBe(404);
    expect(await t.services.store.repos.payouts.payouts([myVenue.id, theirVenue.id], null)).toEqual([]);
    // the scopes: reads orders:read, writes orders:write
    const readOnly = { 'x-api-key': await mintKey(t.ctx.database.db, b.op.id, 'orders:read') };
    const noOrders = { 'x-api-key': await mintKey(t.ctx.database.db, b.op.id, 'machines:read') };
    expect((await b.api('GET', '/api/v1/pnl', { headers: readOnly })).status).toBe(200);
    expect((await b.api('GET', '/api/v1/pnl', { headers: noOrders })).status).toBe(403);
    expect((await b.api('GET', '/api/v1/balance-sheet', { headers: noOrders })).status).toBe(403);
    expect((await b.api('POST', '/api/v1/payouts', { json: { venueId: myVenue.id, period: '2026-10' }, headers: readOnly })).status).toBe(403);
    expect((await b.api('POST', '/api/v1/finance/entries', { json: { kind: 'expense', amount: 1, occurredOn: '2026-11-01' }, headers: readOnly })).status).toBe(
      403,
    );
  });

  it('entries: recorded whole-cent, listed and filtered, reversed once (not a reversal), another operator’s are 404, bad bodies write nothing', async () => {
    const b = await financeBooks(t);
    const other = await financeBooks(t);
    const m = await b.machine([]);
    const v = await b.venue({});
    const count = async () =>
      Number(
        (
          await t.ctx.database.db
            .selectFrom('finance_entries')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const refuse = async (json: unknown, status: number, pattern?: RegExp) =>
      expectRefused(await b.api('POST', '/api/v1/finance/entries', { json }), status, pattern);
    const good = { kind: 'expense', amount: 12.5, occurredOn: '2026-11-03' };
    await refuse({ ...good, amount: '12.50' }, 422, /amount/);
    await refuse({ ...good, occurredOn: 20261103 }, 422, /occurredOn/);
    await refuse({ ...good, memo: 5 }, 422, /memo/);
    await refuse({ ...good, amount: 0 }, 400, /amount/);
    await refuse({ ...good, amount: 1.005 }, 400, /amount/);
    await refuse({ ...good, amount: -3 }, 400, /amount/);
    await refuse({ ...good, kind: 'bribe' }, 400, /kind/);
    await refuse({ ...good, occurredOn: '2026-02-30' }, 400, /occurredOn/);
    await refuse({ ...good, occurredOn: '1969-12-31' }, 400, /occurredOn/);
    await refuse({ ...good, note: 'x' }, 400, /note/);
    await refuse({ ...good, machineNo: m.machineNo, venueId: v.id }, 400, /not both/);
    const theirs = await other.machine([]);
    await refuse({ ...good, machineNo: theirs.machineNo }, 400, /not one of your machines/);
    await refuse({ ...good, venueId: (await other.venue({})).id }, 400, /not one of your venues/);
    await refuse({ kind: 'payroll', occurredOn: '2026-11-03' }, 400, /amount/);
    expect(await count()).toBe(before);

    const e1 = await b.entry({ ...good, machineNo: m.machineNo, memo: 'filters' });
    expect(e1).toMatchObject({
      kind: 'expense',
      amount: 12.5,
      amountCents: 1250,
      occurredOn: '2026-11-03',
      machineNo: m.machineNo,
      venueId: null,
      memo: 'filters',
      reversesId: null,
      reversedById: null,
    });
    expect(e1).not.toHaveProperty('operatorEmail');
    const e2 = await b.entry({ kind: 'referral', amount: 40, occurredOn: '2026-10-15', venueId: v.id });
    const e3 = await b.entry({ kind: 'payroll', amount: 900, occurredOn: '2026-11-28' });
    const list = async (query: Record<string, string>) =>
      okData(await b.api<{ total: number; records: Entry[] }>('GET', '/api/v1/finance/entries', { query })).records.map((e) => e.id);
    expect(await list({})).toEqual([e3.id, e1.id, e2.id]);
    expect(await list({ kind: 'referral' })).toEqual([e2.id]);
    expect(await list({ from: '2026-11-01', to: '2026-11-27' })).toEqual([e1.id]);
    expect(await list({ machineNo: m.machineNo })).toEqual([e1.id]);
    expect(await list({ venueId: v.id })).toEqual([e2.id]);
    expect(await list({ size: '1', page: '2' })).toEqual([e1.id]);
    expect((await b.api('GET', '/api/v1/finance/entries', { query: { machineNo: theirs.machineNo } })).status).toBe(404);

    // another operator cannot read or reverse it; the admin reads it with its operator
    expect((await other.api('GET', `/api/v1/finance/entries/${e1.id}`)).status).toBe(404);
    expect((await other.api('POST', `/api/v1/finance/entries/${e1.id}/reverse`, { json: {} })).status).toBe(404);
    expect(await list({})).toHaveLength(3);
    expect(okData(await b.api<Entry>('GET', `/api/v1/finance/entries/${e1.id}`, { headers: admin })).operatorEmail).toBe(b.op.email);

    // the correction: a reversing entry on the same day; the P&L of that day nets to zero for it
    const before3 = await b.pnl({ from: '2026-11-03', to: '2026-11-03' });
    expect(before3.expensesCents).toBe(1250);
    const rev = okData(await b.api<Entry>('POST', `/api/v1/finance/entries/${e1.id}/reverse`, { json: { memo: 'typo' } }));
    expect(rev).toMatchObject({
      kind: 'expense',
      amountCents: -1250,
      amount: -12.5,
      occurredOn: '2026-11-03',
      machineNo: m.machineNo,
      reversesId: e1.id,
      memo: 'typo',
    });
    expect(okData(await b.api<Entry>('GET', `/api/v1/finance/entries/${e1.id}`)).reversedById).toBe(rev.id);
    expect((await b.api('POST', `/api/v1/finance/entries/${e1.id}/reverse`, { json: {} })).status).toBe(409);
    expect((await b.api('POST', `/api/v1/finance/entries/${rev.id}/reverse`, { json: {} })).status).toBe(400);
    expect((await b.api('POST', `/api/v1/finance/entries/fin_missing/reverse`, { json: {} })).status).toBe(404);
    const after3 = await b.pnl({ from: '2026-11-03', to: '2026-11-03' });
    expect(after3.expensesCents).toBe(0);
    expect(identityBalances(after3.identity)).toBe(true);
    const audit = await t.ctx.database.db.selectFrom('audit_log').select('action').where('resource', '=', `entry:${e1.id}`).orderBy('timestamp').execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['finance.entry', 'finance.entry.reverse']);
  });
});
