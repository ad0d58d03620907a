import { normalizeCity, normalizePostalCode } from '../machines/screen.ts';
import type { CampaignStatus, TargetGeo } from './campaigns.schemas.ts';

/**
 * The campaign lifecycle (spec 1 §3; the source states the spec leaves open, docs/decisions/screen-ads.md):
 * draft → active (a creative attached); active ⇄ paused; active or paused → completed (final).
 * A draft is deleted, not completed. Every other move is a 409 naming the state.
 */
export const LIFECYCLE = {
  activate: { from: ['draft', 'paused'], to: 'active' },
  pause: { from: ['active'], to: 'paused' },
  complete: { from: ['active', 'paused'], to: 'completed' },
} as const satisfies Record<string, { from: readonly CampaignStatus[]; to: CampaignStatus }>;
export type LifecycleAction = keyof typeof LIFECYCLE;

/** Studio generations per campaign (spec 1 §8). */
export const GENERATIONS_MAX = 3;
/** A month of flat-monthly pricing: 30 days (the subscription period of spec 1 §2.10 uses the same). */
export const MONTH_MS = 30 * 86_400_000;

/** A machine of the campaign's fleet, as targeting sees it. */
export interface FleetScreen {
  id: string;
  machineNo: string;
  postalCode: string | null;
  city: string | null;
}

export interface Targeting {
  machines: readonly string[] | null;
  geo: TargetGeo | null;
}

const cityKey = (s: string) => normalizeCity(s).toLowerCase();

/**
 * The machines a campaign reaches now, from its owner's fleet as it is now: named machines, or the
 * geo target resolved at flight time (a machine added to a targeted ZIP later is picked up).
 */
export function resolveTargets<M extends FleetScreen>(t: Targeting, fleet: readonly M[]): M[] {
  if (t.machines) {
    const named = new Set(t.machines);
    return fleet.filter((m) => named.has(m.machineNo));
  }
  const geo = t.geo;
  if (!geo) return [];
  if (geo.nationwide) return [...fleet];
  const zips = new Set((geo.zips ?? []).map(normalizePostalCode));
  const city = geo.city !== undefined ? cityKey(geo.city) : null;
  return fleet.filter(
    (m) => (m.postalCode !== null && zips.has(normalizePostalCode(m.postalCode))) || (city !== null && m.city !== null && cityKey(m.city) === city),
  );
}

export interface FlightFacts {
  status: CampaignStatus;
  flightStart: number | null;
  flightEnd: number | null;
  activatedAt: number | null;
  endedAt: number | null;
}

/** Whether the campaign is on air now: active, past its start and before its end. */
export function inFlight(c: FlightFacts, now: number): boolean {
  return c.status === 'active' && (c.flightStart === null || c.flightStart <= now) && (c.flightEnd === null || now < c.flightEnd);
}

/**
 * The part of the flight that has run by `now`, in ms: from the flight start (or the first
 * activation) to now, stopped at the flight end and at completion. 0 for a draft and before the start.
 */
export function elapsedFlightMs(c: FlightFacts, now: number): number {
  if (c.status === 'draft') return 0;
  const start = c.flightStart ?? c.activatedAt;
  if (start === null) return 0;
  let end = now;
  if (c.flightEnd !== null) end = Math.min(end, c.flightEnd);
  if (c.endedAt !== null) end = Math.min(end, c.endedAt);
  return Math.max(0, end - start);
}

/**
 * Estimated revenue in cents (spec 1 §2.6). Flat-monthly: the contracted value (rate × machines ×
 * flight months) times the fraction of the flight elapsed — that is rate × machines × elapsed months;
 * 0 while draft or before the start, no growth after the end. CPM: rate × impressions / 1000.
 */
export function estRevenueCents(model: string, rateCents: number, machines: number, impressions: number, elapsedMs: number): number {
  if (model === 'cpm') return Math.round((rateCents * impressions) / 1000);
  return Math.round((rateCents * machines * elapsedMs) / MONTH_MS);
}

/** What the campaign is worth per month now: flat = rate × machines; CPM = rate × the last 30 days' impressions / 1000. */
export function estMonthlyValueCents(model: string, rateCents: number, machines: number, impressions30Days: number): number {
  if (model === 'cpm') return Math.round((rateCents * impressions30Days) / 1000);
  return rateCents * machines;
}
