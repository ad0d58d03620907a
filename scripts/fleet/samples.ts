/**
 * The fleet benchmark's arithmetic, apart from its processes (scripts/bench-fleet.ts runs the fleet in several
 * driver processes, scripts/fleet/driver.ts, and merges what they measured here).
 */

/** The legs measured; every driver reports each of them. */
export const LEGS = ['heartbeat', 'pending overrun', 'createOrder', 'report sale', 'report drop (ack)', 'enqueue (operator)'] as const;
export type LegName = (typeof LEGS)[number];

/** The nearest-rank percentile (p in 0–100) of unsorted samples; NaN for none. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** What one driver measured over one window. */
export interface DriverSamples {
  /** Latencies (ms) of each leg's answered calls. */
  lat: Record<LegName, number[]>;
  errors: Record<LegName, number>;
  /** Operator's enqueue sent → the cabinet's report answered (ms). */
  enqueueToAck: number[];
  /** Requests sent (answered or failed). */
  requests: number;
  /** The driver's own event-loop delay over the window (ms). */
  loopP99: number;
  loopMax: number;
}

export interface MergedLeg {
  leg: LegName;
  n: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

export interface Merged {
  legs: MergedLeg[];
  e2a: { n: number; p50: number; p99: number };
  requests: number;
  /** The worst driver's event-loop delay: one starved driver delays every call it makes. */
  loopP99: number;
  loopMax: number;
}

/**
 * The fleet's percentiles from every driver's raw samples. Exact: the samples are pooled, never the drivers'
 * own percentiles averaged (a p99 of p99s is no percentile of the fleet).
 */
export function mergeSamples(drivers: readonly DriverSamples[]): Merged {
  const legs = LEGS.map((leg) => {
    const xs = drivers.flatMap((d) => d.lat[leg]);
    return {
      leg,
      n: xs.length,
      p50: percentile(xs, 50),
      p99: percentile(xs, 99),
      max: xs.reduce((m, x) => (x > m ? x : m), xs.length ? -Infinity : NaN),
      errors: drivers.reduce((s, d) => s + d.errors[leg], 0),
    };
  });
  const e = drivers.flatMap((d) => d.enqueueToAck);
  return {
    legs,
    e2a: { n: e.length, p50: percentile(e, 50), p99: percentile(e, 99) },
    requests: drivers.reduce((s, d) => s + d.requests, 0),
    loopP99: drivers.reduce((m, d) => Math.max(m, d.loopP99), -Infinity),
    loopMax: drivers.reduce((m, d) => Math.max(m, d.loopMax), -Infinity),
  };
}

/**
 * Deals a fleet of `n` cabinets over `drivers` processes, round-robin, so every step of a ramp grows each driver
 * by the same share: answers how many cabinets each driver runs (the first ones one more when n does not divide).
 */
export function shares(n: number, drivers: number): number[] {
  return Array.from({ length: drivers }, (_, i) => Math.floor(n / drivers) + (i < n % drivers ? 1 : 0));
}

/** Driver i's cabinets, in the order it starts them: every drivers-th of the fleet from i (see shares). */
export function slice<T>(fleet: readonly T[], drivers: number, i: number): T[] {
  return fleet.filter((_, k) => k % drivers === i);
}

/** A call slower than the limit, as a driver logs it. */
export interface SlowCall {
  /** Epoch ms (performance.timeOrigin + now) when it was sent: comparable across the drivers' processes. */
  at: number;
  leg: LegName;
  ms: number;
  /** Which process answered (the replica behind nginx), when it said. */
  by: string;
}

/**
 * Slow calls grouped into bursts: calls whose spans [at, at + ms] overlap (or lie within `gapMs` of each other)
 * belong to one burst. A stall of the server shows as one burst across every leg; a slow query as a lone call.
 */
export function bursts(calls: readonly SlowCall[], gapMs: number): { from: number; to: number; calls: SlowCall[] }[] {
  const sorted = [...calls].sort((a, b) => a.at - b.at);
  const out: { from: number; to: number; calls: SlowCall[] }[] = [];
  for (const c of sorted) {
    const last = out[out.length - 1];
    if (last && c.at <= last.to + gapMs) {
      last.calls.push(c);
      last.to = Math.max(last.to, c.at + c.ms);
    } else out.push({ from: c.at, to: c.at + c.ms, calls: [c] });
  }
  return out;
}
