import { statSync } from 'node:fs';
import type { EventEmitter } from 'node:events';
import { Command, InvalidArgumentError, Option } from 'commander';
import { PAY_METHODS, parseDeviceKey } from '@vend/protocol';
import type { Clock } from '@vend/protocol';
import { AgentConfigError, describeConfig, loadAgentConfig, mask } from '../config.ts';
import type { AgentConfig } from '../config.ts';
import { CloudClient } from '../cloud/client.ts';
import { StateCredentialStore } from '../cloud/credentials.ts';
import { Enroller } from '../cloud/enrolment.ts';
import { undiciTransport } from '../cloud/http.ts';
import type { HttpTransport } from '../cloud/http.ts';
import { Daemon } from '../daemon.ts';
import { DispenseBook } from '../spool/book.ts';
import { MemoryJournal } from '../spool/journal.ts';
import { readTextIfExists } from '../state/fs-atomic.ts';
import { readFrom, tailLines } from '../state/log-file.ts';
import { StateDir, StateDirError, StateDirUnusable } from '../state/state-dir.ts';
import type { SerialTransport } from '../vmc/transport.ts';
import { ControlClient, ControlNoAnswer, ControlUnreachable } from './client.ts';
import { ControlBindError } from './server.ts';

/** Exit codes (mirrors cli.ts EXIT_CODES; kept here so this module does not import the CLI). */
const EXIT = {
  ok: 0,
  vendFailed: 1,
  attention: 4,
  daemonDown: 5,
  refused: 6,
  notEnrolled: 7,
  revoked: 8,
  outcomeUnknown: 9,
  usage: 64,
  internal: 70,
  locked: 75,
  noPermission: 77,
  config: 78,
} as const;

/** Read syscalls: a permission error there means "cannot read". */
const READ_SYSCALLS = new Set(['open', 'read', 'stat', 'lstat', 'fstat', 'scandir', 'access', 'readlink']);

/**
 * A file-system error as the technician should see it: one line and an exit code, or null when it is
 * not one (a bug, reported as an internal error). Permission problems are 77 (EX_NOPERM): the state
 * directory is 0700, root's or the vend-agent user's. A state-directory path that is not a directory
 * (or runs through a file) is a configuration mistake: 78.
 */
export function fsProblem(e: unknown): { message: string; exit: number } | null {
  const err = e as NodeJS.ErrnoException;
  if (!(e instanceof Error) || typeof err.code !== 'string' || typeof err.syscall !== 'string') return null;
  const path = err.path ?? 'a file of the state directory';
  if (err.code === 'EACCES' || err.code === 'EPERM') {
    const verb = !err.syscall || READ_SYSCALLS.has(err.syscall) ? 'read' : 'write';
    return { message: `cannot ${verb} ${path}: run as root or as the vend-agent user`, exit: EXIT.noPermission };
  }
  if (err.code === 'ENOTDIR' || err.code === 'EISDIR' || err.code === 'ELOOP' || err.code === 'ENAMETOOLONG') {
    const what = err.code === 'EISDIR' ? 'is a directory, not a file' : err.code === 'ENOTDIR' ? 'runs through something that is not a directory' : err.code;
    return { message: `cannot use ${path}: ${what} — check --state-dir / VEND_AGENT_STATE_DIR`, exit: EXIT.config };
  }
  if (err.code === 'EROFS' || err.code === 'ENOSPC' || err.code === 'EIO') {
    return { message: `cannot write ${path}: ${err.code}`, exit: EXIT.config };
  }
  return null;
}

export interface AgentCommandDeps {
  stdout: (t: string) => void;
  stderr: (t: string) => void;
  clock: Clock;
  env: Record<string, string | undefined>;
  serial: SerialTransport;
  /** `run` waits for one of SIGTERM/SIGINT from here (default: process). */
  signals?: EventEmitter;
  /** HTTP to the cloud (default: undici). */
  http?: HttpTransport;
  /** Where the daemon's log lines go besides its file (default: stdout). */
  logStdout?: NodeJS.WritableStream | null;
  /** `run` tells its caller it is up (default: the ready line on stdout). */
  onReady?: (d: Daemon) => void;
  /** How long `dispense` waits for the control channel's answer (default 90 s: a vend takes up to 30 s, plus the cloud's order). */
  dispenseTimeoutMs?: number;
}

type Flags = Record<string, unknown>;

function int(name: string, min: number, max: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer ${min}..${max}`);
    return n;
  };
}

/** The configuration for a command: global flags, the command's flags, the environment, the file. */
function configOf(deps: AgentCommandDeps, cmd: Command, extra: Flags = {}): AgentConfig {
  const g = cmd.optsWithGlobals<Flags>();
  return loadAgentConfig({
    flags: {
      stateDir: g['stateDir'],
      controlPort: g['controlPort'],
      controlHost: g['controlHost'],
      ...extra,
    },
    env: deps.env,
    ...(typeof g['config'] === 'string' ? { configFile: g['config'] } : {}),
  });
}

function controlUrl(c: AgentConfig): string {
  return c.controlHost.includes(':') ? `http://[${c.controlHost}]:${c.controlPort}` : `http://${c.controlHost}:${c.controlPort}`;
}

function controlClient(c: AgentConfig, timeoutMs?: number): ControlClient {
  return new ControlClient(controlUrl(c), new StateDir(c.stateDir).readControlToken(), timeoutMs);
}

function ago(iso: unknown, now: number): string {
  if (typeof iso !== 'string') return 'never';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  return s < 120 ? `${s}s ago` : s < 7200 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
}

function row(label: string, text: string, width = 12): string {
  return `  ${label.padEnd(Math.max(width, label.length + 2))}${text}`;
}

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});

/** What in a status needs a technician (empty: all well). */
export function attentionOf(s: Obj): string[] {
  const out: string[] = [];
  const enrol = o(s['enrolment']);
  if (enrol['state'] !== 'enrolled') out.push(`enrolment: ${String(enrol['state'])}${enrol['message'] ? ` — ${String(enrol['message'])}` : ''}`);
  const cloud = o(s['cloud']);
  if (cloud['reachable'] === false) out.push(`cloud not reachable${o(cloud['lastError'])['message'] ? `: ${String(o(cloud['lastError'])['message'])}` : ''}`);
  const board = o(s['board']);
  if (board['state'] === 'unavailable')
    out.push(`board not answering on ${String(board['port'])}${board['lastError'] ? `: ${String(board['lastError'])}` : ''}`);
  if (board['state'] === 'fault') out.push(`board reports: ${(board['problems'] as string[] | undefined)?.join(', ') ?? 'a fault'}`);
  const spool = o(s['spool']);
  if (Array.isArray(spool['rejected']) && spool['rejected'].length > 0)
    out.push(`${spool['rejected'].length} report(s) refused by the cloud (see status --json)`);
  return out;
}

export function formatStatus(s: Obj, now: number): string {
  const a = o(s['agent']);
  const enrol = o(s['enrolment']);
  const cloud = o(s['cloud']);
  const board = o(s['board']);
  const spool = o(s['spool']);
  const disp = o(s['dispensing']);
  const cfg = o(s['config']);
  const lines = [`vend-agent ${String(a['version'])} on ${String(a['equipmentNo'])} (pid ${String(a['pid'])}, up ${String(a['uptimeSeconds'])}s)`];
  lines.push(
    row(
      'enrolment',
      `${String(enrol['state'])}${enrol['keyId'] ? ` (key ${String(enrol['keyId'])})` : ''}${enrol['state'] !== 'enrolled' && enrol['message'] ? ` — ${String(enrol['message'])}` : ''}`,
    ),
  );
  lines.push(
    row(
      'cloud',
      `${cloud['reachable'] ? 'reachable' : 'NOT REACHABLE'} — ${String(cloud['url'])}, last answer ${ago(cloud['lastAnswerAt'], now)}${
        cloud['registeredAt'] ? '' : ', not registered yet'
      }`,
    ),
  );
  if (o(cloud['lastError'])['message'])
    lines.push(row('', `last cloud error ${ago(o(cloud['lastError'])['at'], now)}: ${String(o(cloud['lastError'])['message'])}`));
  const geometry = board['rows'] ? `, ${String(board['module'])} ${String(board['rows'])}×${String(board['columnsPerRow'])}` : '';
  lines.push(
    row(
      'board',
      `${String(board['state'])} — ${String(board['port'])}${board['vmcVersion'] ? `, firmware ${String(board['vmcVersion'])}` : ''}${geometry}${
        board['bootId'] ? `, boot id ${String(board['bootId'])}` : ''
      }`,
    ),
  );
  if (board['lastError']) lines.push(row('', `last board error: ${String(board['lastError'])}`));
  lines.push(row('versions', `agent ${String(a['version'])}, board firmware ${board['vmcVersion'] ? String(board['vmcVersion']) : 'unknown'}`));
  lines.push(row('spool', `${String(spool['depth'])} report(s) waiting, ${String(spool['delivered'])} delivered since start`));
  lines.push(
    row(
      'dispensing',
      `${disp['busy'] ? `busy (${String(disp['current'])})` : 'idle'}, ${String(disp['leased'])} remote drop(s) leased${disp['recovered'] ? '' : ', crash recovery pending'}`,
    ),
  );
  lines.push(
    row(
      'config',
      `poll ${String(cfg['pollInterval'])}s, heartbeat ${String(cfg['heartbeatInterval'])}s, ${String(cfg['dispatchMode'])} (from ${String(cfg['source'])})`,
    ),
  );
  const errors = Array.isArray(s['lastErrors']) ? (s['lastErrors'] as Obj[]) : [];
  if (errors.length) {
    lines.push('  last errors');
    for (const e of errors.slice(0, 5)) lines.push(`    ${ago(e['at'], now).padEnd(9)} ${String(e['source'])}: ${String(e['message'])}`);
  }
  const attention = attentionOf(s);
  lines.push(attention.length ? `needs attention: ${attention.join('; ')}` : 'result: OK');
  return lines.join('\n');
}

/** Status from the state directory alone (the daemon is not running). */
export function offlineStatus(c: AgentConfig): Obj {
  const state = new StateDir(c.stateDir);
  const enrolment = state.readEnrolment();
  const credential = state.readCredential();
  const journal = new MemoryJournal();
  journal.text = readTextIfExists(state.path('journal')) ?? '';
  const book = new DispenseBook(journal, { now: () => Date.now(), setTimeout: () => 0, clearTimeout: () => {} });
  book.load();
  const cached = state.readCachedConfig();
  return {
    daemon: 'not running',
    stateDir: c.stateDir,
    equipmentNo: c.equipmentNo ?? null,
    enrolment: enrolment ?? { state: credential ? 'enrolled' : 'not-enrolled' },
    keyId: credential ? (parseDeviceKey(credential)?.keyId ?? null) : null,
    spool: { depth: book.depth(), unresolvedIntents: book.unresolved().length },
    lastVends: book.recent(5),
    config: cached
      ? { receivedAt: new Date(cached.receivedAt).toISOString(), pollInterval: cached.config.pollInterval, heartbeatInterval: cached.config.heartbeatInterval }
      : null,
  };
}

/** The agent's own commands (everything but `vmc`). */
export function agentCommands(deps: AgentCommandDeps, setExit: (code: number) => void): Command[] {
  const out = deps.stdout;
  const err = deps.stderr;
  /** Runs a command body; configuration problems and a busy state directory become their exit codes. */
  const guarded =
    <A extends unknown[]>(fn: (...a: A) => Promise<void>) =>
    async (...a: A): Promise<void> => {
      try {
        await fn(...a);
      } catch (e) {
        if (e instanceof AgentConfigError) {
          err(`${e.message}\n`);
          setExit(EXIT.config);
          return;
        }
        if (e instanceof StateDirUnusable) {
          err(`error: ${e.message} — check --state-dir / VEND_AGENT_STATE_DIR\n`);
          setExit(EXIT.config);
          return;
        }
        if (e instanceof StateDirError) {
          err(`error: ${e.message}\n`);
          setExit(EXIT.locked);
          return;
        }
        if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
          err(`error: the control channel's port is in use (${(e as Error).message}); is another agent running on this host?\n`);
          setExit(EXIT.locked);
          return;
        }
        if (e instanceof ControlBindError) {
          err(`error: ${e.message}\n`);
          setExit(EXIT.config);
          return;
        }
        const fsp = fsProblem(e);
        if (fsp) {
          err(`error: ${fsp.message}\n`);
          setExit(fsp.exit);
          return;
        }
        throw e;
      }
    };

  // --- run ---------------------------------------------------------------------------------------
  const run = new Command('run')
    .description('run the cabinet daemon: enrolment, cloud loops, report spool, board link, loopback control channel')
    .option('--cloud-url <url>', 'the cloud, e.g. https://cloud.example.com (env VEND_AGENT_CLOUD_URL)')
    .option('--equipment-no <serial>', "this cabinet's serial (env VEND_AGENT_EQUIPMENT_NO)")
    .option('--serial-port <path>', 'the vending board, e.g. /dev/ttyUSB0 (env VEND_AGENT_SERIAL_PORT)')
    .option('--machine-id-file <path>', 'source of the stable deviceId; "" for none (env VEND_AGENT_MACHINE_ID_FILE)')
    .option('--agent-version <v>', 'the running version (default: the package version)')
    .addOption(new Option('--log-level <level>', 'log level').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']))
    .addHelpText(
      'after',
      [
        '',
        'The fleet secret comes from the environment (VEND_AGENT_FLEET_SECRET) or the config file, never a flag (ps shows flags).',
        'Prints one JSON line {"event":"ready",...} on stdout once the control channel listens; logs are JSON lines',
        'on stdout and in <state-dir>/agent.log. SIGTERM/SIGINT stop it (a dispense on the wire is finished first);',
        'so does the upgrade pipeline after an install or a revert (exit 0: the service manager starts current/ again).',
        '',
        `Exit codes: 0 stopped by a signal, ${EXIT.locked} another agent runs on the state directory (or holds the control port), ${EXIT.config} bad configuration.`,
      ].join('\n'),
    )
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const config = configOf(deps, cmd, {
          cloudUrl: flags['cloudUrl'],
          equipmentNo: flags['equipmentNo'],
          serialPort: flags['serialPort'],
          machineIdFile: flags['machineIdFile'],
          agentVersion: flags['agentVersion'],
          logLevel: flags['logLevel'],
        });
        if (!config.cloudUrl || !config.equipmentNo) {
          throw new AgentConfigError([
            ...(config.cloudUrl ? [] : ['cloudUrl: required to run']),
            ...(config.equipmentNo ? [] : ['equipmentNo: required to run']),
          ]);
        }
        let restart: (why: string) => void = () => {};
        const restartRequested = new Promise<string>((resolve) => (restart = resolve));
        const daemon = await Daemon.start({
          config,
          onRestart: () => restart('upgrade restart'),
          clock: deps.clock,
          serial: deps.serial,
          ...(deps.http ? { http: deps.http } : {}),
          ...(deps.logStdout !== undefined ? { logStdout: deps.logStdout } : {}),
        });
        if (deps.onReady) deps.onReady(daemon);
        else
          out(
            JSON.stringify({
              event: 'ready',
              control: daemon.control?.url,
              pid: process.pid,
              stateDir: config.stateDir,
              version: config.agentVersion,
              equipmentNo: config.equipmentNo,
            }) + '\n',
          );
        const signals = deps.signals ?? process;
        const signal = await Promise.race([
          restartRequested,
          new Promise<string>((resolve) => {
            signals.once('SIGTERM', () => resolve('SIGTERM'));
            signals.once('SIGINT', () => resolve('SIGINT'));
          }),
        ]);
        await daemon.stop(signal);
        setExit(EXIT.ok);
      }),
    );

  // --- status ------------------------------------------------------------------------------------
  const status = new Command('status')
    .description('enrolment, cloud reachability, versions, board link, spool depth, last errors')
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      `\nExit codes: ${EXIT.ok} all well, ${EXIT.attention} something needs attention (listed), ${EXIT.daemonDown} the daemon is not running (state read from disk), ${EXIT.revoked} credential revoked.`,
    )
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const c = configOf(deps, cmd);
        let answer;
        try {
          answer = await controlClient(c, 10_000).call('GET', '/v1/status');
        } catch (e) {
          if (!(e instanceof ControlUnreachable)) throw e;
          const s = offlineStatus(c);
          if (flags['json']) out(JSON.stringify(s) + '\n');
          else {
            const enrolment = o(s['enrolment']);
            out(
              [
                e instanceof ControlNoAnswer ? `vend-agent: the daemon does not answer (${e.message})` : `vend-agent: the daemon is not running (${e.message})`,
                row('state dir', c.stateDir),
                row(
                  'enrolment',
                  `${String(enrolment['state'])}${s['keyId'] ? ` (key ${String(s['keyId'])})` : ''}${enrolment['message'] ? ` — ${String(enrolment['message'])}` : ''}`,
                ),
                row(
                  'spool',
                  `${String(o(s['spool'])['depth'])} report(s) waiting, ${String(o(s['spool'])['unresolvedIntents'])} dispense(s) to settle at the next start`,
                ),
              ].join('\n') + '\n',
            );
          }
          setExit(o(s['enrolment'])['state'] === 'revoked' ? EXIT.revoked : EXIT.daemonDown);
          return;
        }
        if (answer.status !== 200) {
          err(`the control channel refused: ${answer.status} ${String(answer.body['message'] ?? '')}\n`);
          setExit(EXIT.refused);
          return;
        }
        const s = answer.body;
        out(flags['json'] ? JSON.stringify(s) + '\n' : formatStatus(s, deps.clock.now()) + '\n');
        if (o(s['enrolment'])['state'] === 'revoked') setExit(EXIT.revoked);
        else setExit(attentionOf(s).length ? EXIT.attention : EXIT.ok);
      }),
    );

  // --- enrol -------------------------------------------------------------------------------------
  const enrol = new Command('enrol')
    .description('enrol this cabinet now with the fleet secret (through the daemon when it runs)')
    .option('--json', 'print one JSON object')
    .option('--cloud-url <url>', 'the cloud (when the daemon is not running)')
    .option('--equipment-no <serial>', "this cabinet's serial (when the daemon is not running)")
    .addHelpText(
      'after',
      `\nExit codes: ${EXIT.ok} enrolled, ${EXIT.notEnrolled} not enrolled (waiting for an arm: 428; conflict: 409 — a technician must reset the identity; failing), ${EXIT.revoked} revoked.`,
    )
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const c = configOf(deps, cmd, { cloudUrl: flags['cloudUrl'], equipmentNo: flags['equipmentNo'] });
        let result: Obj;
        try {
          const a = await controlClient(c).call('POST', '/v1/enrol');
          if (a.status !== 200) {
            err(`the control channel refused: ${a.status} ${String(a.body['message'] ?? '')}\n`);
            setExit(EXIT.refused);
            return;
          }
          result = a.body;
        } catch (e) {
          if (!(e instanceof ControlUnreachable)) throw e;
          result = await enrolOffline(c, deps);
        }
        const state = String(result['state']);
        if (flags['json']) out(JSON.stringify(result) + '\n');
        else
          out(
            `enrolment: ${state}${result['keyId'] ? ` (key ${String(result['keyId'])})` : ''}${result['message'] ? ` — ${String(result['message'])}` : ''}\n`,
          );
        setExit(state === 'enrolled' ? EXIT.ok : state === 'revoked' ? EXIT.revoked : EXIT.notEnrolled);
      }),
    );

  // --- dispense ----------------------------------------------------------------------------------
  const dispense = new Command('dispense')
    .description('vend one aisle as a walk-up sale (the order, the motor, the report), through the control channel')
    .requiredOption('--aisle <n>', 'aisle number: (row − 1) × columnsPerRow + column', int('--aisle', 1, 1024))
    .addOption(new Option('--pay-method <method>', 'how the customer paid').choices([...PAY_METHODS]).default('cash'))
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      `\nExit codes: ${EXIT.ok} vended, ${EXIT.vendFailed} the board did not vend (outcome says why; the order is refunded), ${EXIT.refused} refused before the motor ran (busy, not ready, empty token, the cloud refused the order), ${EXIT.daemonDown} the daemon is not running, ${EXIT.outcomeUnknown} the daemon took the request but gave no answer in time: the vend may still be in progress (see vend-agent status and GET /v1/vends before trying again).`,
    )
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const c = configOf(deps, cmd);
        let a;
        try {
          a = await controlClient(c, deps.dispenseTimeoutMs ?? 90_000).call('POST', '/v1/dispense', { aisle: flags['aisle'], payMethod: flags['payMethod'] });
        } catch (e) {
          if (e instanceof ControlNoAnswer) {
            // the request reached the daemon: the vend may be under way; a second try could vend twice
            err(
              `${e.message}\nthe vend of aisle ${String(flags['aisle'])} may still be in progress: check \`vend-agent status\` and the last vends (GET /v1/vends) before trying again\n`,
            );
            setExit(EXIT.outcomeUnknown);
            return;
          }
          if (!(e instanceof ControlUnreachable)) throw e;
          err(`${e.message}\n`);
          setExit(EXIT.daemonDown);
          return;
        }
        if (flags['json']) out(JSON.stringify({ httpStatus: a.status, ...a.body }) + '\n');
        if (a.status !== 200) {
          if (!flags['json']) err(`dispense refused (${a.status} ${String(a.body['error'] ?? '')}): ${String(a.body['message'] ?? '')}\n`);
          setExit(EXIT.refused);
          return;
        }
        const b = a.body;
        if (!flags['json'])
          out(
            `aisle ${String(b['aisle'])}: ${String(b['outcome'])} — ${String(b['detail'])}\n  order ${String(b['orderNumber'])}, dispense ${String(b['dispenseId'])}\n`,
          );
        setExit(b['success'] === true ? EXIT.ok : EXIT.vendFailed);
      }),
    );

  // --- config show -------------------------------------------------------------------------------
  const config = new Command('config').description('the agent configuration');
  config
    .command('show')
    .description('the effective agent configuration (secrets masked) and the last configuration block from the cloud')
    .option('--json', 'print one JSON object')
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const c = configOf(deps, cmd);
        const cached = new StateDir(c.stateDir).readCachedConfig();
        const block = cached ? { ...cached.config, adminPin: cached.config.adminPin ? mask(cached.config.adminPin) : '' } : null;
        const view = { agent: describeConfig(c), cloudConfig: block, cloudConfigReceivedAt: cached ? new Date(cached.receivedAt).toISOString() : null };
        if (flags['json']) out(JSON.stringify(view) + '\n');
        else {
          const lines = ['agent configuration'];
          for (const [k, v] of Object.entries(view.agent)) lines.push(row(k, String(v ?? '—'), 22));
          lines.push(
            block ? `configuration block from the cloud (received ${String(view.cloudConfigReceivedAt)})` : 'no configuration block from the cloud yet',
          );
          if (block)
            for (const [k, v] of Object.entries(block))
              if (k !== 'features') lines.push(row(k, String(v), 22));
              else
                lines.push(
                  row(
                    'features on',
                    Object.entries(v as Record<string, boolean>)
                      .filter(([, on]) => on)
                      .map(([f]) => f)
                      .join(', '),
                    22,
                  ),
                );
          out(lines.join('\n') + '\n');
        }
        setExit(EXIT.ok);
      }),
    );

  // --- credential show ---------------------------------------------------------------------------
  const credential = new Command('credential').description('the cabinet credential');
  credential
    .command('show')
    .description('the stored device credential, masked: key id, state, file mode')
    .option('--json', 'print one JSON object')
    .addHelpText('after', `\nExit codes: ${EXIT.ok} a credential is stored, ${EXIT.notEnrolled} none, ${EXIT.revoked} revoked.`)
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const c = configOf(deps, cmd);
        const state = new StateDir(c.stateDir);
        const value = state.readCredential();
        const enrolment = state.readEnrolment();
        const parsed = value ? parseDeviceKey(value) : null;
        let mode: string | null = null;
        try {
          mode = (statSync(state.path('credential')).mode & 0o777).toString(8).padStart(4, '0');
        } catch {
          mode = null;
        }
        const view = {
          state: enrolment?.state ?? (parsed ? 'enrolled' : 'not-enrolled'),
          keyId: parsed?.keyId ?? null,
          secret: parsed ? mask(parsed.secret) : null,
          file: state.path('credential'),
          mode,
          since: enrolment ? new Date(enrolment.at).toISOString() : null,
          message: enrolment?.message ?? null,
        };
        if (flags['json']) out(JSON.stringify(view) + '\n');
        else
          out(
            [
              `credential: ${view.state}`,
              row('key id', view.keyId ?? '—'),
              row('secret', view.secret ?? '—'),
              row('file', `${view.file}${mode ? ` (mode ${mode}${mode !== '0600' ? ' — should be 0600' : ''})` : ' (none)'}`),
              ...(view.message ? [row('cloud said', view.message)] : []),
            ].join('\n') + '\n',
          );
        setExit(view.state === 'revoked' ? EXIT.revoked : parsed ? EXIT.ok : EXIT.notEnrolled);
      }),
    );

  // --- logs --------------------------------------------------------------------------------------
  const logs = new Command('logs')
    .description("the daemon's log (<state-dir>/agent.log)")
    .option('-n, --lines <n>', 'lines from the end', int('--lines', 1, 100_000), 50)
    .option('-f, --follow', 'keep printing new lines until interrupted')
    .option('--json', 'print the JSON lines as written')
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const c = configOf(deps, cmd);
        const file = new StateDir(c.stateDir).path('log');
        let tail;
        try {
          tail = tailLines(file, flags['lines'] as number);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
          err(`no log at ${file} (has the daemon run with this state directory?)\n`);
          setExit(EXIT.daemonDown);
          return;
        }
        const show = (line: string): void => {
          if (!line.trim()) return;
          out((flags['json'] ? line : humanLogLine(line)) + '\n');
        };
        for (const l of tail.lines) show(l);
        if (flags['follow']) {
          let offset = tail.end;
          let ino = tail.ino;
          const onChange = (): void => {
            let got;
            try {
              got = readFrom(file, offset);
            } catch {
              return; // between a rotation's rename and the new file
            }
            if (got.ino !== ino || got.size < offset) {
              // rotated (or truncated): the new file from its start
              ino = got.ino;
              offset = 0;
              got = readFrom(file, 0);
            }
            const chunk = got.bytes;
            const end = chunk.lastIndexOf(0x0a);
            if (end < 0) return;
            offset += end + 1;
            for (const l of chunk.subarray(0, end).toString('utf8').split('\n')) show(l);
          };
          // A plain read every 500 ms, not fs.watchFile: watchFile takes its first stat asynchronously, so a
          // line appended between the tail and that stat is in its baseline and never reported.
          const timer = setInterval(onChange, 500);
          const signals = deps.signals ?? process;
          await new Promise<void>((resolve) => {
            signals.once('SIGINT', () => resolve());
            signals.once('SIGTERM', () => resolve());
          });
          clearInterval(timer);
        }
        setExit(EXIT.ok);
      }),
    );

  return [run, status, enrol, dispense, config, credential, logs];
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** `time LEVEL [part] message {fields}` from a pino JSON line. */
export function humanLogLine(line: string): string {
  let j: Obj;
  try {
    j = JSON.parse(line) as Obj;
  } catch {
    return line;
  }
  const { time, level, msg, pid: _pid, part, ...rest } = j;
  const fields = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
  return `${String(time ?? '')} ${(LEVELS[level as number] ?? String(level)).padEnd(5)} ${part ? `[${String(part)}] ` : ''}${String(msg ?? '')}${fields}`;
}

/** `vend-agent enrol` with no daemon running: one attempt, holding the state directory meanwhile. */
async function enrolOffline(c: AgentConfig, deps: AgentCommandDeps): Promise<Obj> {
  if (!c.cloudUrl || !c.equipmentNo || !c.fleetSecret)
    throw new AgentConfigError([
      ...(c.cloudUrl ? [] : ['cloudUrl: required to enrol']),
      ...(c.equipmentNo ? [] : ['equipmentNo: required to enrol']),
      ...(c.fleetSecret ? [] : ['fleetSecret: required to enrol (VEND_AGENT_FLEET_SECRET or the config file)']),
    ]);
  const state = new StateDir(c.stateDir);
  state.ensure();
  const lock = state.acquirePidLock();
  const http = deps.http ? { transport: deps.http, close: async () => {} } : undiciTransport();
  try {
    const credentials = new StateCredentialStore(state, () => deps.clock.now());
    const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
    const client = new CloudClient({
      baseUrl: c.cloudUrl,
      equipmentNo: c.equipmentNo,
      fleetSecret: c.fleetSecret,
      credentials,
      transport: http.transport,
      clock: deps.clock,
      random: Math.random,
      timeoutMs: c.httpTimeoutMs,
      backoff: { baseMs: c.backoffBaseMs, capMs: c.backoffCapMs },
      log: quiet,
    });
    const enroller = new Enroller({
      client,
      credentials,
      deviceId: state.deviceId(c.machineIdFile === '' ? null : c.machineIdFile).deviceId,
      clock: deps.clock,
      random: Math.random,
      log: quiet,
      recordConflict: (message) => state.writeEnrolment({ state: 'conflict', keyId: null, machineCode: null, message, at: deps.clock.now() }),
    });
    const s = await enroller.attempt();
    return { ...s, keyId: credentials.keyId() };
  } finally {
    await http.close();
    lock.release();
  }
}
