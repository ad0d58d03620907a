import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { extractRelease, launcherSelfTest } from '@vend/agent';
import { ROOT } from './support/processes.ts';

// scripts/build-agent-release: one offline build of the self-contained release tree (bundle, the
// Node runtime, serialport's native binding, launcher, VERSION) packed by vendctl; then the tree and
// the artifact, extracted the way a cabinet extracts it, run.

const run = promisify(execFile);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'upgrade-release-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the agent release build', () => {
  it('builds a tree that runs on its own runtime, and an artifact a cabinet accepts', { timeout: 120_000 }, async () => {
    const tree = path.join(tmp, 'tree');
    const started = Date.now();
    const built = await run(
      process.execPath,
      ['--import', 'tsx', 'scripts/build-agent-release.ts', '--version', '9.8.7', '--out-dir', tmp, '--tree', tree, '--json'],
      {
        cwd: ROOT,
        timeout: 110_000,
        maxBuffer: 1024 * 1024,
      },
    );
    const r = JSON.parse(built.stdout.trim().split('\n').at(-1)!) as { artifact: string; sha256: string; size: number; treeBytes: number };
    const buildSeconds = (Date.now() - started) / 1000;

    // the tree: exactly what docs/agent-upgrades.md lists
    expect(fs.readFileSync(path.join(tree, 'VERSION'), 'utf8')).toBe('9.8.7\n');
    expect(fs.readdirSync(tree).sort()).toEqual(['VERSION', 'bin', 'lib', 'package.json', 'prebuilds', 'runtime']);
    expect(fs.readdirSync(path.join(tree, 'prebuilds/linux-x64')).filter((n) => n.endsWith('.node')).length).toBeGreaterThan(0);
    expect(fs.statSync(path.join(tree, 'runtime/node')).size).toBe(fs.statSync(process.execPath).size);

    // it runs from anywhere, on its own runtime, with PATH emptied (no system node is used)
    const env = { PATH: '/nonexistent', HOME: tmp };
    const version = await run(path.join(tree, 'bin/vend-agent'), ['--version'], { cwd: '/', env, timeout: 20_000 });
    expect(version.stdout).toBe('9.8.7\n');
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

    process.stdout.write(
      `release build: ${buildSeconds.toFixed(1)} s, tree ${(r.treeBytes / 2 ** 20).toFixed(1)} MiB, artifact ${(r.size / 2 ** 20).toFixed(1)} MiB\n`,
    );
  });
});
