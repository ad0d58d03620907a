import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { releaseUnpackCap } from '@vend/protocol';
import { fsyncPath } from './fs-atomic.ts';
import type { SyncKind } from './fs-atomic.ts';
import {
  QUIET,
  root,
  launcher,
  writeTree,
  artifact,
  clock,
  host,
  artifacts,
  manager,
  publish,
  journal,
  versionOf,
  rootListing,
  settle,
  useInstallRoot,
} from './manager.test-support.ts';

useInstallRoot();

describe('UpgradeManager.check: spec 2 §4.4 in order, nothing downloaded before the signature', () => {
  it('1: a malformed offer is refused before any request', async () => {
    const { offer } = await publish('1.0.1');
    const { sha256: _s, ...noDigest } = offer;
    expect(await manager().check(noDigest)).toMatchObject({ result: 'refused', step: 1, code: 'bad-offer' });
    expect(artifacts.requests).toEqual([]);
  });

  it('2: a URL outside the trusted prefix is refused before any request', async () => {
    const { offer } = await publish('1.0.1');
    expect(await manager({ artifactPrefix: 'https://artifacts.example.com/other/' }).check(offer)).toMatchObject({ result: 'refused', step: 2 });
    expect(artifacts.requests).toEqual([]);
  });

  it('3: with no signing key installed nothing is installed', async () => {
    const { offer } = await publish('1.0.1');
    expect(await manager({ releasePublicKey: null }).check(offer)).toMatchObject({ result: 'refused', step: 3 });
    expect(await manager({ releasePublicKey: 'not a key' }).check(offer)).toMatchObject({ result: 'refused', step: 3 });
    expect(artifacts.requests).toEqual([]);
    expect(versionOf('current')).toBe('1.0.0');
  });

  it('4: a tampered signature is refused before any byte is downloaded', async () => {
    const { offer } = await publish('1.0.1');
    const sig = Buffer.from(offer.signature, 'base64');
    sig[10]! ^= 1;
    expect(await manager().check({ ...offer, signature: sig.toString('base64') })).toMatchObject({ result: 'refused', step: 4, code: 'bad-signature' });
    expect(artifacts.requests).toEqual([]);
    expect(host.restarts).toBe(0);
  });

  it('5: a signed floor above the running version is reported blocked, with count and seconds growing', async () => {
    const { offer } = await publish('1.2.0', {}, { minFrom: '1.1.0' });
    const m = manager();
    expect(await m.check(offer)).toMatchObject({ result: 'blocked', report: { version: '1.2.0', minFrom: '1.1.0', count: 1, seconds: 0 } });
    expect(host.blocked).toEqual({ version: '1.2.0', minFrom: '1.1.0', count: 1, seconds: 0 });
    clock.advance(90_000);
    await m.check(offer);
    expect(host.blocked).toEqual({ version: '1.2.0', minFrom: '1.1.0', count: 2, seconds: 90 });
    expect(artifacts.requests).toEqual([]);
    // the condition ends when the cloud offers nothing more
    expect(await m.check(null)).toEqual({ result: 'none' });
    expect(host.blocked).toBeNull();
  });

  it('6: no downgrade without allowDowngrade', async () => {
    host.running = '1.0.0';
    const { offer } = await publish('0.9.0');
    expect(await manager().check(offer)).toMatchObject({ result: 'refused', step: 6, code: 'downgrade' });
    expect(artifacts.requests).toEqual([]);
  });

  it('7: a busy cabinet defers and reports it; once quiet the install goes ahead and the report clears', async () => {
    const { offer } = await publish('1.0.1');
    const m = manager();
    host.quietState = { vendLockFree: false, leased: 1, spoolDepth: 0, secondsSinceActivity: 5 };
    expect(await m.check(offer)).toMatchObject({ result: 'deferred' });
    expect(host.deferral).toEqual({
      version: '1.0.1',
      count: 1,
      seconds: 0,
      reason: 'a vend holds the VMC lock; 1 remote dispense command leased; last activity 5 s ago (quiet after 180 s)',
    });
    clock.advance(180_000);
    host.quietState = { ...QUIET, secondsSinceActivity: 100 };
    expect(await m.check(offer)).toMatchObject({ result: 'deferred', report: { count: 2, seconds: 180 } });
    expect(artifacts.requests).toEqual([]);
    host.quietState = QUIET;
    expect(await m.check(offer)).toMatchObject({ result: 'installed', version: '1.0.1' });
    expect(host.deferral).toBeNull();
  });

  it('8: without room for the artifact and all it may unpack to (by its signed size) nothing is downloaded', async () => {
    const { offer, size } = await publish('1.0.1');
    const need = size + releaseUnpackCap(size) + 16 * 1024 * 1024;
    expect(need).toBeGreaterThan(3 * size);
    const refused = await manager({ freeBytes: async () => need - 1 }).check(offer);
    expect(refused).toMatchObject({ result: 'refused', step: 8, code: 'no-disk-room' });
    expect(refused).toMatchObject({
      reason: expect.stringMatching(new RegExp(`the ${size}-byte artifact, the ${releaseUnpackCap(size)} bytes it may unpack to`)),
    });
    expect(artifacts.requests).toEqual([]);
    // exactly that passes the first gate (the unpacked size is checked again after the header pass)
    const free = [need];
    expect(await manager({ freeBytes: async () => free.shift() ?? 10 * 1024 ** 3 }).check(offer)).toMatchObject({ result: 'installed' });
  });

  it('9: a validly signed small artifact that unpacks huge is refused by its signed size, with nothing written past the cap', async () => {
    // 64 MiB of zeros gzip to about 64 KiB: the signed size allows 4 × that + 1 MiB
    const { offer, size } = await publish('1.0.1', { extra: { 'lib/blob.bin': Buffer.alloc(64 * 1024 * 1024) } });
    expect(size).toBeLessThan(256 * 1024);
    const out = await manager().check(offer);
    expect(out).toMatchObject({
      result: 'refused',
      step: 9,
      code: 'bad-archive',
      reason: expect.stringMatching(/more than \d+ bytes unpacked|unpacks to more than/),
    });
    // refused on the headers: no staging directory left, nothing of the tree written anywhere
    expect(rootListing()).toEqual(['current', 'upgrade']);
    expect(fs.readdirSync(path.join(root, 'upgrade'))).toEqual(['journal.json']);
    expect(versionOf('current')).toBe('1.0.0');
  });

  it('9: an archive whose headers stay small but whose stream passes the cap is cut off at the cap', async () => {
    // 4000 empty members: 2 MiB of tar headers, a few KiB of gzip
    const extra = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`lib/e/${i}`, '']));
    const { offer, size } = await publish('1.0.1', { extra });
    expect(4000 * 512).toBeGreaterThan(releaseUnpackCap(size));
    const out = await manager().check(offer);
    expect(out).toMatchObject({
      result: 'refused',
      step: 9,
      code: 'bad-archive',
      reason: expect.stringMatching(/unpacks to more than \d+ bytes \(its cap, by the signed size\)/),
    });
    expect(rootListing()).toEqual(['current', 'upgrade']);
  });

  it('8: a tree that unpacks to more than the free space is refused after the header pass, before writing', async () => {
    const { offer } = await publish('1.0.1');
    const free = [10 * 1024 ** 3, 1_000_000];
    const out = await manager({ freeBytes: async () => free.shift() ?? 0 }).check(offer);
    expect(out).toMatchObject({ result: 'refused', step: 8, code: 'no-disk-room', reason: expect.stringMatching(/unpacks to \d+ bytes; 1000000 bytes free/) });
    expect(artifacts.requests).toHaveLength(1);
    expect(rootListing()).toEqual(['current', 'upgrade']);
  });

  it('a stopped manager started again downloads again', async () => {
    const { offer } = await publish('1.0.1');
    const m = manager();
    m.stop();
    expect(await m.check(offer)).toMatchObject({ result: 'busy', reason: 'stopped' });
    m.start();
    expect(await m.check(offer)).toMatchObject({ result: 'installed' });
    m.stop();
  });

  it('9: bytes that do not match the signed digest are refused and leave nothing behind', async () => {
    const { offer } = await publish('1.0.1');
    const other = await artifact('1.0.1', { launcher: `${launcher('1.0.1')}# another build\n` });
    // the same length as the signed size, other bytes
    artifacts.files.set(offer.url, Buffer.concat([other.bytes.subarray(0, offer.size)], offer.size));
    expect(await manager().check(offer)).toMatchObject({ result: 'refused', step: 9, code: 'digest-mismatch' });
    expect(rootListing()).toEqual(['current', 'upgrade']);
    expect(fs.readdirSync(path.join(root, 'upgrade'))).toEqual(['journal.json']);
  });

  it('9: endless data stops at the signed size', async () => {
    const { offer } = await publish('1.0.1');
    artifacts.endless = true;
    expect(await manager().check(offer)).toMatchObject({ result: 'refused', step: 9, code: 'size-mismatch' });
    expect(artifacts.served).toBeLessThanOrEqual(offer.size + 4096);
  });

  it('4: an arm64 cabinet refuses a validly signed x64 artifact before any byte is downloaded', async () => {
    const { offer } = await publish('1.0.1');
    expect(await manager({ arch: 'arm64' }).check(offer)).toMatchObject({ result: 'refused', step: 4, code: 'wrong-arch' });
    expect(artifacts.requests).toEqual([]);
    expect(versionOf('current')).toBe('1.0.0');
    expect(host.restarts).toBe(0);
  });

  it('9: progress() shows the download (bytes of the signed size, time); the log gets a line at the start, at most one per 30 s, and the end', async () => {
    const lines: string[] = [];
    const log = { info: (_o: object, msg: string) => void lines.push(msg), warn: () => {}, error: () => {} };
    // incompressible bytes, so the artifact takes several 4 KiB chunks
    const { offer, size } = await publish('1.0.1', { extra: { 'lib/noise.bin': randomBytes(20_000) } });
    expect(size).toBeGreaterThan(3 * 4096);
    artifacts.stallAfter = 8192;
    const m = manager({ log });
    expect(m.progress()).toEqual({ state: 'idle' });
    const pending = m.check(offer);
    await settle(() => artifacts.served >= 8192);
    await settle(undefined, 5);
    clock.advance(10_000);
    expect(m.progress()).toEqual({ state: 'downloading', version: '1.0.1', received: 8192, total: size, elapsedMs: 10_000 });
    const downloading = lines.filter((l) => l.startsWith('upgrade: downloading 1.0.1'));
    // the start, then the first chunk (the throttle's first line); the second chunk within 30 s is not logged
    expect(downloading.length).toBeLessThanOrEqual(2);
    expect(downloading[0]).toMatch(/^upgrade: downloading 1\.0\.1 +0% {2}0 B of /);
    clock.advance(50_000); // the stall timer gives up
    expect(await pending).toMatchObject({ result: 'refused', code: 'download-failed' });
    expect(m.progress()).toEqual({ state: 'idle' });

    // a whole download logs its end
    artifacts.stallAfter = null;
    lines.length = 0;
    expect(await manager({ log }).check(offer)).toMatchObject({ result: 'installed' });
    expect(lines.filter((l) => l.startsWith('upgrade: downloading 1.0.1')).at(-1)).toMatch(/100%/);
    expect(lines.filter((l) => l.startsWith('upgrade: downloading')).length).toBeLessThanOrEqual(3);
  });

  it('9: a stalled download is abandoned after 60 s on the clock', async () => {
    const { offer } = await publish('1.0.1');
    artifacts.stallAfter = 4096;
    const pending = manager().check(offer);
    await settle(() => artifacts.served > 0);
    await settle(undefined, 5);
    clock.advance(60_000);
    expect(await pending).toMatchObject({ result: 'refused', step: 9, code: 'download-failed', reason: expect.stringMatching(/stalled/) });
    expect(rootListing()).toEqual(['current', 'upgrade']);
  });

  it('9: an artifact whose tree says another version, or has no launcher, or whose launcher fails, is refused before the swap', async () => {
    const cases = [
      { o: { versionFile: '1.0.2' }, why: /VERSION says 1\.0\.2/ },
      { o: { launcher: null }, why: /no bin\/vend-agent/ },
      { o: { launcher: '#!/bin/sh\nexit 3\n' }, why: /does not run here/ },
      { o: { launcher: '#!/bin/sh\necho 9.9.9\n' }, why: /printed "9\.9\.9"/ },
    ];
    for (const c of cases) {
      const { offer } = await publish('1.0.1', c.o);
      expect(await manager().check(offer)).toMatchObject({ result: 'refused', step: 9, code: 'bad-tree', reason: expect.stringMatching(c.why) });
      expect(versionOf('current')).toBe('1.0.0');
      expect(rootListing()).toEqual(['current', 'upgrade']);
    }
    expect(host.restarts).toBe(0);
  });

  it('refuses to install when this agent was not started from the install root', async () => {
    const { offer } = await publish('1.0.1');
    host.running = '0.1.0';
    expect(await manager().check(offer)).toMatchObject({ result: 'refused', code: 'not-running-from-root' });
    expect(artifacts.requests).toEqual([]);
  });

  it('checks quiet again right before the swap', async () => {
    const { offer } = await publish('1.0.1');
    host.quietSequence = [QUIET, { ...QUIET, vendLockFree: false }];
    expect(await manager().check(offer)).toMatchObject({ result: 'deferred', report: { reason: 'a vend holds the VMC lock' } });
    expect(versionOf('current')).toBe('1.0.0');
    expect(rootListing()).toEqual(['current', 'upgrade']);
    expect(fs.readdirSync(path.join(root, 'upgrade'))).toEqual(['journal.json']);
  });

  it('10: extracts beside, journals, swaps by renames, keeps the previous tree, restarts', async () => {
    writeTree(path.join(root, 'previous'), '0.9.0');
    const { offer } = await publish('1.0.1');
    const out = await manager().check(offer);
    expect(out).toEqual({ result: 'installed', version: '1.0.1', from: '1.0.0' });
    expect(versionOf('current')).toBe('1.0.1');
    expect(versionOf('previous')).toBe('1.0.0');
    expect(rootListing()).toEqual(['current', 'previous', 'upgrade']);
    expect(fs.statSync(path.join(root, 'current')).mode & 0o777).toBe(0o700);
    expect(host.restarts).toBe(1);
    const j = await journal();
    expect(j).toMatchObject({ state: 'trial', current: '1.0.1', floor: '1.0.0', install: { from: '1.0.0', to: '1.0.1', attempts: 0, step: null } });
    // a check while the new version is on trial does nothing
    expect(await manager().check(offer)).toMatchObject({ result: 'busy' });
  });

  it('10: every file and directory of the staged tree is fsynced, children before their directory, before the journal says swapping', async () => {
    const { offer } = await publish('1.0.1');
    const events: string[] = [];
    const m = manager({
      fsync: async (p: string, kind: SyncKind) => {
        await fsyncPath(p, kind);
        events.push(`${kind}:${path.relative(root, p)}:${(await journal()).state}`);
      },
      onStep: (step) => {
        if (step === 'journal-swapping') events.push('journal-swapping');
      },
    });
    expect(await m.check(offer)).toMatchObject({ result: 'installed' });
    const at = events.indexOf('journal-swapping');
    expect(at).toBeGreaterThan(0);
    const synced = events.slice(0, at);
    // every sync happened while the journal still said idle, none after the swap began
    expect(synced.every((e) => e.endsWith(':idle'))).toBe(true);
    expect(events.slice(at + 1)).toEqual([]);
    // exactly the tree now in current/ (it was staging-1.0.1-XXXXXX then)
    const staged = synced.at(-1)!.split(':')[1]!;
    expect(staged).toMatch(/^staging-1\.0\.1-/);
    const want: string[] = [];
    const walk = (rel: string): void => {
      for (const e of fs.readdirSync(path.join(root, 'current', rel), { withFileTypes: true })) {
        const r = path.join(rel, e.name);
        if (e.isDirectory()) walk(r);
        else want.push(`file:${path.join(staged, r)}`);
      }
      want.push(`dir:${path.join(staged, rel)}`);
    };
    walk('');
    const got = synced.map((e) => e.slice(0, e.lastIndexOf(':')));
    expect([...got].sort()).toEqual([...want].sort());
    expect(got).toContain(`file:${path.join(staged, 'bin/vend-agent')}`);
    // bottom-up: a directory after everything inside it, the tree's top last
    for (const [i, e] of got.entries()) {
      if (!e.startsWith('dir:')) continue;
      const dir = e.slice(4);
      expect(got.slice(i + 1).some((later) => later.slice(later.indexOf(':') + 1).startsWith(dir + path.sep))).toBe(false);
    }
    expect(got.at(-1)).toBe(`dir:${staged}`);
  });

  it('holds the vend lock from the last quiet check through the swap and until exit: a walk-up is refused busy, a remote drop waits', async () => {
    const { offer } = await publish('1.0.1');
    const { Dispenser, DispenseRefused } = await import('../spool/dispenser.ts');
    type Opts = ConstructorParameters<typeof Dispenser>[0];
    let dispensed = 0;
    const log = { info: () => {}, warn: () => {}, error: () => {} };
    const dispenser = new Dispenser({
      book: { unresolved: () => [], knowsCommand: () => false } as unknown as Opts['book'],
      driver: {
        dispense: async () => {
          dispensed++;
          throw new Error('no board here');
        },
      } as unknown as Opts['driver'],
      client: {} as Opts['client'],
      clock,
      log: log as unknown as Opts['log'],
      onOutcome: () => {},
      aisleCount: () => 10,
      boardAvailable: () => true,
    });
    await dispenser.recover();
    host.lock = dispenser.lock;
    const stop = new AbortController();
    const queue = dispenser.runQueue(stop.signal);

    const seen: { step: string; free: boolean; walkUp: string }[] = [];
    const probe = async (step: string): Promise<void> => {
      let walkUp = 'ran';
      try {
        await dispenser.walkUp({ aisle: 1 });
      } catch (e) {
        walkUp = e instanceof DispenseRefused ? e.code : (e as Error).message;
      }
      seen.push({ step, free: dispenser.lock.isFree, walkUp });
    };
    host.onRestart = () => {
      // a poll brings a remote drop while the agent is going down: it must wait for the new version
      dispenser.offer([{ commandId: 'cmd-1', aisleNo: 2 } as unknown as Parameters<typeof dispenser.offer>[0][number]]);
      void probe('restart');
    };
    const m = manager({ onStep: (step) => (['self-tested', 'journal-swapping', 'moved-staging', 'journal-trial'].includes(step) ? probe(step) : undefined) });
    expect(await m.check(offer)).toMatchObject({ result: 'installed' });
    await settle(() => seen.length === 5);
    expect(host.holds).toBe(1);
    expect(seen.find((e) => e.step === 'self-tested')).toMatchObject({ free: true });
    for (const step of ['journal-swapping', 'moved-staging', 'journal-trial', 'restart'])
      expect(seen.find((e) => e.step === step)).toEqual({ step, free: false, walkUp: 'busy' });
    await settle(undefined, 20);
    expect(dispenser.lock.isFree).toBe(false); // never given back: the process exits holding it
    expect(dispenser.leased).toBe(1); // the remote drop is still waiting
    expect(dispensed).toBe(0);
    stop.abort();
    void queue;
  });

  it('a vend lock taken between the last quiet check and the swap defers the install (nothing swapped)', async () => {
    const { offer } = await publish('1.0.1');
    void host.lock.run(() => new Promise<void>(() => {}));
    expect(await manager().check(offer)).toMatchObject({ result: 'deferred', report: { reason: 'the vend lock is held (a dispense is starting)' } });
    expect(versionOf('current')).toBe('1.0.0');
    expect(host.restarts).toBe(0);
  });

  it('a swap that fails gives the vend lock back', async () => {
    const { offer } = await publish('1.0.1');
    const m = manager({
      onStep: (step) => {
        if (step === 'moved-current') throw new Error('disk gone');
      },
    });
    expect(await m.check(offer)).toMatchObject({ result: 'refused', code: 'install-failed' });
    expect(host.holds).toBe(1);
    expect(host.lock.isFree).toBe(true);
    expect(versionOf('current')).toBe('1.0.0');
  });

  it('one check at a time', async () => {
    const { offer } = await publish('1.0.1');
    artifacts.stallAfter = 4096;
    const m = manager();
    const first = m.check(offer);
    expect(await m.check(offer)).toEqual({ result: 'busy', reason: 'checking an offer' });
    await settle(() => artifacts.served > 0);
    m.stop();
    expect(await first).toMatchObject({ result: 'refused', code: 'download-failed', reason: expect.stringMatching(/stopped/) });
  });
});
