import type { AdEntry } from '@vend/protocol';

/** The attract loop's shape (spec 1 §8): 8 slots of 15 s. */
export const LOOP_SLOTS = 8;
export const SLOT_SECONDS = 15;
const DAY = 86_400_000;

/** The id prefix of house content; proof of play for it is recorded with source `house`. */
export const HOUSE_PREFIX = 'house:';

/**
 * House content: the cabinet's own "advertise on this screen" poster. Until direct-sold campaigns,
 * screensavers and programmatic fill are assembled (the ads issue), house content pads every slot,
 * so a loop is never empty. Each entry is valid for the current UTC day.
 */
export function houseLoop(machineNo: string, now: number, formatTime: (ms: number) => string): AdEntry[] {
  const day = Math.floor(now / DAY) * DAY;
  const url = `/advertise/poster/${encodeURIComponent(machineNo)}.png`;
  return Array.from({ length: LOOP_SLOTS }, (_, i) => ({
    id: `${HOUSE_PREFIX}poster:${i + 1}`,
    url,
    head: 'Advertise on this screen — scan the code to book a slot',
    type: 'image',
    startTime: formatTime(day),
    endTime: formatTime(day + DAY - 1),
    source: 'house' as const,
    mediaType: 'image/png',
  }));
}

/** A proof-of-play `playedAt`: ISO 8601 or epoch milliseconds; null when it names no instant. */
export function parsePlayedAt(v: string | number | undefined, now: number): number | null {
  if (v === undefined) return now;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (/^\d{1,15}$/.test(v)) return Number(v);
  const t = Date.parse(v);
  return Number.isFinite(t) && t >= 0 ? t : null;
}
