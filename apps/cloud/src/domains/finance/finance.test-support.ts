import { randomBytes } from 'node:crypto';
import { call, type TestServer } from '../../testing/harness.ts';
import { okData, type Body } from '../../testing/answers.ts';
import { freshSerial, newOperator } from '../machines/machines.factories.ts';
import type { BalanceSheet, Entry, Pnl, StatementView } from './finance.schemas.ts';

type H = Record<string, string>;

/**
 * A fresh operator's books on a running test server: its machines, venues, purchase orders, sales
 * (through `SalesService`, the one way a sale is recorded) and the finance reads. Each call to
 * `financeBooks` is a new operator, so tests sharing a server stay apart.
 */
export async function financeBooks(t: TestServer) {
  const db = t.ctx.database.db;
  const op = await newOperator(db, t.clock.now());
  const h = op.headers;
  const api = <T>(method: string, path: string, opts: { json?: unknown; query?: H; headers?: H } = {}) =>
    call<Body<T>>(t.url, method, path, {
      headers: opts.headers ?? h,
      ...(opts.json !== undefined ? { json: opts.json } : {}),
      ...(opts.query ? { query: opts.query } : {}),
    });

  /** A machine of this operator; aisle n sells `aisles[n-1]` (price in cents, SKU or none), 999 in stock. */
  async function machine(aisles: { priceCents: number; sku: string | null }[]): Promise<{ id: string; machineNo: string }> {
    const machineNo = freshSerial('FIN');
    okData(await api('POST', '/api/v1/machines/register', { json: { machineNo } }));
    const { id } = await db.selectFrom('machines').select('id').where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
    for (const [i, a] of aisles.entries())
      await db
        .updateTable('aisles')
        .set({ sku: a.sku, price_cents: a.priceCents, current_stock: 999, max_stock: 999 })
        .where('machine_id', '=', id)
        .where('aisle_no', '=', i + 1)
        .execute();
    return { id, machineNo };
  }

  const sales = t.services.sales;
  const m = (x: { id: string; machineNo: string }) => ({ machineId: x.id, machineNo: x.machineNo });
  /** A vended sale now (shipped, FIFO drawn). */
  const sell = async (x: { id: string; machineNo: string }, aisleNo: number, quantity = 1) =>
    (await sales.openWalkup(m(x), { aisleNo, quantity, payMethod: 'cash' }, { vended: true })).orderNumber;
  /** A paid walk-up order still awaiting its vend. */
  const openOrder = async (x: { id: string; machineNo: string }, aisleNo: number, quantity = 1) =>
    (await sales.openWalkup(m(x), { aisleNo, quantity, payMethod: 'cash' })).orderNumber;
  /** A walk-up vend that failed: the order is refunded, nothing is sold. */
  const failVend = async (x: { id: string; machineNo: string }, aisleNo: number, quantity = 1) => {
    const orderNumber = await openOrder(x, aisleNo, quantity);
    await t.services.store.transaction((tx) =>
      sales.settleWalkup(tx, m(x), { orderNumber, aisleNo, success: false, dispenseId: `d-${randomBytes(4).toString('hex')}` }, t.clock.now()),
    );
    return orderNumber;
  };
  /** A refund after the vend (the customer got the money back; the goods are gone). */
  const refund = (orderNumber: string) => t.services.store.transaction((tx) => tx.orders.setPayStatus(orderNumber, 'refunded', t.clock.now()));

  return {
    op,
    h,
    api,
    machine,
    sell,
    openOrder,
    failVend,
    refund,
    receive: async (poRef: string, lines: { sku: string; qty: number; unitCostUsd: number }[]) =>
      okData(await api('POST', '/api/v1/purchases', { json: { vendor: 'Acme', poRef, orderedOn: '2026-11-01', lines } })),
    venue: async (body: Record<string, unknown>) =>
      okData(await api<{ id: string }>('POST', '/api/v1/crm/venues', { json: { name: 'Host', revShareBps: 1500, ...body } })),
    patchMachine: async (machineNo: string, json: unknown) => okData(await api('PATCH', `/api/v1/machines/${machineNo}`, { json })),
    entry: async (json: Record<string, unknown>) => okData(await api<Entry>('POST', '/api/v1/finance/entries', { json })),
    pnl: async (query: H, headers?: H) => okData(await api<Pnl>('GET', '/api/v1/pnl', { query, ...(headers ? { headers } : {}) })),
    payouts: async (query: H) => okData(await api<{ period: string; statements: StatementView[] }>('GET', '/api/v1/payouts', { query })),
    balance: async (query: H = {}) => okData(await api<BalanceSheet>('GET', '/api/v1/balance-sheet', { query })),
  };
}
