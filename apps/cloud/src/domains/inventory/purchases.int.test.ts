import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import { ALICE, BOB, FLEET, newSerial } from '../gateway/gateway.test-support.ts';
import { narrowKey, sendWebhook, terminalOf } from '../payments/operator-core.test-support.ts';
import { fifoDocSteps } from './fifo-doc.test-support.ts';
import type { Lot, PurchaseOrder } from './inventory.schemas.ts';

let skuCounter = 0;
/** A SKU no other test uses: layers are per operator and SKU, so tests sharing a database stay apart. */
const freshSku = (name: string) => `T${++skuCounter}-${name}`;

describe.each(DIALECTS)('purchase orders and FIFO cost on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;

  const operatorId = async (email: string) => (await db().selectFrom('operators').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

  /** A family-A cabinet owned by Alice, aisle n selling skus[n-1] (null: no SKU), 50 units in each. */
  async function aliceCabinet(skus: (string | null)[]): Promise<string> {
    const serial = newSerial('FIFO');
    await expectStatus(call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { machineNo: serial } }), 200);
    const alice = await operatorId('alice@sandbox.vend.test');
    const m = await db().updateTable('machines').set({ operator_id: alice }).where('machine_no', '=', serial).returning('id').executeTakeFirstOrThrow();
    for (const [i, sku] of skus.entries())
      await db()
        .updateTable('aisles')
        .set({ sku, current_stock: 50, max_stock: 50 })
        .where('machine_id', '=', m.id)
        .where('aisle_no', '=', i + 1)
        .execute();
    return serial;
  }

  const sell = (serial: string, aisleNo: number, quantity: number) =>
    call<Body<{ orderNumber: string; payStatus: string }>>(t.url, 'POST', '/apk/createOrder', {
      headers: FLEET,
      json: { machineNo: serial, aisleNo, quantity, payMethod: 'cash' },
    });

  const receive = (headers: Record<string, string>, body: unknown) => call<Body<PurchaseOrder>>(t.url, 'POST', '/api/v1/purchases', { headers, json: body });

  const lotsOf = async (headers: Record<string, string>, sku: string) =>
    (await expectStatus<{ records: Lot[] }>(call(t.url, 'GET', '/api/v1/inventory/lots', { headers, query: { sku, size: '100' } }), 200)).body.data.records;

  const costOf = async (orderNumber: string) => {
    const rows = await db().selectFrom('lot_consumptions').select(['qty', 'cost_cents', 'lot_id']).where('order_number', '=', orderNumber).execute();
    return { qty: rows.reduce((n, r) => n + r.qty, 0), cents: rows.reduce((n, r) => n + Number(r.cost_cents), 0), lots: rows.map((r) => r.lot_id) };
  };

  const count = async (table: 'purchase_orders' | 'lots' | 'lot_consumptions') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const po = (poRef: string, lines: unknown) => ({ vendor: 'Acme Wholesale', poRef, orderedOn: '2026-11-02', lines });

  it('refuses a bad purchase order with 400 (a broken rule) or 422 (a wrong type), writing nothing', async () => {
    const before = [await count('purchase_orders'), await count('lots')];
    const sku = freshSku('X');
    const bad400: unknown[] = [
      po('PO-V1', []),
      po('PO-V2', [{ sku, qty: 0, unitCostUsd: 1 }]),
      po('PO-V3', [{ sku, qty: 1, unitCostUsd: 0.001 }]),
      po('PO-V4', [{ sku, qty: 1, unitCostUsd: -1 }]),
      po('', [{ sku, qty: 1, unitCostUsd: 1 }]),
      { ...po('PO-V5', [{ sku, qty: 1, unitCostUsd: 1 }]), orderedOn: '2026-02-30' },
      { ...po('PO-V6', [{ sku, qty: 1, unitCostUsd: 1 }]), orderedOn: '11/02/2026' },
      po('PO-V7', [{ sku: 'a\u0001b', qty: 1, unitCostUsd: 1 }]),
      { vendor: 'Acme', lines: [{ sku, qty: 1, unitCostUsd: 1 }] },
    ];
    for (const body of bad400) await expectStatus(receive(ALICE, body), 400);
    const bad422: unknown[] = [
      po('PO-V8', [{ sku, qty: '1', unitCostUsd: 1 }]),
      po('PO-V9', [{ sku, qty: 1.5, unitCostUsd: 1 }]),
      po('PO-V10', [{ sku, qty: 1, unitCostUsd: '1.00' }]),
      po('PO-V11', 'lines'),
    ];
    for (const body of bad422) await expectStatus(receive(ALICE, body), 422);
    expect(await receive({}, po('PO-V12', [{ sku, qty: 1, unitCostUsd: 1 }]))).toMatchObject({ status: 401 });
    expect([await count('purchase_orders'), await count('lots')]).toEqual(before);
  });

  it('receiving needs inventory:write; reading purchase orders needs inventory:read', async () => {
    const alice = await operatorId('alice@sandbox.vend.test');
    const readOnly = await narrowKey(t, alice, 'inventory:read');
    const writeOnly = await narrowKey(t, alice, 'inventory:write');
    const before = await count('purchase_orders');
    await expectStatus(receive(readOnly, po(`PO-SCOPE-${dialect}`, [{ sku: freshSku('S'), qty: 1, unitCostUsd: 1 }])), 403);
    expect(await count('purchase_orders')).toBe(before);
    await expectStatus(call(t.url, 'GET', '/api/v1/purchases', { headers: writeOnly }), 403);
    await expectStatus(call(t.url, 'GET', '/api/v1/purchases', { headers: readOnly }), 200);
  });

  it("receiving creates one layer per line for the caller's operator; others see none of it; a repeated poRef is 409", async () => {
    const cola = freshSku('COLA');
    const chips = freshSku('CHIPS');
    const r = await expectStatus<PurchaseOrder>(
      receive(
        ALICE,
        po('PO-OWN-1', [
          { sku: cola, qty: 12, unitCostUsd: 0.42 },
          { sku: chips, qty: 5, unitCostUsd: 0.9 },
        ]),
      ),
      200,
    );
    expect(r.body.data).toMatchObject({ poRef: 'PO-OWN-1', vendor: 'Acme Wholesale', orderedOn: '2026-11-02', totalCents: 12 * 42 + 5 * 90, total: 9.54 });
    expect(r.body.data.lots.map((l) => [l.sku, l.qtyReceived, l.qtyRemaining, l.unitCostCents])).toEqual([
      [cola, 12, 12, 42],
      [chips, 5, 5, 90],
    ]);
    expect((await lotsOf(ALICE, cola)).map((l) => [l.qtyRemaining, l.unitCost, l.purchaseOrderRef])).toEqual([[12, 0.42, 'PO-OWN-1']]);
    expect(await lotsOf(BOB, cola)).toEqual([]);
    const listed = await expectStatus<{ records: PurchaseOrder[] }>(call(t.url, 'GET', '/api/v1/purchases', { headers: ALICE }), 200);
    expect(listed.body.data.records.map((p) => p.poRef)).toContain('PO-OWN-1');
    const bobs = await expectStatus<{ records: PurchaseOrder[] }>(call(t.url, 'GET', '/api/v1/purchases', { headers: BOB }), 200);
    expect(bobs.body.data.records.map((p) => p.poRef)).not.toContain('PO-OWN-1');

    const before = [await count('purchase_orders'), await count('lots')];
    await expectStatus(receive(ALICE, po('PO-OWN-1', [{ sku: cola, qty: 1, unitCostUsd: 9 }])), 409);
    expect([await count('purchase_orders'), await count('lots')]).toEqual(before);
    // the ref is unique per operator: Bob's own PO-OWN-1 is his
    await expectStatus(receive(BOB, po('PO-OWN-1', [{ sku: cola, qty: 1, unitCostUsd: 9 }])), 200);
    expect((await lotsOf(ALICE, cola)).map((l) => l.qtyRemaining)).toEqual([12]);
  });

  it('reproduces the hand-worked example of docs/fifo.md through the API: every sale cost and every layer table', async () => {
    const steps = fifoDocSteps();
    const skuOf = new Map<string, string>();
    const mapped = (docSku: string) => {
      if (!skuOf.has(docSku)) skuOf.set(docSku, freshSku(docSku));
      return skuOf.get(docSku)!;
    };
    for (const s of steps) for (const name of s.kind === 'receive' ? s.lines.map((l) => l.sku) : [s.sku]) mapped(name);
    const docSkus = [...skuOf.keys()];
    const serial = await aliceCabinet(docSkus.map(mapped));
    const tag = `${dialect}-${skuCounter}`;
    for (const step of steps) {
      t.clock.advance(60_000);
      if (step.kind === 'receive')
        await expectStatus(
          receive(
            ALICE,
            po(
              `${step.po}-${tag}`,
              step.lines.map((l) => ({ ...l, sku: mapped(l.sku) })),
            ),
          ),
          200,
        );
      else {
        const o = await expectStatus(sell(serial, docSkus.indexOf(step.sku) + 1, step.qty), 200);
        expect((await costOf(o.body.data.orderNumber)).cents).toBe(step.costCents);
      }
      const layers: unknown[] = [];
      for (const docSku of docSkus)
        for (const l of await lotsOf(ALICE, mapped(docSku)))
          layers.push({
            po: l.purchaseOrderRef?.replace(`-${tag}`, ''),
            sku: docSku,
            unitCostCents: l.unitCostCents,
            received: l.qtyReceived,
            remaining: l.qtyRemaining,
          });
      const key = (x: unknown) => JSON.stringify(x);
      expect(layers.map(key).sort()).toEqual(step.layers.map(key).sort());
    }
  });

  it('a sale before any purchase order costs zero and is never back-filled; an aisle without a SKU costs zero', async () => {
    const water = freshSku('WATER');
    const serial = await aliceCabinet([water, null]);
    const early = await expectStatus(sell(serial, 1, 2), 200);
    expect(await costOf(early.body.data.orderNumber)).toEqual({ qty: 0, cents: 0, lots: [] });
    await expectStatus(receive(ALICE, po(`PO-ZERO-${dialect}`, [{ sku: water, qty: 5, unitCostUsd: 0.3 }])), 200);
    expect(await costOf(early.body.data.orderNumber)).toEqual({ qty: 0, cents: 0, lots: [] });
    expect((await lotsOf(ALICE, water)).map((l) => l.qtyRemaining)).toEqual([5]);
    const later = await expectStatus(sell(serial, 1, 1), 200);
    expect((await costOf(later.body.data.orderNumber)).cents).toBe(30);
    const noSku = await expectStatus(sell(serial, 2, 1), 200);
    expect(await costOf(noSku.body.data.orderNumber)).toEqual({ qty: 0, cents: 0, lots: [] });
  });

  it("an operator's layers cost only that operator's sales: an unclaimed cabinet's sale of the same SKU draws nothing", async () => {
    const tea = freshSku('TEA');
    await expectStatus(receive(ALICE, po(`PO-POOL-${dialect}`, [{ sku: tea, qty: 4, unitCostUsd: 0.5 }])), 200);
    const serial = newSerial('FIFO');
    await expectStatus(call(t.url, 'POST', '/apk/getEquipment', { headers: FLEET, json: { machineNo: serial } }), 200);
    const m = await db().selectFrom('machines').select('id').where('machine_no', '=', serial).executeTakeFirstOrThrow();
    await db().updateTable('aisles').set({ sku: tea }).where('machine_id', '=', m.id).where('aisle_no', '=', 1).execute();
    const o = await expectStatus(sell(serial, 1, 2), 200);
    expect((await costOf(o.body.data.orderNumber)).qty).toBe(0);
    expect((await lotsOf(ALICE, tea)).map((l) => l.qtyRemaining)).toEqual([4]);
  });

  it('concurrent sales never take a unit twice: layers never go negative and exactly the units held are consumed', async () => {
    const gum = freshSku('GUM');
    // nine aisles selling the same SKU: the sales do not queue on one aisle's lock, only on the layers
    const serial = await aliceCabinet(Array<string>(9).fill(gum));
    await expectStatus(receive(ALICE, po(`PO-RACE-A-${dialect}`, [{ sku: gum, qty: 3, unitCostUsd: 0.1 }])), 200);
    t.clock.advance(1000);
    await expectStatus(receive(ALICE, po(`PO-RACE-B-${dialect}`, [{ sku: gum, qty: 2, unitCostUsd: 0.25 }])), 200);
    const results = await Promise.all(Array.from({ length: 9 }, (_, i) => sell(serial, i + 1, 1)));
    expect(results.map((r) => r.status)).toEqual(Array(9).fill(200));
    const lots = await lotsOf(ALICE, gum);
    expect(lots.map((l) => l.qtyRemaining)).toEqual([0, 0]);
    const costs = await Promise.all(results.map((r) => costOf(r.body.data.orderNumber)));
    expect(costs.reduce((n, c) => n + c.qty, 0)).toBe(5);
    expect(costs.reduce((n, c) => n + c.cents, 0)).toBe(3 * 10 + 2 * 25);
    expect(costs.filter((c) => c.qty === 1)).toHaveLength(5);
    const perLot = await db().selectFrom('lot_consumptions').select(['lot_id', 'qty']).where('sku', '=', gum).execute();
    const byLot = new Map<string, number>();
    for (const r of perLot) byLot.set(r.lot_id, (byLot.get(r.lot_id) ?? 0) + r.qty);
    expect([...byLot.values()].sort()).toEqual([2, 3]);
  });

  it('a cashless capture (the payment webhook, another sale path) draws FIFO cost; its refund returns nothing to the layers', async () => {
    const bar = freshSku('BAR');
    const m = await db().selectFrom('machines').select('id').where('machine_no', '=', 'SBX-ALICE-0001').executeTakeFirstOrThrow();
    await db().updateTable('aisles').set({ sku: bar }).where('machine_id', '=', m.id).where('aisle_no', '=', 3).execute();
    await expectStatus(receive(ALICE, po(`PO-REFUND-${dialect}`, [{ sku: bar, qty: 5, unitCostUsd: 0.6 }])), 200);
    const paymentId = `pay_fifo_${dialect}_${skuCounter}`;
    const terminalId = await terminalOf(t, 'SBX-ALICE-0001');
    const cap = await sendWebhook(t, {
      id: `evt_cap_${paymentId}`,
      type: 'payment.captured',
      data: { paymentId, terminalId, amountCents: 300, cardBrand: 'visa', last4: '4242', aisleNo: 3, quantity: 2 },
    });
    expect(cap.status).toBe(200);
    const orderNumber = (cap.body.data as { orderNumber: string }).orderNumber;
    expect(await costOf(orderNumber)).toMatchObject({ qty: 2, cents: 120 });
    const refund = await sendWebhook(t, { id: `evt_ref_${paymentId}`, type: 'payment.refunded', data: { paymentId } });
    expect(refund.status).toBe(200);
    expect((await db().selectFrom('orders').select('pay_status').where('order_number', '=', orderNumber).executeTakeFirstOrThrow()).pay_status).toBe(
      'refunded',
    );
    // the goods left the cabinet: the cost stays recorded and the layer stays drawn
    expect(await costOf(orderNumber)).toMatchObject({ qty: 2, cents: 120 });
    expect((await lotsOf(ALICE, bar)).map((l) => l.qtyRemaining)).toEqual([3]);
  });
});
