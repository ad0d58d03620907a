import { Command, InvalidArgumentError } from 'commander';
import { pino } from 'pino';
import { isDottedVersion, systemClock } from '@vend/protocol';
import type { Clock } from '@vend/protocol';
import { InstallRoot } from './trees.ts';
import type { MachineBoot } from './trees.ts';

/**
 * `vend-agent upgrade …`: the boot guard systemd runs before the daemon, the trial-guard timer's check, and two technician tools.
 *
 *     vend-agent upgrade boot-guard [--root DIR] [--invocation-id ID] [--fallback]
 *     vend-agent upgrade trial-expired [--root DIR] [--health-timeout S]   (the trial-guard timer)
 *     vend-agent upgrade status [--root DIR] [--json]
 *     vend-agent upgrade check [--json] [--no-progress]   (the running daemon checks now; its download progress is shown)
 *     vend-agent upgrade forget-bad <version> [--root DIR]
 */

export const DEFAULT_INSTALL_ROOT = '/opt/vend-agent';

export const UPGRADE_EXIT_CODES = {
  ok: 0,
  /** forget-bad: the version was not marked bad; status: no journal; trial-expired: nothing to restart. */
  notFound: 1,
  usage: 64,
  internal: 70,
} as const;

export interface UpgradeCliDeps {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  clock?: Clock;
  /** The root used when `--root` is not given (the packaged entry passes the parent of its tree). */
  defaultRoot?: string;
  /** The kernel boot id and monotonic clock (default: the system's; tests inject them). */
  machine?: MachineBoot;
  /** The environment `check` reads the configuration from (default: process.env). */
  env?: Record<string, string | undefined>;
  /** `check` redraws its progress in place (default: whether stderr is a terminal). */
  isTTY?: boolean;
  /** `check`'s poll interval of the daemon's progress (default 1 s; tests shorten it). */
  pollMs?: number;
}

function version(value: string): string {
  if (!isDottedVersion(value)) throw new InvalidArgumentError('must be dotted-numeric, e.g. 1.4.2');
  return value;
}

function seconds(value: string): number {
  const parsed = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < 1) throw new InvalidArgumentError('must be a whole number of seconds, at least 1');
  return parsed;
}

/** The `upgrade` command group; `setExit` receives each command's exit code. */
export function upgradeCommand(deps: UpgradeCliDeps = {}, setExit: (code: number) => void = () => {}): Command {
  const stdout = deps.stdout ?? ((t: string) => void process.stdout.write(t));
  const stderr = deps.stderr ?? ((t: string) => void process.stderr.write(t));
  const clock = deps.clock ?? systemClock;
  const defaultRoot = deps.defaultRoot ?? DEFAULT_INSTALL_ROOT;
  const log = pino({ base: undefined, level: 'info' }, { write: (line: string) => stderr(line) });
  const machine = deps.machine;
  const trees = (root: string, invocationId: string | null = null, healthTimeoutMs?: number) =>
    new InstallRoot({ root, clock, log, invocationId, ...(machine ? { machine } : {}), ...(healthTimeoutMs ? { healthTimeoutMs } : {}) });

  const upgrade = new Command('upgrade').description('agent upgrades: the boot guard, the journal');

  upgrade
    .command('boot-guard')
    .description(
      'run before the agent starts (systemd ExecStartPre): finish or undo an interrupted install, count boot attempts of a new version, revert it after the third',
    )
    .option('--root <dir>', 'install root holding current/ and previous/', defaultRoot)
    .option('--invocation-id <id>', "the service manager's id of this start ($INVOCATION_ID), so one start counts one attempt")
    .option('--fallback', 'this guard runs from the previous tree because the current tree could not run its own: revert a version on trial now')
    .action(async (o: { root: string; invocationId?: string; fallback?: boolean }) => {
      const outcome = await trees(o.root, o.invocationId ? o.invocationId : null).bootGuard({ fallback: o.fallback === true });
      stdout(JSON.stringify({ bootGuard: outcome }) + '\n');
      setExit(UPGRADE_EXIT_CODES.ok);
    });

  upgrade
    .command('trial-expired')
    .description(
      'read-only, for the trial-guard timer (vend-agent-trial-guard.service): exit 0 when a version on trial has outlived its health timeout in this boot without reaching the cloud (restart the service: its boot guard reverts it), 1 otherwise',
    )
    .option('--root <dir>', 'install root', defaultRoot)
    .option('--health-timeout <seconds>', 'the health timeout (spec 2 §8)', seconds, 300)
    .action(async (o: { root: string; healthTimeout: number }) => {
      const check = await trees(o.root, null, o.healthTimeout * 1000).trialExpired();
      stdout(JSON.stringify({ trialExpired: check }) + '\n');
      setExit(check.expired ? UPGRADE_EXIT_CODES.ok : UPGRADE_EXIT_CODES.notFound);
    });

  upgrade
    .command('status')
    .description('print the upgrade journal: what runs, what is on trial, the rollback floor, reverted versions, the last outcome')
    .option('--root <dir>', 'install root', defaultRoot)
    .option('--json', 'print the journal as JSON')
    .action(async (o: { root: string; json?: boolean }) => {
      const j = await trees(o.root).status();
      if (!j) {
        stderr(`no upgrade journal under ${o.root}\n`);
        setExit(UPGRADE_EXIT_CODES.notFound);
        return;
      }
      if (o.json) stdout(JSON.stringify(j, null, 2) + '\n');
      else {
        const lines = [
          `state:    ${j.state}`,
          `current:  ${j.current ?? '-'}`,
          `floor:    ${j.floor ?? '-'}`,
          ...(j.install ? [`install:  ${j.install.from} -> ${j.install.to} (boot attempts ${j.install.attempts})`] : []),
          ...(j.last ? [`last:     ${j.last.outcome} ${j.last.version} (from ${j.last.from}) at ${new Date(j.last.at).toISOString()}: ${j.last.reason}`] : []),
          `reverted: ${j.bad.length ? j.bad.map((b) => `${b.version} (${b.reason})`).join('; ') : '-'}`,
        ];
        stdout(lines.join('\n') + '\n');
      }
      setExit(UPGRADE_EXIT_CODES.ok);
    });

  upgrade
    .command('forget-bad')
    .description('let a version the boot guard reverted be installed again (e.g. the cloud was down during its trial)')
    .argument('<version>', 'the reverted version', version)
    .option('--root <dir>', 'install root', defaultRoot)
    .action(async (v: string, o: { root: string }) => {
      const forgotten = await trees(o.root).forgetBad(v);
      stdout(forgotten ? `${v} may be installed again\n` : `${v} was not marked as reverted\n`);
      setExit(forgotten ? UPGRADE_EXIT_CODES.ok : UPGRADE_EXIT_CODES.notFound);
    });

  upgrade
    .command('check')
    .description(
      'ask the running daemon to check for an upgrade now and install it (steps of spec 2 §4.4); shows the download: percent, bytes and rate, redrawn on a terminal, a line per 10 % otherwise. ' +
        'Exit 0 installed / nothing offered / already current, 6 refused, blocked, deferred or busy, 5 the daemon is not running, 9 no answer (an install restarts the agent)',
    )
    .option('--state-dir <dir>', 'state directory of the running agent (default /var/lib/vend-agent; env VEND_AGENT_STATE_DIR)')
    .option('--config <file>', 'JSON configuration file (default /etc/vend-agent/config.json; env VEND_AGENT_CONFIG)')
    .option('--control-port <port>', 'its control channel port (default 8770; env VEND_AGENT_CONTROL_PORT)')
    .option('--json', 'print the outcome as JSON')
    .option('--no-progress', 'do not show the download progress')
    .action(async (_o: unknown, cmd: Command) => {
      const o = cmd.optsWithGlobals<{ stateDir?: string; config?: string; controlPort?: string; json?: boolean; progress?: boolean }>();
      // loaded only here: the boot guard's path does not carry the control client and the configuration
      const { runUpgradeCheck } = await import('./check-cli.ts');
      setExit(
        await runUpgradeCheck(o, {
          stdout,
          stderr,
          clock,
          env: deps.env ?? process.env,
          isTTY: deps.isTTY ?? process.stderr.isTTY === true,
          ...(deps.pollMs !== undefined ? { pollMs: deps.pollMs } : {}),
        }),
      );
    });

  for (const command of [upgrade, ...upgrade.commands]) command.configureOutput({ writeOut: stdout, writeErr: stderr });
  return upgrade;
}

/** Runs `vend-agent upgrade …` (argv as process.argv: node, script, 'upgrade', …); resolves with the exit code. */
export async function upgradeMain(argv: string[], deps: UpgradeCliDeps = {}): Promise<number> {
  let code: number = UPGRADE_EXIT_CODES.ok;
  const program = new Command('vend-agent');
  program.addCommand(upgradeCommand(deps, (c) => (code = c)));
  const every = (c: Command): Command[] => [c, ...c.commands.flatMap(every)];
  const stderr = deps.stderr ?? ((t: string) => void process.stderr.write(t));
  for (const command of every(program)) {
    command.exitOverride();
    command.configureOutput({ writeOut: deps.stdout ?? ((t: string) => void process.stdout.write(t)), writeErr: stderr });
  }
  try {
    await program.parseAsync(argv);
  } catch (e) {
    const err = e as { code?: string };
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return UPGRADE_EXIT_CODES.ok;
    if (typeof err.code === 'string' && err.code.startsWith('commander.')) return UPGRADE_EXIT_CODES.usage;
    stderr(`internal error: ${(e as Error).stack ?? String(e)}\n`);
    return UPGRADE_EXIT_CODES.internal;
  }
  return code;
}
