import { describe, expect, it } from 'vitest';
import {
  elapsedFlightMs,
  estMonthlyValueCents,
  estRevenueCents,
  inFlight,
  LIFECYCLE,
  MONTH_MS,
  resolveTargets,
  type FleetScreen,
  type FlightFacts,
} from './campaign.rules.ts';

const fleet: FleetScreen[] = [
  { id: 'm1', machineNo: 'VM-0001-AAAA', postalCode: '94103', city: 'San Francisco' },
  { id: 'm2', machineNo: 'VM-0002-AAAA', postalCode: '94110', city: 'San Francisco' },
  { id: 'm3', machineNo: 'VM-0003-AAAA', postalCode: '10001', city: 'New York' },
  { id: 'm4', machineNo: 'VM-0004-AAAA', postalCode: null, city: null },
];
const nos = (ms: FleetScreen[]) => ms.map((m) => m.machineNo.slice(3, 7));

describe('targeting resolves against the fleet as it is at flight time', () => {
  it.each([
    ['named machines', { machines: ['VM-0001-AAAA', 'VM-0003-AAAA'], geo: null }, ['0001', '0003']],
    ['one ZIP', { machines: null, geo: { zips: ['94110'] } }, ['0002']],
    ['several ZIPs', { machines: null, geo: { zips: ['94110', ' 10001 '] } }, ['0002', '0003']],
    ['a city, any case', { machines: null, geo: { city: 'san  francisco' } }, ['0001', '0002']],
    ['ZIPs or a city', { machines: null, geo: { zips: ['10001'], city: 'San Francisco' } }, ['0001', '0002', '0003']],
    ['nationwide: every machine, even without a screen address', { machines: null, geo: { nationwide: true } }, ['0001', '0002', '0003', '0004']],
    ['nothing', { machines: null, geo: null }, []],
  ] as const)('%s', (_n, t, want) => {
    expect(nos(resolveTargets({ machines: t.machines, geo: t.geo as never }, fleet))).toEqual(want);
  });

  it('a machine added to the ZIP later is picked up', () => {
    const t = { machines: null, geo: { zips: ['10001'] } };
    expect(resolveTargets(t, fleet)).toHaveLength(1);
    expect(resolveTargets(t, [...fleet, { id: 'm5', machineNo: 'VM-0005-AAAA', postalCode: '10001', city: 'New York' }])).toHaveLength(2);
  });
});

const T0 = Date.parse('2026-11-01T00:00:00Z');
const flight = (f: Partial<FlightFacts>): FlightFacts => ({
  status: 'active',
  flightStart: T0,
  flightEnd: T0 + 2 * MONTH_MS,
  activatedAt: T0,
  endedAt: null,
  ...f,
});

describe('flight and revenue (spec 1 §2.6)', () => {
  it('lifecycle source states', () => {
    expect(LIFECYCLE.activate.from).toEqual(['draft', 'paused']);
    expect(LIFECYCLE.pause.from).toEqual(['active']);
    expect(LIFECYCLE.complete.from).toEqual(['active', 'paused']);
  });

  it('in flight: active, started, not ended', () => {
    expect(inFlight(flight({}), T0)).toBe(true);
    expect(inFlight(flight({}), T0 - 1)).toBe(false);
    expect(inFlight(flight({}), T0 + 2 * MONTH_MS)).toBe(false);
    expect(inFlight(flight({ status: 'paused' }), T0 + 1)).toBe(false);
    expect(inFlight(flight({ flightStart: null, flightEnd: null }), T0)).toBe(true);
  });

  it('flat-monthly: contracted value × fraction elapsed; 0 while draft or before the start; stops at the end and at completion', () => {
    // 100.00 per machine per month, 3 machines, a 2-month flight: contracted 600.00.
    const at = (now: number, f: Partial<FlightFacts> = {}) => estRevenueCents('flat-monthly', 10_000, 3, 0, elapsedFlightMs(flight(f), now));
    expect(at(T0 - 1000)).toBe(0);
    expect(at(T0 + MONTH_MS)).toBe(30_000); // half the flight: 300.00
    expect(at(T0 + 2 * MONTH_MS)).toBe(60_000);
    expect(at(T0 + 5 * MONTH_MS)).toBe(60_000);
    expect(at(T0 + MONTH_MS, { status: 'draft' })).toBe(0);
    expect(at(T0 + 2 * MONTH_MS, { status: 'completed', endedAt: T0 + MONTH_MS / 2 })).toBe(15_000);
    // No flight start: from the first activation.
    expect(at(T0 + MONTH_MS, { flightStart: null, activatedAt: T0 + MONTH_MS / 2 })).toBe(15_000);
  });

  it('cpm: rate × impressions / 1000', () => {
    expect(estRevenueCents('cpm', 1_250, 10, 4_000, MONTH_MS)).toBe(5_000);
    expect(estRevenueCents('cpm', 1_250, 10, 0, MONTH_MS)).toBe(0);
  });

  it('monthly value: flat = rate × machines; cpm = rate × the last 30 days of impressions / 1000', () => {
    expect(estMonthlyValueCents('flat-monthly', 9_900, 4, 123)).toBe(39_600);
    expect(estMonthlyValueCents('cpm', 1_000, 4, 2_500)).toBe(2_500);
  });
});
