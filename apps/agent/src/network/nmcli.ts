import { execFile } from 'node:child_process';
import type { NetworkRequest } from '@vend/protocol';
import type { NetworkBackend } from './backend.ts';

/** Runs `nmcli` with these arguments (and `input` on its stdin) and answers its stdout; rejects with its stderr when it fails. */
export type NmcliRunner = (args: string[], input?: string) => Promise<string>;

export const runNmcli: NmcliRunner = (args, input) =>
  new Promise((resolve, reject) => {
    const child = execFile('nmcli', args, { timeout: 60_000, env: { ...process.env, LC_ALL: 'C.UTF-8' } }, (err, stdout, stderr) => {
      if (err) reject(new Error(`nmcli ${args.join(' ')}: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
    // nmcli may exit before reading its stdin: the EPIPE that follows must not become an uncaught error
    child.stdin?.on('error', () => {});
    child.stdin?.end(input ?? '');
  });

export interface NmcliBackendOptions {
  run?: NmcliRunner;
  /** Seconds `nmcli connection up` waits for the activation (a wrong PSK fails within it). */
  activationSeconds?: number;
}

/**
 * The `nmcli connection edit` script that makes a request's profile: the PSK goes through nmcli's
 * stdin, never on a command line (which `ps` shows every user). Values run to the end of their line
 * (nmcli trims them: the schema refuses leading and trailing spaces, and control characters, so no
 * value can start another command).
 */
export function editScript(req: NetworkRequest): string {
  const lines = ['set connection.autoconnect yes'];
  if (req.kind === 'wifi') {
    lines.push(`set 802-11-wireless.ssid ${req.ssid}`, 'set 802-11-wireless.mode infrastructure');
    if (req.psk !== undefined) lines.push('set 802-11-wireless-security.key-mgmt wpa-psk', `set 802-11-wireless-security.psk ${req.psk}`);
    lines.push('set ipv4.method auto');
  } else {
    lines.push(`set connection.interface-name ${req.interface}`);
    if (req.address === undefined) lines.push('set ipv4.method auto');
    else {
      lines.push('set ipv4.method manual', `set ipv4.addresses ${req.address}`);
      if (req.gateway) lines.push(`set ipv4.gateway ${req.gateway}`);
      if (req.dns?.length) lines.push(`set ipv4.dns ${req.dns.join(',')}`);
    }
  }
  // with autoconnect on, `save` asks whether to go ahead (it may activate at once): yes
  lines.push('save persistent', 'yes', 'quit', '');
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
 * NetworkManager through `nmcli`, the standard on Linux kiosks. Profiles are made with `nmcli
 * connection edit` (its commands on stdin), brought up with `nmcli connection up` (which waits for the
 * activation, so a wrong PSK rejects) and deleted with `nmcli connection delete`. As the unprivileged
 * vend-agent user this needs NetworkManager's polkit actions (packaging/50-vend-agent-network.rules).
 */
export class NmcliBackend implements NetworkBackend {
  private readonly run: NmcliRunner;
  private readonly activationSeconds: number;

  constructor(opts: NmcliBackendOptions = {}) {
    this.run = opts.run ?? runNmcli;
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
    await this.run(['connection', 'edit', 'type', req.kind === 'wifi' ? '802-11-wireless' : '802-3-ethernet', 'con-name', id], editScript(req));
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
