import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, UpgradeData, parseReleasePublicKey, signRelease, verifyReleaseSignature, type AgentFleetData, type UpgradeOffer } from '@vend/protocol';
import { SANDBOX_RELEASES } from '../../config.ts';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import { enrolled, keyHeader, machineRow } from '../gateway/gateway.test-support.ts';
import { PREFIX, SANDBOX_KEY, clearReleases, countRows, get, manifest, multiArchManifest, post, publish, setRollout } from './releases.test-support.ts';

/**
 * Release artifacts per architecture (docs/decisions/agent-upgrades.md): a cabinet reports its
 * architecture in register and heartbeat; the offer carries the artifact for it, or nothing when the
 * release has none — never another architecture's binary — and the views say why.
 */

const START = Date.parse('2026-11-20T12:00:00Z');
const RELEASE_KEY = parseReleasePublicKey(SANDBOX_RELEASES.publicKey)!;

interface Record_ {
  version: string;
  sha256: string;
  artifacts: { arch: string; sha256: string; size: number; url: string }[];
  created: boolean;
}

describe.each(DIALECTS)('release artifacts per architecture on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, { clock: new ManualClock(START) });
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    await clearReleases(t);
  });

  const upgrade = (key: string, query: Record<string, string> = {}) =>
    call<Body<UpgradeOffer | null>>(t.url, 'GET', '/cabinet/upgrade', { headers: keyHeader(key), query });
  const heartbeat = (key: string, body: Record<string, unknown>) =>
    expectStatus(call(t.url, 'POST', '/cabinet/heartbeat', { headers: keyHeader(key), json: body }), 200);
  const register = (cab: { key: string; serial: string; deviceId: string }, body: Record<string, unknown>) =>
    expectStatus(
      call(t.url, 'POST', '/cabinet/register', { headers: keyHeader(cab.key), json: { equipmentNo: cab.serial, deviceId: cab.deviceId, ...body } }),
      200,
    );

  it('publishes a multi-architecture release, lists its artifacts, and answers the same bytes again as the same record', async () => {
    const m = multiArchManifest('2.0.0', ['x64', 'arm64']);
    const first = await publish(t, m);
    expect(first.created).toBe(true);
    const listed = await expectStatus(get<{ records: Record_[] }>(t, '/api/v1/agent/releases'), 200);
    const record = listed.body.data.records[0]!;
    expect(record.artifacts.map((a) => a.arch)).toEqual(['x64', 'arm64']);
    expect(record.artifacts).toEqual([...m.artifacts].sort((a, b) => (a.arch === 'x64' ? -1 : b.arch === 'x64' ? 1 : 0)));
    expect(record.sha256).toBe(record.artifacts[0]!.sha256);
    // the same release with its artifacts listed in another order is the same bytes
    const again = await expectStatus(post<Record_>(t, '/api/v1/agent/releases', { ...m, artifacts: [...m.artifacts].reverse() }), 200);
    expect(again.body.data.created).toBe(false);
    // a single-artifact release lists its one x64 artifact
    await publish(t, manifest('1.0.0'));
    const single = (await expectStatus(get<{ records: Record_[] }>(t, '/api/v1/agent/releases'), 200)).body.data.records.find((r) => r.version === '1.0.0')!;
    expect(single.artifacts).toEqual([{ arch: 'x64', sha256: single.sha256, size: expect.any(Number), url: expect.stringContaining('vend-agent-1.0.0') }]);
  });

  it('refuses, writing nothing, a tampered artifact, one outside the trusted prefix, or a changed set under a published version', async () => {
    const m = multiArchManifest('2.0.0', ['x64', 'arm64']);
    const before = await countRows(t);
    const [a, b] = m.artifacts as [(typeof m.artifacts)[number], (typeof m.artifacts)[number]];
    const tampered = { ...m, artifacts: [a, { ...b, size: b.size + 1 }] };
    expect((await post(t, '/api/v1/agent/releases', tampered)).status).toBe(400);
    // signed properly, but the arm64 artifact lies outside the trusted prefix
    const outside = signRelease(
      { version: '2.0.0', migration: false, artifacts: [a, { ...b, url: 'https://evil.example.com/agent/x.tar.gz' }] },
      SANDBOX_KEY.secretKey,
    );
    const badUrl = await post(t, '/api/v1/agent/releases', outside);
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.message).toMatch(/arm64 artifact's url is outside the trusted artifact prefix/);
    expect(await countRows(t)).toEqual(before);
    await publish(t, m);
    const armOnly = multiArchManifest('2.0.0', ['arm64']);
    expect((await post(t, '/api/v1/agent/releases', armOnly)).status).toBe(409);
    expect(a.url.startsWith(PREFIX)).toBe(true);
  });

  it('offers each architecture its own artifact, which verifies; an architecture with no artifact gets no offer and the views say so', async () => {
    const x = await enrolled(t);
    const arm = await enrolled(t);
    const risc = await enrolled(t);
    await heartbeat(x.key, { agentVersion: '1.0.0', arch: 'x64' });
    await register(arm, { agentVersion: '1.0.0', arch: 'arm64' });
    await heartbeat(risc.key, { agentVersion: '1.0.0', arch: 'riscv64' });
    expect((await machineRow(t, arm.serial)).agent_arch).toBe('arm64');
    expect((await machineRow(t, risc.serial)).agent_arch).toBe('riscv64');

    const m = multiArchManifest('2.0.0', ['x64', 'arm64']);
    await publish(t, m);
    await expectStatus(setRollout(t, { targetVersion: '2.0.0', canary: [x.serial, arm.serial, risc.serial] }), 200);

    for (const [cab, arch] of [
      [x, 'x64'],
      [arm, 'arm64'],
    ] as const) {
      const offer = UpgradeData.parse((await expectStatus(upgrade(cab.key), 200)).body.data);
      const want = m.artifacts.find((a) => a.arch === arch)!;
      expect(offer).toMatchObject({ version: '2.0.0', arch, sha256: want.sha256, size: want.size, url: want.url });
      expect(offer?.artifacts).toHaveLength(2);
      expect(verifyReleaseSignature(offer!, RELEASE_KEY)).toBe(true);
    }
    expect((await expectStatus(upgrade(risc.key), 200)).body.data).toBeNull();

    const view = await expectStatus(get<{ arch: string | null; offer: unknown; offerReason: string }>(t, `/api/v1/machines/${risc.serial}/agent`), 200);
    expect(view.body.data).toMatchObject({ arch: 'riscv64', offer: null, offerReason: 'no-artifact-for-arch' });
    const fleet = (await expectStatus(get<AgentFleetData>(t, '/api/v1/agent/fleet'), 200)).body.data;
    expect(fleet.noArtifact).toBeGreaterThanOrEqual(1);
    expect(fleet.byArch).toMatchObject({ x64: expect.any(Number), arm64: expect.any(Number), riscv64: 1 });
    expect(fleet.machines.find((r) => r.machineNo === risc.serial)).toMatchObject({ arch: 'riscv64', offerVersion: null, offerReason: 'no-artifact-for-arch' });
    expect(fleet.machines.find((r) => r.machineNo === arm.serial)).toMatchObject({ arch: 'arm64', offerVersion: '2.0.0' });
  });

  it('an x64-only release offers an arm64 cabinet nothing; the query can name the architecture', async () => {
    const arm = await enrolled(t);
    await heartbeat(arm.key, { agentVersion: '1.0.0', arch: 'arm64' });
    await publish(t, manifest('2.0.0'));
    await expectStatus(setRollout(t, { targetVersion: '2.0.0', canary: [arm.serial] }), 200);
    expect((await expectStatus(upgrade(arm.key), 200)).body.data).toBeNull();
    // the query's arch stands in for the reported one, like agentVersion
    const offer = (await expectStatus(upgrade(arm.key, { arch: 'x64' }), 200)).body.data;
    expect(offer).toMatchObject({ version: '2.0.0', arch: 'x64' });
    expect(offer).not.toHaveProperty('artifacts');
    expect((await upgrade(arm.key, { arch: 'ARM 64' })).status).toBe(400);
  });

  it('a cabinet that reports no architecture is offered a single-artifact release as before, and no multi-architecture one', async () => {
    const old = await enrolled(t);
    await heartbeat(old.key, { agentVersion: '1.0.0' });
    await publish(t, manifest('1.5.0'));
    await publish(t, multiArchManifest('2.0.0', ['x64', 'arm64']));
    await expectStatus(setRollout(t, { targetVersion: '1.5.0', canary: [old.serial] }), 200);
    const offer = UpgradeData.parse((await expectStatus(upgrade(old.key), 200)).body.data);
    expect(offer).toMatchObject({ version: '1.5.0', arch: 'x64' });
    expect(verifyReleaseSignature(offer!, RELEASE_KEY)).toBe(true);
    await expectStatus(setRollout(t, { targetVersion: '2.0.0', canary: [old.serial] }), 200);
    expect((await expectStatus(upgrade(old.key), 200)).body.data).toBeNull();
    const view = await expectStatus(get<{ arch: string | null; offerReason: string }>(t, `/api/v1/machines/${old.serial}/agent`), 200);
    expect(view.body.data).toMatchObject({ arch: null, offerReason: 'arch-unknown' });
  });
});
