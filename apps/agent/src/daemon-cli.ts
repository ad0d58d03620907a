import { SerialPort } from 'serialport';
import { EXIT_CODES } from './exit-codes.ts';
import { resolveCliDeps } from './cli-deps.ts';
import type { CliDeps } from './cli-deps.ts';
import { parseProgram, programShell, routeOutput } from './cli-shell.ts';
import { exitCodeGuard } from './control/commands/errors.ts';
import { runCommand } from './control/commands/run.ts';

/**
 * `vend-agent run` alone: the program with only the daemon's command, so a running cabinet holds
 * none of the technician's commands, the upgrade CLI or `vmc` in memory (the release entry sends
 * every other command line to cli.ts's main). Same options, output and exit codes as `main`.
 */
export async function runMain(argv: string[], deps: CliDeps = {}): Promise<number> {
  let code: number = EXIT_CODES.ok;
  const full = resolveCliDeps(deps);
  const setExit = (c: number): void => void (code = c);
  const program = programShell().addCommand(runCommand({ deps: full.agent, setExit, guarded: exitCodeGuard(full.stderr, setExit) }));
  return parseProgram(routeOutput(program, full), argv, full.stderr, () => code);
}

/** The release self-test (`vend-agent --version`): serialport's native binding loads on this machine. */
export function serialBindingLoaded(): boolean {
  // touching the OS binding makes node-gyp-build load the native addon
  return typeof SerialPort.binding.list === 'function';
}
