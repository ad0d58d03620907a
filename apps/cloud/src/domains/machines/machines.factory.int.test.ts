import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import { ADMIN, ALICE, FACTORY, machineRow, newSerial, provision } from '../gateway/gateway.test-support.ts';

/** Spec 2 §5 rule 6: factory cabinets are never registered to an operator at the factory. */
describe.each(DIALECTS)('registering a factory build on %s', (dialect) => {
  const t = suiteServer(dialect);

  const register = (machineNo: string, headers: Record<string, string> = ALICE, extra: Record<string, unknown> = {}) =>
    call(t.url, 'POST', '/api/v1/machines/register', { headers, json: { machineNo, ...extra } });
  const build = (machineNo: string) => expectStatus(call(t.url, 'POST', '/api/v1/factory/builds', { headers: FACTORY, json: { machineNo } }), 200);
  const patch = (machineNo: string, json: Record<string, unknown>) =>
    expectStatus(call(t.url, 'PATCH', `/api/v1/factory/builds/${machineNo}`, { headers: FACTORY, json }), 200);

  it('a pool cabinet whose build record has not shipped cannot be claimed; once shipped it can', async () => {
    const serial = await provision(t, newSerial('FAB'));
    await build(serial);
    const refused = await expectStatus(register(serial), 409);
    expect(refused.body.message).toContain('factory build');
    expect(refused.body.message).toContain('not shipped');
    expect((await machineRow(t, serial)).operator_id).toBeNull();
    await patch(serial, { qaPassed: true });
    await expectStatus(register(serial), 409);
    await patch(serial, { shipped: true });
    await expectStatus(register(serial), 200);
    expect((await machineRow(t, serial)).operator_id).not.toBeNull();
  });

  it('an unseen serial with an unshipped build record cannot be registered either, not even by an admin for an operator', async () => {
    const serial = newSerial('FAB');
    await build(serial);
    await expectStatus(register(serial), 409);
    await expectStatus(register(serial, ADMIN, { operatorEmail: 'alice@sandbox.vend.test' }), 409);
    expect(await t.ctx.database.db.selectFrom('machines').select('id').where('machine_no', '=', serial).execute()).toHaveLength(0);
  });
});
