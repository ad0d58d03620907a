import type { Command } from 'commander';
import { adsCommand } from './ads.ts';
import { configCommand } from './config-show.ts';
import type { AgentCommandDeps } from './context.ts';
import { credentialCommand } from './credential-show.ts';
import { dispenseCommand } from './dispense.ts';
import { doctorCommand } from './doctor.ts';
import { enrolCommand } from './enrol.ts';
import { exitCodeGuard } from './errors.ts';
import { logsCommand } from './logs.ts';
import { networkCommand } from './network.ts';
import { runCommand } from './run.ts';
import { serviceCommand } from './service.ts';
import { statusCommand } from './status.ts';

export type { AgentCommandDeps } from './context.ts';
export { vmcCommand } from './vmc.ts';
export type { VmcCommandDeps } from './vmc.ts';

/** The agent's own commands (everything but `vmc` and `upgrade`), in the order `--help` lists them. */
export function agentCommands(deps: AgentCommandDeps, setExit: (code: number) => void): Command[] {
  const context = { deps, setExit, guarded: exitCodeGuard(deps.stderr, setExit) };
  return [
    runCommand(context),
    statusCommand(context),
    doctorCommand(context),
    enrolCommand(context),
    dispenseCommand(context),
    configCommand(context),
    credentialCommand(context),
    logsCommand(context),
    adsCommand(context),
    serviceCommand(context),
    networkCommand(context),
  ];
}
