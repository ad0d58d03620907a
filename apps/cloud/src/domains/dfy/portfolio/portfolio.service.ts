import type { Clock } from '@vend/protocol';
import type { DfyDealRow } from '../../../db/schema.ts';
import type { AuditLog } from '../../../http/audit.ts';
import type { Principal } from '../../../http/principal.ts';
import { formatTimestamp } from '../../../http/time-format.ts';
import type { Parsed } from '../../../http/route.ts';
import type { AppStore } from '../../../repos.ts';
import type { DealState } from '../deals/deal-model.ts';
import { TERMINAL_STAGES } from '../deals/deal-vocabulary.ts';
import type { DfyService } from '../deals/dfy.service.ts';
import { DEFAULT_SETTINGS, type PortfolioSettings } from '../deals/dfy.rules.ts';
import type { Portfolio, Securities, SettingsBody } from '../deals/dfy.schemas.ts';
import { conciergeFeesSince, dealSubject, subjectMode } from '../modes/mode-inputs.ts';
import { poolFee } from '../pool/pool-fee.ts';

export interface DfyPortfolioDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** The settings as automation reads them (defaults merged in). */
  settings: Pick<DfyService, 'settingsOf'>;
}

const usd = (cents: number) => Math.round(cents) / 100;

/**
 * The operator's done-for-you portfolio (spec 3 §2, §4; docs/decisions/dfy.md, dfy-modes.md): its settings
 * (what automation may do alone), and the portfolio and securities views — machines owned, deals in flight,
 * capital, month-to-date revenue, the cost lines (pool fee, concierge fees, supplier orders), net, yield,
 * profit per machine, mode counts and the checkpoint inbox's counts. Reads only, but for the settings.
 */
export class DfyPortfolioService {
  constructor(private readonly deps: DfyPortfolioDeps) {}

  async getSettings(p: Principal) {
    const json = await this.deps.store.repos.dfy.settings(p.operatorId);
    const row = json ? (JSON.parse(json) as PortfolioSettings & { updatedAt: string }) : null;
    return { ...(row ?? DEFAULT_SETTINGS), updatedAt: row?.updatedAt ?? null };
  }

  async putSettings(p: Principal, body: SettingsBody) {
    const now = this.deps.clock.now();
    const stored = { ...body, updatedAt: formatTimestamp(now)! };
    await this.deps.store.transaction(async (tx) => {
      await tx.dfy.putSettings(p.operatorId, JSON.stringify(stored), now);
      await this.deps.audit.record(tx, p, 'dfy.settings', `portfolio:${p.operatorId}`);
    });
    return stored;
  }

  async portfolio(p: Principal): Promise<Parsed<typeof Portfolio>> {
    const { securities: _, ...view } = await this.views(p);
    return view;
  }

  async securities(p: Principal): Promise<Parsed<typeof Securities>> {
    const { securities, ...view } = await this.views(p);
    return { ...view, ...securities };
  }

  private async views(p: Principal) {
    const repos = this.deps.store.repos;
    const now = this.deps.clock.now();
    const d = new Date(now);
    const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    const rows = await repos.dfy.allDeals(p.operatorId);
    const deals = rows.map((r) => ({ row: r, s: stateOf(r) }));
    const settings = await this.deps.settings.settingsOf(p.operatorId);
    const byStage: Record<string, number> = {};
    for (const { s } of deals) byStage[s.stage] = (byStage[s.stage] ?? 0) + 1;
    const live = deals.filter(({ s }) => s.stage === 'live' && s.machineNo);
    const revenue = await repos.dfy.revenueSince(
      live.map(({ row }) => row.machine_id).filter((x): x is string => x !== null),
      monthStart,
    );
    const inventory = await repos.dfyInventory.costsSince(p.operatorId, monthStart);
    let poolFeeCents = 0;
    let poolFeeEstimate = false;
    const machines = live.map(({ row, s }) => {
      const capitalUsd = s.priceUsd;
      const revenueCents = revenue.get(row.machine_id ?? '') ?? 0;
      const revenueMtdUsd = usd(revenueCents);
      // supplier orders count at their estimate until received
      const inv = inventory.get(row.machine_id ?? '') ?? { cents: 0, actualCents: 0, estimate: false };
      // the pool fee, on pool-funded machines only: on the costs at estimate, and again on the settled actuals
      const poolFunded = s.origin === 'pool';
      const fee = poolFunded ? poolFee(revenueCents, inv.cents).feeCents : 0;
      const feeActual = poolFunded ? poolFee(revenueCents, inv.actualCents).feeCents : 0;
      poolFeeCents += fee;
      if (poolFunded && inv.estimate) poolFeeEstimate = true;
      return {
        machineNo: s.machineNo!,
        dealId: s.id,
        capitalUsd,
        revenueMtdUsd,
        yieldPct: capitalUsd > 0 ? Math.round((revenueMtdUsd / capitalUsd) * 10_000) / 100 : 0,
        poolFunded,
        poolFeeMtdUsd: usd(fee),
        profitMtdUsd: usd(revenueCents - inv.cents - fee),
        profitActualMtdUsd: usd(revenueCents - inv.actualCents - feeActual),
        hasEstimates: inv.estimate,
      };
    });
    const capital = deals
      .filter(({ s }) => s.stage !== 'cancelled' && (s.money.machinePaidUsd > 0 || s.money.preorderPaidUsd > 0))
      .reduce((a, { s }) => a + s.priceUsd, 0);
    const revenueMtdUsd = usd(machines.reduce((a, m) => a + Math.round(m.revenueMtdUsd * 100), 0));
    const costLines = [
      { name: 'pool fee (2%, pool-funded machines only)', usd: usd(poolFeeCents), estimate: poolFeeEstimate },
      {
        name: 'concierge fees (99 USD/month prorated by enrolled days)',
        usd: usd(await conciergeFeesSince(repos, p.operatorId, monthStart, now)),
        estimate: false,
      },
      {
        name: 'inventory supplier orders (55% of retail until received)',
        usd: usd([...inventory.values()].reduce((a, c) => a + c.cents, 0)),
        estimate: [...inventory.values()].some((c) => c.estimate),
      },
    ];
    const cost = costLines.reduce((a, c) => a + c.usd, 0);
    const { rows: open } = await repos.dfy.checkpoints({ operatorId: p.operatorId, resolved: false }, 10_000, 0);
    const byKind: Record<string, number> = {};
    for (const c of open) byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
    const profit = usd(machines.reduce((a, m) => a + Math.round(m.profitMtdUsd * 100), 0));
    const profitActual = usd(machines.reduce((a, m) => a + Math.round(m.profitActualMtdUsd * 100), 0));
    const modeCounts = { auto: 0, hybrid: 0, manual: 0 };
    for (const { row, s } of deals) if (s.stage !== 'cancelled') modeCounts[(await subjectMode(repos, dealSubject(row), settings)).mode.label]++;
    return {
      machinesOwned: live.length,
      dealsInFlight: deals.filter(({ s }) => !TERMINAL_STAGES.includes(s.stage)).length,
      dealsByStage: byStage,
      capitalValueUsd: capital,
      revenueMtdUsd,
      costLines,
      netMtdUsd: usd(Math.round(revenueMtdUsd * 100) - Math.round(cost * 100)),
      perMachineYield: machines.map(({ machineNo, dealId, capitalUsd, revenueMtdUsd, yieldPct }) => ({
        machineNo,
        dealId,
        capitalUsd,
        revenueMtdUsd,
        yieldPct,
      })),
      checkpointInbox: { open: open.length, byKind },
      securities: {
        machines,
        profitMtdUsd: profit,
        profitActualMtdUsd: profitActual,
        hasEstimates: machines.some((m) => m.hasEstimates),
        fleetRollups: {
          machines: machines.length,
          revenueMtdUsd,
          profitMtdUsd: profit,
          avgYieldPct: machines.length ? Math.round((machines.reduce((a, m) => a + m.yieldPct, 0) / machines.length) * 100) / 100 : 0,
        },
        modeCounts,
      },
    };
  }
}

function stateOf(row: DfyDealRow): DealState {
  return JSON.parse(row.state_json) as DealState;
}
