import { execFile } from 'node:child_process';
import { constants, accessSync, existsSync, promises as fsp, statSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { networkInterfaces, userInfo } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { request } from 'undici';
import { ControlStatus, parseDeviceKey, releaseUnpackCap } from '@vend/protocol';
import type { AgentConfig } from '../../config.ts';
import { EXIT_CODES } from '../../exit-codes.ts';
import { StateDir } from '../../state/state-dir.ts';
import { VmcDriver } from '../../vmc/driver.ts';
import { VmcLinkError } from '../../vmc/link.ts';
import type { SerialTransport } from '../../vmc/transport.ts';
import { configOf, controlClient } from './context.ts';
import type { AgentCommandDeps, CommandContext, Flags } from './context.ts';

/** One line of `vend-agent doctor`: what was checked, the verdict, what was found, and the fix when it is not ok. */
export interface DoctorCheck {
  check: string;
  verdict: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  fix?: string;
}

const SKEW_WARN_S = 30;
const SKEW_FAIL_S = 300;

/** The agent's upgrade needs room for an artifact and what it may unpack to: judged from the installed tree (the artifact is ~1/2.7 of it). */
async function treeBytes(dir: string): Promise<number> {
  let n = 0;
  const walk = async (d: string, depth: number): Promise<void> => {
    if (depth > 32) return;
    for (const e of await fsp.readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p, depth + 1);
      else if (e.isFile()) n += (await fsp.stat(p)).size;
    }
  };
  await walk(dir, 0);
  return n;
}

function run(cmd: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 5000 }, (err, stdout) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code as number) : -1) : 0;
      resolve({ code, out: String(stdout).trim() });
    });
  });
}

/** The group name of a gid, from /etc/group (no child process). */
async function groupName(gid: number): Promise<string> {
  try {
    const line = (await fsp.readFile('/etc/group', 'utf8')).split('\n').find((l) => l.split(':')[2] === String(gid));
    return line?.split(':')[0] ?? String(gid);
  } catch {
    return String(gid);
  }
}

export interface DoctorDeps {
  serial: SerialTransport;
  clock: AgentCommandDeps['clock'];
  /** The service manager's view (default: `systemctl is-active vend-agent`); null when there is none. */
  systemctl?: (args: string[]) => Promise<{ code: number; out: string } | null>;
}

/**
 * Every check a technician needs on a cabinet, each independent (one failing never hides another),
 * none changing anything: configuration, state directory, the daemon and the service manager, the
 * serial port and its permissions, the board, the cloud and the clock, the credential, room for an
 * upgrade, the network.
 */
export async function runDoctor(config: AgentConfig, deps: DoctorDeps): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const add = (c: DoctorCheck): void => void checks.push(c);
  const state = new StateDir(config.stateDir);
  const safely = async (check: string, body: () => Promise<void>): Promise<void> => {
    try {
      await body();
    } catch (e) {
      add({ check, verdict: 'fail', detail: `could not check: ${(e as Error).message}`, fix: 'run as root or as the vend-agent user' });
    }
  };

  // configuration
  const missing = [...(config.cloudUrl ? [] : ['cloudUrl']), ...(config.equipmentNo ? [] : ['equipmentNo'])];
  add(
    missing.length
      ? {
          check: 'configuration',
          verdict: 'fail',
          detail: `${missing.join(' and ')} not set`,
          fix: 'set them in /etc/vend-agent/environment (VEND_AGENT_CLOUD_URL, VEND_AGENT_EQUIPMENT_NO)',
        }
      : { check: 'configuration', verdict: 'ok', detail: `cabinet ${config.equipmentNo}, cloud ${config.cloudUrl}` },
  );

  // state directory
  await safely('state directory', async () => {
    if (!existsSync(config.stateDir)) {
      add({
        check: 'state directory',
        verdict: 'fail',
        detail: `${config.stateDir} does not exist`,
        fix: `install -d -o vend-agent -g vend-agent -m 0700 ${config.stateDir}`,
      });
      return;
    }
    const st = statSync(config.stateDir);
    accessSync(config.stateDir, constants.R_OK | constants.W_OK | constants.X_OK);
    const mode = (st.mode & 0o777).toString(8);
    add(
      (st.mode & 0o077) !== 0
        ? {
            check: 'state directory',
            verdict: 'warn',
            detail: `${config.stateDir} is mode ${mode}`,
            fix: `chmod 0700 ${config.stateDir} (the agent tightens it at start)`,
          }
        : { check: 'state directory', verdict: 'ok', detail: `${config.stateDir}, mode ${mode}` },
    );
  });

  // the daemon and the service manager
  let status: ControlStatus | null = null;
  const pid = (() => {
    try {
      return state.runningPid();
    } catch {
      return null;
    }
  })();
  if (pid === null)
    add({ check: 'agent daemon', verdict: 'fail', detail: 'not running', fix: 'systemctl start vend-agent; journalctl -u vend-agent says why it stopped' });
  else {
    try {
      const answer = await controlClient(config, 5000).call('GET', '/v1/status', ControlStatus);
      status = answer.ok ? answer.body : null;
      add(
        status
          ? { check: 'agent daemon', verdict: 'ok', detail: `pid ${pid}, version ${status.agent.version}, up ${status.agent.uptimeSeconds} s` }
          : {
              check: 'agent daemon',
              verdict: 'fail',
              detail: `pid ${pid} runs but its control channel answered ${answer.status}`,
              fix: 'check the control-token file and --control-port',
            },
      );
    } catch (e) {
      add({ check: 'agent daemon', verdict: 'fail', detail: `pid ${pid} runs but ${(e as Error).message}`, fix: 'systemctl restart vend-agent' });
    }
  }
  const systemctl = deps.systemctl ?? (async (args: string[]) => (existsSync('/run/systemd/system') ? run('systemctl', args) : null));
  const active = await systemctl(['is-active', 'vend-agent.service']).catch(() => null);
  if (active === null) add({ check: 'service', verdict: 'skip', detail: 'no systemd here' });
  else if (active.out === 'active') add({ check: 'service', verdict: 'ok', detail: 'vend-agent.service active' });
  else
    add({
      check: 'service',
      verdict: 'fail',
      detail: `vend-agent.service ${active.out || 'unknown'}`,
      fix: 'systemctl enable --now vend-agent; journalctl -u vend-agent -n 50',
    });

  // the serial port and its permissions
  await safely('serial port', async () => {
    const port = config.serialPort;
    let listed: string;
    try {
      const ports = await deps.serial.list();
      listed = ports.length ? `ports found: ${ports.map((p) => p.path).join(', ')}` : 'no serial ports found';
    } catch (e) {
      listed = `cannot list ports (${(e as Error).message}; udevadm missing?)`;
    }
    if (!existsSync(port)) {
      add({
        check: 'serial port',
        verdict: 'fail',
        detail: `${port} does not exist; ${listed}`,
        fix: 'plug the board in, or set VEND_AGENT_SERIAL_PORT to its port',
      });
      return;
    }
    const st = statSync(port);
    if (!st.isCharacterDevice()) {
      add({ check: 'serial port', verdict: 'warn', detail: `${port} is not a character device (a pseudo-terminal link?)` });
      return;
    }
    const group = await groupName(st.gid);
    try {
      accessSync(port, constants.R_OK | constants.W_OK);
      add({ check: 'serial port', verdict: 'ok', detail: `${port}, group ${group}, read-write for ${userInfo().username}` });
    } catch {
      add({
        check: 'serial port',
        verdict: 'fail',
        detail: `${port} (group ${group}, mode ${(st.mode & 0o777).toString(8)}) is not read-write for ${userInfo().username}`,
        fix: `usermod -aG ${group} vend-agent (the unit has SupplementaryGroups=dialout), then restart the agent`,
      });
    }
  });

  // the board
  await safely('board', async () => {
    if (status) {
      const b = status.board;
      add(
        b.state === 'ok'
          ? { check: 'board', verdict: 'ok', detail: `answers (firmware ${b.vmcVersion ?? '?'}, via the daemon)` }
          : b.state === 'fault'
            ? {
                check: 'board',
                verdict: 'warn',
                detail: `answers, reports: ${b.problems.join(', ')}`,
                fix: 'vend-agent service motor-test / the board’s own display',
              }
            : {
                check: 'board',
                verdict: b.state === 'unknown' ? 'warn' : 'fail',
                detail: `${b.state}${b.lastError ? `: ${b.lastError}` : ''}`,
                fix: 'check the cable and the board’s power',
              },
      );
      return;
    }
    if (pid !== null) {
      add({ check: 'board', verdict: 'skip', detail: 'the daemon holds the port and does not answer' });
      return;
    }
    if (!existsSync(config.serialPort)) {
      add({ check: 'board', verdict: 'skip', detail: 'no serial port to reach it on (above)' });
      return;
    }
    const driver = new VmcDriver({ transport: deps.serial, path: config.serialPort, clock: deps.clock, timings: { openAttempts: 1 } });
    try {
      const info = await driver.info();
      add({ check: 'board', verdict: 'ok', detail: `answers: firmware ${info.vmcVersion}, ${info.rows} × ${info.columnsPerRow}` });
    } catch (e) {
      if (!(e instanceof VmcLinkError)) throw e;
      add({
        check: 'board',
        verdict: 'fail',
        detail: e.code === 'board_refused' ? `answered with a refusal: ${e.message}` : e.message,
        fix: e.code === 'board_refused' ? 'vend-agent vmc test --verbose shows the frames' : 'check the cable, the port and the board’s power',
      });
    } finally {
      await driver.close();
    }
  });

  // the cloud and the clock
  await safely('cloud', async () => {
    if (!config.cloudUrl) return add({ check: 'cloud', verdict: 'skip', detail: 'no cloudUrl' });
    const url = new URL('/health', config.cloudUrl).href;
    const sentAt = deps.clock.now();
    try {
      const res = await request(url, { method: 'GET', headersTimeout: 8000, bodyTimeout: 8000 });
      await res.body.dump();
      const rtt = deps.clock.now() - sentAt;
      add({ check: 'cloud', verdict: 'ok', detail: `${url} answered ${res.statusCode} in ${rtt} ms` });
      const date = Date.parse(String(res.headers['date'] ?? ''));
      if (Number.isNaN(date)) return add({ check: 'clock', verdict: 'skip', detail: 'the cloud sent no Date header' });
      const skew = Math.round((sentAt + rtt / 2 - date) / 1000);
      const verdict = Math.abs(skew) > SKEW_FAIL_S ? 'fail' : Math.abs(skew) > SKEW_WARN_S ? 'warn' : 'ok';
      add({
        check: 'clock',
        verdict,
        detail: `${Math.abs(skew)} s ${skew >= 0 ? 'ahead of' : 'behind'} the cloud`,
        ...(verdict === 'ok' ? {} : { fix: 'timedatectl set-ntp true (and check the NTP servers are reachable)' }),
      });
    } catch (e) {
      const err = e as { code?: string; cause?: { code?: string }; message: string };
      add({
        check: 'cloud',
        verdict: 'fail',
        detail: `${url}: ${err.cause?.code ?? err.code ?? err.message}`,
        fix: 'check the network (below), the cloud URL and any proxy or firewall',
      });
    }
  });

  // the credential
  await safely('credential', async () => {
    const enrolment = state.readEnrolment();
    const key = state.readCredential();
    if (enrolment?.state === 'revoked')
      add({
        check: 'credential',
        verdict: 'fail',
        detail: 'revoked',
        fix: 'an admin resets the identity and arms it; then vend-agent service reset-enrolment',
      });
    else if (enrolment?.state === 'conflict')
      add({
        check: 'credential',
        verdict: 'fail',
        detail: `conflict: ${enrolment.message ?? ''}`,
        fix: 'an admin resets the identity and arms the cabinet, then vend-agent enrol',
      });
    else if (key) add({ check: 'credential', verdict: 'ok', detail: `enrolled as ${parseDeviceKey(key)?.keyId ?? '?'}` });
    else add({ check: 'credential', verdict: 'warn', detail: 'not enrolled yet', fix: 'the operator arms the cabinet; vend-agent enrol' });
  });

  // room for an upgrade
  await safely('disk room', async () => {
    const root = existsSync(config.installRoot) ? config.installRoot : '/';
    const stats = await fsp.statfs(root);
    const free = stats.bavail * stats.bsize;
    const current = join(config.installRoot, 'current');
    if (!existsSync(current)) return add({ check: 'disk room', verdict: 'skip', detail: `${current} is not installed; ${mib(free)} free` });
    const tree = await treeBytes(current);
    const artifact = Math.ceil(tree / 2.7);
    const need = artifact + releaseUnpackCap(artifact) + 16 * 1024 * 1024;
    add(
      free >= need
        ? { check: 'disk room', verdict: 'ok', detail: `${mib(free)} free under ${root}; an upgrade of this size needs about ${mib(need)}` }
        : {
            check: 'disk room',
            verdict: 'fail',
            detail: `${mib(free)} free under ${root}; an upgrade needs about ${mib(need)}`,
            fix: 'free space (old logs, media) on that filesystem',
          },
    );
  });

  // the network
  await safely('network', async () => {
    const up = Object.entries(networkInterfaces()).flatMap(([name, addrs]) => (addrs ?? []).filter((a) => !a.internal).map((a) => `${name} ${a.address}`));
    if (up.length === 0)
      return add({ check: 'network', verdict: 'fail', detail: 'no interface has an address', fix: 'nmcli device status; plug the cable or join the Wi-Fi' });
    if (!config.cloudUrl) return add({ check: 'network', verdict: 'ok', detail: up.join(', ') });
    const host = new URL(config.cloudUrl).hostname;
    try {
      const a = await lookup(host);
      add({ check: 'network', verdict: 'ok', detail: `${up.slice(0, 3).join(', ')}; ${host} resolves to ${a.address}` });
    } catch (e) {
      add({
        check: 'network',
        verdict: 'fail',
        detail: `${host} does not resolve (${(e as { code?: string }).code ?? (e as Error).message})`,
        fix: 'check DNS: resolvectl status / /etc/resolv.conf',
      });
    }
  });
  return checks;
}

function mib(bytes: number): string {
  return `${Math.round(bytes / 1048576)} MiB`;
}

const MARK = { ok: '✓', warn: '!', fail: '✗', skip: '-' } as const;

export function formatDoctor(checks: DoctorCheck[]): string {
  const width = Math.max(...checks.map((c) => c.check.length)) + 2;
  const lines = checks.map(
    (c) =>
      `${MARK[c.verdict]} ${c.check.padEnd(width)}${c.verdict.toUpperCase().padEnd(5)} ${c.detail}${c.fix ? `\n  ${''.padEnd(width)}      fix: ${c.fix}` : ''}`,
  );
  const failed = checks.filter((c) => c.verdict === 'fail').length;
  const warned = checks.filter((c) => c.verdict === 'warn').length;
  lines.push(
    failed ? `verdict: ${failed} problem(s) to fix${warned ? `, ${warned} warning(s)` : ''}` : warned ? `verdict: OK, ${warned} warning(s)` : 'verdict: OK',
  );
  return lines.join('\n');
}

/** `vend-agent doctor`: every check on one screen, a verdict and a fix per line; `--json`. */
export function doctorCommand({ deps, setExit, guarded }: CommandContext): Command {
  return new Command('doctor')
    .description('check everything on this cabinet: configuration, daemon and service, serial port, board, cloud and clock, credential, disk room, network')
    .option('--json', 'print one JSON object {ok, checks: [{check, verdict, detail, fix?}]}')
    .addHelpText(
      'after',
      `\nChanges nothing. Exit codes: ${EXIT_CODES.ok} no problem (warnings allowed), ${EXIT_CODES.attention} a check failed (its line says the fix).`,
    )
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const config = configOf(deps, cmd);
        const checks = await runDoctor(config, { serial: deps.serial, clock: deps.clock });
        const ok = !checks.some((c) => c.verdict === 'fail');
        deps.stdout(flags['json'] ? JSON.stringify({ ok, checks }) + '\n' : formatDoctor(checks) + '\n');
        setExit(ok ? EXIT_CODES.ok : EXIT_CODES.attention);
      }),
    );
}
