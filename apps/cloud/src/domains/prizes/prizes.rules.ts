import type { PrizeEventKind, PrizeMechanic, PrizeRefusal } from '@vend/protocol';
import { isKnownZone, zonedToEpoch } from '../calendar/local-time.ts';

/** How far ahead of the cloud's clock an event's `at` may be (a cabinet clock a little fast is normal). */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/** One mechanic's settings as the rules read them; caps null for none. */
export interface MechanicSettings {
  enabled: boolean;
  maxWinsPerDay: number | null;
  maxPrizeCents: number | null;
}

/** What the verdict on one event looks at. */
export interface EventJudgement {
  kind: PrizeEventKind;
  mechanic: PrizeMechanic | null;
  at: number;
  now: number;
  /** The machine's mechanics (absent: never set, so off). */
  mechanics: Partial<Record<PrizeMechanic, MechanicSettings>>;
  /** A win: its prize cost in cents. */
  prizeCents: number;
  /** A win: wins of this mechanic already accepted on the machine-local day of `at`. */
  winsThatDay: number;
  /** A win: prize cost already accepted in the finance period of `at`. */
  spentThatPeriod: number;
  /** The machine's monthly prize budget; null for none. */
  budgetCents: number | null;
}

/**
 * The verdict on one reported event: null (accepted) or why it is refused. In order: a time too far
 * ahead; a mechanic that is off (a scan naming none: every mechanic is off); then, for a win, the
 * mechanic's prize cap, its daily win cap, and the machine's monthly budget (spent + this prize over
 * the budget). A win of cost 0 never breaks the budget.
 */
export function judgeEvent(e: EventJudgement): PrizeRefusal | null {
  if (e.at > e.now + MAX_CLOCK_SKEW_MS) return 'clock_skew';
  if (e.mechanic === null) return Object.values(e.mechanics).some((m) => m?.enabled) ? null : 'mechanic_disabled';
  const m = e.mechanics[e.mechanic];
  if (!m?.enabled) return 'mechanic_disabled';
  if (e.kind !== 'win') return null;
  if (m.maxPrizeCents !== null && e.prizeCents > m.maxPrizeCents) return 'over_max_prize_value';
  if (m.maxWinsPerDay !== null && e.winsThatDay >= m.maxWinsPerDay) return 'over_daily_cap';
  if (e.budgetCents !== null && e.spentThatPeriod + e.prizeCents > e.budgetCents) return 'over_budget';
  return null;
}

/** An event's `at`: epoch milliseconds, or an ISO 8601 time with its offset; null when it is neither. */
export function parseEventTime(at: number | string): number | null {
  if (typeof at === 'number') return Number.isSafeInteger(at) && at >= 0 ? at : null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})$/.test(at)) return null;
  const ms = Date.parse(at.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

/**
 * The machine-local day holding `at`: `[start, end)` between two local midnights (23 or 25 hours
 * across a daylight-saving change). UTC when the machine has no zone or an unknown one.
 */
export function localDayBounds(at: number, zone: string | null): { start: number; end: number } {
  const tz = zone !== null && isKnownZone(zone) ? zone : 'UTC';
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(new Date(at));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const [year, month, day] = [get('year'), get('month'), get('day')];
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  return {
    start: zonedToEpoch({ year, month, day, hour: 0, minute: 0, second: 0 }, tz),
    end: zonedToEpoch({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate(), hour: 0, minute: 0, second: 0 }, tz),
  };
}

/** `n / d` to four decimals, rounded half up, in integers (0.3333 for 1/3); null when `d` is 0. */
export function ratio(n: number, d: number): number | null {
  if (d === 0) return null;
  return Math.floor((2 * n * 10000 + d) / (2 * d)) / 10000;
}

export interface FunnelCounts {
  scans: number;
  entries: number;
  plays: number;
  wins: number;
}

/** The funnel with each step's conversion from the one before and scans → wins overall (null where nothing came in). */
export function funnelOf(c: FunnelCounts) {
  return {
    ...c,
    scanToEntry: ratio(c.entries, c.scans),
    entryToPlay: ratio(c.plays, c.entries),
    playToWin: ratio(c.wins, c.plays),
    scanToWin: ratio(c.wins, c.scans),
  };
}

/** Budget use of one period: what is left (never below 0) and the share spent; nulls without a budget. */
export function budgetUse(budgetCents: number | null, spentCents: number): { leftCents: number | null; used: number | null } {
  if (budgetCents === null) return { leftCents: null, used: null };
  return { leftCents: Math.max(0, budgetCents - spentCents), used: ratio(spentCents, budgetCents) };
}
