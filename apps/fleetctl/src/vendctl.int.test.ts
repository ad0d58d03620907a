import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseReleasePublicKey, verifyReleaseSignature, ReleaseManifest } from '@vend/protocol';
import { main, EXIT_CODES } from './cli.ts';
import { silentProgress } from './progress.ts';

/**
 * keygen → pack → sign → publish → rollout → pin → fleet against a real cloud: the sandbox service is
 * started as its own process (apps never import each other) trusting the key keygen just made, and
 * every vendctl call makes real HTTP round trips. Most calls run `main()` in-process (fast, exit codes
 * and output captured); a few go through the `bin/vendctl.js` launcher as a user would.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../..');
// One process, not the tsx CLI: tsx forks a grandchild that a SIGKILL of the CLI would leave running.
const tsxLoader = ['--import', 'tsx'];
const cloudMain = path.join(repo, 'apps/cloud/src/main.ts');
const launcher = path.resolve(here, '../bin/vendctl.js');
const PREFIX = 'https://artifacts.vend.test/agent/';
// The sandbox's published credentials (docs/sandbox.md): admin and an operator.
const ADMIN_KEY = 'vk_5bada0000000a001.sbx-admin-key-2f9c1e7d';
const ALICE_KEY = 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2';

interface Run {
  code: number;
  out: string;
  err: string;
}

let cloudUrl = '';
let cloud: ChildProcess | null = null;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vendctl-e2e-'));

async function vendctl(...args: string[]): Promise<Run> {
  let out = '';
  let err = '';
  const code = await main(['node', 'vendctl', ...args], {
    env: { VEND_CLOUD_URL: cloudUrl, VEND_API_KEY: ADMIN_KEY },
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    progress: silentProgress,
  });
  return { code, out, err };
}

function launch(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [launcher, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

async function startCloud(publicKey: string): Promise<void> {
  const child = spawn(process.execPath, [...tsxLoader, cloudMain], {
    cwd: repo,
    env: {
      PATH: process.env['PATH'] ?? '',
      DATA_DIR: path.join(work, 'data'),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      JOBS_ENABLED: 'false',
      RELEASE_PUBLIC_KEY: publicKey,
      ARTIFACT_URL_PREFIX: PREFIX,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cloud = child;
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const deadline = Date.now() + 40_000;
  while (!/listening on (http:\/\/\S+)/.test(out)) {
    if (child.exitCode !== null) throw new Error(`the cloud exited ${child.exitCode}: ${err}`);
    if (Date.now() > deadline) throw new Error(`the cloud did not start: ${out} ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  cloudUrl = /listening on (http:\/\/\S+)/.exec(out)![1]!;
}

function writeTree(dir: string, version: string): void {
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'bin/vend-agent.js'), `#!/usr/bin/env node\nconsole.log('vend-agent ${version}');\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'lib/daemon.js'), 'export {};\n');
  fs.writeFileSync(path.join(dir, 'VERSION'), `${version}\n`);
}

describe('vendctl against a real cloud', () => {
  const keys = path.join(work, 'keys');
  const www = path.join(work, 'www');
  let pub = '';
  let pack = { sha256: '', size: 0, file: '' };

  beforeAll(async () => {
    const k = await vendctl('keygen', '--out', keys);
    expect(k.code).toBe(0);
    pub = fs.readFileSync(path.join(keys, 'release-signing.pub'), 'utf8').trim();
    await startCloud(pub);
    fs.mkdirSync(www);
  }, 60_000);

  afterAll(() => {
    cloud?.kill('SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('keygen wrote a 0600 private key whose public half the cloud now trusts', () => {
    expect(fs.statSync(path.join(keys, 'release-signing.key')).mode & 0o777).toBe(0o600);
    expect(parseReleasePublicKey(pub)).not.toBeNull();
  });

  it('pack → sign → publish (checking and uploading the artifact) → publish again', async () => {
    writeTree(path.join(work, 'tree'), '1.2.0');
    const p = await vendctl('pack', path.join(work, 'tree'), '--version', '1.2.0', '--out', path.join(work, 'vend-agent-1.2.0.tar.gz'), '--json');
    expect(p.code).toBe(0);
    pack = JSON.parse(p.out) as typeof pack;
    expect(pack.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(pack.size).toBe(fs.statSync(pack.file).size);

    const s = await vendctl(
      'sign',
      '--key',
      path.join(keys, 'release-signing.key'),
      '--version',
      '1.2.0',
      '--url',
      `${PREFIX}vend-agent-1.2.0.tar.gz`,
      '--sha256',
      pack.sha256,
      '--size',
      String(pack.size),
      '--min-from',
      '1.0.0',
      '--out',
      path.join(work, 'manifest.json'),
    );
    expect(s).toMatchObject({ code: 0, err: '' });
    const manifest = ReleaseManifest.parse(JSON.parse(fs.readFileSync(path.join(work, 'manifest.json'), 'utf8')));
    expect(verifyReleaseSignature(manifest, parseReleasePublicKey(pub)!)).toBe(true);

    const pub1 = await vendctl('publish', path.join(work, 'manifest.json'), '--artifact', pack.file, '--upload-to', www);
    expect(pub1.code, pub1.err).toBe(0);
    expect(pub1.out).toMatch(/published 1\.2\.0 as #1/);
    expect(fs.readFileSync(path.join(www, 'vend-agent-1.2.0.tar.gz')).equals(fs.readFileSync(pack.file))).toBe(true);

    const again = await vendctl('publish', path.join(work, 'manifest.json'), '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ version: '1.2.0', sequence: 1, created: false });
  });

  it('two architectures: sign one artifact per arch, publish checks and uploads each, all or none', async () => {
    const packs: Record<string, typeof pack> = {};
    for (const arch of ['x64', 'arm64']) {
      writeTree(path.join(work, `tree-${arch}`), '1.3.0');
      fs.writeFileSync(path.join(work, `tree-${arch}`, 'lib/arch.txt'), `${arch}\n`);
      const file = path.join(work, `vend-agent-1.3.0-linux-${arch}.tar.gz`);
      const p = await vendctl('pack', path.join(work, `tree-${arch}`), '--version', '1.3.0', '--out', file, '--json');
      expect(p.code, p.err).toBe(0);
      packs[arch] = JSON.parse(p.out) as typeof pack;
    }
    const artifactFlag = (arch: string) => `${arch}:${packs[arch]!.sha256}:${packs[arch]!.size}:${PREFIX}vend-agent-1.3.0-linux-${arch}.tar.gz`;
    const out = path.join(work, 'manifest-1.3.0.json');
    const sign = (...flags: string[]) => vendctl('sign', '--key', path.join(keys, 'release-signing.key'), '--version', '1.3.0', '--out', out, ...flags);
    const s = await sign('--artifact', artifactFlag('x64'), '--artifact', artifactFlag('arm64'), '--show-bytes');
    expect(s.code, s.err).toBe(0);
    expect(s.out).toMatch(/vend-release-v2\nversion=1\.3\.0\n[^]*arches=x64,arm64\n/);
    const manifest = ReleaseManifest.parse(JSON.parse(fs.readFileSync(out, 'utf8')));
    expect('artifacts' in manifest && manifest.artifacts.map((a) => a.arch)).toEqual(['x64', 'arm64']);
    expect(verifyReleaseSignature(manifest, parseReleasePublicKey(pub)!)).toBe(true);

    // usage: both shapes at once, an unknown arch, a file without its arch, one arch missing, a file for another arch
    const both = await sign('--artifact', artifactFlag('x64'), '--url', `${PREFIX}x.tar.gz`, '--force');
    expect([both.code, both.err]).toEqual([EXIT_CODES.usage, expect.stringMatching(/not both/)]);
    const riscv = await sign('--artifact', artifactFlag('x64').replace(/^x64/, 'riscv64'), '--force');
    expect([riscv.code, riscv.err]).toEqual([EXIT_CODES.usage, expect.stringMatching(/--artifact riscv64 arch/)]);
    const unnamed = await vendctl('publish', out, '--artifact', packs['x64']!.file);
    expect([unnamed.code, unnamed.err]).toEqual([EXIT_CODES.usage, expect.stringMatching(/name each one's architecture/)]);
    const partial = await vendctl('publish', out, '--artifact', `x64=${packs['x64']!.file}`, '--upload-to', www);
    expect([partial.code, partial.err]).toEqual([EXIT_CODES.usage, expect.stringMatching(/no --artifact for arm64/)]);
    const swapped = await vendctl('publish', out, '--artifact', `x64=${packs['arm64']!.file}`, '--artifact', `arm64=${packs['x64']!.file}`, '--upload-to', www);
    expect([swapped.code, swapped.err]).toEqual([EXIT_CODES.dataError, expect.stringMatching(/the manifest signs/)]);
    expect(fs.existsSync(path.join(www, 'vend-agent-1.3.0-linux-x64.tar.gz'))).toBe(false);

    const ok = await vendctl('publish', out, '--artifact', `x64=${packs['x64']!.file}`, '--artifact', `arm64=${packs['arm64']!.file}`, '--upload-to', www);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.err).toMatch(/\(x64\)[^]*\(arm64\)/);
    for (const arch of ['x64', 'arm64'])
      expect(fs.readFileSync(path.join(www, `vend-agent-1.3.0-linux-${arch}.tar.gz`)).equals(fs.readFileSync(packs[arch]!.file))).toBe(true);
    const list = await vendctl('releases');
    expect(list.out).toMatch(/1\.3\.0\s+-\s+no\s+x64,arm64\s+\d+,\d+/);
  });

  it('exit codes: the cloud refuses (1), a wrong or operator key (77), a mismatched artifact (65), a missing file (66), no cloud (69)', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(work, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(path.join(work, 'tampered.json'), JSON.stringify({ ...manifest, version: '1.2.1' }));
    const tampered = await vendctl('publish', path.join(work, 'tampered.json'));
    expect(tampered.code).toBe(EXIT_CODES.refused);
    expect(tampered.err).toMatch(/400: Bad request — invalid or missing parameters: signature does not verify/);

    let out = '';
    let err = '';
    const operator = await main(['node', 'vendctl', 'publish', path.join(work, 'manifest.json'), '--cloud', cloudUrl, '--api-key', ALICE_KEY], {
      env: {},
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      progress: silentProgress,
    });
    expect([operator, out]).toEqual([EXIT_CODES.noPermission, '']);
    expect(err).toMatch(/403/);
    expect((await vendctl('publish', path.join(work, 'manifest.json'), '--api-key', 'vk_0000000000000000.nope')).code).toBe(EXIT_CODES.noPermission);

    fs.writeFileSync(path.join(work, 'other.bin'), 'not the artifact');
    const mismatch = await vendctl('publish', path.join(work, 'manifest.json'), '--artifact', path.join(work, 'other.bin'));
    expect(mismatch.code).toBe(EXIT_CODES.dataError);
    expect(mismatch.err).toMatch(/the manifest signs/);
    expect((await vendctl('publish', path.join(work, 'nope.json'))).code).toBe(EXIT_CODES.noInput);

    const closed = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(port));
      });
    });
    const down = await vendctl('fleet', '--cloud', `http://127.0.0.1:${closed}`);
    expect(down.code).toBe(EXIT_CODES.unavailable);
    expect(down.err).toMatch(/cannot reach/);
  });

  it('rollout set → pin → fleet, then hold, resume and unpin', async () => {
    const set = await vendctl('rollout', 'set', '--version', '1.2.0', '--canary', 'SBX-ALICE-0001', '--percent', '0', '--note', 'first wave');
    expect(set.code, set.err).toBe(0);
    expect(set.out).toMatch(/rollout 1\.2\.0 rolling — canary SBX-ALICE-0001 \+ 0% of the rest; note: first wave/);
    expect((await vendctl('rollout', 'set', '--version', '9.9.9')).code).toBe(EXIT_CODES.refused);
    expect((await vendctl('rollout', 'set', '--version', '1.2.0', '--percent', '101')).code).toBe(EXIT_CODES.usage);

    const pin = await vendctl('pin', 'SBX-BOB-0001', '--version', '1.2.0', '--reason', 'field test');
    expect(pin.code, pin.err).toBe(0);
    expect(pin.out).toMatch(/SBX-BOB-0001 pinned to 1\.2\.0; runs 1\.0\.0; offered 1\.2\.0/);
    expect((await vendctl('pin', 'SBX-BOB-0001', '--version', '1.2.0', '--reason', 'no')).code).toBe(EXIT_CODES.refused);

    const fleet = await vendctl('fleet', '--json');
    expect(fleet.code).toBe(0);
    const f = JSON.parse(fleet.out) as {
      target: string;
      total: number;
      eligible: number;
      pinned: number;
      machines: { machineNo: string; offerVersion: string | null }[];
    };
    expect(f).toMatchObject({ target: '1.2.0', total: 6, eligible: 1, pinned: 1 });
    expect(f.machines).toHaveLength(6);
    expect(f.machines.filter((m) => m.offerVersion === '1.2.0').map((m) => m.machineNo)).toEqual(['SBX-ALICE-0001', 'SBX-BOB-0001']);

    const table = await vendctl('fleet');
    expect(table.out).toMatch(/target 1\.2\.0 {2}total 6 {2}eligible 1 {2}on target 0 {2}pinned 1/);
    expect(table.out).toMatch(/MACHINE\s+VERSION\s+ARCH\s+PIN\s+COHORT\s+STATE/);
    expect(table.out).toMatch(/SBX-BOB-0001\s+1\.0\.0\s+-\s+1\.2\.0\s+no\s+offered 1\.2\.0/);

    expect((await vendctl('rollout', 'hold', '--reason', 'crash reports')).out).toMatch(/held: crash reports/);
    expect((await vendctl('rollout', 'resume')).out).toMatch(/rollout 1\.2\.0 rolling/);
    expect((await vendctl('unpin', 'SBX-BOB-0001')).out).toMatch(/unpinned/);
    expect((await vendctl('unpin', 'SBX-BOB-0001')).out).toMatch(/had no pin/);
  });

  it('the launcher reads VEND_CLOUD_URL and VEND_API_KEY and exits with the documented codes', async () => {
    const ok = await launch(['fleet', '--json'], { VEND_CLOUD_URL: cloudUrl, VEND_API_KEY: ALICE_KEY });
    expect(ok.code, ok.err).toBe(0);
    const f = JSON.parse(ok.out) as { total: number; machines: { machineNo: string }[] };
    expect(f.total).toBe(3);
    expect(f.machines.every((m) => m.machineNo.startsWith('SBX-ALICE-'))).toBe(true);
    const usage = await launch(['rollout', 'set'], {});
    expect(usage.code).toBe(EXIT_CODES.usage);
    expect(usage.err).toMatch(/--version/);
    const noConfig = await launch(['fleet'], {});
    expect(noConfig.code).toBe(EXIT_CODES.usage);
    expect(noConfig.err).toMatch(/VEND_CLOUD_URL/);
  }, 60_000);
});
