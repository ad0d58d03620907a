import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../../testing/harness.ts';
import { expectRefused, okData } from '../../../testing/answers.ts';
import { dfyKit } from '../testing/dfy-test-kit.ts';

type Line = { aisleNo: number; sku: string; quantity: number; retailUsd: number; estUnitCostUsd: number };
type Order = {
  id: string;
  status: string;
  machineNo: string;
  lines: Line[];
  estimatedCostUsd: number;
  actualCostUsd: number | null;
  costIsEstimate: boolean;
  workOrderId: string;
  purchaseOrderId: string | null;
};
type Securities = {
  hasEstimates: boolean;
  profitMtdUsd: number;
  profitActualMtdUsd: number;
  modeCounts: Record<string, number>;
  costLines: { name: string; usd: number; estimate: boolean }[];
};
type Tick = { examined: number; ordered: Order[]; skipped: { machineNo: string; reason: string }[] };

/** Inventory automation over HTTP (spec 3 key rule 6, key rule 4's inventory-off rule, key rule 9). */
describe.each(DIALECTS)('done-for-you inventory automation on %s', (dialect) => {
  const t = suiteServer(dialect);
  const { db, api, person, live, settings } = dfyKit(t);
  const orders = (machineNo?: string) =>
    db()
      .selectFrom('dfy_supplier_orders as o')
      .innerJoin('machines as m', 'm.id', 'o.machine_id')
      .select(['o.id', 'o.status'])
      .$if(machineNo !== undefined, (q) => q.where('m.machine_no', '=', machineNo!))
      .execute();
  const openCaps = async (who: { headers: Record<string, string> }, dealId: string) =>
    okData(await api<{ records: unknown[] }>('GET', '/checkpoints', who, undefined, { dealId, kind: 'inventory_cap', resolved: 'false' })).records.length;

  it('a tick over a seeded fleet orders low aisles under the cap, once; suggestions write nothing', async () => {
    const me = await person();
    await settings(me, { autopilot: true, autoInventory: true, inventoryMonthlyCapUsd: 500 });
    const low = await live(me, { 1: 2, 2: 0, 3: 3 }); // 2 ≤ 2.5, 0 ≤ 2.5; 3 > 2.5
    const full = await live(me);
    const off = await live(me, { 1: 0 });
    okData(await api('PUT', `/mode/machine/${off.machineNo}`, me, { inventory: false }));

    const before = await orders();
    const hint = okData(
      await api<{ lines: Line[]; wouldNeedApproval: boolean; automated: boolean }>('GET', '/inventory/suggestions', me, undefined, {
        machineNo: low.machineNo,
      }),
    );
    expect(hint.lines.map((l) => [l.aisleNo, l.quantity])).toEqual([
      [1, 8],
      [2, 10],
    ]);
    expect(hint).toMatchObject({ wouldNeedApproval: false, automated: true });
    expect(await orders()).toEqual(before);

    const tick = okData(await api<Tick>('POST', '/inventory/tick', me));
    expect(tick.examined).toBe(3);
    expect(tick.ordered).toHaveLength(1);
    const o = tick.ordered[0]!;
    expect(o).toMatchObject({ machineNo: low.machineNo, status: 'queued', costIsEstimate: true, actualCostUsd: null });
    for (const l of o.lines) expect(l.estUnitCostUsd).toBe(Math.round(l.retailUsd * 55) / 100);
    expect(o.estimatedCostUsd).toBe(Math.round(o.lines.reduce((n, l) => n + l.quantity * l.estUnitCostUsd * 100, 0)) / 100);
    const wo = okData(await api<{ type: string; state: string }>('GET', `/install/orders/${o.workOrderId}`, me));
    expect(wo).toMatchObject({ type: 'dfy_refill', state: 'open' });
    expect(tick.skipped).toEqual(
      expect.arrayContaining([
        { machineNo: full.machineNo, reason: expect.stringMatching(/no aisle/) },
        { machineNo: off.machineNo, reason: expect.stringMatching(/off/) },
      ]),
    );
    const again = okData(await api<Tick>('POST', '/inventory/tick', me));
    expect(again.ordered).toEqual([]);
    expect(await orders(low.machineNo)).toHaveLength(1);

    // receive: aisles back to max, the work order completed, the estimate settled into a FIFO purchase order
    const got = okData(
      await api<Order>('POST', `/inventory/orders/${o.id}/receive`, me, { unitCostsUsd: Object.fromEntries(o.lines.map((l) => [l.sku, 0.5])) }),
    );
    expect(got).toMatchObject({ status: 'received', costIsEstimate: false, actualCostUsd: (8 + 10) * 0.5 });
    expect(okData(await api<{ state: string }>('GET', `/install/orders/${o.workOrderId}`, me)).state).toBe('completed');
    const machine = (await db().selectFrom('machines').select('id').where('machine_no', '=', low.machineNo).executeTakeFirstOrThrow()).id;
    const stock = await db()
      .selectFrom('aisles')
      .select(['aisle_no', 'current_stock', 'max_stock'])
      .where('machine_id', '=', machine)
      .where('aisle_no', 'in', [1, 2])
      .execute();
    for (const a of stock) expect(a.current_stock).toBe(a.max_stock);
    const lots = await db().selectFrom('lots').select(['qty_received', 'unit_cost_cents']).where('purchase_order_id', '=', got.purchaseOrderId!).execute();
    expect(lots.map((l) => [Number(l.qty_received), Number(l.unit_cost_cents)])).toEqual([
      [8, 50],
      [10, 50],
    ]);
    expectRefused(await api('POST', `/inventory/orders/${o.id}/receive`, me, {}), 409, /received/);
  });

  it('over the monthly cap an order waits at pending_approval with inventory_cap; a confirmed approval releases it', async () => {
    const me = await person();
    await settings(me, { autopilot: true, autoInventory: true, inventoryMonthlyCapUsd: 1 });
    const m = await live(me, { 4: 0 });
    // the operator's webhooks hear of the checkpoint (the outbox row is written with it)
    const hook = await call(t.url, 'POST', '/api/v1/webhooks', {
      headers: me.headers,
      json: { url: 'http://127.0.0.1:9/hook', eventTypes: ['dfy.checkpoint_raised'] },
    });
    expect(hook.status, hook.text).toBe(200);
    // five ticks at once still place one order (and one checkpoint)
    const ticks = await Promise.all([1, 2, 3, 4, 5].map(async () => okData(await api<Tick>('POST', '/inventory/tick', me))));
    expect(ticks.flatMap((x) => x.ordered)).toHaveLength(1);
    const o = ticks.flatMap((x) => x.ordered)[0]!;
    expect(o.status).toBe('pending_approval');
    expect(await openCaps(me, m.dealId)).toBe(1);
    const raised = await db()
      .selectFrom('webhook_events')
      .select('body')
      .where('operator_id', '=', me.id)
      .where('type', '=', 'dfy.checkpoint_raised')
      .execute();
    expect(raised.map((e) => (JSON.parse(e.body) as { data: { kind: string; dealId: string } }).data)).toContainEqual(
      expect.objectContaining({ kind: 'inventory_cap', dealId: m.dealId }),
    );
    // the securities view counts the order at its estimate, flagged; actual-only profit leaves it out
    const sec = okData(await api<Securities>('GET', '/portfolio/securities', me));
    expect(sec.costLines.find((c) => c.name.startsWith('inventory'))).toMatchObject({ usd: o.estimatedCostUsd, estimate: true });
    expect(sec).toMatchObject({ hasEstimates: true, profitMtdUsd: -o.estimatedCostUsd, profitActualMtdUsd: 0, modeCounts: { auto: 1, hybrid: 0, manual: 0 } });
    expectRefused(await api('POST', `/inventory/orders/${o.id}/receive`, me, {}), 409, /approval/);
    expectRefused(await api('POST', `/inventory/orders/${o.id}/approve`, me, {}), 400, /confirm/);
    expect(okData(await api<Order>('POST', `/inventory/orders/${o.id}/approve`, me, { confirm: true })).status).toBe('queued');
    expect(await openCaps(me, m.dealId)).toBe(0);
    // received without actual costs: the estimate stays flagged
    expect(okData(await api<Order>('POST', `/inventory/orders/${o.id}/receive`, me, {}))).toMatchObject({ status: 'received', costIsEstimate: true });
  });

  it('automation stays off without autoInventory, and switching inventory off cancels queued orders and their checkpoints', async () => {
    const me = await person();
    await settings(me, { autopilot: true, autoInventory: false, inventoryMonthlyCapUsd: 1 });
    const m = await live(me, { 2: 0 });
    expect(okData(await api<Tick>('POST', '/inventory/tick', me)).ordered).toEqual([]);
    await settings(me, { autopilot: true, autoInventory: true, inventoryMonthlyCapUsd: 1 });
    const o = okData(await api<Tick>('POST', '/inventory/tick', me)).ordered[0]!;
    expect(await openCaps(me, m.dealId)).toBe(1);
    okData(await api('PUT', `/mode/deal/${m.dealId}`, me, { inventory: false }));
    expect(await orders(m.machineNo)).toEqual([{ id: o.id, status: 'cancelled' }]);
    expect(await openCaps(me, m.dealId)).toBe(0);
  });

  it("another operator's machine and orders are 404 and their tick touches nothing of ours", async () => {
    const owner = await person();
    const other = await person();
    await settings(owner, { autopilot: true, autoInventory: true, inventoryMonthlyCapUsd: 1 });
    await settings(other, { autopilot: true, autoInventory: true });
    const m = await live(owner, { 5: 0 });
    const o = okData(await api<Tick>('POST', '/inventory/tick', owner)).ordered[0]!;
    const before = await orders(m.machineNo);
    expect(okData(await api<Tick>('POST', '/inventory/tick', other)).examined).toBe(0);
    expectRefused(await api('GET', '/inventory/suggestions', other, undefined, { machineNo: m.machineNo }), 404, /not found/);
    expectRefused(await api('POST', `/inventory/orders/${o.id}/approve`, other, { confirm: true }), 404, /not found/);
    expectRefused(await api('POST', `/inventory/orders/${o.id}/receive`, other, {}), 404, /not found/);
    expect(await orders(m.machineNo)).toEqual(before);
  });
});
