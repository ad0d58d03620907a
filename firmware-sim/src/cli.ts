import { Command, InvalidArgumentError, Option } from 'commander';
import { systemClock } from '@vend/protocol';
import { ACTION_HELP, boardConfigSchema } from './actions.ts';
import type { BoardConfigInput, SimAction } from './actions.ts';
import { DEFAULT_BOARD_CONFIG } from './board.ts';
import { CONTROL_HELP, startControlServer } from './control-http.ts';
import type { ControlServer } from './control-http.ts';
import { DeviceFront } from './fronts/device.ts';
import { PtyFront } from './fronts/pty.ts';
import type { SerialFront } from './fronts/front.ts';
import { seededRandom } from './rng.ts';
import { describeIssues, loadScenarioFile, runScenario } from './scenario.ts';
import type { Scenario } from './scenario.ts';
import { VmcSimulator } from './simulator.ts';
import type { PaceMode } from './wire.ts';

export const DEFAULT_LINK = '/tmp/vmc-sim/ttyVMC0';
export const DEFAULT_CONTROL_PORT = 8771;

/** Exit codes. */
export const EXIT = { ok: 0, failed: 1, usage: 64 } as const;

function int(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer ${min}..${max}`);
    return n;
  };
}
function collect(name: string) {
  const parse = int(name, 1, 1024);
  return (value: string, previous: number[] = []): number[] => [...previous, parse(value)];
}

interface SimFlags {
  device?: string;
  link: string;
  module?: string;
  rows?: number;
  columns?: number;
  stock?: number;
  vmcVersion?: string;
  motorMs?: number;
  liftMsPerRow?: number;
  dropMs?: number;
  jam?: number[];
  empty?: number[];
  withoutMotor?: number[];
  dropAcks?: number;
  delayAcks?: number;
  corrupt?: number;
  withholdResults?: number;
  liftFault?: boolean;
  dropSensorBlind?: boolean;
  busy?: number;
  scenario?: string;
  controlPort: number;
  control: boolean;
  pace: PaceMode;
  seed?: number;
  trace?: boolean;
  json?: boolean;
}

export function buildSimProgram(run: (flags: SimFlags) => Promise<number>): Command {
  const program = new Command('vmc-sim')
    .description(
      'A VMC vending board in software, speaking the VMC serial protocol (docs/vmc-protocol.md) at 9600 8N1 on a ' +
        'pseudo-terminal pair made with socat (default) or on an existing serial device. ' +
        'Point the agent at the printed port: vend-agent vmc test --port /tmp/vmc-sim/ttyVMC0',
    )
    .option('--device <path>', 'open this existing serial device instead of creating a pty pair')
    .option('--link <path>', "where the agent's end of the pty pair appears", DEFAULT_LINK)
    .addOption(new Option('--module <module>', `machine module (default ${DEFAULT_BOARD_CONFIG.module})`).choices(['SH_YAxis', 'SH']))
    .option('--rows <n>', `rows of lanes (default ${DEFAULT_BOARD_CONFIG.rows})`, int('--rows', 1, 32))
    .option('--columns <n>', `lanes per row, columnsPerRow (default ${DEFAULT_BOARD_CONFIG.columnsPerRow})`, int('--columns', 1, 32))
    .option('--stock <n>', `products per lane at power-up (default ${DEFAULT_BOARD_CONFIG.stock})`, int('--stock', 0, 999))
    .option('--vmc-version <v>', `firmware version reported by board info (default ${DEFAULT_BOARD_CONFIG.vmcVersion})`)
    .option('--motor-ms <ms>', `lane motor run time per vend (default ${DEFAULT_BOARD_CONFIG.motorMs})`, int('--motor-ms', 1, 10_000))
    .option('--lift-ms-per-row <ms>', `Y-axis lift travel per row (default ${DEFAULT_BOARD_CONFIG.liftMsPerRow})`, int('--lift-ms-per-row', 0, 5000))
    .option('--drop-ms <ms>', `time for the product to reach the drop sensor (default ${DEFAULT_BOARD_CONFIG.dropMs})`, int('--drop-ms', 0, 5000))
    .option('--jam <aisle>', 'jam this lane (repeatable)', collect('--jam'))
    .option('--empty <aisle>', 'empty this lane (repeatable)', collect('--empty'))
    .option('--without-motor <aisle>', 'this lane has no motor fitted (repeatable)', collect('--without-motor'))
    .option('--drop-acks <n>', 'never send the next N ACKs', int('--drop-acks', 0, 1_000_000))
    .option('--delay-acks <ms>', 'send every ACK this late (past 0.5 s the agent retransmits)', int('--delay-acks', 0, 3_600_000))
    .option('--corrupt <n>', 'damage one byte in each of the next N frames sent', int('--corrupt', 0, 1_000_000))
    .option('--withhold-results <n>', 'never send a result for the next N dispenses', int('--withhold-results', 0, 1_000_000))
    .option('--lift-fault', 'the Y-axis lift cannot reach the rows')
    .option('--drop-sensor-blind', 'the drop sensor sees nothing')
    .option('--busy <ms>', 'report busy for this long after start', int('--busy', 0, 3_600_000))
    .option('--scenario <file>', 'JSON scenario: board settings and timed fault steps (format below)')
    .option('--control-port <port>', 'HTTP control port on 127.0.0.1 (0 = any free port)', int('--control-port', 0, 65535), DEFAULT_CONTROL_PORT)
    .option('--no-control', 'no control port')
    .addOption(new Option('--pace <mode>', 'wire pacing: byte (9600 8N1, default), frame, off').choices(['byte', 'frame', 'off']).default('byte'))
    .option('--seed <n>', 'seed for the random source (boot id, corrupted bytes)', int('--seed', 0, 0xffffffff))
    .option('--trace', 'log every frame (hex) on stderr')
    .option('--json', 'print the ready line and logs as JSON lines')
    .addHelpText(
      'after',
      [
        '',
        'Faults can be set by flags at start, by a scenario file, or live through the control port:',
        '',
        CONTROL_HELP,
        '',
        'Examples:',
        '  curl -s localhost:8771/state',
        `  curl -s -XPOST localhost:8771/actions -d '{"do":"jam","aisle":12}'`,
        `  curl -s -XPOST localhost:8771/actions -d '[{"do":"dropAcks","count":2},{"do":"unplug","forMs":3000}]'`,
        '',
        'Scenario file (JSON):',
        '  {"board": {"module":"SH","rows":6,"columnsPerRow":10,"stock":5,"motorMs":1200,"liftMsPerRow":400,"dropMs":300,"vmcVersion":"2.4.1"},',
        '   "seed": 7,',
        '   "steps": [{"at":0,"do":"jam","aisle":3}, {"afterDispenses":2,"do":"unplug","forMs":4000}]}',
        '  Each step is one action (above) plus "at" (ms after start) or "afterDispenses" (after the Nth dispense request).',
        '',
        'Unplug on a pty kills socat: the agent sees its port close and the link vanish until the re-plug.',
        'On --device, unplug only closes the device (the far end sees silence).',
        '',
        'Exit codes: 0 stopped by SIGINT/SIGTERM, 1 could not start (socat missing, device busy, port in use), 64 bad flags or scenario.',
        '',
        `Actions (${ACTION_HELP.length}) are validated; an invalid scenario names every problem and exits 64.`,
      ].join('\n'),
    )
    .action(async (flags: SimFlags) => {
      process.exitCode = await run(flags);
    });
  return program;
}

function boardFrom(flags: SimFlags, scenario: Scenario | undefined): BoardConfigInput {
  const fromFlags: Record<string, unknown> = {
    module: flags.module,
    rows: flags.rows,
    columnsPerRow: flags.columns,
    stock: flags.stock,
    vmcVersion: flags.vmcVersion,
    motorMs: flags.motorMs,
    liftMsPerRow: flags.liftMsPerRow,
    dropMs: flags.dropMs,
  };
  for (const k of Object.keys(fromFlags)) if (fromFlags[k] === undefined) delete fromFlags[k];
  const parsed = boardConfigSchema.safeParse({ ...scenario?.board, ...fromFlags });
  if (!parsed.success) throw new UsageError(`invalid board settings:\n${describeIssues(parsed.error)}`);
  return parsed.data;
}

function actionsFrom(flags: SimFlags): SimAction[] {
  const a: SimAction[] = [];
  for (const aisle of flags.jam ?? []) a.push({ do: 'jam', aisle });
  for (const aisle of flags.empty ?? []) a.push({ do: 'empty', aisle });
  for (const aisle of flags.withoutMotor ?? []) a.push({ do: 'motor', aisle, present: false });
  if (flags.dropAcks) a.push({ do: 'dropAcks', count: flags.dropAcks });
  if (flags.delayAcks) a.push({ do: 'delayAcks', ms: flags.delayAcks });
  if (flags.corrupt) a.push({ do: 'corrupt', count: flags.corrupt, direction: 'toHost' });
  if (flags.withholdResults) a.push({ do: 'withholdResults', count: flags.withholdResults });
  if (flags.liftFault) a.push({ do: 'liftFault', on: true });
  if (flags.dropSensorBlind) a.push({ do: 'dropSensor', healthy: false });
  if (flags.busy) a.push({ do: 'busy', ms: flags.busy });
  return a;
}

class UsageError extends Error {}

/** Runs the simulator until SIGINT/SIGTERM; resolves with the exit code. */
export async function runSimulator(flags: SimFlags, signals: NodeJS.Process = process): Promise<number> {
  const json = Boolean(flags.json);
  const log = (event: string, fields: Record<string, unknown> = {}): void => {
    process.stderr.write(
      json
        ? JSON.stringify({ t: new Date().toISOString(), event, ...fields }) + '\n'
        : `vmc-sim: ${event} ${Object.keys(fields).length ? JSON.stringify(fields) : ''}\n`,
    );
  };
  let scenario: Scenario | undefined;
  let board: BoardConfigInput;
  let initial: SimAction[];
  try {
    scenario = flags.scenario ? loadScenarioFile(flags.scenario) : undefined;
    board = boardFrom(flags, scenario);
    initial = actionsFrom(flags);
    const lanes = (board.rows ?? DEFAULT_BOARD_CONFIG.rows) * (board.columnsPerRow ?? DEFAULT_BOARD_CONFIG.columnsPerRow);
    const outside = [...initial, ...(scenario?.steps.map((s) => s.action) ?? [])].find((a) => 'aisle' in a && a.aisle > lanes);
    if (outside && 'aisle' in outside) throw new UsageError(`aisle ${outside.aisle} is outside this machine (1..${lanes})`);
  } catch (e) {
    process.stderr.write(`vmc-sim: ${(e as Error).message}\n`);
    return EXIT.usage;
  }
  const seed = flags.seed ?? scenario?.seed ?? Date.now() & 0x7fffffff;
  const front: SerialFront = flags.device ? new DeviceFront(flags.device, log) : new PtyFront({ hostLink: flags.link, log });
  const sim = new VmcSimulator({ board, front, clock: systemClock, random: seededRandom(seed), pace: flags.pace, log, trace: Boolean(flags.trace) });
  let control: ControlServer | undefined;
  try {
    await sim.start();
    for (const a of initial) await sim.apply(a);
    if (flags.control) control = await startControlServer(sim, flags.controlPort);
  } catch (e) {
    log('could not start', { error: (e as Error).message });
    await sim.stop().catch(() => {});
    return EXIT.failed;
  }
  const cancel = runScenario(sim, scenario?.steps ?? [], systemClock, log);
  const ready = {
    event: 'ready',
    port: flags.device ?? front.hostPath,
    control: control?.url ?? null,
    module: sim.board.config.module,
    rows: sim.board.config.rows,
    columnsPerRow: sim.board.config.columnsPerRow,
    vmcVersion: sim.board.config.vmcVersion,
    seed,
    pid: process.pid,
  };
  process.stdout.write(
    json
      ? JSON.stringify(ready) + '\n'
      : `vmc-sim ready: ${ready.module} ${ready.rows}x${ready.columnsPerRow}, firmware ${ready.vmcVersion}\n  agent port: ${ready.port}\n  control:    ${ready.control ?? 'off'}\n`,
  );
  const signal = await new Promise<string>((resolve) => {
    signals.once('SIGINT', () => resolve('SIGINT'));
    signals.once('SIGTERM', () => resolve('SIGTERM'));
  });
  log('stopping', { signal });
  cancel();
  await control?.close();
  await sim.stop();
  log('stopped');
  return EXIT.ok;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildSimProgram(runSimulator).exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    const err = e as { code?: string; exitCode?: number };
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
    return EXIT.usage;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
}
