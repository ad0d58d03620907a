import type { VmcBoardInfo, VmcBoardStatus, VmcDropSensorReading } from '@vend/protocol';
import type { LaneScan, VmcDriver } from './driver.ts';
import { VmcLinkError } from './link.ts';
import type { DriverStats } from './link.ts';

/** What `vend-agent vmc test` finds. */
export interface SelfCheckReport {
  ok: boolean;
  port: string;
  info?: VmcBoardInfo;
  status?: VmcBoardStatus;
  lanes?: { count: number; jammed: number[]; withoutMotor: number[] };
  dropSensor?: VmcDropSensorReading;
  link: DriverStats;
  /** Faults the board reports (it answered, but something needs a technician). */
  problems: string[];
  /** Set when the board could not be reached or did not answer. */
  error?: { code: VmcLinkError['code']; message: string };
}

/** Board info, status, lane scan and drop-sensor reading, in that order; stops at the first link failure. */
export async function runSelfCheck(driver: VmcDriver, progress?: (line: string) => void): Promise<SelfCheckReport> {
  const report: SelfCheckReport = { ok: false, port: driver.path, link: driver.stats, problems: [] };
  try {
    report.info = await driver.info();
    report.status = await driver.status();
    const scan: LaneScan = await driver.laneScan(undefined, progress ? (done, pages) => progress(`lane scan: page ${done} of ${pages}`) : undefined);
    report.lanes = {
      count: scan.lanes.length,
      jammed: scan.lanes.filter((l) => l.jammed).map((l) => l.aisle),
      withoutMotor: scan.lanes.filter((l) => !l.motor).map((l) => l.aisle),
    };
    report.dropSensor = await driver.dropSensor();
  } catch (e) {
    if (!(e instanceof VmcLinkError)) throw e;
    report.error = { code: e.code, message: e.message };
  }
  const problems = report.problems;
  const expected = report.info ? report.info.rows * report.info.columnsPerRow : undefined;
  if (report.lanes && expected !== undefined && report.lanes.count !== expected)
    problems.push(`lane scan covered ${report.lanes.count} lanes, board info says ${expected}`);
  if (report.lanes?.jammed.length) problems.push(`jammed lanes: ${report.lanes.jammed.join(', ')}`);
  if (report.status?.faults.lift) problems.push('lift fault');
  if (report.status?.state === 'fault') problems.push('board reports a fault state');
  if (report.status?.faults.dropSensor || (report.dropSensor && !report.dropSensor.healthy)) problems.push('drop sensor unhealthy');
  report.ok = !report.error && problems.length === 0;
  return report;
}

export function formatSelfCheck(report: SelfCheckReport): string {
  const lines = [`VMC self-check on ${report.port} (9600 8N1)`];
  const row = (label: string, text: string): void => {
    lines.push(`  ${label.padEnd(13)}${text}`);
  };
  if (report.info) {
    const i = report.info;
    row(
      'board info',
      `firmware ${i.vmcVersion}, module ${i.module}, ${i.rows} rows × ${i.columnsPerRow} columns, boot id ${i.bootId}, protocol ${i.protocolVersion}`,
    );
  }
  if (report.status) {
    const status = report.status;
    const faults = Object.entries(status.faults)
      .filter(([, on]) => on)
      .map(([k]) => k);
    row(
      'status',
      `${status.state}, lift at row ${status.liftRow}, last result ${status.lastResult}, ${faults.length ? `faults: ${faults.join(', ')}` : 'no faults'}`,
    );
  }
  if (report.lanes) {
    const lanes = report.lanes;
    row('lane scan', `${lanes.count} lanes: ${lanes.count - lanes.withoutMotor.length} motors fitted, ${lanes.jammed.length} jammed`);
    if (lanes.jammed.length) row('', `jammed: ${lanes.jammed.join(', ')}`);
    if (lanes.withoutMotor.length) row('', `no motor: ${lanes.withoutMotor.join(', ')}`);
  }
  if (report.dropSensor) {
    const drop = report.dropSensor;
    row(
      'drop sensor',
      `${drop.healthy ? 'healthy' : 'UNHEALTHY'}, beam ${drop.blocked ? 'blocked' : 'clear'}, level ${drop.level}, ${drop.drops} drops since power-up`,
    );
  }
  row('link', `${report.link.framesSent} frames sent, ${report.link.retransmissions} retransmissions, ${report.link.badFrames} damaged frames received`);
  if (report.error) lines.push(`error: ${report.error.code}: ${report.error.message}`);
  if (report.problems.length) lines.push(`problems: ${report.problems.join('; ')}`);
  lines.push(report.ok ? 'result: OK' : report.error ? resultOfError(report.error) : 'result: PROBLEMS FOUND');
  return lines.join('\n');
}

/** What a NAK reason means for the technician in front of the board (docs/vmc-protocol.md §5). */
const NAK_MEANS: Record<string, string> = {
  unknownCommand:
    'it does not know that command: its firmware is older than the protocol this agent speaks (compare "firmware" above with the board maker’s release)',
  badArgument: 'it found an argument out of range: its own geometry (board info) and what was asked disagree — power-cycle the board, then run this again',
  sequenceConflict: 'a sequencing refusal: another program may be talking to the board on this port (is the daemon running?)',
  sequenceZero: 'a sequencing refusal: this agent sent a frame the board cannot accept — run it again; if it repeats, report it with --verbose output',
  bootMismatch: 'the board restarted during the check — run it again',
};

/** The result line when the check stopped on a link error: unreachable, or reachable but refusing. */
function resultOfError(error: NonNullable<SelfCheckReport['error']>): string {
  if (error.code !== 'board_refused') return 'result: BOARD NOT REACHABLE';
  const m = /refused (\w+) \(NAK (\w+)\)/.exec(error.message);
  const what = m ? `the ${m[1]} request` : 'a request';
  const why = (m && NAK_MEANS[m[2]!]) ?? 'see the error above';
  return `result: BOARD ANSWERED BUT REFUSED ${what} (the port and the cable work): ${why}`;
}
