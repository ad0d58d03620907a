import { Command, Option } from 'commander';
import { AgentConfigError } from '../../config.ts';
import { Daemon } from '../../daemon.ts';
import { EXIT_CODES } from '../../exit-codes.ts';
import { ServiceNotifier } from '../../systemd/notify.ts';
import { configOf } from './context.ts';
import type { CommandContext, Flags } from './context.ts';

/** `vend-agent run`: the cabinet daemon, until a signal or the upgrade pipeline's restart. */
export function runCommand({ deps, setExit, guarded }: CommandContext): Command {
  return new Command('run')
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
        `Exit codes: 0 stopped by a signal, ${EXIT_CODES.locked} another agent runs on the state directory (or holds the control port), ${EXIT_CODES.config} bad configuration.`,
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
          deps.stdout(
            JSON.stringify({
              event: 'ready',
              control: daemon.control?.url,
              pid: process.pid,
              stateDir: config.stateDir,
              version: config.agentVersion,
              equipmentNo: config.equipmentNo,
            }) + '\n',
          );
        // systemd (Type=notify, WatchdogSec=): ready now; the watchdog pinged from this event loop
        let notifyFailed = false;
        const notifier = new ServiceNotifier({
          socket: config.notifySocket,
          watchdogUsec: config.watchdogUsec,
          watchdogPid: config.watchdogPid,
          clock: deps.clock,
          ...(deps.notify ? { send: deps.notify } : {}),
          onError: (e) => {
            if (notifyFailed) return;
            notifyFailed = true;
            daemon.log.warn({ error: e.message }, 'cannot notify systemd (systemd-notify failed); the watchdog may restart the agent');
          },
        });
        void notifier.ready(`serving on ${daemon.control?.url ?? 'no control channel'}`);
        if (notifier.enabled) daemon.log.info({ watchdogMs: notifier.watchdogMs }, 'systemd notified: ready');
        const signals = deps.signals ?? process;
        const signal = await Promise.race([
          restartRequested,
          new Promise<string>((resolve) => {
            signals.once('SIGTERM', () => resolve('SIGTERM'));
            signals.once('SIGINT', () => resolve('SIGINT'));
          }),
        ]);
        await notifier.stopping(`stopping (${signal})`);
        await daemon.stop(signal);
        setExit(EXIT_CODES.ok);
      }),
    );
}
