import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Journal } from './journal.ts';
import { clock, host, manager, publish, root, settle, useInstallRoot } from './manager.test-support.ts';

/**
 * The install root's disk full while a new version is on trial (docs/decisions/outages.md, "The cabinet"): the
 * version reaches the cloud, its commit (a journal write) is refused, and the daemon must neither die of it nor
 * revert a version that proved itself; the commit lands once space returns. The root is copied onto a 4 MB tmpfs
 * the test mounts (root, as the tests run here; skipped otherwise).
 */

const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
})();

function fill(file: string): void {
  const fd = fs.openSync(file, 'a');
  try {
    for (const size of [1 << 20, 1 << 14, 512, 1])
      for (;;) {
        try {
          fs.writeSync(fd, Buffer.alloc(size));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw e;
        }
      }
  } finally {
    fs.closeSync(fd);
  }
}

useInstallRoot();

describe.runIf(canMount)('a version on trial when the disk is full', () => {
  const mounts: string[] = [];
  afterEach(() => {
    for (const m of mounts.splice(0)) {
      execFileSync('umount', ['-l', m]);
      fs.rmSync(m, { recursive: true, force: true });
    }
  });

  it('reaching the cloud commits once space returns: no crash, no revert of a version that proved itself', async () => {
    const p = await publish('1.0.1');
    expect(await manager().check(p.offer)).toMatchObject({ result: 'installed' });
    host.running = '1.0.1';
    host.restarts = 0;
    const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-upgrade-full-'));
    mounts.push(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount]);
    const onTmpfs = path.join(mount, 'root');
    fs.cpSync(root, onTmpfs, { recursive: true, verbatimSymlinks: true });
    const journalOf = async () => JSON.parse(fs.readFileSync(path.join(onTmpfs, 'upgrade', 'journal.json'), 'utf8')) as Journal;

    host.reachable = false;
    const m = manager({ root: onTmpfs });
    expect(await m.onBoot()).toMatchObject({ state: 'trial', action: 'counted', attempts: 1 });
    await settle(() => host.reachabilityChecks > 0);
    fill(path.join(mount, 'filler'));
    host.reachable = true;
    clock.advance(3_000); // the next health poll: the cloud answers, the commit is refused
    await settle(() => host.reachabilityChecks > 1);
    await settle(undefined, 20);
    expect((await journalOf()).state).toBe('trial');
    clock.advance(400_000); // past the 300 s health deadline: a version that reached the cloud is not reverted
    await settle(undefined, 20);
    expect(host.restarts).toBe(0);
    expect((await journalOf()).state).toBe('trial');

    fs.rmSync(path.join(mount, 'filler'));
    clock.advance(3_000);
    for (let i = 0; i < 200 && (await journalOf()).state !== 'idle'; i++) await settle(undefined, 1);
    expect(await journalOf()).toMatchObject({ state: 'idle', current: '1.0.1', last: { outcome: 'committed', version: '1.0.1' } });
    expect(host.restarts).toBe(0);
    m.stop();
  });
});
