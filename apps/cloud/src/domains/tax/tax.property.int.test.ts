import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { periodBounds, periodOf } from '../calendar/period.ts';
import { newOperator } from '../machines/machines.factories.ts';
import { machinesApi } from '../machines/machines.test-support.ts';
import type { Order } from '../orders/orders.schemas.ts';
import { splitTax } from './tax-split.ts';
import type { Remittance } from './tax.schemas.ts';

type H = Record<string, string>;
type PageOf<T> = { page: number; size: number; total: number; records: T[] };

const MONTHS = ['2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10'];
const rate = fc.oneof(
  fc.constant(null),
  fc.constantFrom(0, 4, 6.35, 8.875, 10),
  fc.integer({ min: 0, max: 2000 }).map((n) => n / 100),
);
const history = fc.array(
  fc.record({
    month: fc.constantFrom(...MONTHS),
    offsetMs: fc.integer({ min: 0, max: 27 * 86_400_000 }),
    cents: fc.integer({ min: 0, max: 50_000 }),
    stamped: rate,
    refunded: fc.boolean(),
  }),
  { minLength: 1, maxLength: 14 },
);
const scenario = fc.record({
  legacyRate: rate,
  history,
  remitted: fc.subarray(MONTHS),
  schedule: fc.uniqueArray(fc.record({ month: fc.constantFrom(...MONTHS), bps: fc.integer({ min: 0, max: 3000 }) }), {
    selector: (s) => s.month,
    maxLength: 3,
  }),
  changes: fc.array(rate, { minLength: 1, maxLength: 3 }),
});

describe.each(DIALECTS)('tax restatement properties on %s', (dialect) => {
  const t = suiteServer(dialect);
  const { db, api } = machinesApi(() => t);

  it('a remitted period never moves; every open order is restated to the sale-time rule under the new rate; charged never changes', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const op = await newOperator(db(), t.clock.now());
        const reg = await api<{ machineNo: string }>('POST', '/api/v1/machines/register', op.headers, {
          machineNo: `TX-${randomBytes(5).toString('hex').toUpperCase()}`,
        });
        expect(reg.status, reg.text).toBe(200);
        const machineNo = reg.body.data.machineNo;
        const m = await db().selectFrom('machines').select('id').where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
        await db().updateTable('machines').set({ sales_tax_rate: s.legacyRate }).where('id', '=', m.id).execute();
        const orders: { orderNumber: string; at: number }[] = [];
        for (const h of s.history) {
          const at = periodBounds(h.month).start + h.offsetMs;
          const orderNumber = `TXP${randomBytes(6).toString('hex')}`;
          await db()
            .insertInto('orders')
            .values({
              order_number: orderNumber,
              machine_id: m.id,
              operator_id: op.id,
              aisle_no: 1,
              quantity: 1,
              pay_status: h.refunded ? 'refunded' : 'shipped',
              paid_cents: h.cents,
              charged_cents: h.cents,
              tax_rate: h.stamped,
              channel: 'walkup',
              pay_method: 'cash',
              vended: 1,
              created_at: at,
              updated_at: at,
            })
            .execute();
          orders.push({ orderNumber, at });
        }
        for (const row of s.schedule)
          expect((await api('POST', '/api/v1/tax/schedules', op.headers, { bps: row.bps, effectiveAt: `${row.month}-01` })).status).toBe(200);
        const remittances = new Map<string, Remittance>();
        for (const period of s.remitted) {
          const r = await api<Remittance>('POST', '/api/v1/tax/remittances', op.headers, { period });
          expect(r.status, r.text).toBe(200);
          remittances.set(period, r.body.data);
        }
        const view = async (n: string, headers: H) => (await api<Order>('GET', `/api/v1/orders/${n}`, headers)).body.data;
        const before = new Map<string, Order>();
        for (const o of orders) before.set(o.orderNumber, await view(o.orderNumber, op.headers));
        const closed = new Set(s.remitted);
        const scheduleAt = (at: number) => {
          const rows = s.schedule.filter((r) => periodBounds(r.month).start <= at).sort((a, b) => a.month.localeCompare(b.month));
          const last = rows[rows.length - 1];
          return last === undefined ? 0 : last.bps / 100;
        };

        let current = s.legacyRate;
        for (const next of s.changes) {
          t.clock.advance(1);
          const r = await api<{ taxRestatement?: unknown }>('PATCH', `/api/v1/machines/${machineNo}`, op.headers, { salesTaxRate: next });
          expect(r.status, r.text).toBe(200);
          expect(r.body.data.taxRestatement !== undefined).toBe(next !== current);
          for (const o of orders) {
            const was = before.get(o.orderNumber)!;
            const now = await view(o.orderNumber, op.headers);
            expect(now.chargedCents).toBe(was.chargedCents);
            if (closed.has(periodOf(o.at))) expect(now).toEqual(was);
            else if (next !== current) {
              const expected = next ?? scheduleAt(o.at);
              const split = splitTax(was.chargedCents, expected);
              expect(now).toEqual({
                ...was,
                taxRate: expected > 0 ? expected : null,
                taxCents: split.taxCents,
                tax: split.taxCents / 100,
                netCents: split.netCents,
              });
              before.set(o.orderNumber, now);
            } else expect(now).toEqual(was);
          }
          current = next;
        }
        // what was remitted still adds up from the orders as they read now
        const list = (await api<PageOf<Remittance>>('GET', '/api/v1/tax/remittances', op.headers, undefined, { size: '100' })).body.data.records;
        for (const rem of list) {
          const views = await Promise.all(orders.filter((o) => periodOf(o.at) === rem.period).map((o) => view(o.orderNumber, op.headers)));
          const sales = views.filter((v) => v.payStatus !== 'refunded');
          expect(rem).toEqual(remittances.get(rem.period));
          expect(rem.taxCents).toBe(sales.reduce((sum, v) => sum + v.taxCents, 0));
          expect(rem.salesCents).toBe(sales.reduce((sum, v) => sum + v.chargedCents, 0));
        }
      }),
      { numRuns: 12 },
    );
  });

  it('hostile bodies at the tax writes: a 200, 400, 409 or 422 envelope, never a 5xx', async () => {
    const op = await newOperator(db(), t.clock.now());
    const value = fc.oneof(
      fc.constantFrom('2026-10', '2026-10-01', '2026-13', '2099-01', '1969-12-31', '', ' ', '2026-02-30', 'NaN'),
      fc.integer({ min: -10, max: 4000 }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.string({ unit: 'grapheme', maxLength: 120 }),
      fc.array(fc.integer(), { maxLength: 2 }),
    );
    const body = fc.oneof(
      fc.record({ bps: value, effectiveAt: value, period: value, reference: value }, { requiredKeys: [] }),
      fc.dictionary(fc.string({ maxLength: 8 }), value, { maxKeys: 3 }),
      value,
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/api/v1/tax/schedules', '/api/v1/tax/remittances'), body, async (path, b) => {
        const r = await api<unknown>('POST', path, op.headers, b);
        expect([200, 400, 409, 422], r.text).toContain(r.status);
        expect(r.body).toMatchObject({ code: r.status, message: expect.any(String) });
      }),
      { numRuns: 80 },
    );
  });
});
