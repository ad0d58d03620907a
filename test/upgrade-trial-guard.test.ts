import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The trial-guard unit's ExecCondition line, run by sh as systemd would (with `$$` unescaped and the
// install root moved to a temp directory), against launchers that answer `upgrade trial-expired` with
// a chosen exit code. What `trial-expired` itself decides is tested in apps/agent/src/upgrade/manager.boot.int.test.ts.

const ROOT = path.resolve(import.meta.dirname, '..');
const unitDir = path.join(ROOT, 'apps/agent/packaging');
let root: string;

function condition(): string {
  const unit = fs.readFileSync(path.join(unitDir, 'vend-agent-trial-guard.service'), 'utf8');
  return /^ExecCondition=\/bin\/sh -c '(.*)'$/m.exec(unit)![1]!.replaceAll('$$', '$').replaceAll('/opt/vend-agent', root);
}

/** A launcher in `<root>/<tree>/bin/vend-agent` that logs its arguments and exits with `code`. */
function launcher(tree: string, code: number): void {
  fs.mkdirSync(path.join(root, tree, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(root, tree, 'bin/vend-agent'), `#!/bin/sh\necho "${tree} $*" >> "${root}/calls"\nexit ${code}\n`, { mode: 0o755 });
}

function run(): { status: number | null; calls: string[] } {
  const r = spawnSync('/bin/sh', ['-c', condition()], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } });
  const calls = fs.existsSync(path.join(root, 'calls')) ? fs.readFileSync(path.join(root, 'calls'), 'utf8').trim().split('\n') : [];
  return { status: r.status, calls };
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'trial-guard-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('vend-agent-trial-guard.service', () => {
  it('restarts (condition 0) when the current tree says the trial expired, and asks only it', () => {
    launcher('current', 0);
    launcher('previous', 1);
    expect(run()).toEqual({ status: 0, calls: [`current upgrade trial-expired --root ${root}`] });
  });

  it('skips the restart (condition 1) when the current tree says nothing is expired', () => {
    launcher('current', 1);
    launcher('previous', 0);
    expect(run()).toEqual({ status: 1, calls: [`current upgrade trial-expired --root ${root}`] });
  });

  it('lets the previous tree decide when the current tree cannot run the check', () => {
    launcher('current', 126);
    launcher('previous', 0);
    expect(run()).toMatchObject({ status: 0, calls: [`current upgrade trial-expired --root ${root}`, `previous upgrade trial-expired --root ${root}`] });
  });

  it('does nothing when neither tree can answer (an older previous tree without the command: usage error 64)', () => {
    launcher('current', 70);
    launcher('previous', 64);
    expect(run().status).toBe(1);
    fs.rmSync(path.join(root, 'previous'), { recursive: true });
    expect(run().status).toBe(1);
  });

  it('the restart is the only privileged command, and the timer runs it every 30 s', () => {
    const unit = fs.readFileSync(path.join(unitDir, 'vend-agent-trial-guard.service'), 'utf8');
    expect(unit).toMatch(/^User=vend-agent$/m);
    expect(unit).toMatch(/^ExecStart=\+\/bin\/systemctl --no-block restart vend-agent\.service$/m);
    const timer = fs.readFileSync(path.join(unitDir, 'vend-agent-trial-guard.timer'), 'utf8');
    expect(timer).toMatch(/^OnUnitActiveSec=30$/m);
  });
});
