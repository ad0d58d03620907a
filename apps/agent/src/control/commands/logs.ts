import { Command } from 'commander';
import { EXIT_CODES } from '../../exit-codes.ts';
import { readFrom, tailLines } from '../../state/log-file.ts';
import { StateDir } from '../../state/state-dir.ts';
import { configOf, integerIn } from './context.ts';
import type { CommandContext, Flags } from './context.ts';

/** `vend-agent logs`: the end of the daemon's log, human or as written, optionally followed. */
export function logsCommand({ deps, setExit, guarded }: CommandContext): Command {
  return new Command('logs')
    .description("the daemon's log (<state-dir>/agent.log)")
    .option('-n, --lines <n>', 'lines from the end', integerIn('--lines', 1, 100_000), 50)
    .option('-f, --follow', 'keep printing new lines until interrupted')
    .option('--json', 'print the JSON lines as written')
    .action(
      guarded(async (flags: Flags, cmd: Command) => {
        const config = configOf(deps, cmd);
        const file = new StateDir(config.stateDir).path('log');
        let tail;
        try {
          tail = tailLines(file, flags['lines'] as number);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
          deps.stderr(`no log at ${file} (has the daemon run with this state directory?)\n`);
          setExit(EXIT_CODES.daemonDown);
          return;
        }
        const show = (line: string): void => {
          if (!line.trim()) return;
          deps.stdout((flags['json'] ? line : humanLogLine(line)) + '\n');
        };
        for (const line of tail.lines) show(line);
        if (flags['follow']) {
          let offset = tail.end;
          let ino = tail.ino;
          const onChange = (): void => {
            let got;
            try {
              got = readFrom(file, offset);
            } catch {
              return; // between a rotation's rename and the new file
            }
            if (got.ino !== ino || got.size < offset) {
              // rotated (or truncated): the new file from its start
              ino = got.ino;
              offset = 0;
              got = readFrom(file, 0);
            }
            const chunk = got.bytes;
            const end = chunk.lastIndexOf(0x0a);
            if (end < 0) return;
            offset += end + 1;
            for (const line of chunk.subarray(0, end).toString('utf8').split('\n')) show(line);
          };
          // A plain read every 500 ms, not fs.watchFile: watchFile takes its first stat asynchronously, so a
          // line appended between the tail and that stat is in its baseline and never reported.
          const timer = setInterval(onChange, 500);
          const signals = deps.signals ?? process;
          await new Promise<void>((resolve) => {
            signals.once('SIGINT', () => resolve());
            signals.once('SIGTERM', () => resolve());
          });
          clearInterval(timer);
        }
        setExit(EXIT_CODES.ok);
      }),
    );
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** `time LEVEL [part] message {fields}` from a pino JSON line. */
export function humanLogLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { time, level, msg, pid: _pid, part, ...rest } = record;
  const fields = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
  return `${String(time ?? '')} ${(LEVELS[level as number] ?? String(level)).padEnd(5)} ${part ? `[${String(part)}] ` : ''}${String(msg ?? '')}${fields}`;
}
