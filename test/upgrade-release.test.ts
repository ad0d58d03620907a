import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { extractRelease, launcherSelfTest } from '@vend/agent';
import { ROOT } from './support/processes.ts';

// scripts/build-agent-release: builds of the self-contained release tree (bundle, Node 24 from the
// registry's node-linux-<arch> package, serialport's native binding, launcher, VERSION). The x64 tree
// packed by vendctl; then the tree and the artifact, extracted the way a cabinet extracts it, run. The
// arm64 tree cannot run here: its binaries are read instead. The Node package is fetched once into
// .tmp/node-runtime/ and reused by every later build.

const run = promisify(execFile);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'upgrade-release-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const NODE24 = fs.readFileSync(path.join(ROOT, 'scripts/node24-version'), 'utf8').trim();

function build(args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/build-agent-release.ts', ...args, '--json'], {
    cwd: ROOT,
    timeout: 170_000,
    maxBuffer: 1024 * 1024,
  });
}

/** Every ELF file in the tree (by its magic, whatever its name) with the machine its header names. */
function elfMachines(dir: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    const header = Buffer.alloc(20);
    const fd = fs.openSync(file, 'r');
    const n = fs.readSync(fd, header, 0, 20, 0);
    fs.closeSync(fd);
    if (n < 20 || header.readUInt32BE(0) !== 0x7f454c46) continue;
    // EI_CLASS 2 (64-bit) and EI_DATA 1 (little-endian) for both targets; then e_machine at offset 18
    expect([header[4], header[5]], file).toEqual([2, 1]);
    found.set(path.relative(dir, file), header.readUInt16LE(18));
  }
  return found;
}

/** runtime/node and every serialport addon, each once, all for `machine` (62 x86-64, 183 AArch64). */
function expectBinariesFor(tree: string, prebuilds: string, machine: number) {
  const machines = elfMachines(tree);
  const addons = fs.readdirSync(path.join(tree, prebuilds)).filter((n) => n.endsWith('.node'));
  expect(addons.length).toBeGreaterThan(0);
  expect([...machines.keys()].sort()).toEqual(['runtime/node', ...addons.map((n) => path.join(prebuilds, n))].sort());
  expect(new Set(machines.values())).toEqual(new Set([machine]));
}

describe('the agent release build', () => {
  it('builds an x64 tree that runs on its own Node 24, and an artifact a cabinet accepts', { timeout: 180_000 }, async () => {
    const tree = path.join(tmp, 'tree');
    const started = Date.now();
    const built = await build(['--version', '9.8.7', '--out-dir', tmp, '--tree', tree]);
    const r = JSON.parse(built.stdout.trim().split('\n').at(-1)!) as { artifact: string; sha256: string; size: number; treeBytes: number };
    const buildSeconds = (Date.now() - started) / 1000;

    // the tree: exactly what docs/agent-upgrades.md lists
    expect(fs.readFileSync(path.join(tree, 'VERSION'), 'utf8')).toBe('9.8.7\n');
    expect(fs.readdirSync(tree).sort()).toEqual(['VERSION', 'bin', 'lib', 'package.json', 'prebuilds', 'runtime', 'screen']);
    expect(fs.readdirSync(path.join(tree, 'screen')).sort()).toEqual(['index.html', 'screen.css', 'screen.js']);
    expect(fs.readdirSync(path.join(tree, 'prebuilds'))).toEqual(['linux-x64']);
    expectBinariesFor(tree, 'prebuilds/linux-x64', 62);
    expect(fs.readFileSync(path.join(tree, 'runtime/LICENSE'), 'utf8')).toMatch(/^Node\.js is licensed/);
    // zod's locales are left out but English (zod's German messages say "Zeichen"; docs/decisions/agent.md "Footprint")
    for (const part of ['daemon', 'cli', 'upgrade-cli']) expect(fs.readFileSync(path.join(tree, `lib/${part}.cjs`), 'utf8')).not.toContain('Zeichen');
    // nor pino's destinations and transports, which load Node's assert and worker_threads at import
    expect(fs.readFileSync(path.join(tree, 'lib/daemon.cjs'), 'utf8')).not.toMatch(/require\("(node:)?(assert|worker_threads)"\)/);

    // it runs from anywhere, on its own runtime, with PATH emptied (no system node is used)
    const env = { PATH: '/nonexistent', HOME: tmp };
    const version = await run(path.join(tree, 'bin/vend-agent'), ['--version'], { cwd: '/', env, timeout: 20_000 });
    expect(version.stdout).toBe('9.8.7\n');
    const runtime = await run(path.join(tree, 'runtime/node'), ['-p', 'process.version + " " + process.arch'], { cwd: '/', env, timeout: 20_000 });
    expect(runtime.stdout).toBe(`v${NODE24} x64\n`); // the LTS pinned with scripts/setup-node24, not the Node running the build
    const help = await run(path.join(tree, 'bin/vend-agent'), ['vmc', 'test', '--help'], { cwd: '/', env, timeout: 20_000 });
    expect(help.stdout).toMatch(/self-check the board link/);
    const guard = await run(path.join(tree, 'bin/vend-agent'), ['upgrade', 'boot-guard', '--root', path.join(tmp, 'no-root')], {
      cwd: '/',
      env,
      timeout: 20_000,
    });
    expect(JSON.parse(guard.stdout)).toEqual({ bootGuard: { state: 'no-install', current: null, action: 'none' } });
    const config = await run(path.join(tree, 'bin/vend-agent'), ['config', 'show', '--state-dir', path.join(tmp, 'state')], { cwd: '/', env, timeout: 20_000 });
    expect(config.stdout).toMatch(/agentVersion\s*9\.8\.7/); // the daemon reports the release's version

    // the artifact: named, digested and sized as printed; extracted and self-tested as a cabinet does
    expect(path.basename(r.artifact)).toBe('vend-agent-9.8.7-linux-x64.tar.gz');
    const bytes = fs.readFileSync(r.artifact);
    expect(bytes.length).toBe(r.size);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(r.sha256);
    const staging = fs.mkdtempSync(path.join(tmp, 'staging-'));
    const extracted = await extractRelease(r.artifact, staging);
    expect(extracted.bytes).toBe(r.treeBytes);
    await launcherSelfTest(staging, '9.8.7', 20_000);

    // the self-test left V8's code cache inside the tree, and it still matches once the tree is renamed
    // into place: the daemon's first start after an install does not parse its files whole
    expect(fs.readdirSync(path.join(staging, 'compile-cache')).length).toBe(1);
    const current = path.join(tmp, 'current');
    fs.renameSync(staging, current);
    const cached = await run(path.join(current, 'bin/vend-agent'), ['--version'], {
      cwd: '/',
      env: { ...env, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' },
      timeout: 20_000,
    });
    expect(cached.stderr).toMatch(/V8 code cache for CommonJS \S*\/current\/lib\/daemon\.cjs was accepted/);

    process.stdout.write(
      `release build: ${buildSeconds.toFixed(1)} s, tree ${(r.treeBytes / 2 ** 20).toFixed(1)} MiB, artifact ${(r.size / 2 ** 20).toFixed(1)} MiB\n`,
    );
  });

  it('builds an arm64 tree whose runtime and every native addon are AArch64 binaries', { timeout: 180_000 }, async () => {
    const tree = path.join(tmp, 'tree-arm64');
    const built = await build(['--arch', 'arm64', '--version', '9.8.7', '--tree', tree, '--no-pack']);
    expect(JSON.parse(built.stdout.trim().split('\n').at(-1)!)).toMatchObject({ arch: 'arm64', nodeVersion: NODE24, artifact: null });
    expect(fs.readdirSync(tree).sort()).toEqual(['VERSION', 'bin', 'lib', 'package.json', 'prebuilds', 'runtime', 'screen']);
    expect(fs.readdirSync(path.join(tree, 'screen')).sort()).toEqual(['index.html', 'screen.css', 'screen.js']);
    expect(fs.readdirSync(path.join(tree, 'prebuilds'))).toEqual(['linux-arm64']);
    expectBinariesFor(tree, 'prebuilds/linux-arm64', 183);
    // it cannot run here to say its version: the release URL compiled into it (process.release) does
    const node = fs.readFileSync(path.join(tree, 'runtime/node'));
    expect(node.includes(`https://nodejs.org/download/release/v${NODE24}/`)).toBe(true);
    expect(fs.statSync(path.join(tree, 'runtime/node')).mode & 0o111).toBe(0o111);
  });

  it('refuses an architecture it has no runtime for', async () => {
    await expect(build(['--arch', 'riscv64', '--version', '9.8.7', '--no-pack'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/--arch riscv64 is not one of x64, arm64/),
    });
  });
});
