import { describe, expect, it } from 'vitest';
import { bursts, LEGS, mergeSamples, percentile, shares, slice, type DriverSamples, type LegName } from './samples.ts';

function driver(lat: Partial<Record<LegName, number[]>>, extra: Partial<DriverSamples> = {}): DriverSamples {
  const all = Object.fromEntries(LEGS.map((l) => [l, lat[l] ?? []])) as Record<LegName, number[]>;
  const errors = Object.fromEntries(LEGS.map((l) => [l, 0])) as Record<LegName, number>;
  return { lat: all, errors, enqueueToAck: [], requests: 0, loopP99: 10, loopMax: 20, ...extra };
}

describe('percentile', () => {
  it('is the nearest rank, whatever the order; NaN for no samples', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 99)).toBeNaN();
  });
});

describe('mergeSamples', () => {
  it("pools the drivers' raw samples: the fleet's p99, not an average of the drivers' p99s", () => {
    // one driver's hundred fast calls and another's hundred, two of them slow: over the fleet's 200 calls the
    // two slow ones are its top 1 %, so its p99 (rank 198) is 2 ms; the slow driver's own p99 is 800 ms and
    // the mean of the drivers' p99s would be 400.5 ms
    const fast = driver({ heartbeat: Array.from({ length: 100 }, () => 1) });
    const slow = driver({ heartbeat: [...Array.from({ length: 98 }, () => 2), 800, 900] });
    const m = mergeSamples([fast, slow]);
    const hb = m.legs.find((l) => l.leg === 'heartbeat')!;
    expect(hb).toMatchObject({ n: 200, p50: 1, p99: 2, max: 900 });
    expect(percentile(fast.lat.heartbeat, 99)).toBe(1);
    expect(percentile(slow.lat.heartbeat, 99)).toBe(800);
  });

  it('sums errors and requests, pools enqueue → ack, and keeps the worst driver loop', () => {
    const a = driver({}, { requests: 10, enqueueToAck: [5, 6], loopP99: 12, loopMax: 30 });
    a.errors['createOrder'] = 2;
    const b = driver({}, { requests: 7, enqueueToAck: [50], loopP99: 40, loopMax: 25 });
    b.errors['createOrder'] = 1;
    const m = mergeSamples([a, b]);
    expect(m.requests).toBe(17);
    expect(m.legs.find((l) => l.leg === 'createOrder')!.errors).toBe(3);
    expect(m.e2a).toEqual({ n: 3, p50: 6, p99: 50 });
    expect([m.loopP99, m.loopMax]).toEqual([40, 30]);
    expect(m.legs.find((l) => l.leg === 'report sale')).toMatchObject({ n: 0, max: NaN });
  });
});

describe('shares and slice', () => {
  it('deal the fleet round-robin: every cabinet once, the shares within one of each other', () => {
    const fleet = Array.from({ length: 10 }, (_, i) => i);
    const slices = [0, 1, 2].map((i) => slice(fleet, 3, i));
    expect(slices).toEqual([
      [0, 3, 6, 9],
      [1, 4, 7],
      [2, 5, 8],
    ]);
    expect(shares(10, 3)).toEqual([4, 3, 3]);
  });

  it("a step's share is a prefix of the driver's slice: the fleet's first n cabinets run", () => {
    const fleet = Array.from({ length: 20 }, (_, i) => i);
    const running = [0, 1, 2].flatMap((i) => slice(fleet, 3, i).slice(0, shares(7, 3)[i]));
    expect(running.sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});

describe('bursts', () => {
  it('groups overlapping slow calls; a lone slow call stays alone', () => {
    const at = (t: number, ms: number, leg: LegName = 'heartbeat') => ({ at: t, ms, leg, by: 'cloud' });
    const g = bursts([at(10_000, 60), at(1000, 2000, 'createOrder'), at(1500, 1600), at(3050, 70, 'report sale')], 100);
    expect(g.map((x) => [x.from, x.to, x.calls.length])).toEqual([
      [1000, 3120, 3],
      [10_000, 10_060, 1],
    ]);
  });
});
