import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { afterEach, beforeEach } from 'vitest';
import { ManualClock, parseReleaseSecretKey, signRelease } from '@vend/protocol';
import type { BlockedReport, DeferralReport, SignedReleaseFields, UpgradeOffer } from '@vend/protocol';
import type { ArtifactFetch } from './download.ts';
import { readJournal } from './journal.ts';
import type { Journal } from './journal.ts';
import { UpgradeManager } from './manager.ts';
import type { UpgradeHost, UpgradeManagerOptions } from './manager.ts';
import type { QuietState } from './preflight.ts';
import { holdVendLock } from './vend-hold.ts';
import { VendLock } from '../vmc/vend-lock.ts';

// Test support for the UpgradeManager suites (manager.*.int.test.ts). The pipeline runs against a real
// install root in a temp directory: real tar.gz artifacts, real renames, real journal, the staged launcher
// really run; the artifact server is an in-memory fetch (the HTTPS path is covered in
// test/upgrade-download.test.ts and test/upgrade-rollout.test.ts) and time is a ManualClock.

const keys = parseReleaseSecretKey('3RZyHJFkF0CiteVWobavUM5rkSGaPZU6smwNhkXYHOA=')!;
const PUB = 'wHg6OmqNGbjsECQcM5ejBHwcKpxd2XBfOWRyIfHzd+E=';
const PREFIX = 'https://artifacts.example.com/agent/';
export const QUIET: QuietState = { vendLockFree: true, leased: 0, spoolDepth: 0, secondsSinceActivity: 600 };

let tmp: string;
export let root: string;

export function launcher(version: string): string {
  return `#!/bin/sh\nif [ "$1" = "--version" ]; then echo ${version}; exit 0; fi\necho "vend-agent ${version} $*"\n`;
}

/** Writes a release tree for `version` into `dir`. */
export interface TreeOptions {
  versionFile?: string;
  launcher?: string | null;
  /** Extra files of the tree: relative path → contents (a bomb: a large run of zeros, which gzip makes tiny). */
  extra?: Record<string, Buffer | string>;
}

export function writeTree(dir: string, version: string, o: TreeOptions = {}): void {
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'VERSION'), `${o.versionFile ?? version}\n`);
  if (o.launcher !== null) fs.writeFileSync(path.join(dir, 'bin/vend-agent'), o.launcher ?? launcher(version), { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'lib/agent.txt'), `agent ${version}\n`.repeat(200));
  for (const [rel, contents] of Object.entries(o.extra ?? {})) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), contents);
  }
}

/** A release artifact (tar.gz) for `version` and its digest and size. */
export async function artifact(version: string, o: TreeOptions = {}): Promise<{ bytes: Buffer; sha256: string; size: number }> {
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

export class Host implements UpgradeHost {
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

export let clock: ManualClock;
export let host: Host;
export let artifacts: Artifacts;

export function manager(o: Partial<UpgradeManagerOptions> = {}): UpgradeManager {
  return new UpgradeManager({
    root,
    host,
    clock,
    releasePublicKey: PUB,
    artifactPrefix: PREFIX,
    fetch: artifacts.fetch,
    freeBytes: async () => 10 * 1024 ** 3,
    // the offers here are single-artifact releases (x64 trees), whatever machine runs the tests
    arch: 'x64',
    ...o,
  });
}

export async function publish(version: string, o: TreeOptions = {}, fields: Partial<SignedReleaseFields> = {}, policy: Partial<UpgradeOffer> = {}) {
  const a = await artifact(version, o);
  const off = offerFor(a, version, fields, policy);
  artifacts.files.set(off.url, a.bytes);
  return { ...a, offer: off };
}

export async function journal(): Promise<Journal> {
  const r = await readJournal(path.join(root, 'upgrade/journal.json'));
  if (r.kind !== 'ok') throw new Error(`journal: ${r.kind}`);
  return r.journal;
}

export const versionOf = (dir: string): string | null => {
  try {
    return fs.readFileSync(path.join(root, dir, 'VERSION'), 'utf8').trim();
  } catch {
    return null;
  }
};
export const rootListing = (): string[] => fs.readdirSync(root).sort();

/** Lets pending promise chains and real fs callbacks run (bounded). */
export async function settle(until: () => boolean = () => false, rounds = 200): Promise<void> {
  for (let i = 0; i < rounds && !until(); i++) await new Promise((r) => setTimeout(r, 2));
}

/** Before every test of the calling file: a fresh install root running 1.0.0, a fresh host, artifact server and clock; after it, all removed. */
export function useInstallRoot(): void {
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
}
