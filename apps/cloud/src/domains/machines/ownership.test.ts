import { describe, expect, it } from 'vitest';
import { canSeeOwned, ownerFilter, requireOwned } from '../../http/authenticate.ts';
import { AppError, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { MachineRef } from './machines.repo.ts';
import { requireMachineAccess, visibleMachine } from './ownership.ts';

const principal = (over: Partial<Principal> = {}): Principal => ({
  operatorId: 'op_alice',
  operatorEmail: 'alice@x.test',
  admin: false,
  scopes: new Set(),
  authMethod: 'api_key',
  credentialId: 'key_1',
  rateLimit: 100,
  plant: null,
  fence: null,
  ...over,
});
const alice = principal();
const admin = principal({ operatorId: 'op_admin', admin: true });
const fenced = principal({ fence: { username: 'tech@x.test', groupId: 'g1', groupName: 'North', machineNos: new Set(['M-1']) } });

const machine = (machine_no: string, operator_id: string | null) => ({ id: `id_${machine_no}`, machine_no, operator_id }) as MachineRef;

/** The status and message a check threw, or 'ok'. */
function outcome(f: () => unknown): string {
  try {
    f();
    return 'ok';
  } catch (e) {
    return e instanceof AppError ? `${e.status} ${e.message}` : String(e);
  }
}

describe('the ownership rule, one check for every record', () => {
  it('lets admins see every record and operators their own, and filters lists the same way', () => {
    expect([canSeeOwned(alice, 'op_alice'), canSeeOwned(alice, 'op_bob'), canSeeOwned(alice, null)]).toEqual([true, false, false]);
    expect([canSeeOwned(admin, 'op_bob'), canSeeOwned(admin, null)]).toEqual([true, true]);
    expect([ownerFilter(alice), ownerFilter(admin)]).toEqual(['op_alice', null]);
  });

  it('answers a missing record and another operator’s with the same 404, the caller’s own with the record', () => {
    const venue = { id: 'v1', operator_id: 'op_bob' };
    expect(outcome(() => requireOwned(alice, venue, () => notFound('Venue')))).toBe('404 Venue not found');
    expect(outcome(() => requireOwned(alice, undefined, () => notFound('Venue')))).toBe('404 Venue not found');
    expect(requireOwned(admin, venue, () => notFound('Venue'))).toBe(venue);
  });

  it('answers a machine outside the caller’s fleet or fence 404 "Machine not found"', () => {
    expect(requireMachineAccess(alice, machine('M-1', 'op_alice')).machine_no).toBe('M-1');
    expect(outcome(() => requireMachineAccess(alice, machine('M-2', 'op_bob')))).toBe('404 Machine not found');
    expect(outcome(() => requireMachineAccess(alice, machine('M-3', null)))).toBe('404 Machine not found'); // the unclaimed pool: admins only
    expect(outcome(() => requireMachineAccess(alice, undefined))).toBe('404 Machine not found');
    expect(requireMachineAccess(admin, machine('M-3', null)).machine_no).toBe('M-3');
    expect(requireMachineAccess(fenced, machine('M-1', 'op_alice')).machine_no).toBe('M-1');
    expect(outcome(() => requireMachineAccess(fenced, machine('M-4', 'op_alice')))).toBe('404 Machine not found');
  });

  it('looks a machine up by number, and never asks the store about a number holding a NUL', async () => {
    const asked: string[] = [];
    const repo = {
      machineByNo: async (no: string) => {
        asked.push(no);
        return no === 'M-1' ? machine('M-1', 'op_alice') : undefined;
      },
    };
    expect((await visibleMachine(repo, alice, 'M-1')).machine_no).toBe('M-1');
    await expect(visibleMachine(repo, alice, 'M-9')).rejects.toThrow('Machine not found');
    await expect(visibleMachine(repo, alice, 'M-1\u0000')).rejects.toThrow('Machine not found');
    expect(asked).toEqual(['M-1', 'M-9']);
  });
});
