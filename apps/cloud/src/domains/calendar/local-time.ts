/**
 * Wall-clock times (`YYYY-MM-DD HH:MM:SS`) read in an IANA time zone, turned into epoch milliseconds
 * with nothing but `Intl`. Pure code: no I/O, no caches.
 */

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export const WALL_CLOCK_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Parses the spec's form; null for a wrong shape or an impossible time (Feb 30, 24:00:00, 12:60:00) or a year before 1970. */
export function parseWallClock(s: string): WallClock | null {
  const m = WALL_CLOCK_PATTERN.exec(s);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second };
}

function wallAsUtc(w: WallClock): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
}

/** True when `zone` is an IANA name this runtime knows. */
export function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at `instant` (whole seconds), in milliseconds. */
function offsetAt(fmt: Intl.DateTimeFormat, instant: number): number {
  const parts: Record<string, number> = {};
  for (const p of fmt.formatToParts(new Date(instant))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const local = Date.UTC(
    parts['year'] ?? 0,
    (parts['month'] ?? 1) - 1,
    parts['day'] ?? 1,
    (parts['hour'] ?? 0) % 24,
    parts['minute'] ?? 0,
    parts['second'] ?? 0,
  );
  return local - instant;
}

/**
 * The instant a wall-clock time names in `zone`. Around daylight-saving changes it follows the
 * `compatible` rule of Temporal and java.time: a time that occurs twice (clocks back) is the earlier
 * one; a time that never occurs (clocks forward) is pushed forward by the gap (02:30 → 03:30).
 */
export function zonedToEpoch(w: WallClock, zone: string): number {
  const local = wallAsUtc(w);
  if (zone === 'UTC') return local;
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const DAY = 86_400_000;
  const before = offsetAt(fmt, local - DAY);
  const after = offsetAt(fmt, local + DAY);
  const candidates = [local - before, local - after].filter((t) => offsetAt(fmt, t) === local - t);
  if (candidates.length) return Math.min(...candidates);
  // In a gap: read with the offset in force before the change, which lands after it.
  return local - before;
}
