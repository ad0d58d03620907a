/** Spec 3 §8: the concierge fee, per month, prorated by enrolled days. */
export const CONCIERGE_FEE_CENTS_PER_MONTH = 9_900;
const DAY_MS = 86_400_000;

/** One enrolment: from its enrolment to its takeback (null: still active, counted up to `until`). */
export interface EnrolledPeriod {
  from: number;
  to: number | null;
}

/**
 * The concierge fee owed for `periods`, counted over the UTC days in [since, until] (key rule 5):
 * an enrolled day is a UTC calendar day the placement was enrolled at any moment of; each month charges
 * 99 USD × its enrolled days / its days, rounded half up to the cent per month. Days are a union, so
 * re-enrolling on a day already charged does not charge it twice.
 */
export function conciergeFeeCents(periods: readonly EnrolledPeriod[], until: number, since = 0): number {
  const days = new Set<number>();
  for (const p of periods) {
    const first = Math.floor(Math.max(p.from, since) / DAY_MS);
    const last = Math.floor(Math.min(p.to ?? until, until) / DAY_MS);
    for (let d = first; d <= last; d++) days.add(d);
  }
  const perMonth = new Map<string, { days: number; length: number }>();
  for (const d of days) {
    const at = new Date(d * DAY_MS);
    const key = `${at.getUTCFullYear()}-${at.getUTCMonth()}`;
    const length = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0)).getUTCDate();
    const m = perMonth.get(key) ?? { days: 0, length };
    m.days++;
    perMonth.set(key, m);
  }
  let cents = 0;
  for (const m of perMonth.values()) cents += Math.round((CONCIERGE_FEE_CENTS_PER_MONTH * m.days) / m.length);
  return cents;
}
