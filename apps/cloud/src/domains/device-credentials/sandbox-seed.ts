import type { Repos } from '../../repos.ts';
import { ARM_TTL } from './device-credentials.schemas.ts';

/** The sandbox admin key's id and email: the attribution of the seed's arms. */
const SEED_ARMER = { key: '5bada0000000a001', email: 'admin@sandbox.vend.test' } as const;

/**
 * This domain's part of the sandbox data set: makes the seed fleet enrollable for the demo. Every
 * seed machine gets an identity row and an open enrolment arm for the longest window (24 h from the
 * seed or reset), unpinned, so a simulated cabinet presenting the fleet secret can enrol once. After
 * 24 h (or after it enrolled), re-arm with the admin key (docs/sandbox.md). Runs inside the seed's
 * transaction; ids are deterministic.
 */
export async function seedEnrolmentArms(tx: Repos, now: number): Promise<void> {
  const repo = tx.deviceCredentials;
  for (const m of await repo.sandboxMachines()) {
    await repo.ensureIdentity(m.id, now);
    await repo.insertArm({
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
    });
  }
}
