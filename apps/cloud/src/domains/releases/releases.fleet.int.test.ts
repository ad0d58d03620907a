import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, UpgradeData, parseReleasePublicKey, verifyReleaseSignature, type UpgradeOffer } from '@vend/protocol';
import { SANDBOX_RELEASES } from '../../config.ts';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import { enrolled, keyHeader } from '../gateway/gateway.test-support.ts';
import { ADMIN, ALICE, BOB, FACTORY, clearReleases, get, manifest, post, publishAll, setAgentVersion, setRollout } from './releases.test-support.ts';

const START = Date.parse('2026-11-20T12:00:00Z');

interface Fleet {
  target: string | null;
  total: number;
  eligible: number;
  onTarget: number;
  pinned: number;
  deferring: number;
  blocked: number;
  byVersion: Record<string, number>;
  page: number;
  size: number;
  machines: {
    machineNo: string;
    agentVersion: string | null;
    inCohort: boolean;
    pin: { version: string } | null;
    offerVersion: string | null;
    deferring: { version: string; count: number; reportedAt: string; firstReportedAt: string } | null;
    blocked: { version: string; minFrom: string; firstReportedAt: string } | null;
  }[];
}

describe.each(DIALECTS)('cabinet upgrade offers on %s', (dialect) => {
  let t: TestServer;
  let clock: ManualClock;
  beforeAll(async () => {
    clock = new ManualClock(START);
    t = await startTestServer(dialect, { clock });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await clearReleases(t);
  });

  const upgrade = (key: string, agentVersion?: string) =>
    call<Body<UpgradeOffer | null>>(t.url, 'GET', '/cabinet/upgrade', { headers: keyHeader(key), ...(agentVersion ? { query: { agentVersion } } : {}) });

  it('climbs the migration ladder rung by rung, skipping other releases, with offers a cabinet can verify', async () => {
    const cab = await enrolled(t);
    await publishAll(t, '1.0.0', '1.2.0', ['1.5.0', { migration: true }], '1.6.0', ['2.0.0', { migration: true }], '2.1.0');
    await expectStatus(setRollout(t, { targetVersion: '2.1.0', canary: [cab.serial] }), 200);
    const key = parseReleasePublicKey(SANDBOX_RELEASES.publicKey)!;
    const steps: [string, string | null, boolean | null][] = [
      ['1.0.0', '1.5.0', false],
      ['1.2.0', '1.5.0', false],
      ['1.5.0', '2.0.0', false],
      ['1.6.0', '2.0.0', false],
      ['2.0.0', '2.1.0', true],
      ['2.1.0', null, null],
    ];
    for (const [running, version, final] of steps) {
      const r = await expectStatus(upgrade(cab.key, running), 200);
      const offer = UpgradeData.parse(r.body.data);
      expect(offer?.version ?? null, `from ${running}`).toBe(version);
      if (offer) {
        expect(offer).toMatchObject({ target: '2.1.0', isFinalStep: final, allowDowngrade: false });
        expect(verifyReleaseSignature(offer, key)).toBe(true);
      }
    }
  });

  it('without agentVersion the last reported version stands in; a cabinet that never reported one gets the target directly', async () => {
    const cab = await enrolled(t);
    await publishAll(t, '1.0.0', ['1.5.0', { migration: true }], '2.0.0');
    await expectStatus(setRollout(t, { targetVersion: '2.0.0', canary: [cab.serial] }), 200);
    expect((await expectStatus(upgrade(cab.key), 200)).body.data).toMatchObject({ version: '2.0.0', isFinalStep: true });
    await expectStatus(call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(cab.key), json: { agentVersion: '1.0.0' } }), 200);
    expect((await expectStatus(upgrade(cab.key), 200)).body.data).toMatchObject({ version: '1.5.0', isFinalStep: false });
    // the query wins over the stored version
    expect((await expectStatus(upgrade(cab.key, '1.5.0'), 200)).body.data).toMatchObject({ version: '2.0.0', isFinalStep: true });
  });

  it('a cabinet outside the cohort is told nothing; a pin reaches it anyway', async () => {
    const inside = await enrolled(t);
    const outside = await enrolled(t);
    await publishAll(t, '1.0.0', '2.0.0');
    await expectStatus(setRollout(t, { targetVersion: '2.0.0', canary: [inside.serial] }), 200);
    expect((await expectStatus(upgrade(inside.key, '1.0.0'), 200)).body.data).toMatchObject({ version: '2.0.0' });
    expect((await expectStatus(upgrade(outside.key, '1.0.0'), 200)).body).toEqual({ code: 200, message: 'success', data: null });
    await expectStatus(post(t, `/api/v1/machines/${outside.serial}/agent/pin`, { version: '2.0.0', reason: 'early access' }), 200);
    expect((await expectStatus(upgrade(outside.key, '1.0.0'), 200)).body.data).toMatchObject({ version: '2.0.0' });
  });

  it('a held rollout offers nothing; resume brings the offer back', async () => {
    const cab = await enrolled(t);
    await publishAll(t, '1.0.0', '2.0.0');
    await expectStatus(setRollout(t, { targetVersion: '2.0.0', canary: [cab.serial] }), 200);
    await expectStatus(post(t, '/api/v1/agent/rollout/hold', { reason: 'crash reports' }), 200);
    expect((await expectStatus(upgrade(cab.key, '1.0.0'), 200)).body.data).toBeNull();
    await expectStatus(post(t, '/api/v1/agent/rollout/resume', {}), 200);
    expect((await expectStatus(upgrade(cab.key, '1.0.0'), 200)).body.data).toMatchObject({ version: '2.0.0' });
  });

  it('deferral and blocked blocks: firstReportedAt is the cloud’s, survives agent restarts, and clears when the condition ends', async () => {
    const cab = await enrolled(t);
    await publishAll(t, '1.0.0', '1.5.0', ['2.0.0', { minFrom: '1.5.0' }]);
    await expectStatus(setRollout(t, { targetVersion: '2.0.0', canary: [cab.serial] }), 200);
    const heartbeat = (body: Record<string, unknown>) =>
      expectStatus(call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(cab.key), json: body }), 200);
    const agentView = async () => (await expectStatus(get<Fleet['machines'][number]>(t, `/api/v1/machines/${cab.serial}/agent`), 200)).body.data;
    const fleetView = async () => (await expectStatus(get<Fleet>(t, '/api/v1/agent/fleet', ADMIN, { size: '100' }), 200)).body.data;

    await heartbeat({ agentVersion: '1.5.0', deferring: { version: '2.0.0', count: 1, seconds: 30, reason: 'vend in progress' } });
    const first = (await agentView()).deferring!;
    expect(first).toMatchObject({ version: '2.0.0', count: 1, reason: 'vend in progress', firstReportedAt: '2026-11-20T12:00:00.000+0000' });
    expect((await fleetView()).deferring).toBe(1);

    // the agent restarts: its counters begin again, the cloud keeps the first report's time
    clock.advance(10 * 60_000);
    await heartbeat({ agentVersion: '1.5.0', deferring: { version: '2.0.0', count: 1, seconds: 5, reason: 'lease held' } });
    const later = (await agentView()).deferring!;
    expect(later).toMatchObject({ count: 1, reason: 'lease held', firstReportedAt: first.firstReportedAt, reportedAt: '2026-11-20T12:10:00.000+0000' });

    // the condition ends: the agent stops reporting it
    clock.advance(60_000);
    await heartbeat({ agentVersion: '1.5.0' });
    expect((await agentView()).deferring).toBeNull();
    expect((await fleetView()).deferring).toBe(0);

    // blocked below the floor of the target 2.0.0 (an agent that was offered it before 1.5.0 existed)
    clock.advance(60_000);
    await heartbeat({ agentVersion: '1.0.0', blocked: { version: '2.0.0', minFrom: '1.5.0', count: 3, seconds: 120 } });
    const fleet = await fleetView();
    expect(fleet.blocked).toBe(1);
    expect(fleet.machines.find((m) => m.machineNo === cab.serial)?.blocked).toMatchObject({
      version: '2.0.0',
      minFrom: '1.5.0',
      firstReportedAt: '2026-11-20T12:12:00.000+0000',
    });
    // the rollout moves to 1.5.0: nothing offers 2.0.0 any more, so the block has ended even before the agent says so
    await expectStatus(setRollout(t, { targetVersion: '1.5.0', canary: [cab.serial] }), 200);
    expect((await agentView()).blocked).toBeNull();
    expect((await fleetView()).blocked).toBe(0);
  });
});

describe.each(DIALECTS)('the agent fleet view on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect);
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await clearReleases(t);
    for (const no of ['SBX-ALICE-0001', 'SBX-ALICE-0002', 'SBX-ALICE-0003', 'SBX-BOB-0001', 'SBX-BOB-0002']) await setAgentVersion(t, no, '1.0.0');
    await setAgentVersion(t, 'SBX-POOL-0001', null);
    await publishAll(t, '1.0.0', '1.1.0');
  });

  const fleet = async (headers: Record<string, string>, query?: Record<string, string>) =>
    (await expectStatus(get<Fleet>(t, '/api/v1/agent/fleet', headers, query), 200)).body.data;

  it('counts the whole fleet for an admin: target, total, eligible, onTarget, pinned, byVersion', async () => {
    expect(await fleet(ADMIN)).toMatchObject({
      target: null,
      total: 6,
      eligible: 0,
      onTarget: 0,
      pinned: 0,
      deferring: 0,
      blocked: 0,
      byVersion: { '1.0.0': 5, unreported: 1 },
    });
    await expectStatus(setRollout(t, { targetVersion: '1.1.0', canary: ['SBX-ALICE-0001', 'SBX-BOB-0002'] }), 200);
    await expectStatus(post(t, '/api/v1/machines/SBX-BOB-0002/agent/pin', { version: '1.0.0', reason: 'hold back' }), 200);
    await setAgentVersion(t, 'SBX-ALICE-0002', '1.1.0');
    const f = await fleet(ADMIN);
    expect(f).toMatchObject({ target: '1.1.0', total: 6, eligible: 1, onTarget: 0, pinned: 1, byVersion: { '1.0.0': 4, '1.1.0': 1, unreported: 1 } });
    const alice1 = f.machines.find((m) => m.machineNo === 'SBX-ALICE-0001')!;
    expect(alice1).toMatchObject({ inCohort: true, offerVersion: '1.1.0' });
    expect(f.machines.find((m) => m.machineNo === 'SBX-BOB-0002')).toMatchObject({ pin: { version: '1.0.0' }, offerVersion: null });
    await setAgentVersion(t, 'SBX-ALICE-0001', '1.1.0');
    expect(await fleet(ADMIN)).toMatchObject({ eligible: 1, onTarget: 1 });
  });

  it('operators read only their own cabinets', async () => {
    await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 100 }), 200);
    await expectStatus(post(t, '/api/v1/machines/SBX-BOB-0001/agent/pin', { version: '1.0.0', reason: 'hold back' }), 200);
    const a = await fleet(ALICE);
    expect(a).toMatchObject({ target: '1.1.0', total: 3, eligible: 3, pinned: 0, byVersion: { '1.0.0': 3 } });
    expect(a.machines.map((m) => m.machineNo)).toEqual(['SBX-ALICE-0001', 'SBX-ALICE-0002', 'SBX-ALICE-0003']);
    const b = await fleet(BOB);
    expect(b).toMatchObject({ total: 2, eligible: 1, pinned: 1 });
    expect(b.machines.every((m) => m.machineNo.startsWith('SBX-BOB-'))).toBe(true);
    expect(await fleet(FACTORY)).toMatchObject({ total: 0, machines: [] });
  });

  it('pages the machines while the counts cover everything in view', async () => {
    const p2 = await fleet(ADMIN, { page: '2', size: '4' });
    expect(p2).toMatchObject({ total: 6, page: 2, size: 4 });
    expect(p2.machines.map((m) => m.machineNo)).toEqual(['SBX-BOB-0002', 'SBX-POOL-0001']);
    await expectStatus(get(t, '/api/v1/agent/fleet', ADMIN, { size: '101' }), 400);
    await expectStatus(get(t, '/api/v1/agent/fleet', ADMIN, { page: '0' }), 400);
  });

  it('percent membership is stable between reads and roughly proportional', async () => {
    await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 50 }), 200);
    const a = await fleet(ADMIN);
    const b = await fleet(ADMIN);
    expect(a.machines.map((m) => m.inCohort)).toEqual(b.machines.map((m) => m.inCohort));
    await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 100 }), 200);
    expect((await fleet(ADMIN)).eligible).toBe(6);
    await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 0 }), 200);
    expect((await fleet(ADMIN)).eligible).toBe(0);
  });

  it('the per-machine view shows version, pin, offer and why', async () => {
    await expectStatus(setRollout(t, { targetVersion: '1.1.0', percent: 0 }), 200);
    const r = await expectStatus(get<Record<string, unknown>>(t, '/api/v1/machines/SBX-ALICE-0003/agent'), 200);
    expect(r.body.data).toMatchObject({
      machineNo: 'SBX-ALICE-0003',
      agentVersion: '1.0.0',
      pin: null,
      target: null,
      inCohort: false,
      offer: null,
      offerReason: 'not-in-cohort',
      deferring: null,
      blocked: null,
    });
    await expectStatus(get(t, '/api/v1/machines/NO-SUCH-MACHINE/agent'), 404);
  });
});

describe('test factories', () => {
  it('signs manifests the sandbox key verifies', () => {
    expect(verifyReleaseSignature(manifest('1.0.0'), parseReleasePublicKey(SANDBOX_RELEASES.publicKey)!)).toBe(true);
  });
});
