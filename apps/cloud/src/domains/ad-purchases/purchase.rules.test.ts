import { describe, expect, it } from 'vitest';
import { verifySecret } from '../../crypto/secrets.ts';
import {
  flightOf,
  flightStartOf,
  mintToken,
  purchaseStatusOf,
  resolveReach,
  resubmitRefusal,
  targetingOf,
  tokenParts,
  type SellableMachine,
} from './purchase.rules.ts';

const m = (machineNo: string, operatorId: string, postalCode: string | null, city: string | null): SellableMachine => ({
  id: `id-${machineNo}`,
  machineNo,
  postalCode,
  city,
  operatorId,
  operatorName: operatorId === 'op_a' ? 'Alice Vending Co' : 'Carol Kiosks',
});
const FLEET = [
  m('A-0002', 'op_a', '10004', 'New York'),
  m('A-0001', 'op_a', '10001', 'New York'),
  m('A-0003', 'op_a', null, null),
  m('C-0001', 'op_c', '10001 ', ' new  york'),
  m('C-0002', 'op_c', '90012', 'Los Angeles'),
];

describe('a purchase’s status from its lines', () => {
  it.each([
    [['pending_approval'], 'pending_approval'],
    [['approved', 'pending_approval'], 'pending_approval'],
    [['rejected', 'pending_approval'], 'pending_approval'],
    [['approved'], 'approved'],
    [['approved', 'approved'], 'approved'],
    [['rejected'], 'rejected'],
    [['rejected', 'rejected'], 'rejected'],
    [['approved', 'rejected'], 'partially_approved'],
  ])('%j → %s', (statuses, expected) => {
    expect(purchaseStatusOf(statuses.map((status) => ({ status })))).toBe(expected);
  });
  it('has no status without lines', () => {
    expect(() => purchaseStatusOf([])).toThrow(RangeError);
  });
});

describe('the reach resolved over sellable machines, by operator', () => {
  it('one kiosk by name', () => {
    expect(resolveReach({ kind: 'machine', machineNo: 'C-0002' }, FLEET)).toEqual([
      { operatorId: 'op_c', operatorName: 'Carol Kiosks', machineNos: ['C-0002'] },
    ]);
  });
  it('ZIPs and cities match the screen block’s address, normalised (spacing, case)', () => {
    expect(resolveReach({ kind: 'zip', zips: ['10001'] }, FLEET)).toEqual([
      { operatorId: 'op_a', operatorName: 'Alice Vending Co', machineNos: ['A-0001'] },
      { operatorId: 'op_c', operatorName: 'Carol Kiosks', machineNos: ['C-0001'] },
    ]);
    expect(resolveReach({ kind: 'zips', zips: ['10004', '90012'] }, FLEET).map((g) => g.machineNos)).toEqual([['A-0002'], ['C-0002']]);
    expect(resolveReach({ kind: 'city', city: 'NEW YORK' }, FLEET).map((g) => g.machineNos)).toEqual([['A-0001', 'A-0002'], ['C-0001']]);
  });
  it('the network is every sellable machine, a machine without a screen block included', () => {
    expect(resolveReach({ kind: 'network' }, FLEET).map((g) => g.machineNos)).toEqual([
      ['A-0001', 'A-0002', 'A-0003'],
      ['C-0001', 'C-0002'],
    ]);
  });
  it('nothing matching is an empty reach', () => {
    expect(resolveReach({ kind: 'city', city: 'Boston' }, FLEET)).toEqual([]);
    expect(resolveReach({ kind: 'machine', machineNo: 'B-0001' }, FLEET)).toEqual([]);
  });
  it('each operator’s campaign targets the kiosk by name, else the geo target (network = nationwide)', () => {
    expect(targetingOf({ kind: 'machine', machineNo: 'A-0001' })).toEqual({ machines: ['A-0001'] });
    expect(targetingOf({ kind: 'zip', zips: ['10001'] })).toEqual({ geo: { zips: ['10001'] } });
    expect(targetingOf({ kind: 'zips', zips: ['1', '2'] })).toEqual({ geo: { zips: ['1', '2'] } });
    expect(targetingOf({ kind: 'city', city: 'New York' })).toEqual({ geo: { city: 'New York' } });
    expect(targetingOf({ kind: 'network' })).toEqual({ geo: { nationwide: true } });
  });
});

describe('the flight', () => {
  const now = Date.parse('2026-11-20T12:00:00Z');
  it('starts now without a date, at the date’s 00:00 UTC otherwise (now when that is today)', () => {
    expect(flightStartOf(undefined, now)).toEqual({ ok: true, start: now });
    expect(flightStartOf('2026-11-20', now)).toEqual({ ok: true, start: now });
    expect(flightStartOf('2026-12-01', now)).toEqual({ ok: true, start: Date.parse('2026-12-01T00:00:00Z') });
  });
  it('refuses a day before today or more than 90 days ahead', () => {
    expect(flightStartOf('2026-11-19', now)).toMatchObject({ ok: false });
    expect(flightStartOf('2027-02-18', now)).toEqual({ ok: true, start: Date.parse('2027-02-18T00:00:00Z') });
    expect(flightStartOf('2027-02-19', now)).toMatchObject({ ok: false });
  });
  it('lasts months × 30 days', () => {
    expect(flightOf(now, 6)).toEqual({ start: now, end: now + 180 * 86_400_000 });
  });
});

describe('buyer tokens', () => {
  it('name their record and carry a secret stored only as a salted hash', () => {
    const id = 'adp_0mhp4c2g0a1b2c3d4e5f60718';
    const { token, hash } = mintToken(id);
    const parts = tokenParts(token)!;
    expect(parts.id).toBe(id);
    expect(hash).not.toContain(parts.secret);
    expect(verifySecret(parts.secret, hash)).toBe(true);
    expect(verifySecret(`${parts.secret.slice(0, -1)}x`, hash)).toBe(false);
  });
  it('refuse anything else as malformed', () => {
    for (const bad of ['', 'adp_x.y', 'adp_0mhp4c2g0a1b2c3d4e5f60718', `adp_0mhp4c2g0a1b2c3d4e5f60718.${'a'.repeat(42)}`, `../x.${'a'.repeat(43)}`]) {
      expect(tokenParts(bad), bad).toBeNull();
    }
  });
});

describe('sending a rejected line back for approval', () => {
  const end = 1_000;
  it.each([
    [{ status: 'rejected', refund_status: 'owed' }, null],
    [{ status: 'rejected', refund_status: 'failed' }, null],
    // rejected before refunds were recorded: read as owed
    [{ status: 'rejected', refund_status: null }, null],
    [{ status: 'rejected', refund_status: 'issued' }, /already refunded/],
    [{ status: 'approved', refund_status: null }, /Only a rejected line/],
    [{ status: 'pending_approval', refund_status: null }, /Only a rejected line/],
  ] as const)('%o → %s', (line, expected) => {
    const why = resubmitRefusal(line, end, 999);
    if (expected === null) expect(why).toBeNull();
    else expect(why).toMatch(expected);
  });
  it('refuses once the flight is over', () => {
    expect(resubmitRefusal({ status: 'rejected', refund_status: 'owed' }, 1_000, 1_000)).toMatch(/flight .* is over/);
  });
});
