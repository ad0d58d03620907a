import { describe, expect, it } from 'vitest';
import { leaseChainBroken } from './outage-drill.ts';

describe('leaseChainBroken', () => {
  const s = (time: number, holder: string, loop = 'refund-sweep') => ({ time, holder, loop });

  it('accepts one holder, and handovers that waited for the lease to lapse, back and forth', () => {
    expect(leaseChainBroken([s(0, 'a'), s(500, 'a'), s(4_000, 'b'), s(4_500, 'b'), s(9_000, 'a')], 2_000, 500)).toBeNull();
  });

  it('names a holder that swept inside the previous holder’s lease', () => {
    expect(leaseChainBroken([s(0, 'a'), s(500, 'a'), s(900, 'b')], 2_000, 500)).toMatch(/^refund-sweep: b swept 400 ms after a/);
  });

  it('judges each loop on its own', () => {
    expect(leaseChainBroken([s(0, 'a', 'x'), s(100, 'b', 'y'), s(600, 'a', 'x'), s(700, 'b', 'y')], 2_000, 500)).toBeNull();
  });
});
