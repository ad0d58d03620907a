import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import type { Repos } from '../../repos.ts';
import type { RestockService } from './restock.service.ts';

const DAY = 86_400_000;
/** Alice's default crew (fixed id: two resets on the same day give identical rows). */
export const SEED_CREW_ID = 'crw_sbx_alice';
/** The one planned run of the seed, on alice's gym kiosk. */
export const SEED_RUN_ID = 'rst_sbx_alice0002';
const SEED_RUN_MACHINE = 'SBX-ALICE-0002';

/**
 * The crews-and-restock part of the sandbox data set: alice's default crew ("My crew", as her first
 * `GET /crew/mine` would make it) with dave, her route driver, as a member, and one planned restock run
 * of her gym kiosk, planned by her through the same operation the API uses, so dave can start and
 * complete it on first start.
 */
export async function seedRestock(tx: Repos, now: number, deps: { restock: Pick<RestockService, 'planRun'> }): Promise<void> {
  const today = Math.floor(now / DAY) * DAY;
  const c = SANDBOX_CREDENTIALS;
  const crewAt = today - 30 * DAY;
  await tx.crews.insertCrew({ id: SEED_CREW_ID, name: 'My crew', created_by: c.alice.email, default_for: c.alice.email, created_at: crewAt });
  await tx.crews.addMember({ crew_id: SEED_CREW_ID, email: c.alice.email, role: 'owner', joined_at: crewAt });
  await tx.crews.addMember({ crew_id: SEED_CREW_ID, email: c.dave.email, role: 'member', joined_at: crewAt + DAY });
  const machine = await tx.machines.machineByNo(SEED_RUN_MACHINE);
  if (machine?.operator_id !== OPERATOR_IDS.alice) return;
  await deps.restock.planRun(tx, {
    id: SEED_RUN_ID,
    crewId: SEED_CREW_ID,
    machine,
    createdBy: c.alice.email,
    notes: 'Tuesday route: gym kiosk first',
    now: today + 6 * 3_600_000,
  });
}
