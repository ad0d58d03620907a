import { describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { alice, bob, machinesApi } from '../machines/machines.test-support.ts';
import type { Venue } from '../venues/venues.schemas.ts';
import type { Pnl } from './finance.schemas.ts';

type VenuePage = { total: number; records: Venue[] };
type LotPage = { total: number; records: { sku: string; qtyReceived: number; qtyRemaining: number; unitCostCents: number; purchaseOrderRef: string | null }[] };

/** The finance part of the sandbox data set: what an operator sees on first start. */
describe.each(DIALECTS)('the sandbox finance data set on %s', (dialect) => {
  const t = suiteServer(dialect);
  const { db, api } = machinesApi(() => t);

  it('gives alice three host venues, one for each commission rule', async () => {
    const r = await api<VenuePage>('GET', '/api/v1/crm/venues', alice);
    expect(r.status, r.text).toBe(200);
    const byName = new Map(r.body.data.records.map((v) => [v.name, v]));
    expect([...byName.keys()].sort()).toEqual(['Central Library', 'Harbor Fitness', 'Union Station Concessions']);
    const rule = (name: string) => byName.get(name)!.machines.map((m) => [m.machineNo, m.commissionRule]);
    expect(rule('Union Station Concessions')).toEqual([['SBX-ALICE-0001', 'deploymentDate']]);
    expect(rule('Harbor Fitness')).toEqual([['SBX-ALICE-0002', 'firstSale']]);
    expect(rule('Central Library')).toEqual([['SBX-ALICE-0003', 'move']]);
    // the station accrues from its deployment date, at midnight in New York (the machine's zone)
    const union = byName.get('Union Station Concessions')!;
    expect(union.machines[0]!.commissionFrom).toMatch(new RegExp(`^${union.deploymentDate}T0[45]:00:00\\.000\\+0000$`));
    // the library accrues from the move, not from the machine's earlier sales
    const library = byName.get('Central Library')!.machines[0]!;
    expect(library.commissionFrom).toBe(library.attachedAt);
    const firstSale = await db()
      .selectFrom('orders')
      .innerJoin('machines', 'machines.id', 'orders.machine_id')
      .select((eb) => eb.fn.min<number>('orders.created_at').as('at'))
      .where('machines.machine_no', '=', 'SBX-ALICE-0003')
      .executeTakeFirstOrThrow();
    expect(Date.parse(library.commissionFrom.replace('+0000', 'Z'))).toBeGreaterThan(Number(firstSale.at));
    expect((await api<VenuePage>('GET', '/api/v1/crm/venues', bob)).body.data.total).toBe(0);
  });

  it('receives two purchase orders whose layers the seeded sales drew oldest first', async () => {
    const r = await api<LotPage>('GET', '/api/v1/inventory/lots', alice, undefined, { size: '100' });
    expect(r.status, r.text).toBe(200);
    const lots = r.body.data.records;
    expect(lots).toHaveLength(20);
    expect(new Set(lots.map((l) => l.purchaseOrderRef))).toEqual(new Set(['PO-SBX-0001', 'PO-SBX-0002']));
    for (const sku of new Set(lots.map((l) => l.sku))) {
      const [older, newer] = ['PO-SBX-0001', 'PO-SBX-0002'].map((ref) => lots.find((l) => l.sku === sku && l.purchaseOrderRef === ref)!);
      // FIFO: the newer layer is touched only once the older one is empty
      if (newer!.qtyRemaining < newer!.qtyReceived) expect(older!.qtyRemaining).toBe(0);
    }
    // every unit that left a layer is a recorded draw of a vended sale, at the layer's cost
    const drawn = lots.reduce((sum, l) => sum + (l.qtyReceived - l.qtyRemaining) * l.unitCostCents, 0);
    const consumed = await db()
      .selectFrom('lot_consumptions')
      .select((eb) => [eb.fn.sum<number>('cost_cents').as('cost'), eb.fn.sum<number>('qty').as('qty')])
      .where('operator_id', '=', OPERATOR_IDS.alice)
      .executeTakeFirstOrThrow();
    expect(drawn).toBeGreaterThan(0);
    expect(Number(consumed.cost)).toBe(drawn);
    const vended = await db()
      .selectFrom('orders')
      .select((eb) => eb.fn.sum<number>('quantity').as('qty'))
      .where('operator_id', '=', OPERATOR_IDS.alice)
      .where('vended', '=', 1)
      .executeTakeFirstOrThrow();
    expect(Number(consumed.qty)).toBe(Number(vended.qty));
  });

  it('tells a P&L story: stamped tax, FIFO cost, host shares, payroll, referrals, expenses, balancing to the cent', async () => {
    const r = await api<Pnl>('GET', '/api/v1/pnl', alice, undefined, { from: '2026-08-22', to: '2026-11-20' });
    expect(r.status, r.text).toBe(200);
    const p = r.body.data;
    for (const k of ['grossCents', 'taxCents', 'fifoCogsCents', 'hostShareCents', 'referralsCents', 'payrollCents', 'feeCents', 'expensesCents'] as const)
      expect(p[k], k).toBeGreaterThan(0);
    // every seeded sale was stamped by the 8.88% schedule
    expect(p.taxCents).toBeGreaterThan(Math.floor(p.grossCents * 0.08));
    expect(p.grossCents - p.taxCents).toBe(p.netCents);
    expect(p.netCents - p.fifoCogsCents - p.hostShareCents - p.referralsCents - p.payrollCents - p.feeCents - p.expensesCents).toBe(p.operatorNetCents);
    expect(new Set(p.hostLines.map((l) => l.venueName))).toEqual(new Set(['Union Station Concessions', 'Harbor Fitness', 'Central Library']));
    // the month before last: its station statement was paid (frozen), the others are not
    const paid = p.hostLines.filter((l) => l.paid);
    expect(paid.map((l) => [l.venueName, l.period])).toEqual([['Union Station Concessions', '2026-09']]);
  });

  it('closes the month before last: tax remitted, the station paid out, a restatement there refused', async () => {
    const remitted = await api<{ records: { period: string; taxCents: number }[] }>('GET', '/api/v1/tax/remittances', alice);
    expect(remitted.body.data.records.map((x) => x.period)).toEqual(['2026-09']);
    expect(remitted.body.data.records[0]!.taxCents).toBeGreaterThan(0);
    const statements = await api<{ statements: { venueName: string; status: string }[] }>('GET', '/api/v1/payouts', alice, undefined, { period: '2026-09' });
    expect(statements.body.data.statements.map((x) => [x.venueName, x.status]).sort()).toEqual([
      ['Central Library', 'unpaid'],
      ['Harbor Fitness', 'unpaid'],
      ['Union Station Concessions', 'paid'],
    ]);
    const sheet = await api<{ balanced: boolean; cash: { taxRemittedCents: number; payoutsCents: number } }>('GET', '/api/v1/balance-sheet', alice);
    expect(sheet.body.data).toMatchObject({ balanced: true });
    expect(sheet.body.data.cash.taxRemittedCents).toBe(remitted.body.data.records[0]!.taxCents);
    expect(sheet.body.data.cash.payoutsCents).toBeGreaterThan(0);
    const changed = await api<{ taxRestatement: { blockedPeriods: { period: string; reason: string }[] } }>('PATCH', '/api/v1/machines/SBX-ALICE-0002', alice, {
      salesTaxRate: 8.875,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.taxRestatement.blockedPeriods).toEqual([{ period: '2026-09', reason: 'remitted', orders: expect.any(Number) }]);
  });
});
