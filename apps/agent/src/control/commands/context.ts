import type { EventEmitter } from 'node:events';
import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import type { Clock } from '@vend/protocol';
import { loadAgentConfig } from '../../config.ts';
import type { AgentConfig } from '../../config.ts';
import type { HttpTransport } from '../../cloud/http.ts';
import type { Daemon } from '../../daemon.ts';
import { StateDir } from '../../state/state-dir.ts';
import type { SerialTransport } from '../../vmc/transport.ts';
import { ControlClient } from '../client.ts';

export interface AgentCommandDeps {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
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
  onReady?: (daemon: Daemon) => void;
  /** How `run` talks to systemd's notify socket (default: systemd-notify; tests capture it). */
  notify?: (assignments: string[]) => Promise<void>;
  /** Reads the technician's service code (default: a prompt without echo on a terminal, else the first line of stdin). */
  readSecret?: (prompt: string) => Promise<string>;
  /** How long `dispense` waits for the control channel's answer (default 90 s: a vend takes up to 30 s, plus the cloud's order). */
  dispenseTimeoutMs?: number;
}

/** A command's parsed flags, as commander hands them over. */
export type Flags = Record<string, unknown>;

/** What every command module gets: the dependencies, where its exit code goes, and the error guard. */
export interface CommandContext {
  deps: AgentCommandDeps;
  setExit: (code: number) => void;
  /** Runs a command body; configuration problems, a busy state directory and file-system errors become their exit codes. */
  guarded: <A extends unknown[]>(body: (...args: A) => Promise<void>) => (...args: A) => Promise<void>;
}

/** A commander parser for an integer flag in min..max. */
export function integerIn(name: string, min: number, max: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || parsed < min || parsed > max) throw new InvalidArgumentError(`${name} must be an integer ${min}..${max}`);
    return parsed;
  };
}

/** The configuration for a command: global flags, the command's flags, the environment, the file. */
export function configOf(deps: AgentCommandDeps, cmd: Command, extra: Flags = {}): AgentConfig {
  const globals = cmd.optsWithGlobals<Flags>();
  return loadAgentConfig({
    flags: {
      stateDir: globals['stateDir'],
      controlPort: globals['controlPort'],
      controlHost: globals['controlHost'],
      ...extra,
    },
    env: deps.env,
    ...(typeof globals['config'] === 'string' ? { configFile: globals['config'] } : {}),
  });
}

function controlUrl(config: AgentConfig): string {
  return config.controlHost.includes(':') ? `http://[${config.controlHost}]:${config.controlPort}` : `http://${config.controlHost}:${config.controlPort}`;
}

/** The control channel of the daemon running on this configuration's state directory. */
export function controlClient(config: AgentConfig, timeoutMs?: number): ControlClient {
  return new ControlClient(controlUrl(config), new StateDir(config.stateDir).readControlToken(), timeoutMs);
}
