import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, rmSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Command } from 'commander';
import { create as createTar } from 'tar';
import { SERVICE_CODE_PATTERN } from '@vend/protocol';
import type { ServiceAction } from '@vend/protocol';
import type { AgentConfig } from '../../config.ts';
import { EXIT_CODES } from '../../exit-codes.ts';
import { describeVerdict, hashCode, serviceGate } from '../../service/index.ts';
import { createAgentLogger } from '../../state/log-file.ts';
import { StateDir } from '../../state/state-dir.ts';
import { VmcDriver } from '../../vmc/driver.ts';
import { VmcLinkError } from '../../vmc/link.ts';
import { configOf, integerIn } from './context.ts';
import type { CommandContext, Flags } from './context.ts';
import { row } from './format.ts';
import { readSecretLine } from './secret-input.ts';

const DAEMON_HOLDS =
  'the agent daemon is running: it holds the serial port, the vend lock and the state directory. Stop it first (systemctl stop vend-agent), or sell through `vend-agent dispense`';

/**
 * `vend-agent service …`: the technician actions that change the cabinet, each behind the cabinet's
 * service code (spec 2 §8: 5 wrong codes lock them for 300 s, persisted): a motor test of one aisle
 * straight over the serial port (no cloud needed), an enrolment reset, a log export. Plus the gate's
 * state and the hash of a code for a cabinet configured before its operator set one.
 */
export function serviceCommand({ deps, setExit, guarded }: CommandContext): Command {
  const service = new Command('service').description('technician actions behind the service code (motor test, enrolment reset, log export)');
  const readSecret = deps.readSecret ?? ((prompt: string) => readSecretLine(prompt));

  const open = (cmd: Command) => {
    const config = configOf(deps, cmd);
    const state = new StateDir(config.stateDir);
    state.ensure();
    const log = createAgentLogger({ file: state.path('log'), level: 'info', stdout: null }).child({ part: 'service', via: 'cli' });
    return { config, state, log, gate: serviceGate(state, config, deps.clock, log) };
  };

  /** Asks for the code and checks it; false (exit code set, the line printed) when refused. */
  const unlock = async (gate: ReturnType<typeof open>['gate'], action: ServiceAction): Promise<boolean> => {
    const status = gate.status();
    if (status.lockedUntil === null && !status.codeSet) {
      // not even a prompt: no code can be right (the attempt is still recorded)
      const verdict = await gate.check('', action, 'cli');
      deps.stderr(`refused: ${describeVerdict(verdict, deps.clock)}\n`);
      setExit(EXIT_CODES.serviceRefused);
      return false;
    }
    const code = status.lockedUntil === null ? await readSecret('service code: ') : '';
    const verdict = await gate.check(code, action, 'cli');
    if (verdict.result === 'ok') return true;
    deps.stderr(`refused: ${describeVerdict(verdict, deps.clock)}\n`);
    setExit(EXIT_CODES.serviceRefused);
    return false;
  };

  /** Refused before the code is asked for (no attempt spent) when the daemon runs. */
  const daemonRunning = (state: StateDir): boolean => {
    const pid = state.runningPid();
    if (pid === null) return false;
    deps.stderr(`refused: ${DAEMON_HOLDS} (pid ${pid})\n`);
    setExit(EXIT_CODES.refused);
    return true;
  };

  /** The daemon must be down (it owns the port, the vend lock and the credential): its lock is held while the action runs, so it cannot start meanwhile. */
  const runLocked = async (state: StateDir, body: () => Promise<void>): Promise<boolean> => {
    let lock: { release(): void };
    try {
      lock = state.acquirePidLock();
    } catch {
      deps.stderr(`refused: ${DAEMON_HOLDS}\n`);
      setExit(EXIT_CODES.refused);
      return false;
    }
    try {
      await body();
    } finally {
      lock.release();
    }
    return true;
  };

  service
    .command('status')
    .description('the service-code gate: code set (from the cloud or local), wrong codes so far, lockout')
    .option('--json', 'print one JSON object')
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const { gate } = open(cmd);
        const status = gate.status();
        if (flags['json']) deps.stdout(JSON.stringify(status) + '\n');
        else
          deps.stdout(
            [
              `service code: ${status.codeSet ? `set (${status.source === 'cloud' ? 'from the cloud' : 'local configuration'})` : 'NOT SET'}`,
              row('wrong codes', `${status.failures} (${status.remaining} more lock the service functions)`),
              row('locked', status.lockedUntil ? `until ${status.lockedUntil}` : 'no'),
              row('unreported', `${status.unreported} attempt(s) not yet sent to the cloud`),
            ].join('\n') + '\n',
          );
        setExit(status.lockedUntil !== null || !status.codeSet ? EXIT_CODES.serviceRefused : EXIT_CODES.ok);
      }),
    );

  service
    .command('motor-test')
    .description('vend one aisle straight over the serial port, without the cloud (the daemon must be stopped)')
    .requiredOption('--aisle <n>', 'aisle number ((row-1) × columns + column)', integerIn('--aisle', 1, 1024))
    .option('--port <path>', 'serial device of the board (default: the configured serialPort)')
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      [
        '',
        'The code is read from the terminal (not echoed) or the first line of stdin. Not a sale: nothing is',
        'reported to the cloud as one; the test is in the log and the attempt in the next heartbeat.',
        'Exit codes:',
        `  ${EXIT_CODES.ok}   vended`,
        `  ${EXIT_CODES.vendFailed}   the board did not vend (the line says why)`,
        `  ${EXIT_CODES.boardUnavailable}   the port could not be opened (in use by another program?), or the board never answered`,
        `  ${EXIT_CODES.refused}   refused: the daemon is running (it holds the port and the vend lock)`,
        `  ${EXIT_CODES.serviceRefused}  wrong service code, locked out, or no code set`,
      ].join('\n'),
    )
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const { config, state, log, gate } = open(cmd);
        if (daemonRunning(state)) return;
        if (!(await unlock(gate, 'motor-test'))) return;
        const aisle = flags['aisle'] as number;
        const port = typeof flags['port'] === 'string' ? flags['port'] : config.serialPort;
        await runLocked(state, async () => {
          const driver = new VmcDriver({
            transport: deps.serial,
            path: port,
            clock: deps.clock,
            timings: { openAttempts: 1 },
            log: log.child({ part: 'vmc' }),
          });
          try {
            const report = await driver.dispense(aisle);
            log.info({ aisle, outcome: report.outcome, motorRan: report.motorRan, port }, 'motor test');
            if (flags['json']) deps.stdout(JSON.stringify(report) + '\n');
            else
              deps.stdout(
                `motor test, aisle ${aisle} on ${port}: ${report.outcome === 'success' ? 'VENDED' : report.outcome.toUpperCase()} (motor ran: ${report.motorRan}, ${(report.durationMs / 1000).toFixed(1)} s)\n  ${report.detail}\n`,
              );
            setExit(
              report.outcome === 'success' ? EXIT_CODES.ok : report.outcome === 'board_unavailable' ? EXIT_CODES.boardUnavailable : EXIT_CODES.vendFailed,
            );
          } catch (e) {
            if (!(e instanceof VmcLinkError)) throw e;
            deps.stderr(`error: ${e.message}\n`);
            setExit(EXIT_CODES.boardUnavailable);
          } finally {
            await driver.close();
          }
        });
      }),
    );

  service
    .command('reset-enrolment')
    .description('forget the cabinet credential so the agent enrols again (after an admin reset its identity and armed it; the daemon must be stopped)')
    .addHelpText(
      'after',
      `\nExit codes: ${EXIT_CODES.ok} reset, ${EXIT_CODES.refused} the daemon is running, ${EXIT_CODES.serviceRefused} service code refused.`,
    )
    .action(
      guarded(async (_flags: Flags, cmd: Command) => {
        const { state, log, gate } = open(cmd);
        if (daemonRunning(state)) return;
        if (!(await unlock(gate, 'enrolment-reset'))) return;
        await runLocked(state, async () => {
          const keyId = state.readEnrolment()?.keyId ?? null;
          rmSync(state.path('credential'), { force: true });
          rmSync(state.path('enrolment'), { force: true });
          log.warn({ keyId }, 'enrolment reset by a technician: the credential is forgotten');
          deps.stdout(
            'enrolment reset: the credential is gone. Next: an admin resets the cabinet identity and arms it, then start the agent (it enrols with the fleet secret).\n',
          );
          setExit(EXIT_CODES.ok);
        });
      }),
    );

  service
    .command('export-logs')
    .description('write the agent log (and its previous generation) to a gzipped tar file, mode 0600')
    .option('--out <file>', 'where (default: ./vend-agent-logs-<serial>-<time>.tar.gz); never overwrites')
    .addHelpText(
      'after',
      `\nExit codes: ${EXIT_CODES.ok} written, ${EXIT_CODES.daemonDown} no log to export, ${EXIT_CODES.serviceRefused} service code refused.`,
    )
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const { config, state, gate } = open(cmd);
        if (!(await unlock(gate, 'log-export'))) return;
        const files = [basename(state.path('log')), `${basename(state.path('log'))}.1`].filter((f) => existsSync(resolve(config.stateDir, f)));
        if (files.length === 0) {
          deps.stderr(`no log in ${config.stateDir}\n`);
          setExit(EXIT_CODES.daemonDown);
          return;
        }
        const out = resolve(typeof flags['out'] === 'string' ? flags['out'] : defaultExportName(config, deps.clock.now()));
        if (existsSync(out)) {
          deps.stderr(`refused: ${out} exists (not overwritten)\n`);
          setExit(EXIT_CODES.refused);
          return;
        }
        // created exclusively, 0600 (the log names the cabinet's key id and its network), never over another file
        await pipeline(createTar({ gzip: true, cwd: config.stateDir, portable: true }, files), createWriteStream(out, { flags: 'wx', mode: 0o600 }));
        deps.stdout(`${out}\n`);
        setExit(EXIT_CODES.ok);
      }),
    );

  service
    .command('hash-code')
    .description('print the hash of a service code for serviceCodeHash in /etc/vend-agent/config.json (a cabinet set up before its operator set one)')
    .action(
      guarded(async () => {
        const code = await readSecret('service code (6–12 digits): ');
        if (!SERVICE_CODE_PATTERN.test(code)) {
          deps.stderr('error: a service code is 6 to 12 digits\n');
          setExit(EXIT_CODES.usage);
          return;
        }
        deps.stdout(`${await hashCode(code, randomBytes(16))}\n`);
        setExit(EXIT_CODES.ok);
      }),
    );

  return service;
}

function defaultExportName(config: AgentConfig, now: number): string {
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  return `vend-agent-logs-${(config.equipmentNo ?? 'cabinet').replace(/[^A-Za-z0-9-]/g, '_')}-${stamp}.tar.gz`;
}
