import { z } from 'zod';

/**
 * Money is integer cents inside and a decimal currency amount at the edge (ARCHITECTURE: "money is
 * integer cents inside; the API's decimal fields are converted at the edge"). These are the only
 * two conversions; every domain uses them.
 */

/** Integer cents → the API's decimal amount: 175 → 1.75, 5 → 0.05. */
export function centsToDecimal(cents: number): number {
  return cents / 100;
}

/**
 * A decimal amount → integer cents, or null when the amount is not finite or is not a whole number
 * of cents (more than two decimals: 1.755). Exact: the result converts back to the same number.
 */
export function decimalToCents(amount: number): number | null {
  if (!Number.isFinite(amount)) return null;
  const cents = Math.round(amount * 100);
  if (!Number.isSafeInteger(cents) || centsToDecimal(cents) !== amount) return null;
  return cents === 0 ? 0 : cents; // never -0
}

/**
 * A request field holding a decimal amount: a JSON number, 0 or more (more than 0 with `moreThanZero`), at most two
 * decimals, at most `max` (in currency units). Parses to integer cents. A string or null is a type error (422); a
 * negative, too large or over-precise amount breaks a rule (400). The document states each rule: the bounds, and
 * whole cents as `multipleOf: 0.01`.
 */
export function decimalAmount(max: number, opts: { moreThanZero?: boolean } = {}) {
  const base = z.number();
  return (opts.moreThanZero ? base.gt(0, 'must be more than 0') : base.min(0, 'must not be negative'))
    .max(max, `must be at most ${max}`)
    .refine((v) => decimalToCents(v) !== null, 'must have at most two decimals')
    .meta({ multipleOf: 0.01 })
    .transform((v) => decimalToCents(v) ?? 0);
}

/**
 * The one rounding rule for basis points (docs/decisions/finance.md "Rounding"): `cents × bps / 10000`,
 * exact in integers, rounded half up (away from zero for negatives). 1500 bps of 333 cents = 49.95 → 50.
 */
export function applyBps(cents: number, bps: number): number {
  if (!Number.isSafeInteger(cents) || !Number.isSafeInteger(bps)) throw new RangeError(`applyBps needs integers: ${cents}, ${bps}`);
  const num = BigInt(cents) * BigInt(bps);
  const abs = num < 0n ? -num : num;
  const rounded = (abs * 2n + 10000n) / 20000n;
  const out = Number(num < 0n ? -rounded : rounded);
  return out === 0 ? 0 : out; // never -0
}
