import type { Clock, ControlStatus } from '@vend/protocol';
import type { Ads } from '../ads/ads.ts';
import type { CloudClient } from '../cloud/client.ts';
import type { StateCredentialStore } from '../cloud/credentials.ts';
import type { Enroller } from '../cloud/enrolment.ts';
import type { CloudLoops } from '../cloud/loops.ts';
import { cloudStatusOf } from '../cloud/status-view.ts';
import type { AgentConfig } from '../config.ts';
import { mask } from '../config.ts';
import type { Prizes } from '../prizes/prizes.ts';
import type { ServiceGate } from '../service/index.ts';
import type { DispenseBook } from '../spool/book.ts';
import type { Dispenser } from '../spool/dispenser.ts';
import type { ReportSpool } from '../spool/spool.ts';
import type { CabinetUpgradeHost } from '../upgrade/cabinet-host.ts';
import type { BoardWatch } from '../vmc/board-watch.ts';
import type { LastErrors } from './last-errors.ts';

/** The daemon's parts the status view reads. */
export interface StatusParts {
  config: Pick<AgentConfig, 'agentVersion' | 'stateDir' | 'serialPort'>;
  clock: Pick<Clock, 'now'>;
  startedAt: number;
  equipmentNo: string;
  deviceId: string;
  cloudUrl: string;
  enroller: Pick<Enroller, 'status'>;
  credentials: Pick<StateCredentialStore, 'keyId'>;
  client: Pick<CloudClient, 'reachability'>;
  cloud: Pick<CloudLoops, 'configBlock' | 'configSource' | 'registeredAt'>;
  board: Pick<BoardWatch, 'status'>;
  book: Pick<DispenseBook, 'depth' | 'rejected'>;
  spool: Pick<ReportSpool, 'delivered' | 'duplicates' | 'lastError'>;
  dispenser: Pick<Dispenser, 'recovered' | 'lock' | 'current' | 'leased' | 'lastActivityAt'>;
  upgrades: Pick<CabinetUpgradeHost, 'reports' | 'quiet'>;
  errors: Pick<LastErrors, 'note' | 'view'>;
  ads: Pick<Ads, 'status'>;
  prizes: Pick<Prizes, 'status'>;
  service: Pick<ServiceGate, 'status'>;
}

/** Everything `vend-agent status` shows (GET /v1/status). */
export function statusView(p: StatusParts): ControlStatus {
  const now = p.clock.now();
  const enrolment = p.enroller.status();
  const block = p.cloud.configBlock;
  return {
    agent: {
      version: p.config.agentVersion,
      pid: process.pid,
      startedAt: new Date(p.startedAt).toISOString(),
      uptimeSeconds: Math.floor((now - p.startedAt) / 1000),
      stateDir: p.config.stateDir,
      equipmentNo: p.equipmentNo,
      deviceId: p.deviceId,
      memory: memory(),
    },
    enrolment: { ...enrolment, keyId: p.credentials.keyId() },
    cloud: cloudStatusOf(p.cloudUrl, p.client.reachability, p.cloud.registeredAt),
    board: p.board.status(p.config.serialPort),
    spool: {
      depth: p.book.depth(),
      delivered: p.spool.delivered,
      duplicates: p.spool.duplicates,
      rejected: p.book.rejected(5).map((x) => ({ dispenseId: x.id, status: x.status, message: x.message, at: iso(x.at) })),
      lastError: p.spool.lastError ? { ...p.spool.lastError, at: iso(p.spool.lastError.at) } : null,
    },
    dispensing: {
      recovered: p.dispenser.recovered,
      busy: !p.dispenser.lock.isFree,
      current: p.dispenser.current,
      leased: p.dispenser.leased,
      lastActivityAt: iso(p.dispenser.lastActivityAt),
    },
    config: {
      source: p.cloud.configSource,
      machineCode: block.machineCode,
      pollInterval: block.pollInterval,
      heartbeatInterval: block.heartbeatInterval,
      dispatchMode: block.dispatchMode,
      rows: block.rows,
      columnsPerRow: block.columnsPerRow,
      adminPin: block.adminPin ? mask(block.adminPin) : null,
    },
    upgrade: { ...p.upgrades.reports, quiet: p.upgrades.quiet() },
    lastErrors: p.errors.view(),
    ads: p.ads.status(),
    prizes: p.prizes.status(),
    ...serviceStatus(p),
  };
}

/** The gate's state; a gate file this user cannot read must not take the whole status down. */
function serviceStatus(p: Pick<StatusParts, 'service' | 'errors'>): { service?: NonNullable<ControlStatus['service']> } {
  try {
    return { service: p.service.status() };
  } catch (e) {
    p.errors.note('service', `service-code file unreadable: ${(e as Error).message}`);
    return {};
  }
}

function memory(): Record<string, number> {
  const usage = process.memoryUsage();
  const mb = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;
  return {
    rssMb: mb(usage.rss),
    heapUsedMb: mb(usage.heapUsed),
    heapTotalMb: mb(usage.heapTotal),
    externalMb: mb(usage.external),
    arrayBuffersMb: mb(usage.arrayBuffers),
  };
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
