/**
 * The rules of a machine's screen block that are not types (no I/O): operating hours, country codes,
 * and how the city and postal code are normalised so geo targeting matches what the operator typed.
 */

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Day = (typeof DAYS)[number];

const DAY_MINUTES = 24 * 60;
const WEEK_MINUTES = 7 * DAY_MINUTES;

export interface HoursInterval {
  open: string;
  close: string;
}

export interface RuleIssue {
  path: (string | number)[];
  message: string;
}

/** Minutes since midnight of `HH:MM` (`24:00` is 1440). */
export function minutesOf(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

/**
 * Operating hours are local wall-clock intervals per day. `close` after `open` closes the same day;
 * `close` before `open` runs past midnight and closes the next day (Fri 18:00–02:00 ends Saturday
 * 02:00); `24:00` closes at midnight; `open` equal to `close` is refused (a whole day is 00:00–24:00).
 * No two intervals may overlap anywhere in the week, an overnight interval included (Sunday's runs
 * into Monday), and the week must open at least once (leave `operatingHours` null for always open).
 */
export function checkHours(hours: Partial<Record<Day, readonly HoursInterval[] | undefined>>): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const spans: { start: number; end: number; label: string }[] = [];
  DAYS.forEach((day, d) => {
    (hours[day] ?? []).forEach((iv, i) => {
      const open = minutesOf(iv.open);
      const close = minutesOf(iv.close);
      if (open === close) {
        issues.push({ path: [day, i, 'close'], message: `${day} ${iv.open}–${iv.close}: close must differ from open (a whole day is 00:00–24:00)` });
        return;
      }
      const start = d * DAY_MINUTES + open;
      const end = d * DAY_MINUTES + (close > open ? close : close + DAY_MINUTES);
      spans.push({ start, end, label: `${day} ${iv.open}–${iv.close}` });
    });
  });
  if (issues.length) return issues;
  if (spans.length === 0) return [{ path: [], message: 'operatingHours must open on at least one day (send null for open around the clock)' }];
  spans.sort((a, b) => a.start - b.start);
  for (let i = 0; i < spans.length; i++) {
    const a = spans[i]!;
    // the next interval in the week; the last one wraps to the first (Sunday night into Monday)
    const b = spans[(i + 1) % spans.length]!;
    const bStart = i + 1 < spans.length ? b.start : b.start + WEEK_MINUTES;
    if (spans.length > 1 && a.end > bStart) issues.push({ path: [], message: `operatingHours ${a.label} overlaps ${b.label}` });
  }
  return issues;
}

/**
 * ISO 3166-1 alpha-2: the 249 officially assigned codes (ISO 3166 Maintenance Agency). Exceptionally
 * reserved and transitional codes (UK, EU, AC, …) and user-assigned ones (XK, ZZ, …) are not countries
 * here: a supply-side platform expects the assigned code.
 */
export const ISO_3166_ALPHA2 = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
    'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
    'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
    'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
    'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

export function isCountryCode(s: string): boolean {
  return ISO_3166_ALPHA2.has(s);
}

/** A city as geo targeting compares it: NFC, trimmed, inner whitespace collapsed (case kept; compare case-insensitively). */
export function normalizeCity(s: string): string {
  return s.normalize('NFC').trim().replace(/\s+/g, ' ');
}

/** A postal code as geo targeting compares it: as typed, NFC, trimmed, inner whitespace collapsed, uppercased. */
export function normalizePostalCode(s: string): string {
  return s.normalize('NFC').trim().replace(/\s+/g, ' ').toUpperCase();
}
