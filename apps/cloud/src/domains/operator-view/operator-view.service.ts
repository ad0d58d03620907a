import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import type { AppStore } from '../../repos.ts';
import { centsToDecimal } from '../../http/money.ts';
import type { Principal } from '../../http/principal.ts';
import type { MachinesService } from '../machines/machines.service.ts';
import type { CampaignReportsService } from '../campaigns/campaign-reports.service.ts';
import type { InventoryService } from '../inventory/inventory.service.ts';
import type { PrizesService } from '../prizes/prizes.service.ts';
import type { OperatorView } from './operator-view.schemas.ts';
import { advertiseQrId, qrPng } from '../creatives/advertise-qr.ts';

const DAY = 86_400_000;
const DOWN_AFTER_MS = 10 * 60_000;

/** The start of the machine's local day containing `now` (UTC when it has no zone). */
export function startOfLocalDay(now: number, timeZone: string | null): number {
  const zone = timeZone ?? 'UTC';
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hour12: false, hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(
    new Date(now),
  );
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0) % 24;
  const sinceMidnight = ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000 + (now % 1000);
  return now - sinceMidnight;
}

export interface OperatorViewDeps {
  store: AppStore;
  clock: Clock;
  /** The machine as its operator may see it (404 otherwise). */
  machines: MachinesService;
  /** Its aisles, for the stock rollups. */
  inventory: InventoryService;
  /** What its screen earns from advertising. */
  screenAds: Pick<CampaignReportsService, 'machineMoney'>;
  /** Its free-product program and prize game. */
  prizes: Pick<PrizesService, 'machineMoney'>;
  /** `publicBaseUrl`: the address QR codes point at (else the request's origin); `dataKey` derives the stable qrId. */
  config: Pick<Config, 'publicBaseUrl' | 'dataKey'>;
}

/** One screen for an operator: is it up, is it selling, what needs a visit, what it earns. */
export class OperatorViewService {
  constructor(private readonly deps: OperatorViewDeps) {}

  async view(p: Principal, machineNo: string): Promise<OperatorView> {
    const machine = await this.deps.machines.get(p, machineNo);
    const inv = await this.deps.inventory.machine(p, machineNo);
    const repo = this.deps.store.repos.operatorView;
    const row = await repo.machineWithCurrency(machine.machineNo);
    const now = this.deps.clock.now();
    const today = startOfLocalDay(now, machine.timeZone);
    const bucket = async (from: number) => {
      const s = await repo.sales(row.id, from);
      return { orders: s.orders, gross: centsToDecimal(s.grossCents), refunded: centsToDecimal(s.refundedCents) };
    };
    const [todayB, week, month, prizes, screenAds] = await Promise.all([
      bucket(today),
      bucket(today - 6 * DAY),
      bucket(today - 29 * DAY),
      this.deps.prizes.machineMoney({ id: row.id, operator_id: row.operator_id, time_zone: machine.timeZone }, today - 29 * DAY),
      this.deps.screenAds.machineMoney({ id: row.id, machine_no: machine.machineNo, operator_id: row.operator_id }),
    ]);
    const aisles = inv.aisles;
    const capacity = aisles.reduce((n, a) => n + a.maxStock, 0);
    const stock = aisles.reduce((n, a) => n + a.currentStock, 0);
    return {
      machine: {
        machineNo: machine.machineNo,
        name: machine.name,
        status: machine.status,
        lastSeen: machine.lastSeen,
        effectivelyDown: row.last_seen === null || now - row.last_seen > DOWN_AFTER_MS,
        location: machine.location,
        timeZone: machine.timeZone,
      },
      sales: { today: todayB, last7Days: week, last30Days: month },
      aisles: {
        total: aisles.length,
        low: aisles.filter((a) => a.low && a.currentStock > 0).map((a) => a.aisleNo),
        out: aisles.filter((a) => a.currentStock === 0).map((a) => a.aisleNo),
        faulted: aisles.filter((a) => a.faulted).map((a) => a.aisleNo),
        stockUnits: stock,
        capacityUnits: capacity,
        fillPercent: capacity === 0 ? 0 : Math.round((stock / capacity) * 1000) / 10,
      },
      money: {
        currency: row.currency,
        sales30Days: month.gross,
        screenAds,
        freeProduct: prizes.freeProduct,
        game: prizes.game,
      },
    };
  }

  /**
   * The hosted operator view's address — the console's page of this machine (docs/decisions/console.md) —
   * as a QR code. `origin` (the request's) stands in when no public address is configured.
   */
  async operatorQr(p: Principal, machineNo: string, origin: string, size: number): Promise<{ png: Buffer; text: string }> {
    const m = await this.deps.machines.get(p, machineNo);
    const text = `${this.baseUrl(origin)}/console/machines/${encodeURIComponent(m.machineNo)}`;
    return { png: await qrPng(text, size), text };
  }

  /** The buyer chat address for this machine, with its stable qrId, as a QR code. */
  async advertiseQr(p: Principal, machineNo: string, origin: string, size: number): Promise<{ png: Buffer; text: string }> {
    const m = await this.deps.machines.get(p, machineNo);
    const text = `${this.baseUrl(origin)}/advertise?machine=${encodeURIComponent(m.machineNo)}&qr=${advertiseQrId(m.machineNo, this.deps.config.dataKey)}`;
    return { png: await qrPng(text, size), text };
  }

  /** The address people reach this service at: configured, else the request's own origin. */
  private baseUrl(origin: string): string {
    return this.deps.config.publicBaseUrl ?? origin;
  }
}
