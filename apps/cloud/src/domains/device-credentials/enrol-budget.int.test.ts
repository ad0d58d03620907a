import { describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { enrol, newDeviceId, newSerial, provision } from '../gateway/gateway.test-support.ts';
import { ENROL_BUDGET } from './device-credentials.schemas.ts';

describe.each(DIALECTS)('enrolment budget under concurrency on %s', (dialect) => {
  const t = suiteServer(dialect);

  it('40 concurrent attempts for one serial: exactly the budget is heard, the rest are 429', async () => {
    const serial = await provision(t, newSerial('BDG'));
    const all = await Promise.all(Array.from({ length: 40 }, () => enrol(t, serial, newDeviceId())));
    const statuses = all.map((r) => r.status);
    // Nothing vouches for these claimants (no arm, no trusted binding): every heard attempt is 428.
    expect(statuses.filter((s) => s === 428)).toHaveLength(ENROL_BUDGET.attempts);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - ENROL_BUDGET.attempts);
    const counted = await t.ctx.database.db.selectFrom('enrolment_attempts').select('id').where('machine_no', '=', serial).execute();
    expect(counted).toHaveLength(ENROL_BUDGET.attempts);
  });
});
