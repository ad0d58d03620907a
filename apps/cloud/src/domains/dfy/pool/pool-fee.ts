/**
 * The investment pool's fee on a pool-funded machine (spec 3 key rule 7, §8), month to date:
 *
 *   fee = 2% × revenue + 2% × max(0, revenue − costs − the revenue component)
 *
 * where "the revenue component" is the first term, 2% × revenue (docs/decisions/dfy-modes.md): the second
 * term is 2% of the profit left once the machine's costs and the first part of the fee are paid. Each term is
 * rounded half-up to the cent on its own; a month whose revenue is not positive charges nothing. Pure:
 * integer cents in, integer cents out.
 */
export const POOL_FEE_PCT = 2;

export interface PoolFee {
  /** 2% × revenue. */
  revenueComponentCents: number;
  /** 2% × max(0, revenue − costs − the revenue component). */
  profitComponentCents: number;
  feeCents: number;
}

/** `pct`% of a non-negative integer cents amount, rounded half-up to the cent (exact in integers). */
const pctOf = (cents: number, pct: number): number => Math.floor((cents * pct + 50) / 100);

export function poolFee(revenueCents: number, costsCents: number): PoolFee {
  const revenue = Math.max(0, revenueCents);
  const revenueComponentCents = pctOf(revenue, POOL_FEE_PCT);
  const profitComponentCents = pctOf(Math.max(0, revenue - costsCents - revenueComponentCents), POOL_FEE_PCT);
  return { revenueComponentCents, profitComponentCents, feeCents: revenueComponentCents + profitComponentCents };
}
