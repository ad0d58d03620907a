import type { Principal } from '../../http/principal.ts';

/**
 * Whether the caller may see a machine owned by `operatorId`: admins see every machine, operators
 * their own; an unclaimed machine (no owner) only admins. Everything else answers 404 "Machine not found".
 */
export function canSeeMachine(p: Principal, operatorId: string | null): boolean {
  return p.admin || (operatorId !== null && operatorId === p.operatorId);
}
