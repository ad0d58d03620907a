import { canSeeOwned } from '../../http/authenticate.ts';
import { machineNotFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { MachineRef, MachinesRepo } from './machines.repo.ts';

/** What the ownership rule reads of a machine. */
export interface OwnedMachine {
  operator_id: string | null;
  machine_no: string;
}

/**
 * Whether the caller may see a machine: admins see every machine, operators their own; an unclaimed
 * machine (no owner) only admins; an access-group session only its group's machines of the operator
 * (docs/decisions/access.md). Everything else answers 404 "Machine not found".
 */
export function canSeeMachine(p: Principal, machine: OwnedMachine): boolean {
  if (p.fence && !p.fence.machineNos.has(machine.machine_no)) return false;
  return canSeeOwned(p, machine.operator_id);
}

/**
 * The one access check on a machine a caller names (as immich's `requireAccess`): the machine the
 * caller's lookup found (by number, locked for a write, as a view), when the ownership rule lets them see
 * it; otherwise 404 "Machine not found" — a missing machine and another operator's answer alike.
 */
export function requireMachineAccess<M extends OwnedMachine>(p: Principal, machine: M | null | undefined): M {
  if (!machine || !canSeeMachine(p, machine)) throw machineNotFound();
  return machine;
}

/**
 * The machine `machineNo` names, looked up and checked by {@link requireMachineAccess}. No stored serial
 * holds a NUL (PostgreSQL text cannot): such a number is not found, without asking the store.
 */
export async function visibleMachine(machines: Pick<MachinesRepo, 'machineByNo'>, p: Principal, machineNo: string): Promise<MachineRef> {
  return requireMachineAccess(p, machineNo.includes('\u0000') ? undefined : await machines.machineByNo(machineNo));
}

/** The machine numbers a list may show this caller: an access-group session's machines, else null (the ownership filter alone). */
export function fenceFilter(p: Principal): readonly string[] | null {
  return p.fence ? [...p.fence.machineNos] : null;
}
