import { Command, Option } from 'commander';
import { systemClock } from '@vend/protocol';
import type { Clock } from '@vend/protocol';
import { agentCommands, vmcCommand } from './control/commands/index.ts';
import type { AgentCommandDeps } from './control/commands/index.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { upgradeCommand } from './upgrade/cli.ts';
import type { VmcTimings } from './vmc/driver.ts';
import { serialportTransport } from './vmc/transport.ts';
import type { SerialTransport } from './vmc/transport.ts';

export { EXIT_CODES } from './exit-codes.ts';

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

/**
 * The vend-agent command tree: `run` (the daemon) and the technician's tools — `status`, `enrol`,
 * `dispense`, `config show`, `credential show`, `logs` and `vmc test` / `vmc ports` (control/commands/), and `upgrade …` (upgrade/cli.ts).
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
        `${EXIT_CODES.badAnswer} the daemon answered something this vend-agent does not understand (another version?), ` +
        `${EXIT_CODES.config} bad configuration (including a --state-dir that is not a directory).`,
    );
  for (const command of agentCommands(
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
    program.addCommand(command);
  program.addCommand(vmcCommand(full, setExit));
  program.addCommand(upgradeCommand({ stdout: full.stdout, stderr: full.stderr, clock: full.clock, env: deps.env ?? process.env }, setExit));
  const everyCommand = (c: Command): Command[] => [c, ...c.commands.flatMap(everyCommand)];
  for (const command of everyCommand(program)) command.configureOutput({ writeOut: full.stdout, writeErr: full.stderr });
  return program;
}

/** Runs the CLI; resolves with the exit code (never throws for bad input or a missing board). */
export async function main(argv: string[], deps: CliDeps = {}): Promise<number> {
  let code: number = EXIT_CODES.ok;
  const program = buildProgram(deps, (c) => (code = c));
  const everyCommand = (c: Command): Command[] => [c, ...c.commands.flatMap(everyCommand)];
  for (const command of everyCommand(program)) command.exitOverride();
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
