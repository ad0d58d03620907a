import type { CommissionRule } from '../machines/machines.repo.ts';
import { isKnownZone, parseWallClock, zonedToEpoch } from '../calendar/local-time.ts';

/** When host commission starts for one attachment of a machine to a venue, and which rule chose it. */
export interface Accrual {
  from: number;
  rule: CommissionRule;
}

/** What the accrual rule for a venue naming a machine (POST/PATCH venue) looks at. */
export interface NamingInput {
  now: number;
  /** The venue the machine is attached to right now (another one: naming it here is a move); null: none. */
  currentVenueId: string | null;
  /** When the machine last left a venue (its latest move, a detach); null if it never was at one. */
  lastLeftAt: number | null;
  /** The machine's first sale (its earliest order); null if it never sold. */
  firstSaleAt: number | null;
  /** The start of the venue's `deploymentDate` in the machine's time zone; null without one. */
  deploymentStart: number | null;
}

/**
 * Spec 1 §4.3 rule 6 and §4.8. A venue naming a machine is a move (commission from now), except for a
 * machine that already sold and is at no other venue: then commission accrues from the venue's
 * deployment date, else from the machine's first sale — never earlier than the moment it left its last
 * venue, so two venues never accrue on one machine at once. A machine at another venue is moved:
 * the old venue stops at this moment and the new one starts at it.
 */
export function accrualOnNaming(i: NamingInput): Accrual {
  if (i.currentVenueId !== null || i.firstSaleAt === null) return { from: i.now, rule: 'move' };
  const start = i.deploymentStart ?? i.firstSaleAt;
  return { from: Math.max(start, i.lastLeftAt ?? start), rule: i.deploymentStart !== null ? 'deploymentDate' : 'firstSale' };
}

/** The first instant of `date` (YYYY-MM-DD) in `zone` (UTC when the machine has no known zone). */
export function startOfDate(date: string, zone: string | null): number {
  const w = parseWallClock(`${date} 00:00:00`);
  if (!w) throw new Error(`not a date: ${date}`);
  return zonedToEpoch(w, zone !== null && isKnownZone(zone) ? zone : 'UTC');
}

/** One row of a machine's venue history, as the venue read needs it. */
export interface MoveRecord {
  id: string;
  machineNo: string;
  venueId: string | null;
  movedAt: number;
  accruesFrom: number | null;
  rule: string | null;
  seq: number | null;
}

/** One stay of a machine at a venue: attached at `attachedAt`, accruing from `commissionFrom` until `until` (null: still there). */
export interface Stint {
  venueId: string;
  machineNo: string;
  attachedAt: number;
  commissionFrom: number;
  commissionRule: CommissionRule;
  until: number | null;
}

function byHistory(a: MoveRecord, b: MoveRecord): number {
  return a.movedAt - b.movedAt || (a.seq ?? 0) - (b.seq ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Every machine's stays at venues from its move rows: a move to a venue opens a stay, the machine's
 * next move (to another venue or a detach) closes it. Rows before migration 0012 read as `move` from `moved_at`.
 */
export function stintsOf(moves: readonly MoveRecord[]): Stint[] {
  const byMachine = new Map<string, MoveRecord[]>();
  for (const m of moves) {
    const list = byMachine.get(m.machineNo) ?? [];
    list.push(m);
    byMachine.set(m.machineNo, list);
  }
  const out: Stint[] = [];
  for (const list of byMachine.values()) {
    list.sort(byHistory);
    list.forEach((m, i) => {
      if (m.venueId === null) return;
      const rule = m.rule === 'deploymentDate' || m.rule === 'firstSale' ? m.rule : 'move';
      out.push({
        venueId: m.venueId,
        machineNo: m.machineNo,
        attachedAt: m.movedAt,
        commissionFrom: m.accruesFrom ?? m.movedAt,
        commissionRule: rule,
        until: list[i + 1]?.movedAt ?? null,
      });
    });
  }
  return out.sort((a, b) => a.attachedAt - b.attachedAt || (a.machineNo < b.machineNo ? -1 : a.machineNo > b.machineNo ? 1 : 0));
}

/**
 * The part of [periodStart, periodEnd) in which a stay accrues commission: [max(from, start), min(until, end)),
 * null when empty. What a P&L host line sums sales over.
 */
export function accruingWindow(s: Pick<Stint, 'commissionFrom' | 'until'>, periodStart: number, periodEnd: number): { from: number; to: number } | null {
  const from = Math.max(s.commissionFrom, periodStart);
  const to = Math.min(s.until ?? periodEnd, periodEnd);
  return from < to ? { from, to } : null;
}
