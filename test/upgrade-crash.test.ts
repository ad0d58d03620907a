import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, parseReleaseSecretKey, signRelease } from '@vend/protocol';
import type { UpgradeOffer } from '@vend/protocol';
import { InstallRoot, UpgradeManager, readUpgradeJournal, undiciArtifactFetch } from '@vend/agent';
import type { UpgradeJournal, UpgradeStep } from '@vend/agent';
import { ROOT } from './support/processes.ts';
import { startArtifactServer } from './support/upgrade-https.ts';
import type { ArtifactServer } from './support/upgrade-https.ts';
import { fakeReleaseMembers, tgzBytes } from './support/upgrade-tar.ts';

// Crash consistency (Mender's power-cut tests): the install runs in a child process that kills itself
// with SIGKILL at one named step; then the boot guard runs, and the install root must hold either the
// old or the new release — a tree whose launcher runs — and the journal must say which.

const SECRET = parseReleaseSecretKey('3RZyHJFkF0CiteVWobavUM5rkSGaPZU6smwNhkXYHOA=')!;
const PUB = 'wHg6OmqNGbjsECQcM5ejBHwcKpxd2XBfOWRyIfHzd+E=';
const CHILD = path.join(ROOT, 'test/support/upgrade-child.ts');

let server: ArtifactServer;
let tmp: string;
let offer: UpgradeOffer;

beforeAll(async () => {
  server = await startArtifactServer();
  const bytes = tgzBytes(fakeReleaseMembers('1.0.1', [{ path: 'lib/bulk.bin', body: randomBytes(300_000) }]));
  const url = server.put('vend-agent-1.0.1-linux-x64.tar.gz', bytes);
  const m = signRelease(
    { version: '1.0.1', sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, url, migration: false, minFrom: null },
    SECRET.secretKey,
  );
  offer = { ...m, minFrom: null, sequence: 1, target: '1.0.1', isFinalStep: true, allowDowngrade: false };
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'upgrade-crash-'));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A fresh install root running 1.0.0 (with an older 0.9.0 kept as previous). */
function freshRoot(): string {
  const r = fs.mkdtempSync(path.join(tmp, 'root-'));
  for (const [dir, v] of [
    ['current', '1.0.0'],
    ['previous', '0.9.0'],
  ] as const) {
    fs.mkdirSync(path.join(r, dir, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(r, dir, 'VERSION'), `${v}\n`);
    fs.writeFileSync(path.join(r, dir, 'bin/vend-agent'), `#!/bin/sh\necho ${v}\n`, { mode: 0o755 });
  }
  return r;
}

interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: Record<string, unknown>[];
}

function child(args: Record<string, unknown>, timeoutMs = 20_000): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify({ publicKey: PUB, prefix: server.prefix, ca: server.ca, ...args })], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const t = setTimeout(() => c.kill('SIGKILL'), timeoutMs);
    c.on('error', reject);
    c.on('close', (code, signal) => {
      clearTimeout(t);
      if (code !== 0 && signal !== 'SIGKILL') return reject(new Error(`child exited ${code}: ${err}`));
      resolve({
        code,
        signal,
        lines: out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
      });
    });
  });
}

async function journalOf(r: string): Promise<UpgradeJournal> {
  const j = await readUpgradeJournal(path.join(r, 'upgrade/journal.json'));
  if (j.kind !== 'ok') throw new Error(`journal ${j.kind}`);
  return j.journal;
}

/** The tree in `current` runs, says the version the journal says, and nothing transient is left. */
async function assertConsistent(r: string): Promise<UpgradeJournal> {
  const j = await journalOf(r);
  const ran = execFileSync(path.join(r, 'current/bin/vend-agent'), ['--version'], { encoding: 'utf8' }).trim();
  expect(ran).toBe(j.current);
  expect(fs.readFileSync(path.join(r, 'current/VERSION'), 'utf8').trim()).toBe(j.current);
  if (j.state === 'idle') expect(fs.readdirSync(r).filter((n) => !['current', 'previous', 'upgrade'].includes(n))).toEqual([]);
  return j;
}

const bootGuard = (r: string) => new InstallRoot({ root: r, clock: new ManualClock(Date.now()) }).bootGuard();

describe('SIGKILL at every step of an install, then restart', () => {
  const cases: { step: UpgradeStep; runs: '1.0.0' | '1.0.1' }[] = [
    { step: 'download', runs: '1.0.0' },
    { step: 'downloaded', runs: '1.0.0' },
    { step: 'extract', runs: '1.0.0' },
    { step: 'extracted', runs: '1.0.0' },
    { step: 'self-tested', runs: '1.0.0' },
    { step: 'journal-swapping', runs: '1.0.0' },
    { step: 'moved-previous', runs: '1.0.0' },
    { step: 'moved-current', runs: '1.0.0' },
    { step: 'moved-staging', runs: '1.0.1' },
    { step: 'journal-trial', runs: '1.0.1' },
  ];

  let r: string;
  beforeEach(() => {
    r = freshRoot();
  });

  for (const c of cases) {
    it(`killed after "${c.step}": runs ${c.runs} after restart`, async () => {
      const killed = await child({ root: r, mode: 'install', offer, crashAt: c.step });
      expect(killed.signal).toBe('SIGKILL');
      expect(killed.lines.at(-1)).toEqual({ step: c.step });
      if (c.step === 'download') {
        // killed mid-transfer: a partial download is on disk
        const part = fs.statSync(path.join(r, 'upgrade/download/1.0.1.tar.gz.part')).size;
        expect(part).toBeGreaterThan(0);
        expect(part).toBeLessThan(offer.size);
      }
      if (c.step === 'extract') expect(fs.readdirSync(r).filter((n) => n.startsWith('staging-'))).toHaveLength(1);

      const boot = await bootGuard(r);
      const j = await assertConsistent(r);
      expect(j.current).toBe(c.runs);
      if (c.runs === '1.0.0') {
        expect(j.state).toBe('idle');
        expect(j.install).toBeNull();
        if (['journal-swapping', 'moved-previous', 'moved-current'].includes(c.step)) {
          expect(j.last).toMatchObject({ outcome: 'abandoned', version: '1.0.1', from: '1.0.0' });
          expect(boot.action).toBe('swap-rolled-back');
        }
      } else {
        // the new tree is complete: it boots on trial (attempt 1) and the old one is kept beside it
        expect(j).toMatchObject({ state: 'trial', install: { from: '1.0.0', to: '1.0.1', attempts: 1 } });
        expect(fs.readFileSync(path.join(r, 'previous/VERSION'), 'utf8').trim()).toBe('1.0.0');
      }
    });
  }

  it('without a crash the child installs, restarts, and the next boot commits on reaching the cloud', async () => {
    const installed = await child({ root: r, mode: 'install', offer });
    expect(installed.lines.at(-1)).toEqual({ restart: true });
    const booted = await child({ root: r, mode: 'boot', reachable: true });
    expect(booted.lines.find((l) => 'boot' in l)).toEqual({ boot: { state: 'trial', current: '1.0.1', action: 'counted', attempts: 1 } });
    const j = await assertConsistent(r);
    expect(j).toMatchObject({ state: 'idle', current: '1.0.1', floor: '1.0.1', last: { outcome: 'committed' } });
  });
});

describe('SIGKILL during the first boots, the commit and the revert', () => {
  /** A root with 1.0.1 swapped in and on trial (installed in this process). */
  async function onTrial(): Promise<string> {
    const r = freshRoot();
    const m = new UpgradeManager({
      root: r,
      clock: new ManualClock(Date.now()),
      releasePublicKey: PUB,
      artifactPrefix: server.prefix,
      fetch: undiciArtifactFetch({ dispatcher: server.dispatcher() }),
      arch: 'x64', // single-artifact releases are x64 trees, whatever machine runs the test
      host: {
        runningVersion: () => '1.0.0',
        quiet: () => ({ vendLockFree: true, leased: 0, spoolDepth: 0, secondsSinceActivity: 3600 }),
        fetchOffer: async () => null,
        reportDeferral: () => {},
        reportBlocked: () => {},
        clearReports: () => {},
        holdVendLock: () => ({ release: () => {} }),
        restart: () => {},
        cloudReachable: async () => false,
      },
    });
    expect(await m.check(offer)).toMatchObject({ result: 'installed' });
    return r;
  }

  it('a new version killed during each of its first 3 boots is reverted on the 4th start', async () => {
    const r = await onTrial();
    for (let i = 1; i <= 3; i++) {
      const killed = await child({ root: r, mode: 'boot', crashAt: 'boot-counted' });
      expect(killed.signal).toBe('SIGKILL');
      expect(await journalOf(r)).toMatchObject({ state: 'trial', install: { attempts: i } });
      await assertConsistent(r);
    }
    expect(await bootGuard(r)).toMatchObject({ action: 'reverted', current: '1.0.0' });
    const j = await assertConsistent(r);
    expect(j).toMatchObject({ state: 'idle', current: '1.0.0', last: { outcome: 'reverted', reason: '1.0.1 did not reach the cloud in 3 boot attempts' } });
    expect(j.bad.map((b) => b.version)).toEqual(['1.0.1']);
  });

  it('killed right after the commit: the new version stays committed', async () => {
    const r = await onTrial();
    const killed = await child({ root: r, mode: 'boot', reachable: true, crashAt: 'committed' });
    expect(killed.signal).toBe('SIGKILL');
    await bootGuard(r);
    expect(await assertConsistent(r)).toMatchObject({ state: 'idle', current: '1.0.1', last: { outcome: 'committed' } });
  });

  for (const step of ['journal-reverting', 'revert-moved-current', 'revert-moved-previous', 'reverted'] as const) {
    it(`killed after "${step}" while reverting (the cloud was not reached): the old version runs after restart`, async () => {
      const r = await onTrial();
      const killed = await child({ root: r, mode: 'boot', reachable: false, healthTimeoutMs: 1000, crashAt: step });
      expect(killed.signal).toBe('SIGKILL');
      await bootGuard(r);
      const j = await assertConsistent(r);
      expect(j).toMatchObject({
        state: 'idle',
        current: '1.0.0',
        last: { outcome: 'reverted', version: '1.0.1', reason: '1.0.1 did not reach the cloud within 1 s of booting' },
      });
      expect(j.bad.map((b) => b.version)).toEqual(['1.0.1']);
    });
  }
});
