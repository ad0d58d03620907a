import { Command } from 'commander';
import { ControlAdLoop, ControlStatus } from '@vend/protocol';
import type { ControlAdsStatus } from '@vend/protocol';
import { offlineAds } from '../../ads/ads.ts';
import { EXIT_CODES } from '../../exit-codes.ts';
import { StateDir } from '../../state/state-dir.ts';
import { ControlNoAnswer, ControlUnreachable } from '../client.ts';
import { configOf, controlClient } from './context.ts';
import type { CommandContext, Flags } from './context.ts';
import { ago, formatSpool, row } from './format.ts';

/** The loop as `ads show` prints it: a header line, then one line per entry. */
export function formatLoop(loop: ControlAdLoop, now: number): string {
  const freshness = loop.fetchedAt === null ? 'never fetched' : `fetched ${ago(loop.fetchedAt, now)}, ${loop.stale ? 'STALE' : 'fresh'}`;
  const lines = [
    `ad loop${loop.machineCode ? ` of ${loop.machineCode}` : ''}: ${loop.entries.length} entr${loop.entries.length === 1 ? 'y' : 'ies'} × ${loop.slotSeconds}s — ${freshness} (from ${loop.source})`,
  ];
  if (loop.error) lines.push(row('', `last fetch failed: ${loop.error}`));
  loop.entries.forEach((e, i) => {
    const what = [e.source ?? '', e.mediaType ?? e.type, e.cached ? 'cached' : 'remote'].filter((x) => x !== '').join(', ');
    lines.push(`  ${String(i + 1).padStart(2)}  ${e.id}  (${what})  ${e.url}`);
  });
  return lines.join('\n');
}

/** The plays line of `status` and `ads show`. */
export function formatPlays(plays: ControlAdsStatus['plays'], now: number): string {
  return formatSpool(plays, 'play', now);
}

/**
 * `vend-agent ads show`: the attract loop the kiosk is served, through the control channel (the
 * daemon's view: fetched, cached, stale), or from the state directory when the daemon is down.
 */
export function adsCommand({ deps, setExit, guarded }: CommandContext): Command {
  const ads = new Command('ads').description('screen advertising: the attract loop and the proof-of-play spool');
  ads
    .command('show')
    .description('the attract loop the kiosk is served and the play spool backlog')
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      `\nExit codes: ${EXIT_CODES.ok} a fresh loop, ${EXIT_CODES.attention} the loop is stale or empty, ${EXIT_CODES.daemonDown} the daemon is not running (read from the state directory).`,
    )
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const config = configOf(deps, cmd);
        const now = deps.clock.now();
        let loop: ControlAdLoop;
        let plays: ControlAdsStatus['plays'] | null = null;
        let daemonDown: string | null = null;
        try {
          const client = controlClient(config, 10_000);
          const answer = await client.call('GET', '/v1/ads/loop', ControlAdLoop);
          if (!answer.ok) {
            deps.stderr(`the control channel refused: ${answer.status} ${answer.body.message}\n`);
            setExit(EXIT_CODES.refused);
            return;
          }
          loop = answer.body;
          // the backlog comes with the status (token needed); without it the loop alone is shown
          const status = await client.call('GET', '/v1/status', ControlStatus).catch(() => null);
          plays = status?.ok ? (status.body.ads?.plays ?? null) : null;
        } catch (e) {
          if (!(e instanceof ControlUnreachable)) throw e;
          daemonDown = e instanceof ControlNoAnswer ? `the daemon does not answer (${e.message})` : `the daemon is not running (${e.message})`;
          const offline = offlineAds(new StateDir(config.stateDir), config, deps.clock);
          loop = offline.loop;
          plays = offline.status.plays;
        }
        if (flags['json']) deps.stdout(JSON.stringify({ ...(daemonDown ? { daemon: 'not running' } : {}), loop, plays }) + '\n');
        else {
          const lines = daemonDown ? [`vend-agent: ${daemonDown}; read from the state directory`] : [];
          lines.push(formatLoop(loop, now));
          if (plays) lines.push(`plays: ${formatPlays(plays, now)}`);
          deps.stdout(lines.join('\n') + '\n');
        }
        setExit(daemonDown ? EXIT_CODES.daemonDown : loop.stale || loop.entries.length === 0 ? EXIT_CODES.attention : EXIT_CODES.ok);
      }),
    );
  return ads;
}
