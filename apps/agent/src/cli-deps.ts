import { systemClock } from '@vend/protocol';
import type { Clock } from '@vend/protocol';
import type { AgentCommandDeps } from './control/commands/context.ts';
import type { VmcTimings } from './vmc/driver.ts';
import { serialportTransport } from './vmc/transport.ts';
import type { SerialTransport } from './vmc/transport.ts';

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

export interface ResolvedCliDeps {
  transport: SerialTransport;
  clock: Clock;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  timings: Partial<VmcTimings> | undefined;
  agent: AgentCommandDeps;
}

export function resolveCliDeps(deps: CliDeps): ResolvedCliDeps {
  const transport = deps.transport ?? serialportTransport();
  const clock = deps.clock ?? systemClock;
  const stdout = deps.stdout ?? ((t: string) => void process.stdout.write(t));
  const stderr = deps.stderr ?? ((t: string) => void process.stderr.write(t));
  return {
    transport,
    clock,
    stdout,
    stderr,
    timings: deps.timings,
    agent: { stdout, stderr, clock, env: deps.env ?? process.env, serial: transport, ...deps.agent },
  };
}
