import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyBps } from '../../http/money.ts';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { identityBalances } from './finance.rules.ts';
import { financeBooks } from './finance.test-support.ts';
import { dayOf } from './finance.scope.ts';

const HOUR = 3_600_000;

type Action =
  | { kind: 'sale'; machine: number; aisle: number; qty: number }
  | { kind: 'failedVend'; machine: number; aisle: number }
  | { kind: 'awaitingVend'; machine: number; aisle: number }
  | { kind: 'refundLast' }
  | { kind: 'po'; sku: number; qty: number; unitCents: number }
  | { kind: 'tax'; machine: number; rate: number | null }
  | { kind: 'move'; machine: number; venue: number | null }
  | { kind: 'entry'; entry: 'referral' | 'payroll' | 'expense'; cents: number; machine: number | null }
  | { kind: 'advance'; hours: number }
  | { kind: 'payLastMonth'; venue: number };

const machine = fc.integer({ min: 0, max: 1 });
const aisle = fc.integer({ min: 1, max: 2 });
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('sale' as const), machine, aisle, qty: fc.integer({ min: 1, max: 3 }) }) },
  fc.record({ kind: fc.constant('failedVend' as const), machine, aisle }),
  fc.record({ kind: fc.constant('awaitingVend' as const), machine, aisle }),
  fc.record({ kind: fc.constant('refundLast' as const) }),
  fc.record({
    kind: fc.constant('po' as const),
    sku: fc.integer({ min: 0, max: 1 }),
    qty: fc.integer({ min: 1, max: 6 }),
    unitCents: fc.integer({ min: 1, max: 999 }),
  }),
  fc.record({ kind: fc.constant('tax' as const), machine, rate: fc.constantFrom(null, 0, 6.25, 8.875, 10) }),
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('move' as const), machine, venue: fc.option(fc.integer({ min: 0, max: 1 }), { nil: null }) }) },
  fc.record({
    kind: fc.constant('entry' as const),
    entry: fc.constantFrom('referral' as const, 'payroll' as const, 'expense' as const),
    cents: fc.integer({ min: 1, max: 50_000 }),
    machine: fc.option(machine, { nil: null }),
  }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 24 * 20 }) }) },
  fc.record({ kind: fc.constant('payLastMonth' as const), venue: fc.integer({ min: 0, max: 1 }) }),
);

/**
 * Random histories of sales, failed vends, refunds after the vend, open orders, purchase orders, tax
 * rates (PATCH salesTaxRate), venue moves (PATCH venueId), entries and payouts, each on a fresh operator:
 * the P&L identity holds to the cent over the whole history and over any sub-range, and matches an
 * independent count of what was sold; the balance sheet balances.
 */
describe.each(DIALECTS)('the P&L identity and the balance sheet, by property, on %s', (dialect) => {
  const t = suiteServer(dialect);

  it('balance to the cent for random histories', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { minLength: 1, maxLength: 14 }),
        fc.array(fc.integer({ min: 1, max: 999 }), { minLength: 4, maxLength: 4 }),
        fc.tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 })),
        async (actions, prices, bpsPair) => {
          const b = await financeBooks(t);
          const skus = [`A-${randomBytes(3).toString('hex')}`, `B-${randomBytes(3).toString('hex')}`];
          const machines = [
            await b.machine([
              { priceCents: prices[0]!, sku: skus[0]! },
              { priceCents: prices[1]!, sku: skus[1]! },
            ]),
            await b.machine([
              { priceCents: prices[2]!, sku: skus[0]! },
              { priceCents: prices[3]!, sku: null },
            ]),
          ];
          const venues = [await b.venue({ revShareBps: bpsPair[0] }), await b.venue({ revShareBps: bpsPair[1] })];
          const startDay = dayOf(t.clock.now());
          let shipped: { orderNumber: string; cents: number }[] = [];
          let sold = 0;
          let refunded = 0;
          const entries = { referral: 0, payroll: 0, expense: 0 };
          for (const a of actions) {
            switch (a.kind) {
              case 'sale': {
                const orderNumber = await b.sell(machines[a.machine]!, a.aisle, a.qty);
                const cents = prices[a.machine * 2 + a.aisle - 1]! * a.qty;
                shipped.push({ orderNumber, cents });
                sold += cents;
                break;
              }
              case 'failedVend':
                await b.failVend(machines[a.machine]!, a.aisle);
                refunded += prices[a.machine * 2 + a.aisle - 1]!;
                break;
              case 'awaitingVend':
                await b.openOrder(machines[a.machine]!, a.aisle);
                break;
              case 'refundLast': {
                const last = shipped.at(-1);
                if (!last) break;
                await b.refund(last.orderNumber);
                shipped = shipped.slice(0, -1);
                sold -= last.cents;
                refunded += last.cents;
                break;
              }
              case 'po':
                await b.receive(`PO-${randomBytes(4).toString('hex')}`, [{ sku: skus[a.sku]!, qty: a.qty, unitCostUsd: a.unitCents / 100 }]);
                break;
              case 'tax':
                await b.patchMachine(machines[a.machine]!.machineNo, { salesTaxRate: a.rate });
                break;
              case 'move':
                await b.patchMachine(machines[a.machine]!.machineNo, { venueId: a.venue === null ? null : venues[a.venue]!.id });
                break;
              case 'entry':
                await b.entry({
                  kind: a.entry,
                  amount: a.cents / 100,
                  occurredOn: dayOf(t.clock.now()),
                  ...(a.machine === null ? {} : { machineNo: machines[a.machine]!.machineNo }),
                });
                entries[a.entry] += a.cents;
                break;
              case 'advance':
                t.clock.advance(a.hours * HOUR);
                break;
              case 'payLastMonth': {
                const start = new Date(t.clock.now());
                const period = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
                const r = await b.api('POST', '/api/v1/payouts', { json: { venueId: venues[a.venue]!.id, period } });
                expect([200, 409], r.text).toContain(r.status);
                break;
              }
            }
          }
          const endDay = dayOf(t.clock.now());
          const whole = await b.pnl({ from: startDay, to: endDay });
          expect(identityBalances(whole.identity), whole.identity).toBe(true);
          expect(whole).toMatchObject({
            grossCents: sold,
            refundedCents: refunded,
            referralsCents: entries.referral,
            payrollCents: entries.payroll,
            expensesCents: entries.expense,
          });
          expect(whole.grossCents - whole.taxCents).toBe(whole.netCents);
          const fifo = await t.ctx.database.db
            .selectFrom('lot_consumptions')
            .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('cost_cents'), eb.lit(0)).as('c'))
            .where('operator_id', '=', b.op.id)
            .executeTakeFirstOrThrow();
          expect(whole.fifoCogsCents).toBe(Number(fifo.c));
          expect(whole.hostShareCents).toBe(whole.hostLines.reduce((n, l) => n + l.shareCents, 0));
          for (const l of whole.hostLines) expect(l.shareCents).toBe(applyBps(l.netSalesCents, l.bps));
          // per machine, per venue and on the last day alone the identity holds too
          for (const m of machines) expect(identityBalances((await b.pnl({ from: startDay, to: endDay, machineNo: m.machineNo })).identity)).toBe(true);
          for (const v of venues) expect(identityBalances((await b.pnl({ from: startDay, to: endDay, venueId: v.id })).identity)).toBe(true);
          expect(identityBalances((await b.pnl({ from: endDay, to: endDay })).identity)).toBe(true);

          const sheet = await b.balance();
          expect(sheet.balanced, sheet.identity).toBe(true);
          expect(sheet.assets.totalCents).toBe(sheet.liabilities.totalCents + sheet.equity.totalCents);
          expect(sheet.equity.retainedEarningsCents).toBe(whole.operatorNetCents);
          expect(sheet.liabilities.salesTaxPayableCents).toBe(whole.taxCents);
          expect(sheet.assets.inventoryCents).toBeGreaterThanOrEqual(0);
        },
      ),
      { numRuns: 12 },
    );
  }, 300_000);
});
