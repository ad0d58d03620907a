import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { hashSecret } from '../../crypto/secrets.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import { ADMIN, ALICE, BOB, FACTORY, clearReleases, get, post, publishAll, setAgentArch, setAgentVersion, setRollout } from './releases.test-support.ts';

const START = Date.parse('2026-11-20T12:00:00Z');

interface Counts {
  total: number;
  eligible: number;
  onTarget: number;
  pinned: number;
  deferring: number;
  blocked: number;
  noArtifact: number;
}
interface Rollouts {
  current: null | { targetVersion: string; phase: string; canary: string[]; holdReason: string | null; createdAt: string; progress: Counts };
  page: number;
  size: number;
  total: number;
  history: (Counts & { takenAt: string; targetVersion: string; phase: string })[];
}

/** An API key of alice's holding only inventory:read: it lacks machines:read. */
async function narrowKey(t: TestServer): Promise<Record<string, string>> {
  const id = 'a2a2a2a2a2a2a2a2';
  await t.ctx.database.db
    .insertInto('api_keys')
    .values({
      id,
      operator_id: OPERATOR_IDS.alice,
      name: 'narrow',
      secret_hash: hashSecret('narrow-secret-456'),
      scopes: 'inventory:read',
      rate_limit: null,
      plant: null,
      created_at: 0,
      revoked_at: null,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return { 'x-api-key': `vk_${id}.narrow-secret-456` };
}

describe.each(DIALECTS)('rollout sweep and GET /api/v1/rollouts on %s', (dialect) => {
  let t: TestServer;
  let clock: ManualClock;
  let machineNos: string[];
  const sweep = async () => {
    const r = await t.services.jobs.rolloutSweep.tick();
    clock.advance(60_000);
    return r.resolved;
  };
  const snapshots = () => t.ctx.database.db.selectFrom('rollout_progress').selectAll().orderBy('taken_at', 'asc').execute();
  const rollouts = async (headers: Record<string, string>, query?: Record<string, string>) =>
    (await expectStatus(get<Rollouts>(t, '/api/v1/rollouts', headers, query), 200)).body.data;
  const ownedBy = async (operatorId: string) =>
    (await t.ctx.database.db.selectFrom('machines').select('machine_no').where('operator_id', '=', operatorId).where('retired_at', 'is', null).execute()).map(
      (m) => m.machine_no,
    );

  beforeAll(async () => {
    clock = new ManualClock(START);
    t = await startTestServer(dialect, { clock });
    machineNos = (await t.ctx.database.db.selectFrom('machines').select('machine_no').where('retired_at', 'is', null).execute()).map((m) => m.machine_no);
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    await t.ctx.database.db.deleteFrom('rollout_progress').execute();
    await clearReleases(t);
    for (const no of machineNos) await setAgentVersion(t, no, '1.0.0');
    await t.ctx.database.db.updateTable('machines').set({ agent_arch: null }).execute();
  });

  it('with no rollout the sweep writes nothing and the endpoint answers current null and no history', async () => {
    expect(await sweep()).toBe(0);
    expect(await snapshots()).toEqual([]);
    expect(await rollouts(ADMIN)).toEqual({ current: null, page: 1, size: 20, total: 0, history: [] });
  });

  it('snapshots follow the rollout: rising onTarget as cabinets report the target, nothing on a quiet fleet, a hold and a resume each change the phase', async () => {
    await publishAll(t, '1.0.0', '2.0.0');
    await expectStatus(post(t, '/api/v1/machines/SBX-BOB-0002/agent/pin', { version: '1.0.0', reason: 'venue asked to wait' }), 200);
    await expectStatus(setRollout(t, { targetVersion: '2.0.0', percent: 100 }), 200);
    const n = machineNos.length;
    const firstAt = clock.now();

    expect(await sweep()).toBe(1);
    expect(await sweep()).toBe(0);
    const upgraded = machineNos.filter((no) => no !== 'SBX-BOB-0002').slice(0, 2);
    await setAgentVersion(t, upgraded[0]!, '2.0.0');
    expect(await sweep()).toBe(1);
    expect(await sweep()).toBe(0);
    await setAgentVersion(t, upgraded[1]!, '2.0.0');
    expect(await sweep()).toBe(1);
    await expectStatus(post(t, '/api/v1/agent/rollout/hold', { reason: 'crash reports from the canaries' }), 200);
    expect(await sweep()).toBe(1);
    expect(await sweep()).toBe(0);
    await expectStatus(post(t, '/api/v1/agent/rollout/resume', {}), 200);
    expect(await sweep()).toBe(1);

    const rows = await snapshots();
    expect(rows.map((r) => [r.phase, r.on_target, r.eligible, r.pinned, r.total])).toEqual([
      ['rolling', 0, n - 1, 1, n],
      ['rolling', 1, n - 1, 1, n],
      ['rolling', 2, n - 1, 1, n],
      ['held', 2, n - 1, 1, n],
      ['rolling', 2, n - 1, 1, n],
    ]);
    expect(new Set(rows.map((r) => r.target_version))).toEqual(new Set(['2.0.0']));
    expect(await t.services.jobs.status('rollout-sweep')).toMatchObject({ resolved: 5 });

    // the admin reads them newest first, paged; the counts are the fleet view's
    const all = await rollouts(ADMIN, { size: '100' });
    expect(all.total).toBe(5);
    expect(all.history.map((h) => [h.phase, h.onTarget])).toEqual([
      ['rolling', 2],
      ['held', 2],
      ['rolling', 2],
      ['rolling', 1],
      ['rolling', 0],
    ]);
    expect(all.history[4]!.takenAt).toBe(new Date(firstAt).toISOString().replace('Z', '+0000'));
    const page2 = await rollouts(ADMIN, { page: '2', size: '2' });
    expect(page2).toMatchObject({ page: 2, size: 2, total: 5 });
    expect(page2.history).toEqual(all.history.slice(2, 4));
    const fleet = (await expectStatus(get<Counts>(t, '/api/v1/agent/fleet', ADMIN), 200)).body.data;
    const { total, eligible, onTarget, pinned, deferring, blocked, noArtifact } = fleet;
    expect(all.current?.progress).toEqual({ total, eligible, onTarget, pinned, deferring, blocked, noArtifact });
    expect(all.current).toMatchObject({ targetVersion: '2.0.0', phase: 'rolling', progress: { onTarget: 2, pinned: 1 } });
  });

  it('machines the target has no artifact for are counted as noArtifact, in the progress and in a new snapshot, as the fleet view counts them', async () => {
    await publishAll(t, '1.0.0', '2.0.0');
    await expectStatus(setRollout(t, { targetVersion: '2.0.0', percent: 100 }), 200);
    expect(await sweep()).toBe(1);
    expect((await rollouts(ADMIN)).current?.progress.noArtifact).toBe(0);
    // two cabinets move to ARM boards: the x64-only release cannot be offered to them, and only that count changes
    const arm1 = (await ownedBy(OPERATOR_IDS.alice))[0]!;
    const arm2 = (await ownedBy(OPERATOR_IDS.bob))[0]!;
    await setAgentArch(t, arm1, 'arm64');
    await setAgentArch(t, arm2, 'arm64');
    expect(await sweep()).toBe(1);
    expect(await sweep()).toBe(0);
    const rows = await snapshots();
    expect(rows.map((r) => [r.no_artifact, r.eligible, r.on_target])).toEqual([
      [0, machineNos.length, 0],
      [2, machineNos.length, 0],
    ]);
    const read = await rollouts(ADMIN);
    expect(read.current?.progress.noArtifact).toBe(2);
    expect(read.history.map((h) => h.noArtifact)).toEqual([2, 0]);
    const fleet = (await expectStatus(get<Counts>(t, '/api/v1/agent/fleet', ADMIN), 200)).body.data;
    expect(fleet.noArtifact).toBe(2);
    // an operator's progress counts only their own cabinets without an artifact
    expect((await rollouts(ALICE)).current?.progress.noArtifact).toBe(1);
  });

  it('a new target is a change even when the counts are the same', async () => {
    await publishAll(t, '1.0.0', '2.0.0', '2.1.0');
    await expectStatus(setRollout(t, { targetVersion: '2.0.0' }), 200);
    expect(await sweep()).toBe(1);
    await expectStatus(setRollout(t, { targetVersion: '2.1.0' }), 200);
    expect(await sweep()).toBe(1);
    expect((await snapshots()).map((r) => [r.target_version, r.eligible, r.on_target])).toEqual([
      ['2.0.0', 0, 0],
      ['2.1.0', 0, 0],
    ]);
  });

  it('an operator sees the rollout counted over their own cabinets, only their own canaries, and no fleet-wide history', async () => {
    await publishAll(t, '1.0.0', '2.0.0');
    const alices = await ownedBy(OPERATOR_IDS.alice);
    const bobs = await ownedBy(OPERATOR_IDS.bob);
    await expectStatus(setRollout(t, { targetVersion: '2.0.0', canary: [alices[0]!, bobs[0]!], note: 'canaries first' }), 200);
    await setAgentVersion(t, bobs[0]!, '2.0.0');
    expect(await sweep()).toBe(1);

    const a = await rollouts(ALICE);
    expect(a.current).toMatchObject({ targetVersion: '2.0.0', canary: [alices[0]], progress: { total: alices.length, eligible: 1, onTarget: 0, pinned: 0 } });
    expect(a).toMatchObject({ total: 0, history: [] });
    const b = await rollouts(BOB);
    expect(b.current).toMatchObject({ canary: [bobs[0]], progress: { total: bobs.length, eligible: 1, onTarget: 1 } });
    const admin = await rollouts(ADMIN);
    expect(admin.current).toMatchObject({ canary: [alices[0], bobs[0]], progress: { total: machineNos.length, eligible: 2, onTarget: 1 } });
    expect(admin.history).toHaveLength(1);
    expect(admin.history[0]).toMatchObject({ eligible: 2, onTarget: 1, total: machineNos.length, phase: 'rolling', targetVersion: '2.0.0' });
  });

  it('access: no credential 401, a key without machines:read 403, operators and admins 200', async () => {
    const narrow = await narrowKey(t);
    const cases: [string, Record<string, string>, number][] = [
      ['no credential', {}, 401],
      ['a wrong key', { 'x-api-key': 'vk_0000000000000000.nope' }, 401],
      ['inventory:read only', narrow, 403],
      ['operator alice', ALICE, 200],
      ['operator bob', BOB, 200],
      ['factory key (machines:read)', FACTORY, 200],
      ['admin', ADMIN, 200],
    ];
    for (const [who, headers, status] of cases) {
      const r = await call<Body>(t.url, 'GET', '/api/v1/rollouts', { headers });
      expect(r.status, who).toBe(status);
      expect(r.body.code, who).toBe(status);
    }
  });

  it('bad paging is refused (out of range 400, not an integer 422), never a 5xx; the endpoint is in /openapi.json', async () => {
    const cases: [Record<string, string>, number][] = [
      [{ page: '0' }, 400],
      [{ size: '101' }, 400],
      [{ page: '-1' }, 400],
      [{ page: '1.5' }, 422],
      [{ page: '1e400' }, 422],
      [{ size: 'x' }, 422],
    ];
    for (const [query, status] of cases) {
      const r = await call<Body>(t.url, 'GET', '/api/v1/rollouts', { headers: ADMIN, query });
      expect(r.status, JSON.stringify(query)).toBe(status);
      expect(r.body.data).toBeNull();
    }
    const doc = await call<{ paths: Record<string, Record<string, unknown>> }>(t.url, 'GET', '/openapi.json');
    expect(doc.body.paths['/api/v1/rollouts']?.['get']).toBeDefined();
  });
});
