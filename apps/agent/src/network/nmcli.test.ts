import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NetworkRequest } from '@vend/protocol';
import { NmcliBackend, keyfileOf, terseFields } from './nmcli.ts';

const dir = mkdtempSync(join(tmpdir(), 'agent-nmcli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function backend(answers: Record<string, string | Error> = {}) {
  const calls: string[][] = [];
  const nm = new NmcliBackend({
    keyfileDir: dir,
    run: (args) => {
      calls.push(args);
      const answer = answers[args.join(' ')] ?? '';
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  });
  return { nm, calls };
}

describe('the NetworkManager backend (nmcli)', () => {
  it('writes a Wi-Fi profile as a 0600 keyfile and loads it: the PSK never on a command line', async () => {
    const { nm, calls } = backend();
    await nm.add('vend-3', { kind: 'wifi', ssid: ' shop\\net', psk: 'correct horse' });
    const file = join(dir, 'vend-3.nmconnection');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('ssid=\\sshop\\\\net\n');
    expect(text).toContain('[wifi-security]\nkey-mgmt=wpa-psk\npsk=correct horse\n');
    expect(calls).toEqual([['connection', 'load', file]]);
    expect(calls.flat().join(' ')).not.toContain('correct horse');
  });

  it('a static wired profile carries its address, gateway and name servers; an open Wi-Fi has no security section', () => {
    const wired = keyfileOf('vend-1', { kind: 'ethernet', interface: 'eth0', address: '10.0.0.5/24', gateway: '10.0.0.1', dns: ['1.1.1.1', '9.9.9.9'] });
    expect(wired).toContain('interface-name=eth0\n');
    expect(wired).toContain('method=manual\naddress1=10.0.0.5/24,10.0.0.1\ndns=1.1.1.1;9.9.9.9;\n');
    expect(keyfileOf('vend-2', { kind: 'ethernet', interface: 'eth0' })).toContain('[ipv4]\nmethod=auto');
    expect(keyfileOf('vend-4', { kind: 'wifi', ssid: 'cafe' })).not.toContain('wifi-security');
  });

  it('refuses what could add lines to a keyfile: control characters in an SSID, a PSK outside printable ASCII', () => {
    expect(NetworkRequest.safeParse({ kind: 'wifi', ssid: 'cafe\n[ipv4]' }).success).toBe(false);
    expect(NetworkRequest.safeParse({ kind: 'wifi', ssid: 'cafe', psk: 'correct\nhorse' }).success).toBe(false);
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
    expect(calls.at(-1)).toEqual(['--wait', '45', 'connection', 'up', 'id', 'vend-3']);
    await expect(nm.remove('vend-9')).resolves.toBeUndefined();
    await expect(nm.remove('vend-8')).rejects.toThrow(/not authorized/);
    expect(terseFields('a\\\\b:c')).toEqual(['a\\b', 'c']);
  });
});
