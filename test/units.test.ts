import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemdNotify } from '@vend/agent';
import { socatAvailable } from '@vend/firmware-sim';
import { ROOT } from './support/processes.ts';

// Every systemd unit the project ships (apps/agent/packaging): `systemd-analyze verify` accepts it and
// `systemd-analyze security` rates it 4.9 (OK) or better, without losing what the agent needs (the
// serial ports, the install root for the swap, the state directory, V8's JIT, Type=notify + watchdog).

const PACKAGING = join(ROOT, 'apps/agent/packaging');
const UNITS = readdirSync(PACKAGING).filter((f) => /\.(service|timer|socket|path)$/.test(f));
const SERVICES = UNITS.filter((f) => f.endsWith('.service'));
const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
const haveAnalyze = analyze.status === 0;
const dir = mkdtempSync(join(tmpdir(), 'units-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const unit = (name: string): string => readFileSync(join(PACKAGING, name), 'utf8');
/** `Key=value` lines of a unit (comments and sections dropped), every occurrence. */
const settings = (text: string, key: string): string[] =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`${key}=`))
    .map((l) => l.slice(key.length + 1));

describe.skipIf(!haveAnalyze)(`systemd units${haveAnalyze ? '' : ' [SKIPPED: systemd-analyze is not installed — scripts/setup installs systemd]'}`, () => {
  it('ships the units it should', () => {
    expect(UNITS.sort()).toEqual(['vend-agent-trial-guard.service', 'vend-agent-trial-guard.timer', 'vend-agent.service']);
  });

  it.each(SERVICES)('%s: systemd-analyze security rates it 4.9 (OK) or better', (name) => {
    const out = execFileSync('systemd-analyze', ['security', '--offline=true', join(PACKAGING, name)], { encoding: 'utf8' });
    const m = /Overall exposure level for \S+: (\d+\.\d) (\w+)/.exec(out);
    expect(m, out).not.toBeNull();
    expect(Number(m![1])).toBeLessThanOrEqual(4.9);
    expect(['OK', 'SAFE']).toContain(m![2]);
  });

  it('systemd-analyze verify accepts every unit (the install root replaced by one with stub launchers)', () => {
    const root = join(dir, 'opt');
    const units = join(dir, 'units');
    mkdirSync(units, { recursive: true });
    for (const tree of ['current', 'previous']) {
      mkdirSync(join(root, tree, 'bin'), { recursive: true });
      writeFileSync(join(root, tree, 'bin/vend-agent'), '#!/bin/sh\nexit 0\n');
      chmodSync(join(root, tree, 'bin/vend-agent'), 0o755);
    }
    for (const name of UNITS) writeFileSync(join(units, name), unit(name).replaceAll('/opt/vend-agent', root));
    const r = spawnSync('systemd-analyze', ['verify', ...UNITS.map((n) => join(units, n))], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    // nothing said about our units (the host's own units may have their own complaints)
    expect(r.stderr.split('\n').filter((l) => /vend-agent/.test(l))).toEqual([]);
  });

  it('the agent keeps what it needs: serial ports, the install root and state directory, the JIT, notify and watchdog', () => {
    const agent = unit('vend-agent.service');
    expect(settings(agent, 'Type')).toEqual(['notify']);
    expect(settings(agent, 'NotifyAccess')).toEqual(['all']); // systemd-notify is a child of the daemon
    expect(Number(settings(agent, 'WatchdogSec')[0])).toBeGreaterThan(0);
    expect(settings(agent, 'DevicePolicy')).toEqual(['closed']);
    for (const port of ['ttyUSB', 'ttyACM', 'ttyS']) expect(settings(agent, 'DeviceAllow')).toContain(`char-${port} rw`);
    expect(settings(agent, 'SupplementaryGroups')).toEqual(['dialout']);
    expect(settings(agent, 'PrivateDevices')).not.toContain('yes'); // it would hide the serial ports
    expect(settings(agent, 'MemoryDenyWriteExecute')).not.toContain('yes'); // V8 needs W+X pages
    expect(settings(agent, 'ReadWritePaths')).toEqual(['/opt/vend-agent /var/lib/vend-agent']);
    expect(settings(agent, 'ProcSubset')).not.toContain('pid'); // the boot guard reads /proc/sys/kernel/random/boot_id
    expect(settings(agent, 'RestrictAddressFamilies')[0]).toMatch(/AF_UNIX.*AF_INET.*AF_INET6/);
    expect(settings(agent, 'CapabilityBoundingSet')).toEqual(['']);
  });
});

describe.skipIf(!socatAvailable() || spawnSync('systemd-notify', ['--help']).status !== 0)('systemd-notify speaks sd_notify to a datagram socket', () => {
  it('the daemon’s sender puts READY=1 and WATCHDOG=1 on $NOTIFY_SOCKET', async () => {
    const socket = join(dir, 'notify.sock');
    const receiver = spawn('socat', ['-u', `UNIX-RECV:${socket},unlink-early`, 'STDOUT']);
    let got = '';
    receiver.stdout.on('data', (d: Buffer) => (got += d.toString()));
    try {
      for (let i = 0; i < 100 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 20));
      const send = systemdNotify(socket, 2000);
      // socat does not answer systemd-notify's barrier: the send then fails after its timeout, the datagram is delivered
      await send(['READY=1', 'STATUS=serving']).catch(() => {});
      await send(['WATCHDOG=1']).catch(() => {});
      for (let i = 0; i < 100 && !got.includes('WATCHDOG=1'); i++) await new Promise((r) => setTimeout(r, 20));
      expect(got).toContain('READY=1\nSTATUS=serving');
      expect(got).toContain('WATCHDOG=1');
    } finally {
      receiver.kill();
    }
  }, 30_000);
});
