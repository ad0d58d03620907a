import type { Clock } from '@vend/protocol';
import { ownerFilter, requireOwned } from '../../http/authenticate.ts';
import { AppError, notFound } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore } from '../../repos.ts';
import { impressionsPerPlayOf, screenOf } from '../machines/screen.ts';
import { elapsedFlightMs, estMonthlyValueCents, estRevenueCents, inFlight, MONTH_MS, resolveTargets, type FleetScreen } from './campaign.rules.ts';
import type { CampaignWithOwner } from './campaigns.repo.ts';
import type { CampaignReport, CampaignStatus, ReportsSummary, TargetGeo } from './campaigns.schemas.ts';

export interface CampaignReportsDeps {
  store: AppStore;
  clock: Clock;
}

const DAY = 86_400_000;
const parseJson = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));
/** Net CPM in thousandths × impressions → cents: millis / 1000 units per 1000 impressions, × 100 cents. */
const cpmMillisToCents = (cpmMillisTimesImpressions: number) => cpmMillisTimesImpressions / 10_000;
const round2 = (n: number) => Math.round(n * 100) / 100;

function fleetOf(rows: { id: string; machine_no: string; screen_json: string | null }[]): FleetScreen[] {
  return rows.map((m) => {
    const s = screenOf(m);
    return { id: m.id, machineNo: m.machine_no, postalCode: s?.address.postalCode ?? null, city: s?.address.city ?? null };
  });
}

function flightOf(c: CampaignWithOwner) {
  return { status: c.status as CampaignStatus, flightStart: c.flight_start, flightEnd: c.flight_end, activatedAt: c.activated_at, endedAt: c.ended_at };
}

/** Campaign reports (spec 1 §2.6), the loop-wide summary, and a machine's screen-ad money for the operator view. */
export class CampaignReportsService {
  constructor(private readonly deps: CampaignReportsDeps) {}

  async report(p: Principal, id: string): Promise<CampaignReport> {
    const c = requireOwned(p, await this.deps.store.repos.campaigns.byId(id), () => notFound('Campaign'));
    const [report] = await this.reports([c]);
    return report!;
  }

  async summary(p: Principal, operatorEmail: string | undefined): Promise<ReportsSummary> {
    const repos = this.deps.store.repos;
    let operatorId = ownerFilter(p);
    if (operatorEmail !== undefined) {
      if (!p.admin) throw new AppError('forbidden', 'The operatorEmail filter is for admin credentials only');
      const owner = await repos.machines.operatorByEmail(operatorEmail);
      if (!owner) return { campaigns: [], loop: emptySplit(), estRevenue: 0 };
      operatorId = owner.id;
    }
    const campaigns = await this.reports(await repos.campaigns.ofOperator(operatorId));
    const bySource = await repos.adDelivery.playsBySourceMachine(operatorId);
    const loop = emptySplit();
    let programmaticCents = 0;
    for (const r of bySource) {
      const key = r.source as 'direct-sold' | 'programmatic' | 'house';
      const ipp = impressionsPerPlayOf(screenOf(r));
      loop.plays += r.plays;
      loop[key].plays += r.plays;
      loop[key].estImpressions += r.plays * ipp;
      if (key === 'programmatic') programmaticCents += cpmMillisToCents(r.cpm_millis * ipp);
    }
    for (const key of ['direct-sold', 'programmatic', 'house'] as const) {
      loop[key].share = loop.plays === 0 ? 0 : round2(loop[key].plays / loop.plays);
      loop[key].estImpressions = round2(loop[key].estImpressions);
    }
    loop.programmatic.estRevenue = centsToDecimal(Math.round(programmaticCents));
    const directCents = campaigns.reduce((s, c) => s + Math.round(c.estRevenue * 100), 0);
    return { campaigns, loop, estRevenue: centsToDecimal(directCents + Math.round(programmaticCents)) };
  }

  /** One report per campaign, with two queries for all of them (plays ever, plays in the last 30 days). */
  private async reports(campaigns: CampaignWithOwner[]): Promise<CampaignReport[]> {
    const repos = this.deps.store.repos;
    const now = this.deps.clock.now();
    const ids = campaigns.map((c) => c.id);
    const [plays, recent] = await Promise.all([repos.adDelivery.playsByCampaignMachine(ids), repos.adDelivery.playsByCampaignMachine(ids, now - 30 * DAY)]);
    const fleets = new Map<string, FleetScreen[]>();
    for (const operatorId of new Set(campaigns.map((c) => c.operator_id))) fleets.set(operatorId, fleetOf(await repos.campaigns.fleetScreens(operatorId)));
    return campaigns.map((c) => {
      const mine = plays.filter((r) => r.campaign_id === c.id);
      const impressions = mine.reduce((s, r) => s + r.plays * impressionsPerPlayOf(screenOf(r)), 0);
      const impressions30 = recent.filter((r) => r.campaign_id === c.id).reduce((s, r) => s + r.plays * impressionsPerPlayOf(screenOf(r)), 0);
      const machines = resolveTargets(
        { machines: parseJson<string[]>(c.target_machines_json), geo: parseJson<TargetGeo>(c.target_geo_json) },
        fleets.get(c.operator_id)!,
      ).length;
      const last = mine.reduce((m, r) => Math.max(m, r.last_play), -1);
      return {
        campaignId: c.id,
        name: c.name,
        status: c.status as CampaignStatus,
        pricingModel: c.pricing_model as CampaignReport['pricingModel'],
        machines,
        plays: mine.reduce((s, r) => s + r.plays, 0),
        estImpressions: round2(impressions),
        estRevenue: centsToDecimal(estRevenueCents(c.pricing_model, c.rate_cents, machines, impressions, elapsedFlightMs(flightOf(c), now))),
        estMonthlyValue: centsToDecimal(estMonthlyValueCents(c.pricing_model, c.rate_cents, machines, impressions30)),
        playsByMachine: mine.map((r) => ({ machineNo: r.machine_no, plays: r.plays })),
        lastPlayAt: last < 0 ? null : formatTimestamp(last),
      };
    });
  }

  /**
   * A machine's screen-ad money for the operator view: campaigns on air there now, and what its
   * screen earned in the last 30 days — flat-monthly campaigns' per-machine rate over the days of
   * their flight in the window, CPM campaigns' plays here, programmatic plays at their net CPM.
   */
  async machineMoney(machine: { id: string; machine_no: string; operator_id: string | null }): Promise<{ estRevenue30Days: number; activeCampaigns: number }> {
    if (machine.operator_id === null) return { estRevenue30Days: 0, activeCampaigns: 0 };
    const repos = this.deps.store.repos;
    const now = this.deps.clock.now();
    const since = now - 30 * DAY;
    const fleet = fleetOf(await repos.campaigns.fleetScreens(machine.operator_id));
    const here = fleet.filter((m) => m.id === machine.id);
    const campaigns = (await repos.campaigns.ofOperator(machine.operator_id)).filter(
      (c) => resolveTargets({ machines: parseJson<string[]>(c.target_machines_json), geo: parseJson<TargetGeo>(c.target_geo_json) }, here).length === 1,
    );
    const recent = (
      await repos.adDelivery.playsByCampaignMachine(
        campaigns.map((c) => c.id),
        since,
      )
    ).filter((r) => r.machine_id === machine.id);
    let cents = 0;
    for (const c of campaigns) {
      if (c.pricing_model === 'cpm') {
        const r = recent.find((x) => x.campaign_id === c.id);
        if (r) cents += (c.rate_cents * r.plays * impressionsPerPlayOf(screenOf(r))) / 1000;
      } else {
        const f = flightOf(c);
        const windowMs = elapsedFlightMs(f, now) - elapsedFlightMs(f, since);
        cents += (c.rate_cents * windowMs) / MONTH_MS;
      }
    }
    for (const r of await repos.adDelivery.playsBySourceMachine(machine.operator_id, since, machine.id)) {
      if (r.source === 'programmatic') cents += cpmMillisToCents(r.cpm_millis * impressionsPerPlayOf(screenOf(r)));
    }
    return { estRevenue30Days: centsToDecimal(Math.round(cents)), activeCampaigns: campaigns.filter((c) => inFlight(flightOf(c), now)).length };
  }
}

function emptySplit(): ReportsSummary['loop'] {
  const zero = () => ({ plays: 0, share: 0, estImpressions: 0 });
  return { plays: 0, 'direct-sold': zero(), programmatic: { ...zero(), estRevenue: 0 }, house: zero() };
}
