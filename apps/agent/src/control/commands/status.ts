import { Command } from 'commander';
import { ControlStatus, parseDeviceKey } from '@vend/protocol';
import type { ControlEnrolment } from '@vend/protocol';
import type { AgentConfig } from '../../config.ts';
import { EXIT_CODES } from '../../exit-codes.ts';
import { offlineAds } from '../../ads/ads.ts';
import { offlinePrizes } from '../../prizes/prizes.ts';
import { DispenseBook } from '../../spool/book.ts';
import { JournalRecord } from '../../spool/journal.ts';
import { MemoryJsonlJournal } from '../../state/jsonl-journal.ts';
import { readTextIfExists } from '../../state/fs-atomic.ts';
import { StateDir } from '../../state/state-dir.ts';
import { ControlNoAnswer, ControlUnreachable } from '../client.ts';
import { configOf, controlClient } from './context.ts';
import type { CommandContext, Flags } from './context.ts';
import { formatPlays } from './ads.ts';
import { ago, formatSpool, row } from './format.ts';

/** The cloud's word on a state other than enrolled ('' when there is none). */
function enrolmentMessage(enrolment: ControlEnrolment): string {
  return 'message' in enrolment ? enrolment.message : '';
}

/** What in a status needs a technician (empty: all well). */
export function attentionOf(status: ControlStatus): string[] {
  const out: string[] = [];
  const { enrolment, cloud, board, spool } = status;
  const enrolMessage = enrolmentMessage(enrolment);
  if (enrolment.state !== 'enrolled') out.push(`enrolment: ${enrolment.state}${enrolMessage ? ` — ${enrolMessage}` : ''}`);
  if (!cloud.reachable) out.push(`cloud not reachable${cloud.lastError?.message ? `: ${cloud.lastError.message}` : ''}`);
  if (board.state === 'unavailable') out.push(`board not answering on ${board.port}${board.lastError ? `: ${board.lastError}` : ''}`);
  if (board.state === 'fault') out.push(`board reports: ${board.problems.join(', ')}`);
  if (spool.rejected.length > 0) out.push(`${spool.rejected.length} report(s) refused by the cloud (see status --json)`);
  // the daemon keeps a `disk` line in its last errors while the state disk refuses writes, and drops it when space returns
  const disk = status.lastErrors.find((e) => e.source === 'disk');
  if (disk) out.push(disk.message);
  return out;
}

export function formatStatus(status: ControlStatus, now: number): string {
  const { agent, enrolment, cloud, board, spool, dispensing, config } = status;
  const enrolMessage = enrolmentMessage(enrolment);
  const lines = [`vend-agent ${agent.version} on ${agent.equipmentNo} (pid ${agent.pid}, up ${agent.uptimeSeconds}s)`];
  lines.push(
    row(
      'enrolment',
      `${enrolment.state}${enrolment.keyId ? ` (key ${enrolment.keyId})` : ''}${enrolment.state !== 'enrolled' && enrolMessage ? ` — ${enrolMessage}` : ''}`,
    ),
  );
  lines.push(
    row(
      'cloud',
      `${cloud.reachable ? 'reachable' : `NOT REACHABLE${cloud.lastAnswerAt ? ` (offline since ${cloud.lastAnswerAt})` : ''}`} — ${cloud.url}, last answer ${ago(cloud.lastAnswerAt, now)}${cloud.registeredAt ? '' : ', not registered yet'}`,
    ),
  );
  if (cloud.lastError?.message) lines.push(row('', `last cloud error ${ago(cloud.lastError.at, now)}: ${cloud.lastError.message}`));
  const geometry = board.rows ? `, ${String(board.module)} ${board.rows}×${String(board.columnsPerRow)}` : '';
  lines.push(
    row(
      'board',
      `${board.state} — ${board.port}${board.vmcVersion ? `, firmware ${board.vmcVersion}` : ''}${geometry}${board.bootId ? `, boot id ${board.bootId}` : ''}`,
    ),
  );
  if (board.lastError) lines.push(row('', `last board error: ${board.lastError}`));
  lines.push(row('versions', `agent ${agent.version}, board firmware ${board.vmcVersion ? board.vmcVersion : 'unknown'}`));
  lines.push(row('spool', `${spool.depth} report(s) waiting, ${spool.delivered} delivered since start`));
  lines.push(
    row(
      'dispensing',
      `${dispensing.busy ? `busy (${String(dispensing.current)})` : 'idle'}, ${dispensing.leased} remote drop(s) leased${dispensing.recovered ? '' : ', crash recovery pending'}`,
    ),
  );
  if (status.ads) {
    const { loop, plays } = status.ads;
    const fetched = loop.fetchedAt === null ? 'never fetched' : `fetched ${ago(loop.fetchedAt, now)}${loop.stale ? ', STALE' : ''}`;
    lines.push(row('ad loop', `${loop.entries} entr${loop.entries === 1 ? 'y' : 'ies'}, ${fetched} (from ${loop.source})`));
    lines.push(row('ad plays', formatPlays(plays, now)));
  }
  if (status.prizes) {
    const { events, state } = status.prizes;
    lines.push(row('prize events', formatSpool(events, 'event', now)));
    lines.push(row('prize state', state.fetchedAt === null ? 'never heard from the cloud' : `from the cloud ${ago(state.fetchedAt, now)} (${state.source})`));
  }
  if (status.service) {
    const sv = status.service;
    lines.push(
      row(
        'service code',
        !sv.codeSet
          ? 'none set (service actions refused; the operator sets one in the cloud)'
          : sv.lockedUntil
            ? `LOCKED until ${sv.lockedUntil} after 5 wrong codes`
            : `set (${sv.source}), ${sv.failures} wrong code(s) since the last right one`,
      ),
    );
  }
  lines.push(row('config', `poll ${config.pollInterval}s, heartbeat ${config.heartbeatInterval}s, ${config.dispatchMode} (from ${config.source})`));
  if (status.lastErrors.length) {
    lines.push('  last errors');
    for (const entry of status.lastErrors.slice(0, 5)) lines.push(`    ${ago(entry.at, now).padEnd(9)} ${entry.source}: ${entry.message}`);
  }
  const attention = attentionOf(status);
  lines.push(attention.length ? `needs attention: ${attention.join('; ')}` : 'result: OK');
  return lines.join('\n');
}

/** Status from the state directory alone (the daemon is not running). */
export function offlineStatus(config: AgentConfig) {
  const state = new StateDir(config.stateDir);
  const enrolment = state.readEnrolment();
  const credential = state.readCredential();
  const journal = new MemoryJsonlJournal(JournalRecord);
  journal.text = readTextIfExists(state.path('journal')) ?? '';
  const book = new DispenseBook(journal, { now: () => Date.now(), setTimeout: () => 0, clearTimeout: () => {} });
  book.load();
  const cached = state.readCachedConfig();
  const ads = offlineAds(state, config, { now: () => Date.now(), setTimeout: () => 0, clearTimeout: () => {} }).status;
  const prizes = offlinePrizes(state, { now: () => Date.now(), setTimeout: () => 0, clearTimeout: () => {} });
  return {
    daemon: 'not running',
    stateDir: config.stateDir,
    equipmentNo: config.equipmentNo ?? null,
    enrolment: enrolment ?? { state: credential ? 'enrolled' : 'not-enrolled' },
    keyId: credential ? (parseDeviceKey(credential)?.keyId ?? null) : null,
    spool: { depth: book.depth(), unresolvedIntents: book.unresolved().length },
    lastVends: book.recent(5),
    config: cached
      ? { receivedAt: new Date(cached.receivedAt).toISOString(), pollInterval: cached.config.pollInterval, heartbeatInterval: cached.config.heartbeatInterval }
      : null,
    ads: { loop: ads.loop, plays: ads.plays },
    prizes,
  };
}

/** `vend-agent status`: through the control channel, or from the state directory when the daemon is down. */
export function statusCommand({ deps, setExit, guarded }: CommandContext): Command {
  const out = deps.stdout;
  const err = deps.stderr;
  return new Command('status')
    .description('enrolment, cloud reachability, versions, board link, spool depth, last errors')
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      `\nExit codes: ${EXIT_CODES.ok} all well, ${EXIT_CODES.attention} something needs attention (listed), ${EXIT_CODES.daemonDown} the daemon is not running (state read from disk), ${EXIT_CODES.revoked} credential revoked.`,
    )
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const config = configOf(deps, cmd);
        let answer;
        try {
          answer = await controlClient(config, 10_000).call('GET', '/v1/status', ControlStatus);
        } catch (e) {
          if (!(e instanceof ControlUnreachable)) throw e;
          const offline = offlineStatus(config);
          if (flags['json']) out(JSON.stringify(offline) + '\n');
          else {
            const enrolment: { state: string; message?: string | null } = offline.enrolment;
            out(
              [
                e instanceof ControlNoAnswer ? `vend-agent: the daemon does not answer (${e.message})` : `vend-agent: the daemon is not running (${e.message})`,
                row('state dir', config.stateDir),
                row('enrolment', `${enrolment.state}${offline.keyId ? ` (key ${offline.keyId})` : ''}${enrolment.message ? ` — ${enrolment.message}` : ''}`),
                row('spool', `${offline.spool.depth} report(s) waiting, ${offline.spool.unresolvedIntents} dispense(s) to settle at the next start`),
                row('ad loop', `${offline.ads.loop.entries} entries, fetched ${ago(offline.ads.loop.fetchedAt, deps.clock.now())}`),
                row('ad plays', `${offline.ads.plays.backlog} play(s) waiting for the cloud`),
                row('prize events', `${offline.prizes.events.backlog} event(s) waiting for the cloud`),
              ].join('\n') + '\n',
            );
          }
          setExit(offline.enrolment.state === 'revoked' ? EXIT_CODES.revoked : EXIT_CODES.daemonDown);
          return;
        }
        if (!answer.ok) {
          err(`the control channel refused: ${answer.status} ${answer.body.message}\n`);
          setExit(EXIT_CODES.refused);
          return;
        }
        const status = answer.body;
        out(flags['json'] ? JSON.stringify(status) + '\n' : formatStatus(status, deps.clock.now()) + '\n');
        if (status.enrolment.state === 'revoked') setExit(EXIT_CODES.revoked);
        else setExit(attentionOf(status).length ? EXIT_CODES.attention : EXIT_CODES.ok);
      }),
    );
}
