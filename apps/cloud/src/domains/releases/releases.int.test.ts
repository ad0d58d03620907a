import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectRefused, expectStatus } from '../../testing/answers.ts';
import {
  ADMIN,
  ALICE,
  BOB,
  FACTORY,
  OTHER_KEY,
  PREFIX,
  clearReleases,
  countRows,
  del,
  get,
  manifest,
  post,
  publish,
  publishAll,
  put,
  setRollout,
  type PublishedRecord,
} from './releases.test-support.ts';

const RELEASES = '/api/v1/agent/releases';

describe.each(DIALECTS)('agent releases on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect);
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await clearReleases(t);
  });

  /** Posts a manifest and expects a refusal that wrote nothing (no release, no audit record). */
  async function refused(body: unknown, status: number, message?: RegExp) {
    const before = await countRows(t);
    expectRefused(await post(t, RELEASES, body), status, message);
    expect(await countRows(t)).toEqual(before);
  }

  describe('publishing rules (spec 2 §4.5)', () => {
    it('a signature that does not verify against the fleet publishing key is 400', async () => {
      await refused(manifest('1.0.0', { secretKey: OTHER_KEY.secretKey }), 400, /signature does not verify/);
      const good = manifest('1.0.0');
      await refused({ ...good, size: good.size + 1 }, 400, /signature does not verify/);
    });

    it('a url outside the trusted prefix is 400, and so is http://', async () => {
      await refused(manifest('1.0.0', { url: 'https://evil.example.com/agent/vend-agent-1.0.0.tar.gz' }), 400, /outside the trusted artifact prefix/);
      await refused(manifest('1.0.0', { url: `${PREFIX.slice(0, -1)}x/vend-agent.tar.gz` }), 400, /outside the trusted artifact prefix/);
      const m = manifest('1.0.0');
      await refused({ ...m, url: m.url.replace('https://', 'http://') }, 400);
    });

    it('an existing version with different bytes is 409: versions are immutable', async () => {
      await publish(t, manifest('1.0.0'));
      await refused(manifest('1.0.0', { sha256: 'f'.repeat(64) }), 409, /already published with different bytes/);
      await refused(manifest('1.0', { sha256: 'f'.repeat(64) }), 409, /already published/);
    });

    it('an existing version with the same bytes is accepted and answers the existing record', async () => {
      const m = manifest('1.0.0');
      const first = await publish(t, m);
      expect(first).toMatchObject({ version: '1.0.0', sequence: 1, created: true, offered: false });
      const before = await countRows(t);
      const again = await publish(t, { ...m, sequence: 99 });
      expect(again).toEqual({ ...first, created: false });
      expect(await countRows(t)).toEqual(before);
    });

    it('a version that is not dotted-numeric is 400', async () => {
      for (const v of ['1.0.0-beta', 'v1.0', '1..0', '01.0', '1.2.3.4.5', '']) {
        const m = manifest('1.0.0');
        await refused({ ...m, version: v }, 400);
      }
    });

    it('a sha256 that is not 64 lowercase hex characters is 400', async () => {
      const m = manifest('1.0.0');
      for (const sha of ['F'.repeat(64), 'a'.repeat(63), 'a'.repeat(65), 'g'.repeat(64), ` ${'a'.repeat(63)}`]) await refused({ ...m, sha256: sha }, 400);
    });

    it('minFrom not below the release’s own version is 400', async () => {
      await refused(manifest('2.0.0', { minFrom: '2.0.0' }), 400, /must be below/);
      await refused(manifest('2.0.0', { minFrom: '2.0' }), 400, /must be below/);
      await refused(manifest('2.0.0', { minFrom: '2.0.1' }), 400, /must be below/);
    });

    it('minFrom with no published release between it and the version, while one exists below it, is 400: publish the rung first', async () => {
      await publishAll(t, '1.0.0', '1.1.0');
      await refused(manifest('2.0.0', { minFrom: '1.5.0' }), 400, /publish the rung first.*1\.1\.0/);
      // publishing the rung makes the same manifest acceptable
      await publish(t, manifest('1.5.0'));
      expect((await publish(t, manifest('2.0.0', { minFrom: '1.5.0' }))).created).toBe(true);
    });

    it('a published release equal to the floor is a rung', async () => {
      await publishAll(t, '1.0.0', '1.5.0');
      expect((await publish(t, manifest('2.0.0', { minFrom: '1.5.0' }))).created).toBe(true);
    });

    it('still accepted: no minFrom; minFrom at or below the oldest release; a floor naming an unpublished factory build', async () => {
      await publishAll(t, '1.2.0', '1.3.0');
      expect((await publish(t, manifest('1.4.0'))).created).toBe(true);
      expect((await publish(t, manifest('1.5.0', { minFrom: '1.2.0' }))).created).toBe(true);
      expect((await publish(t, manifest('1.6.0', { minFrom: '1.0.0' }))).created).toBe(true);
      // 1.4.7 was never published (a factory build); 1.5.0 sits between it and 2.0.0
      expect((await publish(t, manifest('2.0.0', { minFrom: '1.4.7' }))).created).toBe(true);
    });

    it('a floor on an empty registry is accepted', async () => {
      expect((await publish(t, manifest('3.0.0', { minFrom: '2.9.0' }))).created).toBe(true);
    });

    it('out-of-order publishing is accepted, and sequence is publish order', async () => {
      const order = ['2.0.0', '1.0.0', '1.5.0', '3.0.0', '1.2.0'];
      for (const v of order) await publish(t, manifest(v));
      const list = await expectStatus(get<{ total: number; records: PublishedRecord[] }>(t, RELEASES), 200);
      expect(list.body.data.total).toBe(5);
      expect(list.body.data.records.map((r) => [r.version, r.sequence])).toEqual(order.map((v, i) => [v, i + 1]));
    });

    it('wrong JSON types are 422; unknown and cloud-policy fields are 400; nothing is written', async () => {
      const m = manifest('1.0.0');
      await refused({ ...m, size: String(m.size) }, 422);
      await refused({ ...m, migration: 'false' }, 422);
      await refused({ ...m, allowDowngrade: true }, 400);
      await refused({ ...m, target: '1.0.0' }, 400);
      await refused({ ...m, signatureAlg: 'rsa' }, 400);
      await refused([m], 422);
      await refused({}, 400);
      const raw = await call(t.url, 'POST', RELEASES, { headers: { ...ADMIN, 'content-type': 'application/json' }, body: '{"version":' });
      expect(raw.status).toBe(400);
    });

    it('a publication is audited with the publisher', async () => {
      const seen = new Set((await t.ctx.database.db.selectFrom('audit_log').select('id').execute()).map((a) => a.id));
      await publish(t, manifest('1.0.0'));
      await publish(t, manifest('1.0.0')); // the same bytes again: nothing written, nothing audited
      const fresh = (await t.ctx.database.db.selectFrom('audit_log').selectAll().execute()).filter((a) => !seen.has(a.id));
      expect(fresh).toHaveLength(1);
      expect(fresh[0]).toMatchObject({ action: 'agent.release.publish', resource: 'release:1.0.0', user_id: 'op_sbx_admin', key_id: '5bada0000000a001' });
    });

    it('concurrent publications all land, each with its own sequence number', async () => {
      const versions = ['5.0.1', '5.0.2', '5.0.3', '5.0.4', '5.0.5', '5.0.6'];
      const results = await Promise.all(versions.map((v) => post<PublishedRecord>(t, RELEASES, manifest(v))));
      expect(results.map((r) => r.status)).toEqual(versions.map(() => 200));
      expect(new Set(results.map((r) => r.body.data.sequence))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
      const same = await Promise.all([0, 1, 2, 3].map(() => post<PublishedRecord>(t, RELEASES, manifest('6.0.0'))));
      expect(same.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(same.filter((r) => r.body.data.created)).toHaveLength(1);
      expect((await countRows(t)).releases).toBe(7);
    });

    it('publishing alone offers the release to nobody; a rollout naming it does', async () => {
      await publish(t, manifest('1.0.0'));
      await publish(t, manifest('1.1.0'));
      const view = await expectStatus(get<{ offer: unknown; offerReason: string }>(t, '/api/v1/machines/SBX-ALICE-0001/agent'), 200);
      expect(view.body.data).toMatchObject({ offer: null, offerReason: 'no-rollout' });
      expect((await expectStatus(get<{ records: PublishedRecord[] }>(t, RELEASES), 200)).body.data.records.every((r) => !r.offered)).toBe(true);
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 100 }), 200);
      const after = await expectStatus(get<{ offer: { version: string } | null }>(t, '/api/v1/machines/SBX-ALICE-0001/agent'), 200);
      expect(after.body.data.offer?.version).toBe('1.1.0');
      const list = await expectStatus(get<{ records: PublishedRecord[] }>(t, RELEASES), 200);
      expect(list.body.data.records.map((r) => [r.version, r.offered])).toEqual([
        ['1.0.0', false],
        ['1.1.0', true],
      ]);
    });
  });

  describe('access', () => {
    it('operators and factory keys get 403 on every admin call, and write nothing', async () => {
      await publish(t, manifest('1.0.0'));
      const before = await countRows(t);
      for (const who of [ALICE, BOB, FACTORY]) {
        await expectStatus(post(t, RELEASES, manifest('1.1.0'), who), 403);
        await expectStatus(get(t, RELEASES, who), 403);
        await expectStatus(put(t, '/api/v1/agent/rollout', { targetVersion: '1.0.0' }, who), 403);
        await expectStatus(post(t, '/api/v1/agent/rollout/hold', { reason: 'x' }, who), 403);
        await expectStatus(post(t, '/api/v1/agent/rollout/resume', {}, who), 403);
        await expectStatus(post(t, '/api/v1/machines/SBX-ALICE-0001/agent/pin', { version: '1.0.0', reason: 'mine' }, who), 403);
        await expectStatus(del(t, '/api/v1/machines/SBX-ALICE-0001/agent/pin', who), 403);
        await expectStatus(get(t, '/api/v1/machines/SBX-ALICE-0001/agent', who), 403);
      }
      expect(await countRows(t)).toEqual(before);
    });

    it('no credential is 401', async () => {
      await expectStatus(post(t, RELEASES, manifest('1.0.0'), {}), 401);
      await expectStatus(get(t, '/api/v1/agent/fleet', {}), 401);
    });
  });

  describe('the rollout', () => {
    beforeEach(async () => {
      await publishAll(t, '1.0.0', '1.1.0', '1.2.0');
    });

    it('a target that is not published is 404 and writes nothing', async () => {
      const before = await countRows(t);
      const r = await expectStatus(setRollout(t, { targetVersion: '9.9.9' }), 404);
      expect(r.body.message).toMatch(/9\.9\.9/);
      expect(await countRows(t)).toEqual(before);
    });

    it('defaults: rolling, no canary, percent 0, no downgrade, empty note — which reaches nobody', async () => {
      const r = await expectStatus(setRollout(t, { targetVersion: '1.1' }), 200);
      expect(r.body.data).toMatchObject({
        targetVersion: '1.1.0',
        phase: 'rolling',
        canary: [],
        percent: 0,
        allowDowngrade: false,
        note: '',
        holdReason: null,
      });
      const fleet = await expectStatus(get<{ eligible: number; target: string }>(t, '/api/v1/agent/fleet'), 200);
      expect(fleet.body.data).toMatchObject({ target: '1.1.0', eligible: 0 });
    });

    it('replaces the one fleet-wide rollout', async () => {
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 10, note: 'first wave' }), 200);
      await expectStatus(setRollout(t, { targetVersion: '1.2.0', canary: ['SBX-BOB-0001', 'SBX-BOB-0001'] }), 200);
      expect((await countRows(t)).rollout).toBe(1);
      const r = await expectStatus(get(t, '/api/v1/agent/rollout'), 200);
      expect(r.body.data).toMatchObject({ targetVersion: '1.2.0', canary: ['SBX-BOB-0001'], percent: 0, note: '' });
    });

    it('refuses unknown canary machines, out-of-range percents and bad phases with 400, wrong types with 422', async () => {
      const before = await countRows(t);
      expect((await expectStatus(setRollout(t, { targetVersion: '1.1.0', canary: ['NO-SUCH-CAB-01'] }), 400)).body.message).toMatch(/NO-SUCH-CAB-01/);
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 101 }), 400);
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: -1 }), 400);
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', phase: 'paused' }), 400);
      await expectStatus(setRollout(t, { targetVersion: 'latest' }), 400);
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: '50' }), 422);
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 2.5 }), 422);
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', allowDowngrade: 'yes' }), 422);
      expect(await countRows(t)).toEqual(before);
    });

    it('hold and resume answer 409 with no rollout in flight', async () => {
      await expectStatus(post(t, '/api/v1/agent/rollout/hold', { reason: 'bad crash reports' }), 409);
      await expectStatus(post(t, '/api/v1/agent/rollout/resume', {}), 409);
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', phase: 'complete' }), 200);
      await expectStatus(post(t, '/api/v1/agent/rollout/hold', { reason: 'bad crash reports' }), 409);
      await expectStatus(post(t, '/api/v1/agent/rollout/resume', {}), 409);
    });

    it('hold: upgraded cabinets keep the version and nobody else is offered it; resume offers again', async () => {
      const seen = new Set((await t.ctx.database.db.selectFrom('audit_log').select('id').execute()).map((a) => a.id));
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 100 }), 200);
      const offerOf = async (no: string) =>
        (await expectStatus(get<{ offer: { version: string } | null }>(t, `/api/v1/machines/${no}/agent`), 200)).body.data.offer;
      expect((await offerOf('SBX-ALICE-0001'))?.version).toBe('1.1.0');
      const held = await expectStatus(post(t, '/api/v1/agent/rollout/hold', { reason: 'crash loop on 1.1.0' }), 200);
      expect(held.body.data).toMatchObject({ phase: 'held', holdReason: 'crash loop on 1.1.0' });
      expect(await offerOf('SBX-ALICE-0001')).toBeNull();
      // a second hold changes nothing
      const again = await expectStatus(post(t, '/api/v1/agent/rollout/hold', { reason: 'other reason' }), 200);
      expect(again.body.data).toMatchObject({ phase: 'held', holdReason: 'crash loop on 1.1.0' });
      const resumed = await expectStatus(post(t, '/api/v1/agent/rollout/resume', {}), 200);
      expect(resumed.body.data).toMatchObject({ phase: 'rolling', holdReason: null, heldAt: null });
      expect((await offerOf('SBX-ALICE-0001'))?.version).toBe('1.1.0');
      const actions = (await t.ctx.database.db.selectFrom('audit_log').select(['id', 'action']).execute()).filter((a) => !seen.has(a.id)).map((a) => a.action);
      expect(actions.sort()).toEqual(['agent.rollout.hold', 'agent.rollout.resume', 'agent.rollout.set']);
    });

    it('hold needs a reason (400)', async () => {
      await expectStatus(setRollout(t, { targetVersion: '1.1.0' }), 200);
      await expectStatus(post(t, '/api/v1/agent/rollout/hold', {}), 400);
      await expectStatus(post(t, '/api/v1/agent/rollout/hold', { reason: '   ' }), 400);
    });

    it('rollback: a rollout at an older version with allowDowngrade offers the older version; without it, nothing', async () => {
      await t.ctx.database.db.updateTable('machines').set({ agent_version: '1.2.0' }).where('machine_no', '=', 'SBX-ALICE-0002').execute();
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 100 }), 200);
      const before = await expectStatus(get<{ offer: unknown; offerReason: string }>(t, '/api/v1/machines/SBX-ALICE-0002/agent'), 200);
      expect(before.body.data).toMatchObject({ offer: null, offerReason: 'newer-than-target' });
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 100, allowDowngrade: true }), 200);
      const after = await expectStatus(get<{ offer: { version: string; allowDowngrade: boolean } }>(t, '/api/v1/machines/SBX-ALICE-0002/agent'), 200);
      expect(after.body.data.offer).toMatchObject({ version: '1.1.0', allowDowngrade: true, isFinalStep: true });
    });
  });

  describe('pins', () => {
    const PIN = '/api/v1/machines/SBX-ALICE-0001/agent/pin';
    beforeEach(async () => {
      await publishAll(t, '1.0.0', '1.1.0', '1.2.0');
    });

    it('needs a published version (404) and a reason of at least 4 characters (400); unknown machines are 404', async () => {
      const before = await countRows(t);
      await expectStatus(post(t, PIN, { version: '7.0.0', reason: 'try it' }), 404);
      await expectStatus(post(t, PIN, { version: '1.1.0', reason: 'abc' }), 400);
      await expectStatus(post(t, PIN, { version: '1.1.0' }), 400);
      await expectStatus(post(t, PIN, { version: 110, reason: 'try it' }), 422);
      await expectStatus(post(t, '/api/v1/machines/NO-SUCH-MACHINE/agent/pin', { version: '1.1.0', reason: 'try it' }), 404);
      expect(await countRows(t)).toEqual(before);
    });

    it('outranks the rollout upward: a cabinet outside the cohort is offered its pin', async () => {
      await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 0 }), 200);
      const r = await expectStatus(
        post<{ pin: { version: string; reason: string }; offer: { version: string } }>(t, PIN, { version: '1.2.0', reason: 'field test' }),
        200,
      );
      expect(r.body.data.pin).toMatchObject({ version: '1.2.0', reason: 'field test' });
      expect(r.body.data.offer.version).toBe('1.2.0');
    });

    it('outranks the rollout downward: a pinned cabinet is offered the older version without allowDowngrade', async () => {
      await t.ctx.database.db.updateTable('machines').set({ agent_version: '1.2.0' }).where('machine_no', '=', 'SBX-ALICE-0001').execute();
      await expectStatus(setRollout(t, { targetVersion: '1.2.0', percent: 100 }), 200);
      const r = await expectStatus(
        post<{ offer: { version: string; allowDowngrade: boolean } }>(t, PIN, { version: '1.0.0', reason: 'regression on this site' }),
        200,
      );
      expect(r.body.data.offer).toMatchObject({ version: '1.0.0', allowDowngrade: true });
    });

    it('replaces an earlier pin; DELETE removes it (removed false when there was none)', async () => {
      await expectStatus(post(t, PIN, { version: '1.1.0', reason: 'first' + ' pin' }), 200);
      await expectStatus(post(t, PIN, { version: '1.2.0', reason: 'second pin' }), 200);
      expect((await countRows(t)).pins).toBe(1);
      const removed = await expectStatus(del(t, PIN), 200);
      expect(removed.body.data).toEqual({ machineNo: 'SBX-ALICE-0001', removed: true, pin: null });
      const again = await expectStatus(del(t, PIN), 200);
      expect(again.body.data).toEqual({ machineNo: 'SBX-ALICE-0001', removed: false, pin: null });
      expect((await countRows(t)).pins).toBe(0);
      const view = await expectStatus(get<{ pin: unknown }>(t, '/api/v1/machines/SBX-ALICE-0001/agent'), 200);
      expect(view.body.data.pin).toBeNull();
    });
  });
});
