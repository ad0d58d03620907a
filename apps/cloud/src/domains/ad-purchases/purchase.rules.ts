import { hashSecret, mintSecret } from '../../crypto/secrets.ts';
import { MONTH_MS, resolveTargets, type FleetScreen } from '../campaigns/campaign.rules.ts';
import type { TargetGeo } from '../campaigns/campaigns.schemas.ts';

/**
 * The rules of self-serve purchases that need no I/O: statuses, the reach and what it resolves to,
 * each operator's targeting, the flight, and the shape of the buyer's tokens.
 */

/**
 * A purchase: `awaiting_payment` (created, intent open) → the signed payment webhook →
 * `pending_approval` → once no line is pending: `approved` (every line approved), `rejected` (every
 * line rejected) or `partially_approved` (some of each). An approval is final; a rejection is final once its
 * refund is issued — until then the buyer may change the ad and send the line back (`pending_approval` again).
 */
export const PURCHASE_STATUSES = ['awaiting_payment', 'pending_approval', 'approved', 'partially_approved', 'rejected'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/**
 * One operator's line: `pending_approval` → `approved` (its campaign airs) or `rejected` (refund owed) →, while the
 * payment is still held (refund owed or failed, not issued), the buyer's resubmit with a new ad → `pending_approval`
 * (a fresh approval; nothing is owed any more).
 */
export const LINE_STATUSES = ['pending_approval', 'approved', 'rejected'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

/** A paid purchase's status, recomputed from its lines (at least one). */
export function purchaseStatusOf(lines: readonly { status: string }[]): PurchaseStatus {
  if (lines.length === 0) throw new RangeError('a paid purchase has at least one line');
  if (lines.some((l) => l.status === 'pending_approval')) return 'pending_approval';
  const approved = lines.filter((l) => l.status === 'approved').length;
  if (approved === lines.length) return 'approved';
  return approved === 0 ? 'rejected' : 'partially_approved';
}

/**
 * Why a line cannot be sent back for approval (a 409 for the buyer), or null when it can: only a rejected line whose
 * refund was not issued (the money is still held: once refunded it is gone, buy again), while its flight has not ended.
 */
export function resubmitRefusal(line: { status: string; refund_status: string | null }, flightEnd: number, now: number): string | null {
  if (line.status !== 'rejected') return `Only a rejected line can be sent for approval again; this one is ${line.status.replace('_', ' ')}`;
  if (line.refund_status === 'issued') return 'This line was already refunded: the payment is no longer held. Buy again for a new ad.';
  if (now >= flightEnd) return 'The flight of this purchase is over: there is nothing left to show the ad in';
  return null;
}

/** Who a purchase reaches (spec 1 §4.7): one kiosk, the kiosks of one or several ZIPs, a city, the whole network. */
export type Reach =
  | { kind: 'machine'; machineNo: string }
  | { kind: 'zip'; zips: [string] }
  | { kind: 'zips'; zips: string[] }
  | { kind: 'city'; city: string }
  | { kind: 'network' };

/** A machine the marketplace may sell: in service, of an operator that opted in. */
export interface SellableMachine extends FleetScreen {
  operatorId: string;
  operatorName: string;
}

/** The campaign targeting a reach becomes on each operator's fleet: the kiosk by name, else the geo target. */
export function targetingOf(reach: Reach): { machines: string[] } | { geo: TargetGeo } {
  switch (reach.kind) {
    case 'machine':
      return { machines: [reach.machineNo] };
    case 'zip':
    case 'zips':
      return { geo: { zips: [...reach.zips] } };
    case 'city':
      return { geo: { city: reach.city } };
    case 'network':
      return { geo: { nationwide: true } };
  }
}

export interface OperatorReach {
  operatorId: string;
  operatorName: string;
  machineNos: string[];
}

/**
 * The machines a reach resolves to now, grouped by operator (by name, then id; machine codes
 * sorted). Resolved with the campaigns' own rule (`resolveTargets`: the screen block's ZIP and city,
 * normalised), so what is quoted is what each operator's campaign will reach on air.
 */
export function resolveReach(reach: Reach, sellable: readonly SellableMachine[]): OperatorReach[] {
  const t = targetingOf(reach);
  const hit = resolveTargets('machines' in t ? { machines: t.machines, geo: null } : { machines: null, geo: t.geo }, sellable);
  const groups = new Map<string, OperatorReach>();
  for (const m of hit) {
    let g = groups.get(m.operatorId);
    if (!g) groups.set(m.operatorId, (g = { operatorId: m.operatorId, operatorName: m.operatorName, machineNos: [] }));
    g.machineNos.push(m.machineNo);
  }
  for (const g of groups.values()) g.machineNos.sort();
  return [...groups.values()].sort((a, b) => a.operatorName.localeCompare(b.operatorName) || (a.operatorId < b.operatorId ? -1 : 1));
}

/** The flight a purchase buys: `months` × 30 days from its start. */
export function flightOf(start: number, months: number): { start: number; end: number } {
  return { start, end: start + months * MONTH_MS };
}

/** The latest day a buyer may ask the flight to start, counted from today. */
export const FLIGHT_START_MAX_DAYS = 90;
const DAY = 86_400_000;

/**
 * When the flight starts: now when no date is asked for; else 00:00 UTC of the date (`YYYY-MM-DD`),
 * or now when that is today. A date before today or more than 90 days ahead is a reason to refuse.
 */
export function flightStartOf(date: string | undefined, now: number): { ok: true; start: number } | { ok: false; reason: string } {
  if (date === undefined) return { ok: true, start: now };
  const day = Date.parse(`${date}T00:00:00Z`);
  const today = Math.floor(now / DAY) * DAY;
  if (day < today) return { ok: false, reason: 'must be today or later' };
  if (day > today + FLIGHT_START_MAX_DAYS * DAY) return { ok: false, reason: `must be at most ${FLIGHT_START_MAX_DAYS} days ahead` };
  return { ok: true, start: Math.max(day, now) };
}

/**
 * A buyer's secret token (status page, creative draft): `<record id>.<43 characters>`. The id finds
 * the row; the secret is stored only as a salted hash and checked in constant time.
 */
export function mintToken(id: string): { token: string; hash: string } {
  const secret = mintSecret();
  return { token: `${id}.${secret}`, hash: hashSecret(secret) };
}

/** A token's record id and secret; null when it is not of that shape. */
export function tokenParts(token: string): { id: string; secret: string } | null {
  const m = /^([a-z]{2,8}_[0-9a-z]{9}[0-9a-f]{16})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : null;
}
