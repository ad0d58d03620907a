import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReleaseSecretKey, signRelease, systemClock } from '@vend/protocol';
import type { SignedReleaseFields, UpgradeOffer } from '@vend/protocol';
import { UpgradeManager, readUpgradeJournal, undiciArtifactFetch } from '@vend/agent';
import type { UpgradeJournal } from '@vend/agent';
import { ROOT } from './support/processes.ts';
import { api, cleanup, startCloud, tempDir, waitFor } from './support/cabinet-rig.ts';
import type { CloudProc } from './support/cabinet-rig.ts';
import { ADMIN_KEY, FLEET_SECRET, SANDBOX_PUBLIC_KEY, SimCabinet } from './support/upgrade-cabinet.ts';
import { startArtifactServer } from './support/upgrade-https.ts';
import type { ArtifactServer } from './support/upgrade-https.ts';
import { fakeReleaseMembers, tgzBytes } from './support/upgrade-tar.ts';
import type { TarMember } from './support/upgrade-tar.ts';
import { checkedFetch } from '@vend/cloud/testing/contract';

// Signed agent releases end to end: the real cloud (sandbox, own process) with the artifact prefix of
// a real HTTPS artifact server; releases signed and published with vendctl and the admin API; twelve
// simulated cabinets, each a real install root with its own device credential, upgraded by the real
// UpgradeManager through /cabinet/upgrade and /cabinet/heartbeat (the cabinets play the daemon's part,
// test/support/upgrade-cabinet.ts; the service manager's restart is `reboot()`). 1.0.1 is the real
// release tree built by scripts/build-agent-release; the last two tests run that packaged agent itself
// (`upgrade boot-guard` as systemd's ExecStartPre, then `vend-agent run`) on a version on trial.

const run = promisify(execFile);
const SANDBOX_SEED = '3RZyHJFkF0CiteVWobavUM5rkSGaPZU6smwNhkXYHOA=';
const secret = parseReleaseSecretKey(SANDBOX_SEED)!;
const CODES = Array.from({ length: 12 }, (_, i) => `E2EUPG-${String(i + 1).padStart(4, '0')}`);
const CANARY = CODES[0]!;
const PINNED = CODES[11]!;
const HEALTH_MS = 1_500;

const dir = tempDir('upgrade-e2e-');
const uploads = path.join(dir, 'artifacts');
fs.mkdirSync(uploads);
let server: ArtifactServer;
let cloud: CloudProc;
const cabinets = new Map<string, SimCabinet>();
const cab = (code: string): SimCabinet => cabinets.get(code)!;
const vendctl = (...args: string[]) =>
  run(process.execPath, [path.join(ROOT, 'apps/fleetctl/bin/vendctl.js'), ...args], {
    cwd: ROOT,
    timeout: 60_000,
    env: { ...process.env, VEND_CLOUD_URL: cloud.url, VEND_API_KEY: ADMIN_KEY },
  });
const admin = <T = Record<string, unknown>>(method: string, p: string, body?: unknown) => api<T>(cloud.url, method, p, ADMIN_KEY, body);

interface FleetMachine {
  machineNo: string;
  agentVersion: string | null;
  inCohort: boolean;
  pin: { version: string } | null;
  blocked: { version: string; minFrom: string } | null;
}
interface Fleet {
  target: string | null;
  onTarget: number;
  eligible: number;
  pinned: number;
  blocked: number;
  byVersion: Record<string, number>;
  machines: FleetMachine[];
}
const fleet = async (): Promise<Fleet> => {
  const r = await admin<Fleet>('GET', '/api/v1/agent/fleet?size=100');
  expect(r.status, r.message).toBe(200);
  return { ...r.data, machines: r.data.machines.filter((m) => m.machineNo.startsWith('E2EUPG-')) };
};

/** Signs and publishes a release through the admin API; the artifact is served by the HTTPS server. */
async function publish(version: string, bytes: Buffer, fields: Partial<SignedReleaseFields> = {}): Promise<void> {
  const url = server.put(`vend-agent-${version}-linux-x64.tar.gz`, bytes);
  const manifest = signRelease(
    { version, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, url, migration: false, ...fields },
    secret.secretKey,
  );
  const r = await admin('POST', '/api/v1/agent/releases', manifest);
  expect(r.status, r.message).toBe(200);
}

/** Lets the service manager start the agent again, and waits until its trial is over (committed or reverted). */
async function rebootAndSettle(c: SimCabinet): Promise<void> {
  await c.reboot();
  await waitFor(async () => (await c.manager.status())?.state === 'idle', HEALTH_MS + 10_000, `${c.code} to leave its trial`, 50);
}

const daemons = new Set<ChildProcess>();

afterAll(async () => {
  for (const d of daemons) if (d.exitCode === null && d.signalCode === null) d.kill('SIGKILL');
  for (const c of cabinets.values()) c.manager.stop();
  await server?.close();
  await cleanup(dir);
});

describe('signed agent releases, end to end', () => {
  let built: { artifact: string; sha256: string; size: number };

  beforeAll(async () => {
    server = await startArtifactServer({ dir: uploads });
    const [c, b] = await Promise.all([
      startCloud({ dataDir: path.join(dir, 'cloud'), env: { ARTIFACT_URL_PREFIX: server.prefix } }),
      run(
        process.execPath,
        ['--import', 'tsx', 'scripts/build-agent-release.ts', '--version', '1.0.1', '--out-dir', dir, '--tree', path.join(dir, 'tree-1.0.1'), '--json'],
        {
          cwd: ROOT,
          timeout: 110_000,
        },
      ),
    ]);
    cloud = c;
    built = JSON.parse(b.stdout.trim().split('\n').at(-1)!) as typeof built;
    for (const code of CODES) {
      const root = path.join(dir, 'cabinets', code);
      SimCabinet.install(root, '1.0.0');
      const sim = new SimCabinet(code, root, {
        cloud: cloud.url,
        artifactPrefix: server.prefix,
        dispatcher: () => server.dispatcher(),
        healthTimeoutMs: HEALTH_MS,
      });
      await sim.reboot(); // first start: the boot guard makes the journal
      await sim.enrol();
      cabinets.set(code, sim);
    }
  }, 120_000);

  it('publishes 1.0.1 with vendctl and rolls it out to a canary: the canary upgrades, restarts, commits and reports 1.0.1', async () => {
    const keyFile = path.join(dir, 'release-signing.key');
    fs.writeFileSync(keyFile, `${SANDBOX_SEED}\n`, { mode: 0o600 });
    const url = `${server.prefix}${path.basename(built.artifact)}`;
    const manifest = path.join(dir, 'manifest-1.0.1.json');
    await vendctl('sign', '--key', keyFile, '--version', '1.0.1', '--url', url, '--sha256', built.sha256, '--size', String(built.size), '--out', manifest);
    await vendctl('publish', manifest, '--artifact', built.artifact, '--upload-to', uploads);
    await vendctl('rollout', 'set', '--version', '1.0.1', '--canary', CANARY, '--note', 'canary');

    const started = Date.now();
    const outcomes = new Map<string, string>();
    for (const code of CODES) outcomes.set(code, (await cab(code).check()).result);
    expect(outcomes.get(CANARY)).toBe('installed');
    expect([...outcomes].filter(([code]) => code !== CANARY).every(([, r]) => r === 'none')).toBe(true);
    expect(cab(CANARY).restarts).toBe(1);

    await rebootAndSettle(cab(CANARY));
    const seconds = (Date.now() - started) / 1000;
    expect(await cab(CANARY).manager.status()).toMatchObject({
      state: 'idle',
      current: '1.0.1',
      floor: '1.0.1',
      last: { outcome: 'committed', from: '1.0.0' },
    });
    // the real 1.0.1 tree is in place, and it runs
    const v = await run(path.join(cab(CANARY).root, 'current/bin/vend-agent'), ['--version'], { timeout: 20_000 });
    expect(v.stdout).toBe('1.0.1\n');
    expect(fs.readFileSync(path.join(cab(CANARY).root, 'previous/VERSION'), 'utf8')).toBe('1.0.0\n');

    const f = await fleet();
    expect(f).toMatchObject({ target: '1.0.1', onTarget: 1 });
    expect(f.machines.find((m) => m.machineNo === CANARY)!.agentVersion).toBe('1.0.1');
    expect(f.machines.filter((m) => m.agentVersion === '1.0.1').map((m) => m.machineNo)).toEqual([CANARY]);
    process.stdout.write(`canary upgrade to the real 1.0.1 (${(built.size / 2 ** 20).toFixed(1)} MiB artifact), offer to commit: ${seconds.toFixed(1)} s\n`);
  });

  let cohort: string[] = [];

  it('a percent rollout reaches a stable subset; a pin holds one cabinet back', async () => {
    await publish('1.0.0', tgzBytes(fakeReleaseMembers('1.0.0')));
    await publish('1.0.2', tgzBytes(fakeReleaseMembers('1.0.2')));
    expect((await admin('POST', `/api/v1/machines/${PINNED}/agent/pin`, { version: '1.0.0', reason: 'site acceptance test' })).status).toBe(200);
    expect((await admin('PUT', '/api/v1/agent/rollout', { targetVersion: '1.0.2', canary: [CANARY], percent: 50 })).status).toBe(200);

    const before = await fleet();
    cohort = before.machines.filter((m) => m.inCohort && !m.pin).map((m) => m.machineNo);
    const rest = CODES.filter((c) => c !== CANARY && c !== PINNED && !cohort.includes(c));
    expect(cohort).toContain(CANARY);
    expect(cohort.length).toBeGreaterThan(1);
    expect(rest.length).toBeGreaterThan(0);

    for (const code of CODES) {
      const out = await cab(code).check();
      if (cohort.includes(code)) {
        expect(out, code).toMatchObject({ result: 'installed', version: '1.0.2' });
        await rebootAndSettle(cab(code));
      } else {
        expect(out.result, code).toMatch(/none|current/);
      }
    }
    const after = await fleet();
    const on102 = after.machines.filter((m) => m.agentVersion === '1.0.2').map((m) => m.machineNo);
    expect(on102.sort()).toEqual([...cohort].sort());
    expect(after.onTarget).toBe(cohort.length);
    expect(after.machines.find((m) => m.machineNo === PINNED)).toMatchObject({ agentVersion: '1.0.0', pin: { version: '1.0.0' } });

    // stable: setting the same rollout again draws the same cabinets, and nobody else moves
    expect((await admin('PUT', '/api/v1/agent/rollout', { targetVersion: '1.0.2', canary: [CANARY], percent: 50 })).status).toBe(200);
    expect((await fleet()).machines.filter((m) => m.inCohort && !m.pin).map((m) => m.machineNo)).toEqual(cohort);
    for (const code of CODES) expect((await cab(code).check()).result, code).toMatch(/none|current/);
    expect((await fleet()).machines.filter((m) => m.agentVersion === '1.0.2').length).toBe(cohort.length);
  });

  it('a release that cannot reach the cloud after boot is reverted by the boot guard and shows as blocked', async () => {
    await publish('1.0.3', tgzBytes(fakeReleaseMembers('1.0.3', [{ path: 'lib/broken-network', body: 'every cloud call of this build fails\n' }])));
    expect((await admin('PUT', '/api/v1/agent/rollout', { targetVersion: '1.0.3', canary: [CANARY] })).status).toBe(200);
    const c = cab(CANARY);
    const restarts = c.restarts;
    expect(await c.check()).toMatchObject({ result: 'installed', version: '1.0.3' });
    await c.reboot(); // 1.0.3 boots on trial; its heartbeats never arrive
    // the revert records its outcome (state idle) just before it asks for the restart: wait for both
    await waitFor(async () => (await c.manager.status())?.state === 'idle' && c.restarts >= restarts + 2, HEALTH_MS + 10_000, 'the health timer to revert', 50);
    expect(c.restarts).toBe(restarts + 2); // into 1.0.3, and back out of it
    expect(await c.manager.status()).toMatchObject({
      current: '1.0.2',
      last: { outcome: 'reverted', version: '1.0.3', from: '1.0.2', reason: '1.0.3 did not reach the cloud within 2 s of booting' },
    });
    await c.reboot();
    // offered again: refused without a download, and reported blocked
    const requests = server.requests.length;
    expect(await c.check()).toMatchObject({ result: 'blocked', report: { version: '1.0.3', minFrom: '1.0.3' } });
    expect(server.requests.length).toBe(requests);
    expect(await c.heartbeat()).toBe(true);
    const f = await fleet();
    expect(f.blocked).toBeGreaterThanOrEqual(1);
    expect(f.machines.find((m) => m.machineNo === CANARY)).toMatchObject({ agentVersion: '1.0.2', blocked: { version: '1.0.3', minFrom: '1.0.3' } });
  });

  it('a tampered signature is refused before any byte is downloaded', async () => {
    const victim = CODES.find((code) => code !== PINNED && !cohort.includes(code))!;
    const c = cab(victim);
    expect((await admin('POST', `/api/v1/machines/${victim}/agent/pin`, { version: '1.0.2', reason: 'tamper test' })).status).toBe(200);
    c.tamper = (offer) => {
      const sig = Buffer.from(String(offer['signature']), 'base64');
      sig[0]! ^= 0x01;
      return { ...offer, signature: sig.toString('base64') };
    };
    const requests = server.requests.length;
    expect(await c.check()).toMatchObject({ result: 'refused', step: 4, code: 'bad-signature', version: '1.0.2' });
    expect(server.requests.length).toBe(requests);
    expect(c.runningVersion()).toBe('1.0.0');
    // the same offer untouched installs: it was the tampering that was refused
    c.tamper = null;
    expect(await c.check()).toMatchObject({ result: 'installed', version: '1.0.2' });
    await rebootAndSettle(c);
    expect(c.runningVersion()).toBe('1.0.2');
  });

  it('a signed archive with a traversal member is refused, and nothing outside staging is written', async () => {
    const hostile: TarMember[] = [
      { path: '../../escaped-by-traversal', body: 'owned\n' },
      { path: 'lib/link', type: '2', linkpath: '/etc' },
    ];
    await publish('1.0.4', tgzBytes(fakeReleaseMembers('1.0.4', hostile)));
    const victim = CODES.find((code) => code !== PINNED && code !== CANARY && cohort.includes(code))!;
    const c = cab(victim);
    expect((await admin('POST', `/api/v1/machines/${victim}/agent/pin`, { version: '1.0.4', reason: 'traversal test' })).status).toBe(200);
    const before = fs.readdirSync(path.dirname(c.root)).sort();
    expect(await c.check()).toMatchObject({ result: 'refused', step: 9, code: 'bad-archive', reason: expect.stringMatching(/"\.\." segment/) });
    expect(fs.readdirSync(path.dirname(c.root)).sort()).toEqual(before);
    expect(fs.existsSync(path.join(c.root, '..', '..', 'escaped-by-traversal'))).toBe(false);
    expect(fs.readdirSync(c.root).sort()).toEqual(['current', 'previous', 'upgrade']);
    expect(c.runningVersion()).toBe('1.0.2');
  });

  it('the pin holds its cabinet back while the whole fleet moves to 1.0.2', async () => {
    for (const code of CODES.filter((x) => x !== PINNED)) await admin('DELETE', `/api/v1/machines/${code}/agent/pin`);
    expect((await admin('PUT', '/api/v1/agent/rollout', { targetVersion: '1.0.2', percent: 100 })).status).toBe(200);
    for (const code of CODES) {
      const out = await cab(code).check();
      if (out.result === 'installed') await rebootAndSettle(cab(code));
    }
    const f = await fleet();
    expect(f.machines.filter((m) => m.machineNo !== PINNED).every((m) => m.agentVersion === '1.0.2')).toBe(true);
    expect(f.machines.find((m) => m.machineNo === PINNED)).toMatchObject({ agentVersion: '1.0.0', pin: { version: '1.0.0' } });
    expect(cab(PINNED).runningVersion()).toBe('1.0.0');
    expect(f.pinned).toBe(1);
  });

  it('one release for two architectures: each cabinet installs its own artifact; one with no artifact, or reporting none, is offered nothing; a swapped artifact is refused', async () => {
    const [x64, arm64, riscv, old] = [CODES[2]!, CODES[3]!, CODES[4]!, CODES[5]!];
    for (const [code, arch] of [
      [x64, 'x64'],
      [arm64, 'arm64'],
      [riscv, 'riscv64'],
      [old, null],
    ] as const) {
      cab(code).arch = arch;
      await cab(code).reboot();
      expect(await cab(code).heartbeat()).toBe(true);
    }
    const artifacts = (['x64', 'arm64'] as const).map((arch) => {
      const bytes = tgzBytes(fakeReleaseMembers('1.0.5', [{ path: 'lib/arch.txt', body: `${arch}\n` }]));
      const url = server.put(`vend-agent-1.0.5-linux-${arch}.tar.gz`, bytes);
      return { arch, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, url };
    });
    const manifest = signRelease({ version: '1.0.5', artifacts, migration: false }, secret.secretKey);
    expect((await admin('POST', '/api/v1/agent/releases', manifest)).status).toBe(200);
    expect((await admin('PUT', '/api/v1/agent/rollout', { targetVersion: '1.0.5', canary: [x64, arm64, riscv, old] })).status).toBe(200);

    // a man in the middle hands the arm64 cabinet the (validly signed) x64 artifact: refused before any byte
    const served = server.requests.length;
    cab(arm64).tamper = (offer) => ({ ...offer, ...artifacts[0]! });
    expect(await cab(arm64).check()).toMatchObject({ result: 'refused', step: 4, code: 'wrong-arch' });
    expect(server.requests.length).toBe(served);
    cab(arm64).tamper = null;

    for (const code of [x64, arm64]) {
      expect(await cab(code).check(), code).toMatchObject({ result: 'installed', version: '1.0.5' });
      await rebootAndSettle(cab(code));
      expect(fs.readFileSync(path.join(cab(code).root, 'current/lib/arch.txt'), 'utf8').trim()).toBe(cab(code).arch);
    }
    for (const code of [riscv, old]) expect((await cab(code).check()).result, code).toBe('none');

    const f = (
      await admin<Fleet & { noArtifact: number; machines: (FleetMachine & { arch: string | null; offerReason: string })[] }>(
        'GET',
        '/api/v1/agent/fleet?size=100',
      )
    ).data;
    const row = (code: string) => f.machines.find((m) => m.machineNo === code)!;
    expect(row(x64)).toMatchObject({ arch: 'x64', agentVersion: '1.0.5', offerReason: 'on-target' });
    expect(row(arm64)).toMatchObject({ arch: 'arm64', agentVersion: '1.0.5', offerReason: 'on-target' });
    expect(row(riscv)).toMatchObject({ arch: 'riscv64', agentVersion: '1.0.2', offerReason: 'no-artifact-for-arch' });
    expect(row(old)).toMatchObject({ arch: null, agentVersion: '1.0.2', offerReason: 'arch-unknown' });
    expect(f.noArtifact).toBe(2);
  });

  // --- the packaged agent itself ----------------------------------------------------------------

  /** A fresh install root running a minimal 1.0.0 with the real 1.0.1 swapped in by the pipeline (journal `trial`). */
  async function rootOnTrial(name: string): Promise<string> {
    const root = path.join(dir, name);
    SimCabinet.install(root, '1.0.0');
    const records = await admin<{ records: (SignedReleaseFields & { signature: string; signatureAlg: string; sequence: number })[] }>(
      'GET',
      '/api/v1/agent/releases',
    );
    const r = records.data.records.find((x) => x.version === '1.0.1')!;
    const offer: UpgradeOffer = { ...r, minFrom: r.minFrom ?? null, signatureAlg: 'ed25519', target: '1.0.1', isFinalStep: true, allowDowngrade: false };
    const m = new UpgradeManager({
      root,
      clock: systemClock,
      releasePublicKey: SANDBOX_PUBLIC_KEY,
      artifactPrefix: server.prefix,
      fetch: undiciArtifactFetch({ dispatcher: server.dispatcher() }),
      arch: 'x64', // the x64 tree built above, offered as a single-artifact release
      host: {
        runningVersion: () => '1.0.0',
        quiet: () => ({ vendLockFree: true, leased: 0, spoolDepth: 0, secondsSinceActivity: 3600 }),
        fetchOffer: async () => offer,
        reportDeferral: () => {},
        reportBlocked: () => {},
        clearReports: () => {},
        holdVendLock: () => ({ release: () => {} }),
        restart: () => {},
        cloudReachable: async () => false,
      },
    });
    expect(await m.check(offer)).toMatchObject({ result: 'installed', version: '1.0.1' });
    return root;
  }

  const journalOf = async (root: string): Promise<UpgradeJournal> => {
    const j = await readUpgradeJournal(path.join(root, 'upgrade/journal.json'));
    if (j.kind !== 'ok') throw new Error(`journal ${j.kind}`);
    return j.journal;
  };

  /** What systemd's ExecStartPre runs: the boot guard of the tree in current/. */
  async function bootGuardCli(root: string, invocation: string): Promise<Record<string, unknown>> {
    const out = await run(path.join(root, 'current/bin/vend-agent'), ['upgrade', 'boot-guard', '--root', root, '--invocation-id', invocation], {
      timeout: 20_000,
    });
    return (JSON.parse(out.stdout) as { bootGuard: Record<string, unknown> }).bootGuard;
  }

  /** What systemd's ExecStart runs: `vend-agent run` from current/, with the service's environment. */
  function startDaemon(root: string, code: string, cloudUrl: string, invocation: string): { child: ChildProcess; out: () => string } {
    const child = spawn(
      path.join(root, 'current/bin/vend-agent'),
      [
        '--state-dir',
        path.join(root, '..', `${path.basename(root)}-state`),
        '--control-port',
        '0',
        'run',
        '--cloud-url',
        cloudUrl,
        '--equipment-no',
        code,
        '--serial-port',
        path.join(root, 'no-board'),
        '--machine-id-file',
        '',
      ],
      {
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          INVOCATION_ID: invocation,
          VEND_AGENT_INSTALL_ROOT: root,
          VEND_AGENT_RELEASE_PUBLIC_KEY: SANDBOX_PUBLIC_KEY,
          VEND_AGENT_ARTIFACT_PREFIX: server.prefix,
          VEND_AGENT_FLEET_SECRET: FLEET_SECRET,
          VEND_AGENT_BACKOFF_BASE_MS: '200',
          VEND_AGENT_BACKOFF_CAP_MS: '2000',
          VEND_AGENT_VMC_OPEN_ATTEMPTS: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    daemons.add(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    return { child, out: () => out };
  }

  async function stopDaemon(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 25_000);
    await exited;
    clearTimeout(t);
    daemons.delete(child);
  }

  it('the packaged agent on trial: the boot guard counts one start, `vend-agent run` reaches the cloud and commits 1.0.1', { timeout: 90_000 }, async () => {
    const code = 'E2EUPG-0013';
    const root = await rootOnTrial('daemon-commit');
    // a new cabinet: known to the cloud and armed, so the agent enrols itself with the fleet secret
    const reg = await checkedFetch(`${cloud.url}/cabinet/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', secret: FLEET_SECRET },
      body: JSON.stringify({ equipmentNo: code, agentVersion: '1.0.0' }),
    });
    expect(reg.status).toBe(200);
    expect((await admin('POST', `/api/v1/machines/${code}/device-credential/arm`, { reason: 'upgrade e2e daemon' })).status).toBe(200);

    expect(await bootGuardCli(root, 'inv-1')).toEqual({ state: 'trial', current: '1.0.1', action: 'counted', attempts: 1 });
    const d = startDaemon(root, code, cloud.url, 'inv-1');
    await waitFor(async () => (await journalOf(root)).state === 'idle', 45_000, 'the packaged agent to commit', 100);
    const j = await journalOf(root);
    expect(j).toMatchObject({ state: 'idle', current: '1.0.1', floor: '1.0.1', last: { outcome: 'committed', version: '1.0.1', from: '1.0.0' } });
    // the daemon's own onBoot did not count the start twice
    expect(d.out()).toMatch(/"boot":\{"state":"trial","current":"1\.0\.1","action":"none","attempts":1\}/);
    await waitFor(async () => (await fleet()).machines.find((m) => m.machineNo === code)?.agentVersion === '1.0.1', 20_000, 'the cloud to see 1.0.1', 200);
    await stopDaemon(d.child);
  });

  it('the packaged boot guard reverts a version that died in each of its first three starts', { timeout: 90_000 }, async () => {
    const root = await rootOnTrial('daemon-crashloop');
    const unreachable = 'http://127.0.0.1:9'; // nothing listens: this build never reaches the cloud
    for (let i = 1; i <= 3; i++) {
      expect(await bootGuardCli(root, `inv-crash-${i}`)).toMatchObject({ state: 'trial', action: 'counted', attempts: i });
      const d = startDaemon(root, 'E2EUPG-0014', unreachable, `inv-crash-${i}`);
      await waitFor(() => d.out().includes('"msg":"upgrade boot guard"'), 20_000, 'the daemon to start', 25);
      const exited = new Promise((r) => d.child.once('exit', r));
      d.child.kill('SIGKILL'); // dies before the health timer can decide
      await exited;
      daemons.delete(d.child);
    }
    expect(await bootGuardCli(root, 'inv-crash-4')).toEqual({
      state: 'idle',
      current: '1.0.0',
      action: 'reverted',
      reason: '1.0.1 did not reach the cloud in 3 boot attempts',
    });
    expect(fs.readFileSync(path.join(root, 'current/VERSION'), 'utf8')).toBe('1.0.0\n');
    const j = await journalOf(root);
    expect(j).toMatchObject({ state: 'idle', current: '1.0.0', last: { outcome: 'reverted', version: '1.0.1' } });
    expect(j.bad.map((b) => b.version)).toEqual(['1.0.1']);
  });

  /** Runs the unit's own ExecStartPre line (systemd's $$ unescaped, the install root moved) on a tree whose guard is broken. */
  async function execStartPreWithBrokenGuard(name: string, brokenGuard: string, guardTimeoutSeconds?: number) {
    const root = path.join(dir, name);
    fs.mkdirSync(path.join(root, 'current/bin'), { recursive: true });
    fs.mkdirSync(path.join(root, 'upgrade'));
    fs.cpSync(path.join(dir, 'tree-1.0.1'), path.join(root, 'previous'), { recursive: true });
    fs.writeFileSync(path.join(root, 'current/VERSION'), '1.0.2\n');
    fs.writeFileSync(path.join(root, 'current/bin/vend-agent'), brokenGuard, { mode: 0o755 });
    const trial: UpgradeJournal = {
      v: 1,
      state: 'trial',
      current: '1.0.2',
      floor: '1.0.1',
      bad: [],
      install: {
        from: '1.0.1',
        to: '1.0.2',
        sha256: 'ab'.repeat(32),
        allowDowngrade: false,
        staging: 'staging-1.0.2-x',
        step: null,
        attempts: 0,
        invocation: null,
        startedAt: 0,
        boot: null,
        revertReason: null,
      },
      last: null,
      saves: 4,
    };
    fs.writeFileSync(path.join(root, 'upgrade/journal.json'), JSON.stringify(trial));
    const unit = fs.readFileSync(path.join(ROOT, 'apps/agent/packaging/vend-agent.service'), 'utf8');
    let line = /^ExecStartPre=-\/bin\/sh -c '(.*)'$/m.exec(unit)![1]!.replaceAll('$$', '$').replaceAll('/opt/vend-agent', root);
    expect(line).toContain('timeout 45 ');
    if (guardTimeoutSeconds !== undefined) line = line.replaceAll('timeout 45 ', `timeout ${guardTimeoutSeconds} `);
    const out = await run('/bin/sh', ['-c', line], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', INVOCATION_ID: 'inv-unit' }, timeout: 30_000 });
    expect(JSON.parse(out.stdout)).toEqual({
      bootGuard: { state: 'idle', current: '1.0.1', action: 'reverted', reason: 'the boot guard of 1.0.2 could not run' },
    });
    const v = await run(path.join(root, 'current/bin/vend-agent'), ['--version'], { timeout: 20_000 });
    expect(v.stdout).toBe('1.0.1\n');
    expect((await journalOf(root)).bad.map((b) => b.version)).toEqual(['1.0.2']);
  }

  it("the unit's ExecStartPre: a new tree that cannot even run its guard is reverted by the previous tree's guard", { timeout: 60_000 }, async () => {
    await execStartPreWithBrokenGuard('unit-fallback', '#!/bin/sh\necho "cannot execute binary file" >&2\nexit 126\n');
  });

  it("the unit's ExecStartPre: a new tree whose guard hangs is cut off and reverted by the previous tree's guard", { timeout: 60_000 }, async () => {
    // the unit allows 45 s; the same line with 2 s here
    await execStartPreWithBrokenGuard('unit-hang', '#!/bin/sh\nexec sleep 3600\n', 2);
  });
});
