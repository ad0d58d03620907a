import type { Repos } from '../../repos.ts';
import { AppError, conflict, machineNotFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { MachineRef } from '../machines/machines.repo.ts';
import { canSeeMachine } from '../machines/ownership.ts';

/** Who opened an enrolment arm. */
export type ArmerKind = 'owner' | 'admin' | 'factory';

/**
 * The machine a credential-administration call names, and who the caller is to it: an admin, its
 * owner (who must hold `machines:write`), or — where `allowFactory` — a factory key of the plant whose
 * build record names an unowned cabinet. Anyone else gets the ownership rule's 404.
 */
export async function machineFor(repos: Repos, p: Principal, machineNo: string, allowFactory: boolean): Promise<{ machine: MachineRef; kind: ArmerKind }> {
  const machine = await repos.machines.machineByNo(machineNo);
  if (!machine) throw machineNotFound();
  if (canSeeMachine(p, machine)) {
    if (p.admin) return { machine, kind: 'admin' };
    if (!p.scopes.has('machines:write')) throw new AppError('forbidden');
    return { machine, kind: 'owner' };
  }
  if (allowFactory && p.scopes.has('machines:build')) {
    if (machine.operator_id !== null) throw new AppError('forbidden', 'Factory keys may arm only an unowned cabinet');
    const build = await repos.deviceCredentials.buildRecord(machine.machine_no);
    if (!build || p.plant === null || build.plant !== p.plant) throw new AppError('forbidden', "No build record of this key's plant names this cabinet");
    return { machine, kind: 'factory' };
  }
  // The ownership rule: another operator's machine (or a pool machine) does not exist for this caller.
  throw machineNotFound();
}

export function requireAdmin(p: Principal): void {
  if (!p.admin) throw new AppError('forbidden', 'Admin credential required');
}

export function notRetired(m: Pick<MachineRef, 'machine_no' | 'retired_at'>): void {
  if (m.retired_at !== null) throw conflict(`Machine ${m.machine_no} is retired`);
}
