import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NetworkRequest } from '@vend/protocol';
import { NmcliBackend, editScript, runNmcli, terseFields } from './nmcli.ts';

function backend(answers: Record<string, string | Error> = {}) {
  const calls: { args: string[]; input: string | undefined }[] = [];
  const nm = new NmcliBackend({
    run: (args, input) => {
      calls.push({ args, input });
      const answer = answers[args.join(' ')] ?? '';
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  });
  return { nm, calls };
}

describe('the NetworkManager backend (nmcli)', () => {
  it('makes a Wi-Fi profile with the editor on stdin: the PSK never on a command line; the save confirmed', async () => {
    const { nm, calls } = backend();
    await nm.add('vend-3', { kind: 'wifi', ssid: 'shop net', psk: 'correct horse' });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args).toEqual(['connection', 'edit', 'type', '802-11-wireless', 'con-name', 'vend-3']);
    expect(calls[0]!.args.join(' ')).not.toContain('correct horse');
    expect(calls[0]!.input).toContain('set 802-11-wireless.ssid shop net\n');
    expect(calls[0]!.input).toContain('set 802-11-wireless-security.key-mgmt wpa-psk\nset 802-11-wireless-security.psk correct horse\n');
    expect(calls[0]!.input).toMatch(/set connection\.autoconnect yes\n[\s\S]*save persistent\nyes\nquit\n$/);
  });

  it('a static wired profile carries its address, gateway and name servers; an open Wi-Fi has no security', () => {
    const wired = editScript({ kind: 'ethernet', interface: 'eth0', address: '10.0.0.5/24', gateway: '10.0.0.1', dns: ['1.1.1.1', '9.9.9.9'] });
    expect(wired).toContain(
      'set connection.interface-name eth0\nset ipv4.method manual\nset ipv4.addresses 10.0.0.5/24\nset ipv4.gateway 10.0.0.1\nset ipv4.dns 1.1.1.1,9.9.9.9\n',
    );
    expect(editScript({ kind: 'ethernet', interface: 'eth0' })).toContain('set ipv4.method auto');
    expect(editScript({ kind: 'wifi', ssid: 'cafe' })).not.toContain('security');
  });

  it('refuses what could start another editor command or be trimmed away: control characters, leading or trailing spaces', () => {
    expect(NetworkRequest.safeParse({ kind: 'wifi', ssid: 'cafe\nsave' }).success).toBe(false);
    expect(NetworkRequest.safeParse({ kind: 'wifi', ssid: ' cafe' }).success).toBe(false);
    expect(NetworkRequest.safeParse({ kind: 'wifi', ssid: 'cafe', psk: 'correct\nhorse' }).success).toBe(false);
    expect(NetworkRequest.safeParse({ kind: 'wifi', ssid: 'cafe', psk: 'correct horse ' }).success).toBe(false);
    expect(NetworkRequest.safeParse({ kind: 'wifi', ssid: 'Café 5G', psk: 'correct horse' }).success).toBe(true);
  });

  it('answers the active connection (not loopback), brings one up waiting for it, and deleting one already gone is no error', async () => {
    const { nm, calls } = backend({
      '-t -f NAME,DEVICE connection show --active': 'lo:lo\nShop\\: back room:wlan0\n',
      'connection delete id vend-9': new Error('nmcli connection delete id vend-9: Error: unknown connection vend-9.'),
      'connection delete id vend-8': new Error('nmcli connection delete id vend-8: Error: not authorized'),
    });
    expect(await nm.active()).toBe('Shop: back room');
    await nm.up('vend-3');
    expect(calls.at(-1)!.args).toEqual(['--wait', '45', 'connection', 'up', 'id', 'vend-3']);
    await expect(nm.remove('vend-9')).resolves.toBeUndefined();
    await expect(nm.remove('vend-8')).rejects.toThrow(/not authorized/);
    expect(terseFields('a\\\\b:c')).toEqual(['a\\b', 'c']);
  });

  it('an nmcli that exits before reading its stdin is a refusal, not a crash of the daemon (EPIPE)', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'agent-nmcli-bin-'));
    writeFileSync(join(bin, 'nmcli'), '#!/bin/sh\necho "Error: NetworkManager is not running." >&2\nexit 8\n');
    chmodSync(join(bin, 'nmcli'), 0o755);
    const path = process.env['PATH'];
    process.env['PATH'] = `${bin}:${path ?? ''}`;
    try {
      const runs = Array.from({ length: 20 }, () => runNmcli(['connection', 'edit'], 'x'.repeat(1 << 20)));
      for (const r of await Promise.allSettled(runs))
        expect(r).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/NetworkManager is not running/) } });
    } finally {
      process.env['PATH'] = path;
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
