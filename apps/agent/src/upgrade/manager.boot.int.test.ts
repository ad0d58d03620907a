import { describe, expect, it } from 'vitest';
import { RevertReport, type UpgradeOffer } from '@vend/protocol';
import { revertReportOf } from './journal.ts';
import type { MachineBoot } from './trees.ts';
import { upgradeMain } from './cli.ts';
import { root, clock, host, artifacts, manager, publish, journal, versionOf, rootListing, settle, useInstallRoot } from './manager.test-support.ts';

useInstallRoot();

describe('after the restart: commit, revert, boot attempts', () => {
  async function installed(version = '1.0.1', policy: Partial<UpgradeOffer> = {}) {
    const p = await publish(version, {}, {}, policy);
    expect(await manager().check(p.offer)).toMatchObject({ result: 'installed' });
    host.running = version;
    host.restarts = 0;
    return p;
  }

  it('11: the cloud reached after boot commits the new version and raises the floor', async () => {
    await installed();
    const m = manager();
    expect(await m.onBoot()).toEqual({ state: 'trial', current: '1.0.1', action: 'counted', attempts: 1 });
    await settle(() => host.reachabilityChecks > 0);
    for (let i = 0; i < 200 && (await journal()).state !== 'idle'; i++) await settle(undefined, 1);
    const j = await journal();
    expect(j).toMatchObject({
      state: 'idle',
      current: '1.0.1',
      floor: '1.0.1',
      install: null,
      last: { outcome: 'committed', version: '1.0.1', from: '1.0.0' },
    });
    expect(versionOf('previous')).toBe('1.0.0');
    expect(host.restarts).toBe(0);
    m.stop();
  });

  it('11: the cloud not reached within 300 s reverts to the previous tree, restarts, and the version shows blocked', async () => {
    const { offer } = await installed();
    host.reachable = false;
    const m = manager();
    await m.onBoot();
    await settle(() => host.reachabilityChecks > 0);
    clock.advance(150_000);
    await settle(() => host.reachabilityChecks >= 40);
    expect((await journal()).state).toBe('trial');
    clock.advance(150_000);
    await settle(() => host.restarts > 0);
    expect(host.restarts).toBe(1);
    expect(versionOf('current')).toBe('1.0.0');
    expect(rootListing()).toEqual(['current', 'upgrade']);
    const j = await journal();
    expect(j).toMatchObject({
      state: 'idle',
      current: '1.0.0',
      floor: '1.0.0',
      last: { outcome: 'reverted', version: '1.0.1', reason: '1.0.1 did not reach the cloud within 300 s of booting' },
    });
    expect(j.bad.map((b) => b.version)).toEqual(['1.0.1']);
    // what the daemon's heartbeats carry from now on, until another upgrade outcome replaces it
    const report = revertReportOf(j);
    expect(RevertReport.parse(report)).toEqual({ version: '1.0.1', from: '1.0.0', reason: j.last!.reason, at: new Date(j.last!.at).toISOString() });
    expect(revertReportOf({ ...j, last: { ...j.last!, outcome: 'committed' } })).toBeNull();
    host.running = '1.0.0';
    artifacts.requests = [];
    expect(await manager().check(offer)).toMatchObject({ result: 'blocked', report: { version: '1.0.1', minFrom: '1.0.1', count: 1 } });
    expect(host.blocked).toMatchObject({ version: '1.0.1', minFrom: '1.0.1' });
    expect(artifacts.requests).toEqual([]);
    m.stop();
  });

  it('11: at most 3 boot attempts of a new version; the 4th start reverts before the daemon runs', async () => {
    await installed();
    for (let i = 1; i <= 3; i++) expect(await manager().bootGuard()).toMatchObject({ state: 'trial', action: 'counted', attempts: i });
    expect(await manager().bootGuard()).toMatchObject({
      state: 'idle',
      current: '1.0.0',
      action: 'reverted',
      reason: '1.0.1 did not reach the cloud in 3 boot attempts',
    });
    expect(versionOf('current')).toBe('1.0.0');
  });

  it("11: a new version that hangs before onBoot is reverted from outside it: the trial-guard check, then the restart's boot guard", async () => {
    await installed();
    let mono = 5_000_000;
    const machine: MachineBoot = { bootId: () => 'boot-a', monotonicMs: () => mono };
    // the service starts: ExecStartPre counts attempt 1; the new version then hangs (no onBoot, no health timer)
    expect(await manager({ machine, invocationId: 'inv-1' }).bootGuard()).toMatchObject({ action: 'counted', attempts: 1 });
    const out: string[] = [];
    const check = () =>
      upgradeMain(['node', 'vend-agent', 'upgrade', 'trial-expired', '--root', root], { machine, clock, stdout: (t) => out.push(t), stderr: () => {} });
    mono += 299_000;
    expect(await check()).toBe(1); // within 300 s: nothing to do
    expect(JSON.parse(out.at(-1)!)).toMatchObject({ trialExpired: { expired: false, version: '1.0.1', seconds: 299 } });
    mono += 2_000;
    expect(await check()).toBe(0); // past it: the timer restarts the service
    expect(JSON.parse(out.at(-1)!)).toMatchObject({ trialExpired: { expired: true, version: '1.0.1', seconds: 301 } });
    expect((await journal()).state).toBe('trial'); // the check only reads
    // the restart's boot guard (a new invocation) reverts before the new version runs again
    expect(await manager({ machine, invocationId: 'inv-2' }).bootGuard()).toMatchObject({ state: 'idle', action: 'reverted', current: '1.0.0' });
    expect(versionOf('current')).toBe('1.0.0');
    const j = await journal();
    expect(j).toMatchObject({
      state: 'idle',
      current: '1.0.0',
      install: null,
      last: { outcome: 'reverted', version: '1.0.1', reason: '1.0.1 did not reach the cloud within 300 s of booting (301 s; reverted by the boot guard)' },
    });
    expect(j.bad.map((b) => b.version)).toEqual(['1.0.1']);
    expect(await check()).toBe(1);
    expect(JSON.parse(out.at(-1)!)).toMatchObject({ trialExpired: { expired: false, version: null } });
  });

  it('11: a start more than 300 s after the last counted one (it crashed late, uncommitted) reverts; a quick crash restart does not', async () => {
    await installed();
    let mono = 1_000;
    const machine: MachineBoot = { bootId: () => 'boot-a', monotonicMs: () => mono };
    expect(await manager({ machine, invocationId: 'a' }).bootGuard()).toMatchObject({ action: 'counted', attempts: 1 });
    mono += 20_000;
    expect(await manager({ machine, invocationId: 'b' }).bootGuard()).toMatchObject({ action: 'counted', attempts: 2 });
    mono += 300_001;
    expect(await manager({ machine, invocationId: 'c' }).bootGuard()).toMatchObject({ action: 'reverted', current: '1.0.0' });
  });

  it('the trial deadline is judged within one kernel boot only: after a power cut the next start gets a fresh window', async () => {
    await installed();
    let boot = 'boot-a';
    let mono = 9_000_000;
    const machine: MachineBoot = { bootId: () => boot, monotonicMs: () => mono };
    expect(await manager({ machine, invocationId: 'a' }).bootGuard()).toMatchObject({ action: 'counted', attempts: 1 });
    boot = 'boot-b';
    mono = 10_000; // the monotonic clock started again; the wall clock may have jumped anywhere
    clock.advance(24 * 3600_000);
    const out: string[] = [];
    expect(
      await upgradeMain(['node', 'vend-agent', 'upgrade', 'trial-expired', '--root', root], { machine, clock, stdout: (t) => out.push(t), stderr: () => {} }),
    ).toBe(1);
    expect(await manager({ machine, invocationId: 'b' }).bootGuard()).toMatchObject({ action: 'counted', attempts: 2 });
    expect((await journal()).install?.boot).toMatchObject({ id: 'boot-b', monotonicMs: 10_000 });
  });

  it('the wall clock stepped back and forward by hours within one boot: each start counts once, the deadline runs on the monotonic clock', async () => {
    // NTP reaching the cabinet after a power cut (docs/decisions/outages.md, "The cabinet"): attempts are counted by
    // service start (invocation id), the health deadline by CLOCK_MONOTONIC within the kernel boot; wall time is only shown
    await installed();
    let mono = 1_000;
    const machine: MachineBoot = { bootId: () => 'boot-a', monotonicMs: () => mono };
    const expired = async (): Promise<number> =>
      upgradeMain(['node', 'vend-agent', 'upgrade', 'trial-expired', '--root', root], { machine, clock, stdout: () => {}, stderr: () => {} });
    expect(await manager({ machine, invocationId: 'a' }).bootGuard()).toMatchObject({ action: 'counted', attempts: 1 });
    clock.set(clock.now() - 5 * 3600_000);
    mono += 20_000;
    expect(await manager({ machine, invocationId: 'a' }).bootGuard()).toMatchObject({ action: 'none', attempts: 1 });
    expect(await manager({ machine, invocationId: 'b' }).bootGuard()).toMatchObject({ action: 'counted', attempts: 2 });
    clock.set(clock.now() + 10 * 3600_000);
    mono += 20_000;
    expect(await expired()).toBe(1); // 20 s into this attempt, whatever the wall clock says
    mono += 300_001;
    expect(await expired()).toBe(0);
    expect((await journal()).install).toMatchObject({ attempts: 2, boot: { id: 'boot-a', monotonicMs: 21_000 } });
  });

  it('one service start counts one attempt: the boot guard and onBoot share the invocation id', async () => {
    await installed();
    expect(await manager({ invocationId: 'inv-1' }).bootGuard()).toMatchObject({ action: 'counted', attempts: 1 });
    expect(await manager({ invocationId: 'inv-1' }).bootGuard()).toMatchObject({ action: 'none', attempts: 1 });
    expect(await manager({ invocationId: 'inv-2' }).bootGuard()).toMatchObject({ action: 'counted', attempts: 2 });
  });

  it('the fallback guard (run from the previous tree) reverts a version on trial at once', async () => {
    await installed();
    expect(await manager().bootGuard({ fallback: true })).toMatchObject({ action: 'reverted', current: '1.0.0' });
    expect(await manager().bootGuard({ fallback: true })).toMatchObject({ action: 'cleaned', current: '1.0.0' });
  });

  it('a committed downgrade under allowDowngrade lowers the floor; without it the floor holds', async () => {
    await installed('1.0.1');
    await manager().cloudReached();
    expect((await journal()).floor).toBe('1.0.1');
    const down = await publish('1.0.0', {}, {}, { allowDowngrade: true });
    expect(await manager().check(down.offer)).toMatchObject({ result: 'installed', version: '1.0.0' });
    host.running = '1.0.0';
    await manager().cloudReached();
    expect(await journal()).toMatchObject({ current: '1.0.0', floor: '1.0.0' });
  });

  it('forgetting a reverted version lets it be offered again', async () => {
    const { offer } = await installed();
    await manager().bootGuard({ fallback: true });
    host.running = '1.0.0';
    expect(await manager().check(offer)).toMatchObject({ result: 'blocked' });
    expect(await manager().trees.forgetBad('1.0.1')).toBe(true);
    expect(await manager().trees.forgetBad('1.0.1')).toBe(false);
    expect(await manager().check(offer)).toMatchObject({ result: 'installed' });
  });
});
