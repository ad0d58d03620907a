import { ControlUpgradeCheck, ControlUpgradeProgress } from '@vend/protocol';
import type { Clock } from '@vend/protocol';
import { sleep } from '../cloud/backoff.ts';
import { loadAgentConfig } from '../config.ts';
import { ControlNoAnswer, ControlUnreachable } from '../control/client.ts';
import type { ControlClient } from '../control/client.ts';
import { controlClient } from '../control/commands/context.ts';
import { exitCodeGuard } from '../control/commands/errors.ts';
import { EXIT_CODES } from '../exit-codes.ts';
import { SparseProgress, progressLine } from './progress.ts';

/**
 * `vend-agent upgrade check`: asks the running daemon to check for an upgrade now (POST
 * /v1/upgrade/check: the daemon owns the pipeline, its locks and its journal) and, while it waits,
 * polls GET /v1/upgrade/progress to show the download — redrawn in place on a terminal, a line per
 * 10 % otherwise. Loaded only when the command runs, so the boot guard's path stays small.
 */

export interface UpgradeCheckDeps {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  clock: Clock;
  env: Record<string, string | undefined>;
  /** Progress redrawn in place (stderr is a terminal), or sparse lines. */
  isTTY: boolean;
  /** How often the progress is polled (default 1 s). */
  pollMs?: number;
  /** The control channel of the running daemon (default: from the configuration). */
  client?: (timeoutMs: number) => ControlClient;
}

export interface UpgradeCheckFlags {
  stateDir?: string;
  config?: string;
  controlPort?: string;
  json?: boolean;
  progress?: boolean;
}

/** How long the check may take: the download's own deadline is 60 s plus the size at 8 KiB/s, so a long one. */
const CHECK_TIMEOUT_MS = 6 * 60 * 60 * 1000;
const POLL_TIMEOUT_MS = 5000;

/** One line for each outcome, and its exit code. */
export function describeOutcome(o: ControlUpgradeCheck): { line: string; exit: number } {
  switch (o.result) {
    case 'none':
      return { line: 'no upgrade offered for this cabinet', exit: EXIT_CODES.ok };
    case 'current':
      return { line: `already running ${o.version}`, exit: EXIT_CODES.ok };
    case 'installed':
      return { line: `installed ${o.version} (from ${o.from}); the agent restarts into it now`, exit: EXIT_CODES.ok };
    case 'refused':
      return { line: `refused ${o.version ?? 'the offer'} at step ${o.step} (${o.code}): ${o.reason}`, exit: EXIT_CODES.refused };
    case 'blocked':
      return { line: `blocked: ${o.reason}`, exit: EXIT_CODES.refused };
    case 'deferred':
      return { line: `deferred ${o.report.version}: ${o.report.reason}`, exit: EXIT_CODES.refused };
    case 'busy':
      return { line: `busy: ${o.reason}`, exit: EXIT_CODES.refused };
    case 'error':
      return { line: `error: ${o.reason}`, exit: EXIT_CODES.refused };
    case 'disabled':
      return { line: 'the daemon runs without the upgrade pipeline', exit: EXIT_CODES.refused };
  }
}

export async function runUpgradeCheck(flags: UpgradeCheckFlags, deps: UpgradeCheckDeps): Promise<number> {
  let code: number = EXIT_CODES.ok;
  const guarded = exitCodeGuard(deps.stderr, (c) => (code = c));
  await guarded(async () => {
    const client =
      deps.client ??
      ((timeoutMs: number) =>
        controlClient(
          loadAgentConfig({
            flags: { stateDir: flags.stateDir, controlPort: flags.controlPort },
            env: deps.env,
            ...(flags.config !== undefined ? { configFile: flags.config } : {}),
          }),
          timeoutMs,
        ));
    const checker = client(CHECK_TIMEOUT_MS);
    const poller = client(POLL_TIMEOUT_MS);
    const showProgress = flags.progress !== false;
    const sparse = new SparseProgress(10);
    let drawn = false;
    let finished = false;
    const check = checker.call('POST', '/v1/upgrade/check', ControlUpgradeCheck).finally(() => {
      finished = true;
    });
    check.catch(() => {});
    const draw = (p: ControlUpgradeProgress): void => {
      if (!showProgress || p.state !== 'downloading') return;
      if (deps.isTTY) {
        deps.stderr(`\r${progressLine(p)}\x1b[K`);
        drawn = true;
      } else {
        const line = sparse.next(p);
        if (line !== null) deps.stderr(`${line}\n`);
      }
    };
    const pollMs = deps.pollMs ?? 1000;
    while (!finished) {
      await Promise.race([
        sleep(deps.clock, pollMs),
        check.then(
          () => undefined,
          () => undefined,
        ),
      ]);
      if (finished) break;
      try {
        const p = await poller.call('GET', '/v1/upgrade/progress', ControlUpgradeProgress);
        if (p.ok) draw(p.body);
      } catch {
        // a daemon that predates the progress route, or one busy swapping: the check's answer decides
      }
    }
    if (drawn) deps.stderr('\n');
    let answer;
    try {
      answer = await check;
    } catch (e) {
      if (e instanceof ControlNoAnswer) {
        deps.stderr(`${e.message}\nan install restarts the agent; see \`vend-agent upgrade status\` for what happened\n`);
        code = EXIT_CODES.outcomeUnknown;
        return;
      }
      if (e instanceof ControlUnreachable) {
        deps.stderr(`${e.message}\nis the agent running? (systemctl status vend-agent)\n`);
        code = EXIT_CODES.daemonDown;
        return;
      }
      throw e;
    }
    if (!answer.ok) {
      deps.stderr(`the daemon refused: ${answer.status} ${answer.body.message}\n`);
      code = EXIT_CODES.refused;
      return;
    }
    const { line, exit } = describeOutcome(answer.body);
    deps.stdout(flags.json ? `${JSON.stringify(answer.body, null, 2)}\n` : `${line}\n`);
    code = exit;
  })();
  return code;
}
