import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock, parseReleaseSecretKey, signRelease } from '@vend/protocol';
import type { BlockedReport, DeferralReport, SignedReleaseFields, UpgradeOffer } from '@vend/protocol';
import type { ArtifactFetch } from './download.ts';
import { readJournal } from './journal.ts';
import type { Journal } from './journal.ts';
import { UpgradeManager } from './manager.ts';
import type { UpgradeHost, UpgradeManagerOptions } from './manager.ts';
import type { QuietState } from './preflight.ts';
import { fsyncPath } from './fs-atomic.ts';
import type { SyncKind } from './fs-atomic.ts';
import type { MachineBoot } from './trees.ts';
import { upgradeMain } from './cli.ts';
import { holdVendLock } from './vend-hold.ts';
import { VendLock } from '../vmc/vend-lock.ts';

// The pipeline against a real install root in a temp directory: real tar.gz artifacts, real renames,
// real journal, the staged launcher really run; the artifact server is an in-memory fetch (the HTTPS
// path is covered in test/upgrade-download.test.ts and test/upgrade-e2e.test.ts) and time is a ManualClock.

const keys = parseReleaseSecretKey('3RZyHJFkF0CiteVWobavUM5rkSGaPZU6smwNhkXYHOA=')!;
const PUB = 'wHg6OmqNGbjsECQcM5ejBHwcKpxd2XBfOWRyIfHzd+E=';
const PREFIX = 'https://artifacts.example.com/agent/';
const QUIET: QuietState = { vendLockFree: true, leased: 0, spoolDepth: 0, secondsSinceActivity: 600 };

let tmp: string;
let root: string;

function launcher(version: string): string {
  return `#!/bin/sh\nif [ "$1" = "--version" ]; then echo ${version}; exit 0; fi\necho "vend-agent ${version} $*"\n`;
}

/** Writes a release tree for `version` into `dir`. */
function writeTree(dir: string, version: string, o: { versionFile?: string; launcher?: string | null } = {}): void {
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'VERSION'), `${o.versionFile ?? version}\n`);
  if (o.launcher !== null) fs.writeFileSync(path.join(dir, 'bin/vend-agent'), o.launcher ?? launcher(version), { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'lib/agent.txt'), `agent ${version}\n`.repeat(200));
}

/** A release artifact (tar.gz) for `version` and its digest and size. */
async function artifact(version: string, o: { versionFile?: string; launcher?: string | null } = {}): Promise<{ bytes: Buffer; sha256: string; size: number }> {
  const src = fs.mkdtempSync(path.join(tmp, 'src-'));
  writeTree(src, version, o);
  const file = path.join(tmp, `a-${version}-${Math.random().toString(16).slice(2)}.tar.gz`);
  await tar.create({ file, cwd: src, gzip: true, portable: true }, fs.readdirSync(src));
  const bytes = fs.readFileSync(file);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}

function offerFor(
  a: { sha256: string; size: number },
  version: string,
  fields: Partial<SignedReleaseFields> = {},
  policy: Partial<UpgradeOffer> = {},
): UpgradeOffer {
  const m = signRelease(
    { version, sha256: a.sha256, size: a.size, url: `${PREFIX}vend-agent-${version}.tar.gz`, migration: false, minFrom: null, ...fields },
    keys.secretKey,
  );
  return { ...m, minFrom: m.minFrom ?? null, sequence: 1, target: version, isFinalStep: true, allowDowngrade: false, ...policy };
}

/** An in-memory artifact server: url → bytes, served in 4 KiB chunks; records every request. */
class Artifacts {
  files = new Map<string, Buffer>();
  requests: string[] = [];
  served = 0;
  /** Serve endlessly (bytes past the file) to test the size cap. */
  endless = false;
  /** Stop after this many bytes and hang until aborted. */
  stallAfter: number | null = null;
  fetch: ArtifactFetch = async (url, { signal }) => {
    this.requests.push(url);
    const data = this.files.get(url);
    if (!data) return { status: 404, contentLength: null, body: (async function* () {})(), cancel: () => {} };
    return { status: 200, contentLength: this.endless ? null : data.length, body: this.stream(data, signal), cancel: () => {} };
  };
  private async *stream(data: Buffer, signal: AbortSignal): AsyncGenerator<Uint8Array> {
    for (let off = 0; ; off += 4096) {
      if (this.stallAfter !== null && off >= this.stallAfter) {
        await new Promise((_r, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      }
      if (off >= data.length && !this.endless) return;
      const chunk = off < data.length ? data.subarray(off, off + 4096) : Buffer.alloc(4096, 0x41);
      this.served += chunk.length;
      yield chunk;
    }
  }
}

class Host implements UpgradeHost {
  running = '1.0.0';
  quietState: QuietState = { ...QUIET };
  /** quiet() answers from this list first (one value per call), then quietState. */
  quietSequence: QuietState[] = [];
  offer: unknown = null;
  offersFetched = 0;
  deferral: DeferralReport | null = null;
  blocked: BlockedReport | null = null;
  clears = 0;
  restarts = 0;
  reachable = true;
  reachabilityChecks = 0;
  /** The cabinet's vend lock, held the way the daemon holds it (upgrade/vend-hold.ts). */
  lock = new VendLock();
  holds = 0;
  /** Called when restart() is (to look at the cabinet at that moment). */
  onRestart: (() => void) | null = null;
  runningVersion(): string {
    return this.running;
  }
  quiet(): QuietState {
    return this.quietSequence.shift() ?? this.quietState;
  }
  async fetchOffer(): Promise<unknown> {
    this.offersFetched++;
    return this.offer;
  }
  reportDeferral(r: DeferralReport): void {
    this.deferral = r;
    this.blocked = null;
  }
  reportBlocked(r: BlockedReport): void {
    this.blocked = r;
    this.deferral = null;
  }
  clearReports(): void {
    this.clears++;
    this.deferral = this.blocked = null;
  }
  holdVendLock(): { release(): void } | null {
    const h = holdVendLock(this.lock);
    if (h) this.holds++;
    return h;
  }
  restart(): void {
    this.restarts++;
    this.onRestart?.();
    this.lock = new VendLock(); // the next process starts with a free vend lock
  }
  async cloudReachable(): Promise<boolean> {
    this.reachabilityChecks++;
    return this.reachable;
  }
}

let clock: ManualClock;
let host: Host;
let artifacts: Artifacts;

function manager(o: Partial<UpgradeManagerOptions> = {}): UpgradeManager {
  return new UpgradeManager({
    root,
    host,
    clock,
    releasePublicKey: PUB,
    artifactPrefix: PREFIX,
    fetch: artifacts.fetch,
    freeBytes: async () => 10 * 1024 ** 3,
    ...o,
  });
}

async function publish(
  version: string,
  o: { versionFile?: string; launcher?: string | null } = {},
  fields: Partial<SignedReleaseFields> = {},
  policy: Partial<UpgradeOffer> = {},
) {
  const a = await artifact(version, o);
  const off = offerFor(a, version, fields, policy);
  artifacts.files.set(off.url, a.bytes);
  return { ...a, offer: off };
}

async function journal(): Promise<Journal> {
  const r = await readJournal(path.join(root, 'upgrade/journal.json'));
  if (r.kind !== 'ok') throw new Error(`journal: ${r.kind}`);
  return r.journal;
}

const versionOf = (dir: string): string | null => {
  try {
    return fs.readFileSync(path.join(root, dir, 'VERSION'), 'utf8').trim();
  } catch {
    return null;
  }
};
const rootListing = (): string[] => fs.readdirSync(root).sort();

/** Lets pending promise chains and real fs callbacks run (bounded). */
async function settle(until: () => boolean = () => false, rounds = 200): Promise<void> {
  for (let i = 0; i < rounds && !until(); i++) await new Promise((r) => setTimeout(r, 2));
}

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'upgrade-manager-'));
  root = path.join(tmp, 'root');
  writeTree(path.join(root, 'current'), '1.0.0');
  clock = new ManualClock(1_700_000_000_000);
  host = new Host();
  artifacts = new Artifacts();
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

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

  it('8: without room for 3x the artifact nothing is downloaded', async () => {
    const { offer, size } = await publish('1.0.1');
    expect(await manager({ freeBytes: async () => 3 * size - 1 }).check(offer)).toMatchObject({ result: 'refused', step: 8, code: 'no-disk-room' });
    expect(artifacts.requests).toEqual([]);
    // exactly 3x passes the first gate (the unpacked size is checked again after the header pass)
    const free = [3 * size];
    expect(await manager({ freeBytes: async () => free.shift() ?? 10 * 1024 ** 3 }).check(offer)).toMatchObject({ result: 'installed' });
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

describe('the schedule', () => {
  it('checks 60 s after start, then every 21,600 s, and 180 s after a deferral', async () => {
    const m = manager();
    m.start();
    clock.advance(59_999);
    await settle(undefined, 3);
    expect(host.offersFetched).toBe(0);
    clock.advance(1);
    await settle(() => host.offersFetched === 1);
    expect(host.offersFetched).toBe(1);
    await settle(undefined, 5);
    clock.advance(21_599_999);
    await settle(undefined, 3);
    expect(host.offersFetched).toBe(1);
    clock.advance(1);
    await settle(() => host.offersFetched === 2);
    expect(host.offersFetched).toBe(2);
    // a deferral brings the next check forward
    host.offer = (await publish('1.0.1')).offer;
    host.quietState = { ...QUIET, secondsSinceActivity: 10 };
    clock.advance(21_600_000);
    await settle(() => host.deferral !== null);
    expect(host.deferral).toMatchObject({ version: '1.0.1' });
    await settle(undefined, 5);
    clock.advance(180_000);
    await settle(() => host.offersFetched === 4);
    expect(host.offersFetched).toBe(4);
    m.stop();
    clock.advance(10 * 21_600_000);
    await settle(undefined, 5);
    expect(host.offersFetched).toBe(4);
  });
});
