import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectRefused, okData, type Body } from '../../testing/answers.ts';
import { freshSerial, mintKey, newOperator } from '../machines/machines.factories.ts';
import type { FleetPickList } from './restock.schemas.ts';

type H = Record<string, string>;
type Person = { id: string; email: string; headers: H };
type AisleSet = { stock: number; max: number; faulted?: boolean; sku?: string | null; product?: string | null };

// GET /api/v1/restock/pick-list: what to load on the truck across the caller's machines (docs/decisions/restock.md).
describe.each(DIALECTS)('the fleet pick list on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;
  const req = <T = unknown>(path: string, headers: H, query?: Record<string, string>) =>
    call<Body<T>>(t.url, 'GET', `/api/v1${path}`, { headers, ...(query ? { query } : {}) });
  const person = (): Promise<Person> => newOperator(db(), t.clock.now());

  /** A machine registered by `owner`, its aisles set as given (the rest: empty of max 10, no SKU). */
  const machineOf = async (owner: Person, name: string, aisles: Record<number, AisleSet>): Promise<string> => {
    const machineNo = freshSerial('PCK');
    okData(await call(t.url, 'POST', '/api/v1/machines/register', { headers: owner.headers, json: { machineNo, name } }));
    const m = await db().selectFrom('machines').select('id').where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
    await db()
      .updateTable('aisles')
      .set({ current_stock: 0, max_stock: 10, faulted: 0, sku: null, product_name: null })
      .where('machine_id', '=', m.id)
      .execute();
    for (const [no, a] of Object.entries(aisles))
      await db()
        .updateTable('aisles')
        .set({ current_stock: a.stock, max_stock: a.max, faulted: a.faulted ? 1 : 0, sku: a.sku ?? null, product_name: a.product ?? null })
        .where('machine_id', '=', m.id)
        .where('aisle_no', '=', Number(no))
        .execute();
    return machineNo;
  };

  it('sums the par-level picks per product across the machines, each machine and aisle listed; faulted aisles apart; machineNo narrows', async () => {
    const owner = await person();
    const a = await machineOf(owner, 'Hall', {
      1: { stock: 2, max: 10, sku: 'COLA', product: 'Cola' },
      2: { stock: 10, max: 10, sku: 'COLA', product: 'Cola' },
      3: { stock: 0, max: 8, sku: 'CHIPS', product: 'Chips', faulted: true },
      4: { stock: 5, max: 6, sku: 'CHIPS', product: 'Chips' },
    });
    const b = await machineOf(owner, 'Gym', {
      1: { stock: 0, max: 4, sku: 'COLA', product: 'Cola' },
      7: { stock: 9, max: 12, sku: 'WATER', product: 'Water' },
    });
    const [first, second] = [a, b].sort();
    const list = okData(await req<FleetPickList>('/restock/pick-list', owner.headers));
    expect(list.machines).toBe(2);
    expect(list.units).toBe(8 + 4 + 1 + 3);
    expect(list.products.map((p) => [p.productName, p.units])).toEqual([
      ['Cola', 12],
      ['Water', 3],
      ['Chips', 1],
    ]);
    const cola = list.products[0]!;
    expect(cola.machines.map((m) => m.machineNo)).toEqual([first, second]);
    expect(cola.machines.find((m) => m.machineNo === a)).toEqual({ machineNo: a, name: 'Hall', units: 8, aisles: [{ aisleNo: 1, units: 8 }] });
    expect(cola.machines.find((m) => m.machineNo === b)).toEqual({ machineNo: b, name: 'Gym', units: 4, aisles: [{ aisleNo: 1, units: 4 }] });
    expect(list.faulted).toEqual([{ machineNo: a, aisleNo: 3, sku: 'CHIPS', productName: 'Chips' }]);

    const one = okData(await req<FleetPickList>('/restock/pick-list', owner.headers, { machineNo: b }));
    expect(one.machines).toBe(1);
    expect(one.products.map((p) => [p.sku, p.units])).toEqual([
      ['COLA', 4],
      ['WATER', 3],
    ]);
  });

  it("another operator's machines are never in the list; naming one is 404 as a missing machine; reads need inventory:read", async () => {
    const owner = await person();
    const other = await person();
    const mine = await machineOf(owner, 'Mine', { 1: { stock: 0, max: 5, sku: 'GUM', product: 'Gum' } });
    const theirs = okData(await req<FleetPickList>('/restock/pick-list', other.headers));
    expect(theirs).toEqual({ machines: 0, units: 0, products: [], faulted: [] });
    expectRefused(await req('/restock/pick-list', other.headers, { machineNo: mine }), 404, 'Machine not found');
    expectRefused(await req('/restock/pick-list', owner.headers, { machineNo: 'NO-SUCH-0001' }), 404, 'Machine not found');
    expect((await req('/restock/pick-list', owner.headers, { machineNo: '' })).status).toBe(400);
    const writeOnly = { 'x-api-key': await mintKey(db(), owner.id, 'inventory:write', t.clock.now()) };
    expect((await req('/restock/pick-list', writeOnly)).status).toBe(403);
    expect((await req('/restock/pick-list', {})).status).toBe(401);
  });
});
