import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleBalance, assemblePnl, formatCents, hostShare, identityBalances, salesTotals, type SalesGroup } from './finance.rules.ts';

const group = (payStatus: string, chargedCents: number, n: number, stampedRate: number | null = null, machineRate: number | null = null): SalesGroup => ({
  payStatus,
  chargedCents,
  stampedRate,
  machineRate,
  n,
});

describe('the P&L arithmetic, by hand', () => {
  // 3 × 10.00 stamped at 8 %: tax round(1000 × 8 / 108) = 74 each; 1 × 3.33 untaxed; refunds and open orders are not sales
  const sales = salesTotals([
    group('shipped', 1000, 3, 8, 5),
    group('shipped', 333, 1),
    group('refunded', 500, 2, 8),
    group('paid', 250, 1),
    group('refund_owed', 120, 1),
  ]);

  it('sums sales only, tax per order at the stamped rate, the 2% fee per sale (half up)', () => {
    expect(sales).toEqual({ vends: 4, grossCents: 3333, taxCents: 222, netCents: 3111, feeCents: 3 * 20 + 7, refundedCount: 2, refundedCents: 1000 });
  });

  it('an unstamped order follows the machine rate', () => {
    expect(salesTotals([group('shipped', 1000, 1, null, 8)])).toMatchObject({ taxCents: 74, netCents: 926 });
  });

  it('assembles operator net and the identity string to the cent', () => {
    const pnl = assemblePnl({ sales, fifoCogsCents: 1200, hostShareCents: hostShare(2778, 1500), entries: { referral: 100, payroll: 500, expense: 250 } });
    expect(hostShare(2778, 1500)).toBe(417); // 416.7 rounds up
    expect(pnl.operatorNetCents).toBe(577);
    expect(pnl.identity).toBe('33.33 − 2.22 = 31.11 − 12.00 − 4.17 − 1.00 − 5.00 − 0.67 − 2.50 = 5.77');
    expect(identityBalances(pnl.identity)).toBe(true);
    expect(identityBalances(pnl.identity.replace('= 5.77', '= 5.78'))).toBe(false);
    expect(identityBalances(pnl.identity.replace('2.22 =', '2.21 ='))).toBe(false);

    const b = assembleBalance({ pnl, awaitingVendCents: 250, refundsOwedCents: 120, purchasesCents: 2000, payoutsPaidCents: 300, taxRemittedCents: 100 });
    expect(b.cash.collectedCents).toBe(3333 + 250 + 120);
    expect(b.assets).toEqual({ cashCents: 3703 - 67 - 2000 - 300 - 100 - 500 - 250 - 100, inventoryCents: 800, totalCents: 386 + 800 });
    expect(b.liabilities).toEqual({
      salesTaxPayableCents: 122,
      hostCommissionPayableCents: 117,
      refundsOwedCents: 120,
      awaitingVendCents: 250,
      totalCents: 609,
    });
    expect(b.equity.totalCents).toBe(577);
    expect(b.identity).toBe('11.86 = 6.09 + 5.77');
  });

  it('formats cents exactly, negatives with a hyphen', () => {
    expect([formatCents(0), formatCents(5), formatCents(-5), formatCents(123456), formatCents(-100)]).toEqual(['0.00', '0.05', '-0.05', '1234.56', '-1.00']);
  });
});

describe('the P&L arithmetic, by property', () => {
  const groups = fc.array(
    fc.record({
      payStatus: fc.constantFrom('shipped', 'refunded', 'paid', 'refund_owed'),
      chargedCents: fc.integer({ min: 0, max: 100_000 }),
      stampedRate: fc.option(fc.constantFrom(0, 5, 7.25, 8.875, 10), { nil: null }),
      machineRate: fc.option(fc.constantFrom(0, 6, 9.5), { nil: null }),
      n: fc.integer({ min: 1, max: 50 }),
    }),
    { maxLength: 20 },
  );

  it('the identity always balances, and the balance sheet always balances', () => {
    fc.assert(
      fc.property(
        groups,
        fc.nat(1_000_000),
        fc.array(fc.tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 0, max: 10_000 })), { maxLength: 5 }),
        fc.tuple(fc.integer({ min: -100_000, max: 100_000 }), fc.integer({ min: -100_000, max: 100_000 }), fc.integer({ min: -100_000, max: 100_000 })),
        fc.tuple(fc.nat(1_000_000), fc.nat(1_000_000), fc.nat(1_000_000)),
        (gs, fifo, lines, [referral, payroll, expense], [purchases, payouts, remitted]) => {
          const sales = salesTotals(gs);
          const pnl = assemblePnl({
            sales,
            fifoCogsCents: fifo,
            hostShareCents: lines.reduce((n, [net, bps]) => n + hostShare(net, bps), 0),
            entries: { referral, payroll, expense },
          });
          expect(sales.grossCents - sales.taxCents).toBe(sales.netCents);
          expect(identityBalances(pnl.identity)).toBe(true);
          const b = assembleBalance({
            pnl,
            awaitingVendCents: 0,
            refundsOwedCents: 0,
            purchasesCents: purchases + fifo,
            payoutsPaidCents: payouts,
            taxRemittedCents: remitted,
          });
          expect(b.assets.totalCents).toBe(b.liabilities.totalCents + b.equity.totalCents);
        },
      ),
    );
  });
});
