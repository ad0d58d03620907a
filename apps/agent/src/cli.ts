import type { Command } from 'commander';
import { resolveCliDeps } from './cli-deps.ts';
import type { CliDeps } from './cli-deps.ts';
import { parseProgram, programShell, routeOutput } from './cli-shell.ts';
import { agentCommands, vmcCommand } from './control/commands/index.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { upgradeCommand } from './upgrade/cli.ts';

export { EXIT_CODES } from './exit-codes.ts';
export type { CliDeps } from './cli-deps.ts';

/**
 * The vend-agent command tree: `run` (the daemon) and the technician's tools — `status`, `enrol`,
 * `dispense`, `config show`, `credential show`, `logs` and `vmc test` / `vmc ports` (control/commands/), and `upgrade …` (upgrade/cli.ts).
 * Human output by default, `--json` for scripts; exit codes in EXIT_CODES (each command's --help lists its own).
 */
export function buildProgram(deps: CliDeps = {}, setExit: (code: number) => void = () => {}): Command {
  const full = resolveCliDeps(deps);
  const program = programShell();
  for (const command of agentCommands(full.agent, setExit)) program.addCommand(command);
  program.addCommand(vmcCommand(full, setExit));
  program.addCommand(upgradeCommand({ stdout: full.stdout, stderr: full.stderr, clock: full.clock, env: deps.env ?? process.env }, setExit));
  return routeOutput(program, full);
}

/** Runs the CLI; resolves with the exit code (never throws for bad input or a missing board). */
export async function main(argv: string[], deps: CliDeps = {}): Promise<number> {
  let code: number = EXIT_CODES.ok;
  const program = buildProgram(deps, (c) => (code = c));
  return parseProgram(program, argv, deps.stderr ?? ((t: string) => void process.stderr.write(t)), () => code);
}
