import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { NetworkRequest } from '@vend/protocol';
import { writeFileAtomic } from '../state/fs-atomic.ts';
import type { NetworkBackend } from './backend.ts';

/** Runs `nmcli` with these arguments and answers its stdout; rejects with its stderr when it fails. */
export type NmcliRunner = (args: string[]) => Promise<string>;

export const runNmcli: NmcliRunner = (args) =>
  new Promise((resolve, reject) => {
    execFile('nmcli', args, { timeout: 60_000, env: { ...process.env, LC_ALL: 'C' } }, (err, stdout, stderr) => {
      if (err) reject(new Error(`nmcli ${args[0] === '--wait' ? args.slice(2).join(' ') : args.join(' ')}: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
  });

export interface NmcliBackendOptions {
  run?: NmcliRunner;
  /** NetworkManager's keyfile directory (its `system-connections`). */
  keyfileDir?: string;
  /** Seconds `nmcli connection up` waits for the activation (a wrong PSK fails within it). */
  activationSeconds?: number;
}

/** A GKeyFile value: backslashes doubled, a leading space kept (the schema refuses control characters). */
function value(text: string): string {
  return text.replaceAll('\\', '\\\\').replace(/^ /, '\\s');
}

/** The NetworkManager keyfile of a request: the PSK stays in a 0600 file, never on a command line (which `ps` shows). */
export function keyfileOf(id: string, req: NetworkRequest): string {
  const lines = ['[connection]', `id=${id}`];
  if (req.kind === 'wifi') {
    lines.push('type=wifi', 'autoconnect=true', '', '[wifi]', 'mode=infrastructure', `ssid=${value(req.ssid)}`);
    if (req.psk !== undefined) lines.push('', '[wifi-security]', 'key-mgmt=wpa-psk', `psk=${value(req.psk)}`);
    lines.push('', '[ipv4]', 'method=auto');
  } else {
    lines.push('type=ethernet', `interface-name=${req.interface}`, 'autoconnect=true', '', '[ethernet]', '', '[ipv4]');
    if (req.address === undefined) lines.push('method=auto');
    else {
      lines.push('method=manual', `address1=${req.address}${req.gateway ? `,${req.gateway}` : ''}`);
      if (req.dns?.length) lines.push(`dns=${req.dns.join(';')};`);
    }
  }
  lines.push('', '[ipv6]', 'method=auto', '');
  return lines.join('\n');
}

/** `nmcli -t` output fields: split on unescaped colons, `\:` and `\\` unescaped. */
export function terseFields(line: string): string[] {
  const fields: string[] = [];
  let current = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) current += line[++i];
    else if (c === ':') {
      fields.push(current);
      current = '';
    } else current += c;
  }
  fields.push(current);
  return fields;
}

/**
 * NetworkManager through `nmcli`, the standard on Linux kiosks. Profiles are written as keyfiles and
 * loaded (`nmcli connection load`), brought up with `nmcli connection up` (which waits for the
 * activation, so a wrong PSK rejects) and deleted with `nmcli connection delete`.
 */
export class NmcliBackend implements NetworkBackend {
  private readonly run: NmcliRunner;
  private readonly keyfileDir: string;
  private readonly activationSeconds: number;

  constructor(opts: NmcliBackendOptions = {}) {
    this.run = opts.run ?? runNmcli;
    this.keyfileDir = opts.keyfileDir ?? '/etc/NetworkManager/system-connections';
    this.activationSeconds = opts.activationSeconds ?? 45;
  }

  async active(): Promise<string | null> {
    const out = await this.run(['-t', '-f', 'NAME,DEVICE', 'connection', 'show', '--active']);
    for (const line of out.split('\n')) {
      const [name, device] = terseFields(line);
      // the loopback profile NetworkManager ≥ 1.42 shows is not a way to the cloud
      if (name && device && device !== 'lo') return name;
    }
    return null;
  }

  async add(id: string, req: NetworkRequest): Promise<void> {
    const file = join(this.keyfileDir, `${id}.nmconnection`);
    writeFileAtomic(file, keyfileOf(id, req), { mode: 0o600 });
    await this.run(['connection', 'load', file]);
  }

  async up(id: string): Promise<void> {
    await this.run(['--wait', String(this.activationSeconds), 'connection', 'up', 'id', id]);
  }

  async remove(id: string): Promise<void> {
    try {
      await this.run(['connection', 'delete', 'id', id]);
    } catch (e) {
      if (!/unknown connection|cannot delete unknown/i.test((e as Error).message)) throw e;
    }
  }
}
