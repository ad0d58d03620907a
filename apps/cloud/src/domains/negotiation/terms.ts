/**
 * The vocabulary of a negotiation (spec 3 §2): the operator's mandate (envelope), a proposal (a term-sheet
 * version) and how a proposal sits against the mandate. Pure: no I/O, no clock.
 *
 * Revenue shares move in half-point steps: every share the engine or the sandbox venue proposes is a multiple
 * of 0.5, exact in binary floating point, so a replay is the same bytes on every platform.
 */

export const POWER_ARRANGEMENTS = ['venue_outlet', 'operator_reimburses', 'dedicated_circuit'] as const;
export type PowerArrangement = (typeof POWER_ARRANGEMENTS)[number];

/** Extra asks a venue may make; the mandate lists the ones that are deal-breakers. */
export const VENUE_ASKS = ['exclusivity', 'upfront_fee', 'removal_on_demand', 'minimum_guarantee'] as const;
export type VenueAsk = (typeof VENUE_ASKS)[number];

/** Venue verticals: prior convergence is compared within one (key rule 3). */
export const VERTICALS = ['office', 'gym', 'hotel', 'school', 'hospital', 'retail', 'transit', 'laundromat', 'other'] as const;
export type Vertical = (typeof VERTICALS)[number];

export interface Mandate {
  revenueShareTargetPct: number;
  revenueShareMaxPct: number;
  termMinMonths: number;
  termTargetMonths: number;
  termMaxMonths: number;
  powerArrangements: PowerArrangement[];
  /** Install dates the operator can meet, `YYYY-MM-DD`, inclusive. */
  installWindow: { earliest: string; latest: string };
  dealBreakers: VenueAsk[];
}

export interface Proposal {
  revenueSharePct: number;
  termMonths: number;
  power: PowerArrangement;
  installDate: string;
  asks: VenueAsk[];
}

/** Why a proposal is outside the mandate (empty: inside). */
export function outsideEnvelope(m: Mandate, p: Proposal): string[] {
  const v: string[] = [];
  if (p.revenueSharePct > m.revenueShareMaxPct) v.push(`revenue share ${p.revenueSharePct}% above the mandate max`);
  if (p.termMonths < m.termMinMonths || p.termMonths > m.termMaxMonths) v.push(`term ${p.termMonths} months outside the mandate`);
  if (!m.powerArrangements.includes(p.power)) v.push(`power arrangement ${p.power} not acceptable`);
  if (p.installDate < m.installWindow.earliest || p.installDate > m.installWindow.latest) v.push(`install date ${p.installDate} outside the install window`);
  for (const a of p.asks) if (m.dealBreakers.includes(a)) v.push(`${a} is a deal-breaker`);
  return v;
}

/**
 * The asks of a venue turn that fall outside the mandate for reasons other than the price (key rule 2's
 * "out-of-mandate asks"): haggling over the share is the negotiation itself, so a share above the max is
 * not one; a deal-breaker ask, an unacceptable power arrangement, a term or install date out of bounds are.
 */
export function outOfMandateAsks(m: Mandate, p: Proposal): string[] {
  return outsideEnvelope(m, p).filter((v) => !v.startsWith('revenue share'));
}

/** Rounds to the half-point grid. */
export const half = (x: number): number => Math.round(x * 2) / 2;

/** The money part of the mandate the deal record keeps (part 1's envelope). */
export function dealEnvelope(m: Mandate) {
  return {
    revenueShareTargetPct: m.revenueShareTargetPct,
    revenueShareMaxPct: m.revenueShareMaxPct,
    termMinMonths: m.termMinMonths,
    termTargetMonths: m.termTargetMonths,
    termMaxMonths: m.termMaxMonths,
  };
}

/** A stable 32-bit FNV-1a hash: the sandbox persona's seed and its per-round draws. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A deterministic draw in [0, 1) named by its seed, round and purpose (no generator state to replay). */
export function draw(seed: number, round: number, label: string): number {
  return fnv1a(`${seed}:${round}:${label}`) / 0x1_0000_0000;
}
