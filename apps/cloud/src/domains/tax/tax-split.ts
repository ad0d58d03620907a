/**
 * Sales tax on tax-inclusive prices: the receipt amount already contains the tax.
 * tax = round(charged × rate / (100 + rate)), net = charged − tax, with `rate` a percent (8.875).
 * Computed exactly: the rate is read as the decimal it is written as (8.875 = 8875/1000) and the
 * division is done in integers, rounded half up, so the result never depends on binary floating point.
 */

export interface TaxSplit {
  taxCents: number;
  netCents: number;
}

/** A finite positive number as the exact fraction of its shortest decimal form: 8.875 → [8875n, 1000n]. */
function decimalFraction(x: number): [bigint, bigint] {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!m) throw new RangeError(`not a positive finite number: ${x}`);
  const frac = m[2] ?? '';
  const exp = Number(m[3] ?? 0) - frac.length;
  const digits = BigInt(`${m[1]}${frac}`);
  return exp >= 0 ? [digits * 10n ** BigInt(exp), 1n] : [digits, 10n ** BigInt(-exp)];
}

export function splitTax(chargedCents: number, ratePercent: number | null): TaxSplit {
  if (ratePercent === null || !Number.isFinite(ratePercent) || ratePercent <= 0 || !Number.isSafeInteger(chargedCents)) {
    return { taxCents: 0, netCents: chargedCents };
  }
  const [p, q] = decimalFraction(ratePercent);
  // charged × (p/q) / (100 + p/q) = charged × p / (100q + p)
  const num = BigInt(chargedCents) * p;
  const den = 100n * q + p;
  const abs = num < 0n ? -num : num;
  const rounded = (2n * abs + den) / (2n * den); // half up (away from zero for negatives)
  const tax = Number(num < 0n ? -rounded : rounded);
  return { taxCents: tax, netCents: chargedCents - tax };
}

/** The rate a sale is taxed at: the rate stamped on it at sale time; unstamped sales follow the machine's current rate. */
export function effectiveRate(stamped: number | null, machineRate: number | null): number | null {
  return stamped ?? machineRate;
}
