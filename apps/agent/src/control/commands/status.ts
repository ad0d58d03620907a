import { Command } from 'commander';
import { parseDeviceKey } from '@vend/protocol';
import type { AgentConfig } from '../../config.ts';
import { EXIT_CODES } from '../../exit-codes.ts';
import { DispenseBook } from '../../spool/book.ts';
import { MemoryJournal } from '../../spool/journal.ts';
import { readTextIfExists } from '../../state/fs-atomic.ts';
import { StateDir } from '../../state/state-dir.ts';
import { ControlNoAnswer, ControlUnreachable } from '../client.ts';
import { configOf, controlClient } from './context.ts';
import type { CommandContext, Flags } from './context.ts';
import { ago, row } from './format.ts';

type Fields = Record<string, unknown>;
/** The object at a key of an answer (an empty one when it is not an object). */
const fieldsOf = (value: unknown): Fields => (value !== null && typeof value === 'object' ? (value as Fields) : {});

/** What in a status needs a technician (empty: all well). */
export function attentionOf(status: Fields): string[] {
  const out: string[] = [];
  const enrol = fieldsOf(status['enrolment']);
  if (enrol['state'] !== 'enrolled') out.push(`enrolment: ${String(enrol['state'])}${enrol['message'] ? ` — ${String(enrol['message'])}` : ''}`);
  const cloud = fieldsOf(status['cloud']);
  if (cloud['reachable'] === false)
    out.push(`cloud not reachable${fieldsOf(cloud['lastError'])['message'] ? `: ${String(fieldsOf(cloud['lastError'])['message'])}` : ''}`);
  const board = fieldsOf(status['board']);
  if (board['state'] === 'unavailable')
    out.push(`board not answering on ${String(board['port'])}${board['lastError'] ? `: ${String(board['lastError'])}` : ''}`);
  if (board['state'] === 'fault') out.push(`board reports: ${(board['problems'] as string[] | undefined)?.join(', ') ?? 'a fault'}`);
  const spool = fieldsOf(status['spool']);
  if (Array.isArray(spool['rejected']) && spool['rejected'].length > 0)
    out.push(`${spool['rejected'].length} report(s) refused by the cloud (see status --json)`);
  return out;
}

export function formatStatus(status: Fields, now: number): string {
  const agent = fieldsOf(status['agent']);
  const enrol = fieldsOf(status['enrolment']);
  const cloud = fieldsOf(status['cloud']);
  const board = fieldsOf(status['board']);
  const spool = fieldsOf(status['spool']);
  const disp = fieldsOf(status['dispensing']);
  const cfg = fieldsOf(status['config']);
  const lines = [
    `vend-agent ${String(agent['version'])} on ${String(agent['equipmentNo'])} (pid ${String(agent['pid'])}, up ${String(agent['uptimeSeconds'])}s)`,
  ];
  lines.push(
    row(
      'enrolment',
      `${String(enrol['state'])}${enrol['keyId'] ? ` (key ${String(enrol['keyId'])})` : ''}${enrol['state'] !== 'enrolled' && enrol['message'] ? ` — ${String(enrol['message'])}` : ''}`,
    ),
  );
  lines.push(
    row(
      'cloud',
      `${cloud['reachable'] ? 'reachable' : 'NOT REACHABLE'} — ${String(cloud['url'])}, last answer ${ago(cloud['lastAnswerAt'], now)}${
        cloud['registeredAt'] ? '' : ', not registered yet'
      }`,
    ),
  );
  if (fieldsOf(cloud['lastError'])['message'])
    lines.push(row('', `last cloud error ${ago(fieldsOf(cloud['lastError'])['at'], now)}: ${String(fieldsOf(cloud['lastError'])['message'])}`));
  const geometry = board['rows'] ? `, ${String(board['module'])} ${String(board['rows'])}×${String(board['columnsPerRow'])}` : '';
  lines.push(
    row(
      'board',
      `${String(board['state'])} — ${String(board['port'])}${board['vmcVersion'] ? `, firmware ${String(board['vmcVersion'])}` : ''}${geometry}${
        board['bootId'] ? `, boot id ${String(board['bootId'])}` : ''
      }`,
    ),
  );
  if (board['lastError']) lines.push(row('', `last board error: ${String(board['lastError'])}`));
  lines.push(row('versions', `agent ${String(agent['version'])}, board firmware ${board['vmcVersion'] ? String(board['vmcVersion']) : 'unknown'}`));
  lines.push(row('spool', `${String(spool['depth'])} report(s) waiting, ${String(spool['delivered'])} delivered since start`));
  lines.push(
    row(
      'dispensing',
      `${disp['busy'] ? `busy (${String(disp['current'])})` : 'idle'}, ${String(disp['leased'])} remote drop(s) leased${disp['recovered'] ? '' : ', crash recovery pending'}`,
    ),
  );
  lines.push(
    row(
      'config',
      `poll ${String(cfg['pollInterval'])}s, heartbeat ${String(cfg['heartbeatInterval'])}s, ${String(cfg['dispatchMode'])} (from ${String(cfg['source'])})`,
    ),
  );
  const errors = Array.isArray(status['lastErrors']) ? (status['lastErrors'] as Fields[]) : [];
  if (errors.length) {
    lines.push('  last errors');
    for (const e of errors.slice(0, 5)) lines.push(`    ${ago(e['at'], now).padEnd(9)} ${String(e['source'])}: ${String(e['message'])}`);
  }
  const attention = attentionOf(status);
  lines.push(attention.length ? `needs attention: ${attention.join('; ')}` : 'result: OK');
  return lines.join('\n');
}

/** Status from the state directory alone (the daemon is not running). */
export function offlineStatus(config: AgentConfig): Fields {
  const state = new StateDir(config.stateDir);
  const enrolment = state.readEnrolment();
  const credential = state.readCredential();
  const journal = new MemoryJournal();
  journal.text = readTextIfExists(state.path('journal')) ?? '';
  const book = new DispenseBook(journal, { now: () => Date.now(), setTimeout: () => 0, clearTimeout: () => {} });
  book.load();
  const cached = state.readCachedConfig();
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
          answer = await controlClient(config, 10_000).call('GET', '/v1/status');
        } catch (e) {
          if (!(e instanceof ControlUnreachable)) throw e;
          const offline = offlineStatus(config);
          if (flags['json']) out(JSON.stringify(offline) + '\n');
          else {
            const enrolment = fieldsOf(offline['enrolment']);
            out(
              [
                e instanceof ControlNoAnswer ? `vend-agent: the daemon does not answer (${e.message})` : `vend-agent: the daemon is not running (${e.message})`,
                row('state dir', config.stateDir),
                row(
                  'enrolment',
                  `${String(enrolment['state'])}${offline['keyId'] ? ` (key ${String(offline['keyId'])})` : ''}${enrolment['message'] ? ` — ${String(enrolment['message'])}` : ''}`,
                ),
                row(
                  'spool',
                  `${String(fieldsOf(offline['spool'])['depth'])} report(s) waiting, ${String(fieldsOf(offline['spool'])['unresolvedIntents'])} dispense(s) to settle at the next start`,
                ),
              ].join('\n') + '\n',
            );
          }
          setExit(fieldsOf(offline['enrolment'])['state'] === 'revoked' ? EXIT_CODES.revoked : EXIT_CODES.daemonDown);
          return;
        }
        if (answer.status !== 200) {
          err(`the control channel refused: ${answer.status} ${String(answer.body['message'] ?? '')}\n`);
          setExit(EXIT_CODES.refused);
          return;
        }
        const status = answer.body;
        out(flags['json'] ? JSON.stringify(status) + '\n' : formatStatus(status, deps.clock.now()) + '\n');
        if (fieldsOf(status['enrolment'])['state'] === 'revoked') setExit(EXIT_CODES.revoked);
        else setExit(attentionOf(status).length ? EXIT_CODES.attention : EXIT_CODES.ok);
      }),
    );
}
