/** The pure rules of restock runs: the states and their moves, who may cancel, the pick list and its totals. */
import type { CrewRole } from '../crews/crews.rules.ts';

export const RUN_STATUSES = ['planned', 'in_progress', 'done', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run is open until it is done or cancelled; a machine has at most one open run. */
export const OPEN_STATUSES = ['planned', 'in_progress'] as const satisfies readonly RunStatus[];

export const RUN_ACTIONS = ['start', 'complete', 'cancel'] as const;
export type RunAction = (typeof RUN_ACTIONS)[number];

/**
 * The moves: start `planned` → `in_progress`; complete `planned` or `in_progress` → `done` (completing
 * implies starting: drivers forget to press start); cancel `planned` or `in_progress` → `cancelled`.
 */
const MOVES: Record<RunAction, { from: readonly RunStatus[]; to: RunStatus }> = {
  start: { from: ['planned'], to: 'in_progress' },
  complete: { from: OPEN_STATUSES, to: 'done' },
  cancel: { from: OPEN_STATUSES, to: 'cancelled' },
};

/** The states `action` may leave from (what its conditional UPDATE matches). */
export function sourcesOf(action: RunAction): readonly RunStatus[] {
  return MOVES[action].from;
}

/** Where `action` takes a run in `from`; null when the move is not allowed. */
export function nextStatus(from: RunStatus, action: RunAction): RunStatus | null {
  const move = MOVES[action];
  return move.from.includes(from) ? move.to : null;
}

/** The 409 message of a refused move: it names the current status. */
export function refusalOf(action: RunAction, current: RunStatus): string {
  return `Cannot ${action} a restock run that is ${current}`;
}

export function isOpen(status: RunStatus): boolean {
  return (OPEN_STATUSES as readonly RunStatus[]).includes(status);
}

/** Cancel: the run's creator, or the crew's owners and admins. (Any member may start and complete.) */
export function mayCancel(role: CrewRole, isCreator: boolean): boolean {
  return isCreator || role === 'owner' || role === 'admin';
}

/** An aisle as the pick list reads it. */
export interface PlanAisle {
  aisleNo: number;
  currentStock: number;
  maxStock: number;
  faulted: boolean;
  sku: string | null;
  productName: string | null;
}

export interface PickLine {
  aisleNo: number;
  sku: string | null;
  productName: string | null;
  stockAtPlan: number;
  par: number;
  pick: number;
  faulted: boolean;
}

/**
 * One line per aisle, from par levels: par = the aisle's maxStock, pick = max(0, par − currentStock).
 * A faulted aisle picks nothing (its mechanism would jam the new stock): pick 0, `faulted: true`.
 */
export function pickList(aisles: readonly PlanAisle[]): PickLine[] {
  return [...aisles]
    .sort((a, b) => a.aisleNo - b.aisleNo)
    .map((a) => ({
      aisleNo: a.aisleNo,
      sku: a.sku,
      productName: a.productName,
      stockAtPlan: a.currentStock,
      par: a.maxStock,
      pick: a.faulted ? 0 : Math.max(0, a.maxStock - a.currentStock),
      faulted: a.faulted,
    }));
}

export interface PickTotal {
  sku: string | null;
  productName: string;
  pick: number;
}

/**
 * How many of what to bring: the picks summed by SKU (named after the SKU's first aisle's product, else
 * the SKU), in aisle order of first appearance; an aisle without a SKU is its own group, named
 * "aisle N". Groups that pick nothing are left out.
 */
export function totalsOf(lines: readonly Pick<PickLine, 'aisleNo' | 'sku' | 'productName' | 'pick'>[]): PickTotal[] {
  const groups = new Map<string, PickTotal>();
  for (const l of [...lines].sort((a, b) => a.aisleNo - b.aisleNo)) {
    const key = l.sku === null ? `aisle:${l.aisleNo}` : `sku:${l.sku}`;
    const g = groups.get(key);
    if (g) g.pick += l.pick;
    else groups.set(key, { sku: l.sku, productName: l.sku === null ? `aisle ${l.aisleNo}` : (l.productName ?? l.sku), pick: l.pick });
  }
  return [...groups.values()].filter((g) => g.pick > 0);
}

/** The aisle numbers listed more than once, ascending (a completion body must list each aisle once). */
export function duplicateAisles(aisleNos: readonly number[]): number[] {
  const seen = new Set<number>();
  const dup = new Set<number>();
  for (const n of aisleNos) (seen.has(n) ? dup : seen).add(n);
  return [...dup].sort((a, b) => a - b);
}

export function isRunStatus(s: string): s is RunStatus {
  return (RUN_STATUSES as readonly string[]).includes(s);
}

/** A machine as the fleet pick list reads it. */
export interface FleetMachine {
  machineNo: string;
  name: string;
  aisles: readonly PlanAisle[];
}

export interface FleetPickProduct {
  sku: string;
  productName: string;
  units: number;
  machines: { machineNo: string; name: string; units: number; aisles: { aisleNo: number; units: number }[] }[];
}

export interface FleetPickList {
  machines: number;
  units: number;
  products: FleetPickProduct[];
  faulted: { machineNo: string; aisleNo: number; sku: string | null; productName: string | null }[];
}

/**
 * What to load on the truck for a fleet: each machine's aisles through `pickList` (the same par-level rule
 * a run plans with: pick = max(0, maxStock − currentStock), a faulted aisle picks nothing), summed per SKU
 * across the machines, with each machine's aisles. An aisle without a SKU has no product to load and is left
 * out; faulted aisles with a product are listed apart (not loaded until repaired). Products by units
 * (most first), then name; machines by machine number; lines that pick nothing are left out.
 */
export function fleetPickList(machines: readonly FleetMachine[]): FleetPickList {
  const products = new Map<string, FleetPickProduct>();
  const faulted: FleetPickList['faulted'] = [];
  const sorted = [...machines].sort((a, b) => (a.machineNo < b.machineNo ? -1 : a.machineNo > b.machineNo ? 1 : 0));
  for (const m of sorted) {
    for (const l of pickList(m.aisles)) {
      if (l.faulted) {
        if (l.sku !== null) faulted.push({ machineNo: m.machineNo, aisleNo: l.aisleNo, sku: l.sku, productName: l.productName });
        continue;
      }
      if (l.sku === null || l.pick === 0) continue;
      let p = products.get(l.sku);
      if (!p) products.set(l.sku, (p = { sku: l.sku, productName: l.productName ?? l.sku, units: 0, machines: [] }));
      let at = p.machines.find((x) => x.machineNo === m.machineNo);
      if (!at) p.machines.push((at = { machineNo: m.machineNo, name: m.name, units: 0, aisles: [] }));
      at.aisles.push({ aisleNo: l.aisleNo, units: l.pick });
      at.units += l.pick;
      p.units += l.pick;
    }
  }
  const list = [...products.values()].sort((a, b) => b.units - a.units || a.productName.localeCompare(b.productName));
  return { machines: machines.length, units: list.reduce((s, p) => s + p.units, 0), products: list, faulted };
}
