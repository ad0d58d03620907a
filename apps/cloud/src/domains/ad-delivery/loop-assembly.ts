/**
 * The attract loop of one machine (spec 2 §4.2), assembled on every poll in four layers:
 * (1) direct-sold campaigns in flight, each taking `weight` slots; (2) the operator's approved
 * screensavers, a slot each; (3) programmatic fill of what is still unsold, at most
 * `PROGRAMMATIC_MAX` slots; (4) house content padding the tail, so a loop is never empty.
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
    sold.push({
      id: `scr:${s.id}`,
      url: s.url,
      head: s.head,
      type: s.type,
      mediaType: s.mediaType,
      source: 'house',
      startTime: input.dayStart,
      endTime: input.dayEnd,
    });
  }
  return { sold, unsold: input.slots - sold.length };
}

/** How many programmatic fills to ask the supply for. */
export function fillWanted(unsold: number): number {
  return Math.max(0, Math.min(PROGRAMMATIC_MAX, unsold));
}

/** Layers (3) and (4): programmatic fills (never more than asked), then the house entry pads the tail to `slots`. */
export function completeLoop(
  sold: readonly LoopSlot[],
  fills: readonly Fill[],
  input: { slots: number; now: number; house: Omit<LoopSlot, 'id' | 'source' | 'campaignId'> },
): LoopSlot[] {
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
  for (let i = 1; loop.length < input.slots; i++) loop.push({ ...input.house, id: `house:poster:${i}`, source: 'house' });
  return loop;
}
