import { Command, InvalidArgumentError } from 'commander';
import { pino } from 'pino';
import type { Clock } from '@vend/protocol';
import { EXIT_CODES } from '../../exit-codes.ts';
import { DEFAULT_VMC_TIMINGS, VmcDriver } from '../../vmc/driver.ts';
import type { VmcTimings } from '../../vmc/driver.ts';
import type { DriverLogger } from '../../vmc/link.ts';
import { formatSelfCheck, runSelfCheck } from '../../vmc/self-check.ts';
import type { PortListing, SerialTransport } from '../../vmc/transport.ts';

/** What `vmc test` / `vmc ports` need: the serial ports, a clock, output, and (in tests) compressed driver timings. */
export interface VmcCommandDeps {
  transport: SerialTransport;
  clock: Clock;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  timings?: Partial<VmcTimings> | undefined;
}

function positiveInt(name: string, max: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || parsed < 1 || parsed > max) throw new InvalidArgumentError(`${name} must be an integer 1..${max}`);
    return parsed;
  };
}

/** Lists ports without ever throwing: SerialPort.list() fails where udevadm is missing. */
async function safeList(transport: SerialTransport): Promise<{ ports: PortListing[]; error?: string }> {
  try {
    return { ports: await transport.list() };
  } catch (e) {
    return { ports: [], error: `cannot list serial ports: ${(e as Error).message}` };
  }
}

function makeLogger(level: string, stderr: (text: string) => void): DriverLogger {
  return pino({ level, base: undefined }, { write: (line: string) => stderr(line) });
}

/** `vend-agent vmc test|ports`: the board link straight over the serial port (no daemon needed). */
export function vmcCommand(deps: VmcCommandDeps, setExit: (code: number) => void): Command {
  const vmc = new Command('vmc').description('the serial link to the vending board (VMC)');

  vmc
    .command('test')
    .description('self-check the board link: board info, status, lane scan, drop-sensor reading')
    .option('--port <path>', 'serial device of the board, e.g. /dev/ttyUSB0')
    .option('--json', 'print one JSON object instead of the human report')
    .option(
      '--open-attempts <n>',
      `attempts to open the port, ${DEFAULT_VMC_TIMINGS.openBackoffMs / 1000} s apart`,
      positiveInt('--open-attempts', 100),
      DEFAULT_VMC_TIMINGS.openAttempts,
    )
    .option('--verbose', 'log every frame (JSON lines on stderr)')
    .addHelpText(
      'after',
      [
        '',
        'Exit codes:',
        `  ${EXIT_CODES.ok}   the board answered and reports no faults`,
        `  ${EXIT_CODES.boardFault}   the board answered and reports faults (jammed lanes, lift fault, drop sensor)`,
        `  ${EXIT_CODES.boardUnavailable}   the port could not be opened, or the board never answered`,
        `  ${EXIT_CODES.protocolError}   the board refused a request (NAK)`,
        `  ${EXIT_CODES.usage}  bad usage`,
      ].join('\n'),
    )
    .action(async (flags: { port?: string; json?: boolean; openAttempts: number; verbose?: boolean }) => {
      if (!flags.port) {
        const { ports, error } = await safeList(deps.transport);
        deps.stderr('error: --port <path> is required\n');
        if (error) deps.stderr(`(${error})\n`);
        else deps.stderr(ports.length ? `serial ports found: ${ports.map((p) => p.path).join(', ')}\n` : 'no serial ports found\n');
        setExit(EXIT_CODES.usage);
        return;
      }
      const driver = new VmcDriver({
        transport: deps.transport,
        path: flags.port,
        clock: deps.clock,
        timings: { ...deps.timings, openAttempts: flags.openAttempts },
        log: makeLogger(flags.verbose ? 'debug' : 'silent', deps.stderr),
      });
      try {
        // progress on stderr while the lane scan runs (a page of 21 lanes at a time), so stdout stays the report
        const report = await runSelfCheck(driver, flags.json ? undefined : (line) => deps.stderr(`${line}\n`));
        deps.stdout(flags.json ? JSON.stringify(report) + '\n' : formatSelfCheck(report) + '\n');
        if (report.error) setExit(report.error.code === 'board_refused' ? EXIT_CODES.protocolError : EXIT_CODES.boardUnavailable);
        else setExit(report.ok ? EXIT_CODES.ok : EXIT_CODES.boardFault);
      } finally {
        await driver.close();
      }
    });

  vmc
    .command('ports')
    .description('list the serial ports the OS knows of')
    .option('--json', 'print JSON')
    .action(async (flags: { json?: boolean }) => {
      const { ports, error } = await safeList(deps.transport);
      if (flags.json) deps.stdout(JSON.stringify(error ? { ports, error } : { ports }) + '\n');
      else {
        if (error) deps.stderr(`warning: ${error}\n`);
        deps.stdout(ports.length ? ports.map((p) => `${p.path}${p.manufacturer ? `  (${p.manufacturer})` : ''}`).join('\n') + '\n' : 'no serial ports found\n');
      }
      setExit(EXIT_CODES.ok);
    });

  return vmc;
}
