import type { SponsorType } from '../campaigns/campaigns.schemas.ts';
import type { AdCatalog } from './catalog.ts';

/**
 * The self-serve quote rule (spec 1 §4.7), pure:
 *
 *   total = rate(sponsorType) × volume multiplier × slots × machines × months
 *
 * in integer cents. Rounding: every factor is an integer (the multiplier in basis points, so 0.9 is
 * 9000), the product is formed exactly (BigInt), divided by 10000 and rounded half up ONCE at the
 * end. The per-machine monthly rate a campaign carries (rate × multiplier × slots) is rounded the
 * same way, on its own. The total is split between operators pro rata by machine count with the
 * largest-remainder method, so the parts always sum to the total exactly.
 */

const BPS = 10_000n;

/** `n / d` rounded half up, for non-negative integers. */
function divHalfUp(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d);
}

function toSafe(n: bigint): number {
  const v = Number(n);
  if (!Number.isSafeInteger(v)) throw new RangeError('amount out of range');
  return v;
}

/** The multiplier (basis points) of the tier `machines` falls in: the last tier whose minimum it reaches. */
export function multiplierBpsFor(ad: Pick<AdCatalog, 'volumeTiers'>, machines: number): number {
  let bps: number | null = null;
  for (const t of ad.volumeTiers) if (machines >= t.minMachines) bps = t.multiplierBps;
  if (bps === null) throw new RangeError(`no volume tier covers ${machines} machines`);
  return bps;
}

export interface QuoteFactors {
  rateCents: number;
  multiplierBps: number;
  slots: number;
  machines: number;
  months: number;
}

/** rate × multiplier × slots × machines × months, in cents, rounded half up once. */
export function totalCents(f: QuoteFactors): number {
  const exact = BigInt(f.rateCents) * BigInt(f.multiplierBps) * BigInt(f.slots) * BigInt(f.machines) * BigInt(f.months);
  return toSafe(divHalfUp(exact, BPS));
}

/** rate × multiplier × slots: what one machine costs per month (a purchase's campaigns carry it), rounded half up. */
export function monthlyRatePerMachineCents(f: Pick<QuoteFactors, 'rateCents' | 'multiplierBps' | 'slots'>): number {
  return toSafe(divHalfUp(BigInt(f.rateCents) * BigInt(f.multiplierBps) * BigInt(f.slots), BPS));
}

/**
 * Splits `total` in proportion to `weights` (largest remainder, Hamilton's method): each part gets
 * the floor of its exact share, then the cents left over go one each to the largest fractional
 * remainders; ties go to the larger weight, then to the earlier entry. The parts sum to `total`.
 */
export function splitLargestRemainder(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (weights.length === 0) return [];
  if (sum <= 0) throw new RangeError('weights must sum to more than 0');
  const t = BigInt(total);
  const s = BigInt(sum);
  const parts = weights.map((w) => (t * BigInt(w)) / s);
  const remainders = weights.map((w, i) => ({ i, w, r: (t * BigInt(w)) % s }));
  let left = total - toSafe(parts.reduce((a, b) => a + b, 0n));
  remainders.sort((a, b) => (a.r === b.r ? (a.w === b.w ? a.i - b.i : b.w - a.w) : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0) break;
    parts[i]! += 1n;
    left--;
  }
  return parts.map(toSafe);
}

export interface QuoteRequest {
  sponsorType: SponsorType;
  slots: 1 | 2;
  months: number;
  /** Resolved machines per operator, in the order parts are answered. */
  operators: readonly { operatorId: string; machines: number }[];
}

export interface PricedQuote {
  rateCents: number;
  multiplierBps: number;
  monthlyRatePerMachineCents: number;
  machines: number;
  totalCents: number;
  /** One per operator, in the request's order; amounts sum to `totalCents`. */
  parts: { operatorId: string; machines: number; amountCents: number }[];
}

/** Prices a resolved reach with one catalog. Months and machines must already be in range (the caller's 400s). */
export function priceQuote(ad: AdCatalog, q: QuoteRequest): PricedQuote {
  const machines = q.operators.reduce((a, o) => a + o.machines, 0);
  if (machines < 1) throw new RangeError('a quote needs at least one machine');
  const rateCents = ad.rates[q.sponsorType];
  const multiplierBps = multiplierBpsFor(ad, machines);
  const total = totalCents({ rateCents, multiplierBps, slots: q.slots, machines, months: q.months });
  const amounts = splitLargestRemainder(
    total,
    q.operators.map((o) => o.machines),
  );
  return {
    rateCents,
    multiplierBps,
    monthlyRatePerMachineCents: monthlyRatePerMachineCents({ rateCents, multiplierBps, slots: q.slots }),
    machines,
    totalCents: total,
    parts: q.operators.map((o, i) => ({ operatorId: o.operatorId, machines: o.machines, amountCents: amounts[i]! })),
  };
}
