import { Command, Option } from 'commander';
import { EXIT_CODES } from './exit-codes.ts';
import type { ResolvedCliDeps } from './cli-deps.ts';

/**
 * What every vend-agent command line shares — the program with its global options, the parse and
 * its exit codes (the dependencies: cli-deps.ts) — apart from the commands themselves, so that the
 * daemon (`vend-agent run`, daemon-cli.ts) loads only its own command and the full CLI (cli.ts) the
 * rest; the release entry loads only this to tell which (docs/decisions/agent.md "Footprint").
 */

/** The `vend-agent` program with its global options and no commands yet. */
export function programShell(): Command {
  return new Command('vend-agent')
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
}

const everyCommand = (c: Command): Command[] => [c, ...c.commands.flatMap(everyCommand)];

/** Routes every command's output through the given writers. */
export function routeOutput(program: Command, deps: ResolvedCliDeps): Command {
  for (const command of everyCommand(program)) command.configureOutput({ writeOut: deps.stdout, writeErr: deps.stderr });
  return program;
}

/**
 * The command a command line names (`run`, `status`, …) after the global options, or null when
 * there is none (`--help`, nothing at all, an unknown option).
 */
export function commandOf(argv: readonly string[]): string | null {
  const takesValue = new Set(
    programShell()
      .options.filter((o) => o.required || o.optional)
      .map((o) => o.long),
  );
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) return arg;
    if (arg.includes('=')) continue;
    if (!takesValue.has(arg)) return null;
    i++;
  }
  return null;
}

/** Parses and runs; resolves with the exit code (never throws for bad input or a missing board). */
export async function parseProgram(program: Command, argv: string[], stderr: (text: string) => void, exitCode: () => number): Promise<number> {
  for (const command of everyCommand(program)) command.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    const err = e as { code?: string };
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT_CODES.ok;
    if (typeof err.code === 'string' && err.code.startsWith('commander.')) return EXIT_CODES.usage;
    stderr(`internal error: ${(e as Error).stack ?? String(e)}\n`);
    return EXIT_CODES.internal;
  }
  return exitCode();
}
