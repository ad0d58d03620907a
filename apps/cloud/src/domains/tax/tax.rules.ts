import { periodBounds, periodOf, type Period } from '../calendar/period.ts';

/**
 * The tax rules, pure (docs/decisions/finance.md "Tax"): which rate a sale is stamped with, which
 * periods are closed to restatement, and what a machine-rate change rewrites.
 */

/** Why a period is closed to restatement for a machine. */
export type ClosedReason = 'remitted' | 'paid_out';

export interface ClosedPeriod {
  period: Period;
  reason: ClosedReason;
}

/** A schedule row as the rules need it: from `effectiveAt` on, `bps`. */
export interface ScheduleStep {
  effectiveAt: number;
  bps: number;
}

/** Basis points → the percent `splitTax` reads: 888 → 8.88. Exact: a whole number of hundredths. */
export function bpsToPercent(bps: number): number {
  return bps / 100;
}

/**
 * THE rate stamped on a sale (percent), decided once at sale time: the machine's own `salesTaxRate`
 * when one is recorded, else the operator's schedule row in effect at that instant, else none (null:
 * the order follows the machine's rate when one is recorded later).
 */
export function saleTaxRate(machineRate: number | null, inEffect: ScheduleStep | null): number | null {
  if (machineRate !== null) return machineRate;
  if (inEffect !== null) return bpsToPercent(inEffect.bps);
  return null;
}

/**
 * One closed entry per period: remitted and paid-out periods merged, oldest first; a period both
 * remitted and paid out reads `remitted` (the tax authority's record is the stronger reason).
 */
export function mergeClosed(remitted: readonly Period[], paidOut: readonly Period[]): ClosedPeriod[] {
  const byPeriod = new Map<Period, ClosedReason>();
  for (const p of paidOut) byPeriod.set(p, 'paid_out');
  for (const p of remitted) byPeriod.set(p, 'remitted');
  return [...byPeriod.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([period, reason]) => ({ period, reason }));
}

/** `[from, until)` in epoch ms, with the rate a restatement writes on every order inside. */
export interface RateRange {
  from: number;
  until: number;
  /** Percent; 0 = no tax (a restatement always writes an explicit rate). */
  rate: number;
}

/** Everything before or after every order: bounds for "open-ended". */
export const BEGINNING = 0;
export const END_OF_TIME = Number.MAX_SAFE_INTEGER;

/** The instants outside every closed period, as `[from, until)` ranges, oldest first. */
export function openRanges(closed: readonly ClosedPeriod[]): { from: number; until: number }[] {
  const out: { from: number; until: number }[] = [];
  let from = BEGINNING;
  for (const c of [...closed].sort((a, b) => a.period.localeCompare(b.period))) {
    const { start, end } = periodBounds(c.period);
    if (start > from) out.push({ from, until: start });
    from = Math.max(from, end);
  }
  out.push({ from, until: END_OF_TIME });
  return out;
}

/**
 * What recording `newRate` on a machine rewrites in its open periods: every order there is restated
 * to the rate the sale-time rule would pick under the new machine rate — the new rate itself, or,
 * when the rate is cleared, the operator's schedule row in effect at the sale's instant (0 where none
 * was). Closed periods are not touched (their unstamped orders are pinned separately).
 */
export function restatementRanges(closed: readonly ClosedPeriod[], newRate: number | null, schedule: readonly ScheduleStep[]): RateRange[] {
  const open = openRanges(closed);
  if (newRate !== null) return open.map((r) => ({ ...r, rate: newRate }));
  // schedule segments: before the first row no rate, then each row until the next
  const steps = [...schedule].sort((a, b) => a.effectiveAt - b.effectiveAt);
  const segments: RateRange[] = [];
  let from = BEGINNING;
  let rate = 0;
  for (const s of steps) {
    if (s.effectiveAt > from) segments.push({ from, until: s.effectiveAt, rate });
    from = Math.max(from, s.effectiveAt);
    rate = bpsToPercent(s.bps);
  }
  segments.push({ from, until: END_OF_TIME, rate });
  const out: RateRange[] = [];
  for (const o of open)
    for (const s of segments) {
      const lo = Math.max(o.from, s.from);
      const hi = Math.min(o.until, s.until);
      if (lo < hi) out.push({ from: lo, until: hi, rate: s.rate });
    }
  return out;
}

/**
 * The rate an unstamped order in a closed period is pinned at before the machine's rate changes: the
 * rate it was reported at until now (the machine's old rate; 0 = no tax when it had none).
 */
export function pinRate(oldMachineRate: number | null): number {
  return oldMachineRate ?? 0;
}

/** Why a period cannot be remitted now (null: it can): only a period that has ended. */
export function remitRefusal(period: Period, now: number): string | null {
  const { end } = periodBounds(period);
  if (end > now) return periodOf(now) === period ? `${period} is the current period: remit it once it has ended` : `${period} has not started yet`;
  return null;
}
