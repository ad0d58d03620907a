import { CHANNELS, type Channel } from './channels/channel.ts';

/** Spec 3 §8: the calling window for voice and text, in the venue's local time (hours, end exclusive). */
export const CALLING_WINDOW = { startHour: 9, endHour: 20 } as const;
/** Spec 3 §8: the retry cadence: no touch sooner than this after the previous one. */
export const RETRY_CADENCE_MS = 24 * 3_600_000;
/** Frequency caps on voice and text, per venue and channel, over a rolling week (docs/decisions/outreach.md). */
export const FREQUENCY_CAP = { perChannel: 2, windowMs: 7 * 24 * 3_600_000 } as const;
/** Channels the calling window and frequency caps apply to. */
export const TIMED_CHANNELS: readonly Channel[] = ['sms', 'voice'];

/** The hour (0–23) at `now` in `timeZone` (an IANA name). */
export function localHour(now: number, timeZone: string): number {
  const h = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(new Date(now));
  return Number(h) % 24;
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function insideCallingWindow(now: number, timeZone: string): boolean {
  const h = localHour(now, timeZone);
  return h >= CALLING_WINDOW.startHour && h < CALLING_WINDOW.endHour;
}

/** Why a channel cannot carry the next touch; null when it can. */
export type Ineligible = 'no_contact' | 'not_configured' | 'opted_out' | 'outside_window' | 'frequency_cap';

export interface ChannelFacts {
  /** The venue's address on the channel (e-mail or phone), if any. */
  address: string | null;
  configured: boolean;
  optedOut: boolean;
  /** Touches on this channel to this venue within the cap window. */
  recentTouches: number;
}

export function ineligibility(channel: Channel, f: ChannelFacts, now: number, timeZone: string): Ineligible | null {
  if (!f.address) return 'no_contact';
  if (!f.configured) return 'not_configured';
  if (f.optedOut) return 'opted_out';
  if (TIMED_CHANNELS.includes(channel)) {
    if (!insideCallingWindow(now, timeZone)) return 'outside_window';
    if (f.recentTouches >= FREQUENCY_CAP.perChannel) return 'frequency_cap';
  }
  return null;
}

/**
 * Round-robin: starting at `cursor` in `order`, the first channel that can carry the touch; the cursor then
 * moves past it, so the next touch starts at the following channel. Null when none can.
 */
export function pickChannel(
  order: readonly Channel[],
  cursor: number,
  why: (c: Channel) => Ineligible | null,
):
  | { channel: Channel; nextCursor: number; skipped: { channel: Channel; reason: Ineligible }[] }
  | { channel: null; skipped: { channel: Channel; reason: Ineligible }[] } {
  const skipped: { channel: Channel; reason: Ineligible }[] = [];
  for (let i = 0; i < order.length; i++) {
    const at = (cursor + i) % order.length;
    const c = order[at]!;
    const reason = why(c);
    if (reason === null) return { channel: c, nextCursor: (at + 1) % order.length, skipped };
    skipped.push({ channel: c, reason });
  }
  return { channel: null, skipped };
}

/** A channel order: distinct channels, at least one; the default is every channel. */
export function normaliseOrder(order: readonly Channel[] | undefined): Channel[] {
  return order && order.length ? [...new Set(order)] : [...CHANNELS];
}

/** Reply words that opt out (carrier convention for texts; the same honoured on e-mail). */
const STOP_WORDS = new Set(['stop', 'stopall', 'unsubscribe', 'cancel', 'end', 'quit']);

export function isStopReply(text: string): boolean {
  const first = text.trim().split(/\s+/)[0] ?? '';
  return STOP_WORDS.has(first.toLowerCase().replace(/[^a-z]/g, ''));
}

/** Kilometres between two points (haversine): the shortlist's distance score. */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Daily visitors a tier needs to pay off (a bigger machine wants a busier venue). */
export const VISITORS_FOR_TIER: Record<string, number> = { entry: 150, pro: 300, 'pro-max': 600 };

/**
 * The shortlist score, 0–100: foot traffic against what the tier needs (50), nearness to the requested spot
 * (30; full within 1 km, none past 50 km; full when no spot was given), the vertical asked for (10), and
 * being reachable (10: an e-mail or phone).
 */
export function scoreVenue(
  v: { lat: number; lng: number; vertical: string; dailyVisitors: number; email: string | null; phone: string | null },
  want: { tier: string; near: { lat: number; lng: number } | null; vertical: string | null },
): { score: number; distanceKm: number | null } {
  const need = VISITORS_FOR_TIER[want.tier] ?? 300;
  const traffic = 50 * Math.min(1, v.dailyVisitors / need);
  const km = want.near ? distanceKm(want.near, v) : null;
  const near = km === null ? 30 : 30 * Math.max(0, Math.min(1, (50 - km) / 49));
  const vertical = want.vertical === null || want.vertical === v.vertical ? 10 : 0;
  const reach = v.email || v.phone ? 10 : 0;
  return { score: Math.round((traffic + near + vertical + reach) * 10) / 10, distanceKm: km === null ? null : Math.round(km * 100) / 100 };
}
