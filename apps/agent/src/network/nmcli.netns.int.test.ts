import { execFile, execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { NmcliBackend } from './nmcli.ts';
import { NetworkProvisioner } from './provisioner.ts';

// The real NetworkManager: a private system bus, NetworkManager in its own network namespace (its
// /sys read-only, so it manages devices without udev), a veth pair whose far end — the "cloud" at
// 10.77.0.1:8080 — sits in a second namespace. Needs root, `ip`, `dbus-daemon`, NetworkManager and
// bash; skipped with the reason otherwise (docs/decisions/network.md "A test on the real NetworkManager").

const TOOLS = ['/usr/sbin/NetworkManager', '/usr/bin/nmcli', '/usr/bin/dbus-daemon', '/usr/bin/bash'];
const missing = process.getuid?.() !== 0 ? 'not root' : TOOLS.filter((t) => !existsSync(t)).join(', ');
const CLOUD = { host: '10.77.0.1', port: 8080 };

const id = String(process.pid % 100000);
const nsCabinet = `vcab${id}`;
const nsCloud = `vcld${id}`;
const veth = `vc${id}`; // the cabinet's port
const dir = mkdtempSync(join(tmpdir(), 'agent-nm-'));
const bus = `unix:path=${join(dir, 'bus')}`;
const env = { ...process.env, DBUS_SYSTEM_BUS_ADDRESS: bus, LC_ALL: 'C.UTF-8' };
const children: ChildProcess[] = [];
let dbusPid = 0;

const sh = (cmd: string, args: string[]): string => execFileSync(cmd, args, { env, encoding: 'utf8' });
const inCabinet = (args: string[], input = ''): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = execFile('ip', ['netns', 'exec', nsCabinet, ...args], { env, timeout: 60_000 }, (err, out, stderr) =>
      err ? reject(new Error(stderr || err.message)) : resolve(out),
    );
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  });
const realSleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The cloud answers a TCP connection from the cabinet's namespace within a second. */
const reachable = (): Promise<boolean> =>
  inCabinet(['bash', '-c', `exec 3<>/dev/tcp/${CLOUD.host}/${CLOUD.port}`, '--']).then(
    () => true,
    () => false,
  );

/** Runs the manual clock a second at a time while real nmcli calls settle, until the switch ends. */
async function settle<T>(clock: ManualClock, done: Promise<T>): Promise<T> {
  let over = false;
  void done.finally(() => (over = true));
  while (!over) {
    clock.advance(1000);
    await realSleep(15);
  }
  return done;
}

describe.skipIf(missing !== '')(`the nmcli backend against a real NetworkManager in a network namespace${missing ? ` [SKIPPED: ${missing}]` : ''}`, () => {
  const backend = new NmcliBackend({ run: (args, input) => inCabinet(['nmcli', ...args], input) });
  const clock = new ManualClock(Date.parse('2026-11-26T12:00:00Z'));
  const provisioner = (): NetworkProvisioner =>
    new NetworkProvisioner({
      file: join(dir, 'network.json'),
      backend,
      clock,
      random: (n) => Buffer.alloc(n, 5),
      reachable,
      log: { info: () => {}, warn: () => {} },
    });

  beforeAll(async () => {
    mkdirSync(join(dir, 'connections'));
    writeFileSync(
      join(dir, 'nm.conf'),
      [
        '[main]',
        'plugins=keyfile',
        'auth-polkit=false',
        'dns=none',
        'rc-manager=unmanaged',
        'hostname-mode=none',
        'no-auto-default=*',
        '[keyfile]',
        `path=${join(dir, 'connections')}`,
        '',
      ].join('\n'),
    );
    sh('ip', ['netns', 'add', nsCabinet]);
    sh('ip', ['netns', 'add', nsCloud]);
    sh('ip', ['link', 'add', veth, 'type', 'veth', 'peer', 'name', `${veth}c`]);
    sh('ip', ['link', 'set', veth, 'netns', nsCabinet]);
    sh('ip', ['link', 'set', `${veth}c`, 'netns', nsCloud]);
    sh('ip', ['-n', nsCloud, 'addr', 'add', `${CLOUD.host}/24`, 'dev', `${veth}c`]);
    sh('ip', ['-n', nsCloud, 'link', 'set', `${veth}c`, 'up']);
    sh('ip', ['-n', nsCabinet, 'link', 'set', 'lo', 'up']);
    // a bus of the test's own: no pid file in /run, NetworkManager's policy from system.d
    writeFileSync(
      join(dir, 'bus.conf'),
      `<busconfig><type>system</type><listen>${bus}</listen><auth>EXTERNAL</auth>
        <policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/></policy>
        <includedir>/usr/share/dbus-1/system.d</includedir></busconfig>`,
    );
    dbusPid = Number(sh('dbus-daemon', [`--config-file=${join(dir, 'bus.conf')}`, '--fork', '--print-pid']).trim());
    const cloud = spawn(
      'ip',
      ['netns', 'exec', nsCloud, process.execPath, '-e', `require('net').createServer((s) => s.end()).listen(${CLOUD.port}, '${CLOUD.host}')`],
      { env, stdio: 'ignore' },
    );
    const nm = spawn(
      'ip',
      [
        'netns',
        'exec',
        nsCabinet,
        'sh',
        '-c',
        `mount -o remount,ro /sys && exec /usr/sbin/NetworkManager --no-daemon --config=${join(dir, 'nm.conf')} --state-file=${join(dir, 'nm.state')}`,
      ],
      { env, stdio: 'ignore' },
    );
    children.push(cloud, nm);
    for (let i = 0; i < 100; i++) {
      const devices = await inCabinet(['nmcli', '-t', '-f', 'DEVICE,STATE', 'device', 'status']).catch(() => '');
      if (devices.includes(`${veth}:disconnected`)) return;
      await realSleep(100);
    }
    throw new Error(`NetworkManager did not take ${veth} over`);
  }, 30_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await realSleep(300);
    if (dbusPid > 0) process.kill(dbusPid, 'SIGTERM');
    for (const ns of [nsCabinet, nsCloud]) execFile('ip', ['netns', 'del', ns], () => {});
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects to a network that reaches the cloud; one that does not goes back at 90 s; a restart mid-switch goes back', async () => {
    const good = { kind: 'ethernet', interface: veth, address: '10.77.0.2/24' } as const;
    const bad = { kind: 'ethernet', interface: veth, address: '10.88.0.2/24' } as const;
    const first = provisioner();
    expect(await first.recover()).toBeNull();
    const switched = await first.apply(first.issueToken().token, good);
    expect(await settle(clock, switched.done)).toMatchObject({ outcome: 'connected' });
    expect(await backend.active()).toBe(switched.id);
    expect(await reachable()).toBe(true);

    const wrong = await first.apply(first.issueToken().token, bad);
    // the timing to the second is the in-memory tests' (here real nmcli calls run while the manual clock does)
    expect(await settle(clock, wrong.done)).toMatchObject({ outcome: 'reverted', reason: 'the cloud was not reached within 90 s' });
    expect(await backend.active()).toBe(switched.id);
    expect(await inCabinet(['nmcli', '-t', '-f', 'NAME', 'connection', 'show'])).not.toContain(wrong.id);
    expect(await reachable()).toBe(true);

    const cut = await first.apply(first.issueToken().token, bad);
    for (let i = 0; i < 50 && (await first.status()).switching?.phase !== 'verifying'; i++) await realSleep(20);
    first.close();
    expect(await backend.active()).toBe(cut.id);
    const afterReboot = provisioner();
    expect(await afterReboot.recover()).toMatchObject({ outcome: 'interrupted' });
    expect(await backend.active()).toBe(switched.id);
    expect(await inCabinet(['nmcli', '-t', '-f', 'NAME', 'connection', 'show'])).not.toContain(cut.id);
    expect(await reachable()).toBe(true);
  }, 60_000);

  it('stores a Wi-Fi profile as given — an SSID with spaces and accents, the PSK — and deletes it', async () => {
    await backend.add('vend-wifi', { kind: 'wifi', ssid: 'Café shop 5G', psk: 'correct horse; battery' });
    const stored = await inCabinet([
      'nmcli',
      '-s',
      '-g',
      '802-11-wireless.ssid,802-11-wireless-security.psk,connection.autoconnect',
      'connection',
      'show',
      'vend-wifi',
    ]);
    expect(stored.trim().split('\n')).toEqual(['Café shop 5G', 'correct horse; battery', 'yes']);
    await backend.remove('vend-wifi');
    await backend.remove('vend-wifi');
    expect(await inCabinet(['nmcli', '-t', '-f', 'NAME', 'connection', 'show'])).not.toContain('vend-wifi');
  });
});
