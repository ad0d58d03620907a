import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { formatScopes } from '../../http/scopes.ts';
import type { Repos } from '../../repos.ts';
import type { GroupScope } from './access.rules.ts';

const DAY = 86_400_000;
/** Alice's route group (fixed id: two resets on the same day give identical rows). */
export const SEED_GROUP_ID = 'acg_sbx_alice_route';
const ROUTE_MACHINES = ['SBX-ALICE-0001', 'SBX-ALICE-0002'];
const ROUTE_SCOPES: GroupScope[] = ['machines:read', 'inventory:read', 'inventory:write', 'orders:read', 'commands:read'];

/**
 * The access part of the sandbox data set: alice's "Downtown route" group (two of her machines; look,
 * restock and read sales) given to dave, the driver in her crew, so `POST /api/v1/access/session` with
 * dave's key opens a fenced session on first start. Runs after the crews-and-restock step (dave joins
 * alice's crew there).
 */
export async function seedAccess(tx: Repos, now: number): Promise<void> {
  const at = Math.floor(now / DAY) * DAY - 29 * DAY;
  await tx.access.insertGroup({
    id: SEED_GROUP_ID,
    operator_id: OPERATOR_IDS.alice,
    name: 'Downtown route',
    scopes: formatScopes(ROUTE_SCOPES),
    created_at: at,
    updated_at: at,
  });
  const machines = await tx.access.ownedMachines(OPERATOR_IDS.alice, ROUTE_MACHINES);
  await tx.access.setMachines(
    SEED_GROUP_ID,
    machines.map((m) => m.id),
  );
  await tx.access.assign(OPERATOR_IDS.alice, SANDBOX_CREDENTIALS.dave.email, SEED_GROUP_ID, at);
}
