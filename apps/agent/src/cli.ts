import { Command, InvalidArgumentError, Option } from 'commander';
import { pino } from 'pino';
import { systemClock } from '@vend/protocol';
import type { Clock } from '@vend/protocol';
import { agentCommands } from './control/commands.ts';
import { upgradeCommand } from './upgrade/cli.ts';
import type { AgentCommandDeps } from './control/commands.ts';
import { DEFAULT_VMC_TIMINGS, VmcDriver } from './vmc/driver.ts';
import type { DriverLogger, VmcTimings } from './vmc/driver.ts';
import { formatSelfCheck, runSelfCheck } from './vmc/self-check.ts';
import { serialportTransport } from './vmc/transport.ts';
import type { PortListing, SerialTransport } from './vmc/transport.ts';

/** Exit codes of every vend-agent command. */
export const EXIT_CODES = {
  ok: 0,
  /** The board answered, and reports something a technician must look at. */
  boardFault: 1,
  /** The port could not be opened, or opened but the board never answered. */
  boardUnavailable: 2,
  /** The board answered but refused or garbled the conversation. */
  protocolError: 3,
  /** status: the daemon runs, and something needs a technician (the lines say what). */
  attention: 4,
  /** The daemon is not running (status then reads the state directory). */
  daemonDown: 5,
  /** A dispense was refused before the motor ran (busy, not ready, unauthorised, the cloud refused the order). */
  refused: 6,
  /** enrol / credential: not enrolled (yet): waiting for an arm, conflict, or failing. */
  notEnrolled: 7,
  /** The cabinet credential is revoked; it never enrols again. */
  revoked: 8,
  /** dispense: the daemon took the request but gave no answer in time — the vend may still be in progress. */
  outcomeUnknown: 9,
  usage: 64,
  /** A bug: an error nothing above accounts for. */
  internal: 70,
  /** Another daemon holds the state directory. */
  locked: 75,
  /** A file of the state directory cannot be read or written by this user (EX_NOPERM): run as root or as the vend-agent user. */
  noPermission: 77,
  /** The configuration is invalid (every problem is printed), or the state directory path is not a usable directory. */
  config: 78,
} as const;

/** What the CLI needs from the outside world; tests replace any of it. */
export interface CliDeps {
  transport?: SerialTransport;
  clock?: Clock;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  /** Driver timing overrides (tests compress them). */
  timings?: Partial<VmcTimings>;
  /** The environment the configuration is read from (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Agent commands' extra dependencies (tests). */
  agent?: Partial<AgentCommandDeps>;
}

function positiveInt(name: string, max: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < 1 || n > max) throw new InvalidArgumentError(`${name} must be an integer 1..${max}`);
    return n;
  };
}

/** Lists ports without ever throwing: SerialPort.list() fails where udevadm is missing. */
async function safeList(transport: SerialTransport): Promise<{ ports: PortListing[]; error?: string }> {
  try {
    return { ports: await transport.list() };
  } catch (e) {
    return { ports: [], error: `cannot list serial ports: ${(e as Error).message}` };
  }
}

function makeLogger(level: string, stderr: (t: string) => void): DriverLogger {
  return pino({ level, base: undefined }, { write: (line: string) => stderr(line) });
}

function vmcCommand(
  deps: Required<Pick<CliDeps, 'transport' | 'clock' | 'stdout' | 'stderr'>> & Pick<CliDeps, 'timings'>,
  setExit: (code: number) => void,
): Command {
  const vmc = new Command('vmc').description('the serial link to the vending board (VMC)');

  vmc
    .command('test')
    .description('self-check the board link: board info, status, lane scan, drop-sensor reading')
    .option('--port <path>', 'serial device of the board, e.g. /dev/ttyUSB0')
    .option('--json', 'print one JSON object instead of the human report')
    .option(
      '--open-attempts <n>',
      `attempts to open the port, ${DEFAULT_VMC_TIMINGS.openBackoffMs / 1000} s apart`,
      positiveInt('--open-attempts', 100),
      DEFAULT_VMC_TIMINGS.openAttempts,
    )
    .option('--verbose', 'log every frame (JSON lines on stderr)')
    .addHelpText(
      'after',
      [
        '',
        'Exit codes:',
        `  ${EXIT_CODES.ok}   the board answered and reports no faults`,
        `  ${EXIT_CODES.boardFault}   the board answered and reports faults (jammed lanes, lift fault, drop sensor)`,
        `  ${EXIT_CODES.boardUnavailable}   the port could not be opened, or the board never answered`,
        `  ${EXIT_CODES.protocolError}   the board refused a request (NAK)`,
        `  ${EXIT_CODES.usage}  bad usage`,
      ].join('\n'),
    )
    .action(async (o: { port?: string; json?: boolean; openAttempts: number; verbose?: boolean }) => {
      if (!o.port) {
        const { ports, error } = await safeList(deps.transport);
        deps.stderr('error: --port <path> is required\n');
        if (error) deps.stderr(`(${error})\n`);
        else deps.stderr(ports.length ? `serial ports found: ${ports.map((p) => p.path).join(', ')}\n` : 'no serial ports found\n');
        setExit(EXIT_CODES.usage);
        return;
      }
      const driver = new VmcDriver({
        transport: deps.transport,
        path: o.port,
        clock: deps.clock,
        timings: { ...deps.timings, openAttempts: o.openAttempts },
        log: makeLogger(o.verbose ? 'debug' : 'silent', deps.stderr),
      });
      try {
        const report = await runSelfCheck(driver);
        deps.stdout(o.json ? JSON.stringify(report) + '\n' : formatSelfCheck(report) + '\n');
        if (report.error) setExit(report.error.code === 'board_refused' ? EXIT_CODES.protocolError : EXIT_CODES.boardUnavailable);
        else setExit(report.ok ? EXIT_CODES.ok : EXIT_CODES.boardFault);
      } finally {
        await driver.close();
      }
    });

  vmc
    .command('ports')
    .description('list the serial ports the OS knows of')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const { ports, error } = await safeList(deps.transport);
      if (o.json) deps.stdout(JSON.stringify(error ? { ports, error } : { ports }) + '\n');
      else {
        if (error) deps.stderr(`warning: ${error}\n`);
        deps.stdout(ports.length ? ports.map((p) => `${p.path}${p.manufacturer ? `  (${p.manufacturer})` : ''}`).join('\n') + '\n' : 'no serial ports found\n');
      }
      setExit(EXIT_CODES.ok);
    });

  return vmc;
}

/**
 * The vend-agent command tree: `run` (the daemon) and the technician's tools — `status`, `enrol`,
 * `dispense`, `config show`, `credential show`, `logs` (control/commands.ts) and `vmc test` / `vmc ports`.
 * Human output by default, `--json` for scripts; exit codes in EXIT_CODES (each command's --help lists its own).
 */
export function buildProgram(deps: CliDeps = {}, setExit: (code: number) => void = () => {}): Command {
  const full = {
    transport: deps.transport ?? serialportTransport(),
    clock: deps.clock ?? systemClock,
    stdout: deps.stdout ?? ((t: string) => void process.stdout.write(t)),
    stderr: deps.stderr ?? ((t: string) => void process.stderr.write(t)),
    timings: deps.timings,
  };
  const program = new Command('vend-agent')
    .description('the cabinet agent and its field-technician tools')
    .option('--state-dir <dir>', 'state directory (default /var/lib/vend-agent; env VEND_AGENT_STATE_DIR)')
    .option('--config <file>', 'JSON configuration file (default /etc/vend-agent/config.json; env VEND_AGENT_CONFIG)')
    .option('--control-port <port>', 'loopback control channel port (default 8770; env VEND_AGENT_CONTROL_PORT)')
    .addOption(new Option('--control-host <host>', 'control channel address: loopback only (env VEND_AGENT_CONTROL_HOST)').choices(['127.0.0.1', '::1']))
    .addHelpText(
      'after',
      `\nExit codes of every command (each command's --help lists its own): ${EXIT_CODES.usage} bad usage, ${EXIT_CODES.internal} internal error, ` +
        `${EXIT_CODES.noPermission} a state-directory file this user cannot read or write (run as root or as the vend-agent user), ` +
        `${EXIT_CODES.config} bad configuration (including a --state-dir that is not a directory).`,
    );
  for (const c of agentCommands(
    {
      stdout: full.stdout,
      stderr: full.stderr,
      clock: full.clock,
      env: deps.env ?? process.env,
      serial: full.transport,
      ...deps.agent,
    },
    setExit,
  ))
    program.addCommand(c);
  program.addCommand(vmcCommand(full, setExit));
  program.addCommand(upgradeCommand({ stdout: full.stdout, stderr: full.stderr, clock: full.clock }, setExit));
  const everyCommand = (c: Command): Command[] => [c, ...c.commands.flatMap(everyCommand)];
  for (const c of everyCommand(program)) c.configureOutput({ writeOut: full.stdout, writeErr: full.stderr });
  return program;
}

/** Runs the CLI; resolves with the exit code (never throws for bad input or a missing board). */
export async function main(argv: string[], deps: CliDeps = {}): Promise<number> {
  let code: number = EXIT_CODES.ok;
  const program = buildProgram(deps, (c) => (code = c));
  const everyCommand = (c: Command): Command[] => [c, ...c.commands.flatMap(everyCommand)];
  for (const c of everyCommand(program)) c.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    const err = e as { code?: string };
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT_CODES.ok;
    if (typeof err.code === 'string' && err.code.startsWith('commander.')) return EXIT_CODES.usage;
    (deps.stderr ?? ((t: string) => void process.stderr.write(t)))(`internal error: ${(e as Error).stack ?? String(e)}\n`);
    return EXIT_CODES.internal;
  }
  return code;
}
