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
export async function runSelfCheck(driver: VmcDriver): Promise<SelfCheckReport> {
  const report: SelfCheckReport = { ok: false, port: driver.path, link: driver.stats, problems: [] };
  try {
    report.info = await driver.info();
    report.status = await driver.status();
    const scan: LaneScan = await driver.laneScan();
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
  const p = report.problems;
  const expected = report.info ? report.info.rows * report.info.columnsPerRow : undefined;
  if (report.lanes && expected !== undefined && report.lanes.count !== expected)
    p.push(`lane scan covered ${report.lanes.count} lanes, board info says ${expected}`);
  if (report.lanes?.jammed.length) p.push(`jammed lanes: ${report.lanes.jammed.join(', ')}`);
  if (report.status?.faults.lift) p.push('lift fault');
  if (report.status?.state === 'fault') p.push('board reports a fault state');
  if (report.status?.faults.dropSensor || (report.dropSensor && !report.dropSensor.healthy)) p.push('drop sensor unhealthy');
  report.ok = !report.error && p.length === 0;
  return report;
}

export function formatSelfCheck(r: SelfCheckReport): string {
  const lines = [`VMC self-check on ${r.port} (9600 8N1)`];
  const row = (label: string, text: string): void => {
    lines.push(`  ${label.padEnd(13)}${text}`);
  };
  if (r.info) {
    const i = r.info;
    row(
      'board info',
      `firmware ${i.vmcVersion}, module ${i.module}, ${i.rows} rows × ${i.columnsPerRow} columns, boot id ${i.bootId}, protocol ${i.protocolVersion}`,
    );
  }
  if (r.status) {
    const s = r.status;
    const faults = Object.entries(s.faults)
      .filter(([, on]) => on)
      .map(([k]) => k);
    row('status', `${s.state}, lift at row ${s.liftRow}, last result ${s.lastResult}, ${faults.length ? `faults: ${faults.join(', ')}` : 'no faults'}`);
  }
  if (r.lanes) {
    const l = r.lanes;
    row('lane scan', `${l.count} lanes: ${l.count - l.withoutMotor.length} motors fitted, ${l.jammed.length} jammed`);
    if (l.jammed.length) row('', `jammed: ${l.jammed.join(', ')}`);
    if (l.withoutMotor.length) row('', `no motor: ${l.withoutMotor.join(', ')}`);
  }
  if (r.dropSensor) {
    const d = r.dropSensor;
    row('drop sensor', `${d.healthy ? 'healthy' : 'UNHEALTHY'}, beam ${d.blocked ? 'blocked' : 'clear'}, level ${d.level}, ${d.drops} drops since power-up`);
  }
  row('link', `${r.link.framesSent} frames sent, ${r.link.retransmissions} retransmissions, ${r.link.badFrames} damaged frames received`);
  if (r.error) lines.push(`error: ${r.error.code}: ${r.error.message}`);
  if (r.problems.length) lines.push(`problems: ${r.problems.join('; ')}`);
  lines.push(r.ok ? 'result: OK' : r.error ? 'result: BOARD NOT REACHABLE' : 'result: PROBLEMS FOUND');
  return lines.join('\n');
}
