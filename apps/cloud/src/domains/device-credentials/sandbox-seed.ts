import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { ARM_TTL } from './device-credentials.schemas.ts';

/** The sandbox admin key's id and email: the attribution of the seed's arms. */
const SEED_ARMER = { key: '5bada0000000a001', email: 'admin@sandbox.vend.test' } as const;

/**
 * Makes the seed fleet enrollable for the demo: every seed machine gets an identity row and an open
 * enrolment arm for the longest window (24 h from the seed or reset), unpinned, so a simulated
 * cabinet presenting the fleet secret can enrol once. After 24 h (or after it enrolled), re-arm with
 * the admin key (docs/sandbox.md). Runs inside the seed's transaction; ids are deterministic.
 */
export async function seedGatewaySandbox(db: Kysely<DB>, now: number): Promise<void> {
  const machines = await db.selectFrom('machines').select(['id', 'machine_no']).where('machine_no', 'like', 'SBX-%').orderBy('machine_no').execute();
  for (const m of machines) {
    await db
      .insertInto('device_identities')
      .values({ machine_id: m.id, binding: 'unbound', cred_state: 'fleet-secret', updated_at: now })
      .onConflict((oc) => oc.column('machine_id').doNothing())
      .execute();
    await db
      .insertInto('enrolment_arms')
      .values({
        id: `arm_sbx_${m.machine_no.toLowerCase().replace(/-/g, '')}`,
        machine_id: m.id,
        reason: 'sandbox demo: simulated cabinets enrol with the fleet secret',
        device_id: null,
        armed_by_kind: 'admin',
        armed_by_key: SEED_ARMER.key,
        armed_by_operator: SEED_ARMER.email,
        created_at: now,
        expires_at: now + ARM_TTL.maxMinutes * 60_000,
        closed_at: null,
        closed_reason: null,
      })
      .execute();
  }
}
