import type { Principal } from '../../http/principal.ts';

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
  return p.admin || (machine.operator_id !== null && machine.operator_id === p.operatorId);
}

/** The machine numbers a list may show this caller: an access-group session's machines, else null (the ownership filter alone). */
export function fenceFilter(p: Principal): readonly string[] | null {
  return p.fence ? [...p.fence.machineNos] : null;
}
