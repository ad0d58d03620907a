import { describe, expect, it } from 'vitest';
import { accrualOnNaming, accruingWindow, startOfDate, stintsOf, type MoveRecord } from './venues.rules.ts';

const now = Date.parse('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

describe('accrualOnNaming (spec 1 §4.3 rule 6, §4.8)', () => {
  const base = { now, currentVenueId: null, lastLeftAt: null, firstSaleAt: null, deploymentStart: null };

  it('a machine that never sold accrues from the move, deployment date or not', () => {
    expect(accrualOnNaming(base)).toEqual({ from: now, rule: 'move' });
    expect(accrualOnNaming({ ...base, deploymentStart: now - 5 * DAY })).toEqual({ from: now, rule: 'move' });
  });

  it('a machine that already sold accrues from the deployment date, else from its first sale', () => {
    expect(accrualOnNaming({ ...base, firstSaleAt: now - 9 * DAY, deploymentStart: now - 5 * DAY })).toEqual({ from: now - 5 * DAY, rule: 'deploymentDate' });
    expect(accrualOnNaming({ ...base, firstSaleAt: now - 9 * DAY })).toEqual({ from: now - 9 * DAY, rule: 'firstSale' });
  });

  it('a machine at another venue is moved: from now, whatever it sold', () => {
    expect(accrualOnNaming({ ...base, currentVenueId: 'ven_a', firstSaleAt: now - 9 * DAY, deploymentStart: now - 5 * DAY })).toEqual({
      from: now,
      rule: 'move',
    });
  });

  it('never starts before the machine left its last venue', () => {
    expect(accrualOnNaming({ ...base, firstSaleAt: now - 9 * DAY, lastLeftAt: now - 2 * DAY })).toEqual({ from: now - 2 * DAY, rule: 'firstSale' });
    expect(accrualOnNaming({ ...base, firstSaleAt: now - 9 * DAY, deploymentStart: now - 5 * DAY, lastLeftAt: now - 6 * DAY })).toEqual({
      from: now - 5 * DAY,
      rule: 'deploymentDate',
    });
  });
});

describe('startOfDate', () => {
  it("is midnight in the machine's zone, UTC without a known one", () => {
    expect(startOfDate('2026-11-01', null)).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(startOfDate('2026-11-01', 'Not/AZone')).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(startOfDate('2026-07-01', 'America/New_York')).toBe(Date.parse('2026-07-01T04:00:00Z'));
  });
});

describe('stintsOf', () => {
  const mv = (id: string, machineNo: string, venueId: string | null, movedAt: number, extra: Partial<MoveRecord> = {}): MoveRecord => ({
    id,
    machineNo,
    venueId,
    movedAt,
    accruesFrom: venueId === null ? null : movedAt,
    rule: venueId === null ? null : 'move',
    seq: null,
    ...extra,
  });

  it('a move opens a stay, the next move or a detach closes it', () => {
    const s = stintsOf([
      mv('3', 'M1', null, 30),
      mv('1', 'M1', 'A', 10),
      mv('2', 'M1', 'B', 20),
      mv('4', 'M2', 'A', 15, { accruesFrom: 1, rule: 'firstSale' }),
    ]);
    expect(s).toEqual([
      { venueId: 'A', machineNo: 'M1', attachedAt: 10, commissionFrom: 10, commissionRule: 'move', until: 20 },
      { venueId: 'A', machineNo: 'M2', attachedAt: 15, commissionFrom: 1, commissionRule: 'firstSale', until: null },
      { venueId: 'B', machineNo: 'M1', attachedAt: 20, commissionFrom: 20, commissionRule: 'move', until: 30 },
    ]);
  });

  it('orders moves of the same millisecond by their number, not their id', () => {
    const s = stintsOf([mv('z', 'M1', 'A', 10, { seq: 1 }), mv('a', 'M1', 'B', 10, { seq: 2 })]);
    expect(s.find((x) => x.until === null)?.venueId).toBe('B');
  });

  it('reads rows older than the accrual columns as moves from moved_at', () => {
    expect(stintsOf([mv('1', 'M1', 'A', 10, { accruesFrom: null, rule: null })])[0]).toMatchObject({ commissionFrom: 10, commissionRule: 'move' });
  });
});

describe('accruingWindow', () => {
  it('clips a stay to the period; empty is null', () => {
    expect(accruingWindow({ commissionFrom: 10, until: null }, 0, 100)).toEqual({ from: 10, to: 100 });
    expect(accruingWindow({ commissionFrom: 10, until: 50 }, 20, 100)).toEqual({ from: 20, to: 50 });
    expect(accruingWindow({ commissionFrom: 10, until: 50 }, 50, 100)).toBeNull();
    expect(accruingWindow({ commissionFrom: 200, until: null }, 0, 100)).toBeNull();
  });
});
