import { z } from 'zod';

/**
 * Finance periods (docs/decisions/finance.md "Periods"): a calendar month in UTC, written `YYYY-MM`.
 * Tax is remitted and hosts are paid out per period; a period remitted or paid out is closed to
 * restatement. Reports over arbitrary ranges (P&L) take dates, not periods.
 */
export type Period = string;

const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** A request field naming a period: `2026-10`, from 1970-01 on. */
export const PeriodString = z
  .string()
  .regex(PERIOD, 'must be a month YYYY-MM')
  .refine((p) => Number(p.slice(0, 4)) >= 1970, 'must be 1970-01 or later')
  // the document states both rules in one pattern
  .meta({ pattern: '^(?:19[7-9]\\d|[2-9]\\d{3})-(?:0[1-9]|1[0-2])$' });

/** The period an instant falls in. */
export function periodOf(epochMs: number): Period {
  return new Date(epochMs).toISOString().slice(0, 7);
}

/** The first instant of the period and the first instant after it: `[start, end)`. */
export function periodBounds(period: Period): { start: number; end: number } {
  const m = PERIOD.exec(period);
  if (!m) throw new RangeError(`not a period: ${period}`);
  const year = Number(m[1]);
  const month = Number(m[2]) - 1;
  return { start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
}

/** Every period that `[from, to)` touches, oldest first. */
export function periodsBetween(from: number, to: number): Period[] {
  const out: Period[] = [];
  if (to <= from) return out;
  let p = periodOf(from);
  while (periodBounds(p).start < to) {
    out.push(p);
    p = periodOf(periodBounds(p).end);
  }
  return out;
}
