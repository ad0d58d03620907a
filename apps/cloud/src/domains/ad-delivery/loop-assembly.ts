/**
 * The attract loop of one machine (spec 2 §4.2), assembled on every poll in four layers:
 * (1) direct-sold campaigns in flight, each taking `weight` slots; (2) the operator's approved
 * screensavers, a slot each; (3) programmatic fill of what is still unsold, at most
 * `PROGRAMMATIC_MAX` slots; (4) house content padding the tail: the machine's "Advertise on this
 * screen" poster when its screen is for sale, else the operator's own screensavers again — and when
 * the operator has none, nothing: a shorter loop rather than an offer nobody can take
 * (docs/decisions/screen-ads.md "House padding").
 * Pure: the caller gathers campaigns, screensavers and fills and formats the times.
 */

/** Programmatic fill per loop (spec 2 §4.2). */
export const PROGRAMMATIC_MAX = 3;

export type LoopSource = 'direct-sold' | 'programmatic' | 'house';

/** One slot of the loop, times in epoch ms. */
export interface LoopSlot {
  id: string;
  url: string;
  head: string;
  type: 'image' | 'video';
  mediaType: string;
  source: LoopSource;
  campaignId?: string;
  startTime: number;
  endTime: number;
}

export interface DirectCampaign {
  id: string;
  weight: number;
  url: string;
  head: string;
  type: 'image' | 'video';
  mediaType: string;
  startTime: number;
  endTime: number;
}

export interface Screensaver {
  id: string;
  url: string;
  head: string;
  type: 'image' | 'video';
  mediaType: string;
}

/** What a house slot shows, times in epoch ms. */
export type HouseContent = Omit<LoopSlot, 'id' | 'source' | 'campaignId'>;

/** Layer (4): what pads the tail of the loop. */
export type HousePadding =
  /** The machine's screen is sold through the marketplace: its advertise poster (ids `house:poster:<n>`). */
  | { kind: 'advertise'; poster: HouseContent }
  /** It is not: the operator's own screensavers again, in the loop's order (ids `scr:<id>:<n>`); none: no padding. */
  | { kind: 'own'; screensavers: readonly Screensaver[]; rotation: number; dayStart: number; dayEnd: number };

export interface Fill {
  leaseId: string;
  url: string;
  head: string;
  mediaType: string;
  expiresAt: number;
}

/**
 * How many showings each campaign gets in a loop of `slots`. Undersold: its weight. Oversold: shares
 * by weight (largest remainder), the leftover slots going round the campaigns with the loop number so
 * that, over successive loops, each gets its weight's share of screen time.
 */
export function apportion(campaigns: readonly { id: string; weight: number }[], slots: number, rotation: number): number[] {
  const total = campaigns.reduce((s, c) => s + c.weight, 0);
  if (total <= slots) return campaigns.map((c) => c.weight);
  const exact = campaigns.map((c) => (c.weight * slots) / total);
  const counts = exact.map(Math.floor);
  let left = slots - counts.reduce((s, n) => s + n, 0);
  // Largest fractional part first; equal parts in an order that turns with the loop.
  const n = campaigns.length;
  const order = campaigns
    .map((_, i) => i)
    .sort((a, b) => exact[b]! - counts[b]! - (exact[a]! - counts[a]!) || ((((a - rotation) % n) + n) % n) - ((((b - rotation) % n) + n) % n));
  for (const i of order) {
    if (left === 0) break;
    counts[i]!++;
    left--;
  }
  return counts;
}

/**
 * Spreads each campaign's showings through its part of the loop (smooth weighted round robin):
 * weights 2 and 1 give A B A, not A A B, so a sponsor's second showing is not back to back.
 */
export function interleave<T>(items: readonly T[], counts: readonly number[]): T[] {
  const total = counts.reduce((s, n) => s + n, 0);
  const current = counts.map(() => 0);
  const left = [...counts];
  const out: T[] = [];
  for (let k = 0; k < total; k++) {
    let best = -1;
    for (let i = 0; i < items.length; i++) {
      if (left[i] === 0) continue;
      current[i]! += counts[i]!;
      if (best === -1 || current[i]! > current[best]!) best = i;
    }
    current[best]! -= total;
    left[best]!--;
    out.push(items[best]!);
  }
  return out;
}

/** Layers (1) and (2): the slots sold directly or given to screensavers, and how many remain unsold. */
export function planSold(input: {
  slots: number;
  direct: readonly DirectCampaign[];
  screensavers: readonly Screensaver[];
  rotation: number;
  dayStart: number;
  dayEnd: number;
}): { sold: LoopSlot[]; unsold: number } {
  const counts = apportion(input.direct, input.slots, input.rotation);
  const showing = new Map<string, number>();
  const sold: LoopSlot[] = interleave(input.direct, counts).map((c) => {
    const k = (showing.get(c.id) ?? 0) + 1;
    showing.set(c.id, k);
    return {
      id: `cmp:${c.id}:${k}`,
      url: c.url,
      head: c.head,
      type: c.type,
      mediaType: c.mediaType,
      source: 'direct-sold',
      campaignId: c.id,
      startTime: c.startTime,
      endTime: c.endTime,
    };
  });
  // More screensavers than free slots: a window that moves one on with each loop.
  const free = input.slots - sold.length;
  const savers = input.screensavers;
  const take = Math.min(free, savers.length);
  for (let i = 0; i < take; i++) {
    const s = savers[(input.rotation + i) % savers.length]!;
    sold.push(saverSlot(s, `scr:${s.id}`, input));
  }
  return { sold, unsold: input.slots - sold.length };
}

function saverSlot(s: Screensaver, id: string, day: { dayStart: number; dayEnd: number }): LoopSlot {
  return { id, url: s.url, head: s.head, type: s.type, mediaType: s.mediaType, source: 'house', startTime: day.dayStart, endTime: day.dayEnd };
}

/** How many programmatic fills to ask the supply for. */
export function fillWanted(unsold: number): number {
  return Math.max(0, Math.min(PROGRAMMATIC_MAX, unsold));
}

/**
 * Layers (3) and (4): programmatic fills (never more than asked), then the house padding fills the tail to
 * `slots` — the advertise poster, or the operator's screensavers again (a machine whose operator has none
 * gets a loop shorter than `slots`, possibly empty).
 */
export function completeLoop(sold: readonly LoopSlot[], fills: readonly Fill[], input: { slots: number; now: number; house: HousePadding }): LoopSlot[] {
  const loop = [...sold];
  for (const f of fills.slice(0, fillWanted(input.slots - loop.length))) {
    loop.push({
      id: `ssp:${f.leaseId}`,
      url: f.url,
      head: f.head,
      type: f.mediaType.startsWith('video/') ? 'video' : 'image',
      mediaType: f.mediaType,
      source: 'programmatic',
      startTime: input.now,
      endTime: f.expiresAt,
    });
  }
  const house = input.house;
  if (house.kind === 'advertise') {
    for (let i = 1; loop.length < input.slots; i++) loop.push({ ...house.poster, id: `house:poster:${i}`, source: 'house' });
    return loop;
  }
  const savers = house.screensavers;
  if (savers.length === 0) return loop;
  // Again in the order layer (2) showed them, each repeat numbered after its showings so far: `scr:<id>`, then `scr:<id>:2`, …
  const shown = (s: Screensaver) => loop.filter((e) => e.id === `scr:${s.id}` || e.id.startsWith(`scr:${s.id}:`)).length;
  for (let i = 0; loop.length < input.slots; i++) {
    const s = savers[(house.rotation + i) % savers.length]!;
    const k = shown(s) + 1;
    loop.push(saverSlot(s, k === 1 ? `scr:${s.id}` : `scr:${s.id}:${k}`, house));
  }
  return loop;
}
