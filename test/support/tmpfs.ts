import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A size-limited file system for disk-full drills (docs/decisions/outages.md): a tmpfs mounted by the test
 * itself, which needs root (the tests run as root here; elsewhere `canMountTmpfs` is false and the suite skips).
 * The pattern of apps/cloud/src/disk-full.int.test.ts, shared by the agent's drills.
 */
export const canMountTmpfs: boolean = (() => {
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

/** Mounts a tmpfs of `size` (mount's syntax: '2m') on a new temp directory; `close` unmounts and removes it. */
export function mountTmpfs(size: string): { dir: string; close(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-agent-full-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  return {
    dir,
    close: () => {
      execFileSync('umount', ['-l', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes zeros into `file` until the file system refuses another byte (its last page too). */
export function fillDisk(file: string): void {
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
