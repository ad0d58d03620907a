import {
  PRIZE_MECHANICS,
  PRIZE_REFUSALS,
  type Clock,
  type PrizeEvent,
  type PrizeEventsData,
  type PrizeMechanic,
  type PrizeRefusal,
  type PrizeStateData,
} from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import type { AuditLog } from '../../http/audit.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import { badRequest, machineNotFound } from '../../http/errors.ts';
import { centsToDecimal, decimalToCents } from '../../http/money.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { periodBounds, periodOf, periodsBetween } from '../calendar/period.ts';
import type { CabinetCaller } from '../gateway/device-auth.ts';
import type { MachineRef } from '../machines/machines.repo.ts';
import { visibleMachine } from '../machines/ownership.ts';
import type { EventTally } from './prizes.repo.ts';
import { MAX_CLOCK_SKEW_MS, budgetUse, funnelOf, judgeEvent, localDayBounds, parseEventTime, type MechanicSettings } from './prizes.rules.ts';
import type { FreeProductMoney, GameMoney, PrizeMechanics, PrizesReport, PrizesReportQuery, PutPrizeMechanicsBody } from './prizes.schemas.ts';

const DAY = 86_400_000;
/** The longest window one report covers. */
const MAX_REPORT_DAYS = 366;

export interface PrizesDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
}

type Mechanics = Partial<Record<PrizeMechanic, MechanicSettings>>;
type GameMachine = Pick<MachineRef, 'id' | 'operator_id' | 'time_zone'>;

/**
 * The kiosk prize game (spec 1 §4.3 prize mechanics, §4.8 prizes report; docs/decisions/finance.md
 * "Prizes"): the operator's per-machine settings, the cabinet's game events judged against them, the
 * funnel/cost/budget report and the operator view's free-product and game figures.
 */
export class PrizesService {
  constructor(private readonly deps: PrizesDeps) {}

  async settings(p: Principal, machineNo: string): Promise<PrizeMechanics> {
    const m = await this.visibleMachine(p, machineNo);
    return this.settingsView(this.deps.store.repos, m);
  }

  /** Replaces the machine's prize settings whole (a mechanic left out is off). */
  async putSettings(p: Principal, machineNo: string, body: PutPrizeMechanicsBody): Promise<PrizeMechanics> {
    const m = await this.visibleMachine(p, machineNo);
    const now = this.deps.clock.now();
    const mechanics = PRIZE_MECHANICS.flatMap((mechanic) => {
      const s = body.mechanics[mechanic];
      return s ? [{ mechanic, enabled: s.enabled, maxWinsPerDay: s.maxWinsPerDay ?? null, maxPrizeCents: s.maxPrizeValue ?? null }] : [];
    });
    await this.deps.store.transaction(async (tx) => {
      await tx.prizes.lockSettings(m.id);
      await tx.prizes.replaceSettings(m.id, body.monthlyBudget ?? null, mechanics, now);
      await this.deps.audit.record(tx, p, 'prizes.mechanics', `machine:${m.machine_no}`);
    });
    return this.settingsView(this.deps.store.repos, m);
  }

  /** What the cabinet must follow now (`GET /cabinet/prize-mechanics`). */
  async cabinetState(caller: CabinetCaller): Promise<PrizeStateData> {
    const m = await this.cabinetMachine(caller);
    return cabinetView(await this.stateOf(this.deps.store.repos, m, this.deps.clock.now()));
  }

  /**
   * A batch of the cabinet's game events, in order, once each by `eventId` (a retried event keeps its
   * first verdict). Each new event is judged against the settings, today's wins and the period's spend
   * as they stand after the events before it; refused ones are kept with their reason and counted
   * nowhere. One transaction, one batch at a time per machine.
   */
  async recordEvents(caller: CabinetCaller, events: readonly PrizeEvent[]): Promise<PrizeEventsData> {
    const now = this.deps.clock.now();
    const parsed = events.map((e, i) => {
      const at = parseEventTime(e.at);
      if (at === null) throw badRequest(undefined, [{ path: `events.${i}.at`, message: 'must be epoch milliseconds or an ISO 8601 time with an offset' }]);
      return { e, at };
    });
    const m = await this.cabinetMachine(caller);
    return this.deps.store.transaction(async (tx) => {
      await tx.prizes.lockSettings(m.id);
      const mechanics = await this.mechanicsOf(tx, m.id);
      const budgetCents = (await tx.prizes.settingsOf(m.id))?.budgetCents ?? null;
      const stored = new Map((await tx.prizes.eventsByIds(m.id, [...new Set(events.map((e) => e.eventId))])).map((r) => [r.event_id, r.refusal]));
      const wins = new Map<string, number>();
      const spent = new Map<string, number>();
      let accepted = 0;
      let duplicates = 0;
      const refused: { eventId: string; reason: PrizeRefusal }[] = [];
      for (const { e, at } of parsed) {
        if (stored.has(e.eventId)) {
          duplicates++;
          const prior = stored.get(e.eventId);
          if (isRefusal(prior)) refused.push({ eventId: e.eventId, reason: prior });
          continue;
        }
        const mechanic = e.mechanic ?? null;
        const win = e.kind === 'win';
        const prizeCents = !win
          ? 0
          : e.prizeValue !== undefined
            ? (decimalToCents(e.prizeValue) ?? 0)
            : await tx.prizes.productPrizeCents(m.id, m.operator_id, e.aisleNo!);
        const day = localDayBounds(at, m.time_zone);
        const dayKey = `${mechanic}@${day.start}`;
        const period = periodBounds(periodOf(at));
        if (win && mechanic !== null && !wins.has(dayKey)) wins.set(dayKey, await tx.prizes.winsBetween(m.id, mechanic, day.start, day.end));
        if (win && !spent.has(periodOf(at))) spent.set(periodOf(at), (await tx.prizes.spentBetween([m.id], period.start, period.end)).get(m.id) ?? 0);
        const refusal = judgeEvent({
          kind: e.kind,
          mechanic,
          at,
          now,
          mechanics,
          prizeCents,
          winsThatDay: wins.get(dayKey) ?? 0,
          spentThatPeriod: spent.get(periodOf(at)) ?? 0,
          budgetCents,
        });
        const inserted = await tx.prizes.insertEvent({
          id: newId('pze', now),
          machine_id: m.id,
          event_id: e.eventId,
          kind: e.kind,
          mechanic,
          at,
          aisle_no: e.aisleNo ?? null,
          prize_cents: win && refusal === null ? prizeCents : null,
          refusal,
          received_at: now,
        });
        if (!inserted) {
          // another batch recorded this id first (a machine without settings is not locked): its verdict stands
          duplicates++;
          const prior = (await tx.prizes.eventsByIds(m.id, [e.eventId]))[0]?.refusal ?? null;
          if (isRefusal(prior)) refused.push({ eventId: e.eventId, reason: prior });
          stored.set(e.eventId, prior);
          continue;
        }
        stored.set(e.eventId, refusal);
        if (refusal !== null) {
          refused.push({ eventId: e.eventId, reason: refusal });
          continue;
        }
        accepted++;
        if (win) {
          wins.set(dayKey, (wins.get(dayKey) ?? 0) + 1);
          spent.set(periodOf(at), (spent.get(periodOf(at)) ?? 0) + prizeCents);
        }
      }
      return { accepted, duplicates, refused, state: cabinetView(await this.stateOf(tx, m, now)) };
    });
  }

  /** The funnel, gross revenue, prize cost and budget use over a window (spec 1 §4.8). */
  async report(p: Principal, q: PrizesReportQuery): Promise<PrizesReport> {
    const { from, to } = this.windowOf(q);
    const repos = this.deps.store.repos;
    let machines: { id: string; machine_no: string }[];
    if (q.machineNo !== undefined) {
      const m = await this.visibleMachine(p, q.machineNo);
      machines = [m];
    } else {
      machines = await repos.prizes.gameMachines(ownerFilter(p), from, to);
    }
    const ids = machines.map((m) => m.id);
    const [tally, sales, refusals, budgets] = await Promise.all([
      repos.prizes.tally(ids, from, to),
      repos.prizes.salesBetween(ids, from, to),
      repos.prizes.refusals(ids, from, to),
      repos.prizes.budgetsOf(ids),
    ]);
    const periods = periodsBetween(from, to);
    const spentByPeriod = await Promise.all(periods.map((period) => repos.prizes.spentBetween(ids, periodBounds(period).start, periodBounds(period).end)));
    const sum = (rows: readonly EventTally[]) => {
      const count = (kind: string) => rows.filter((r) => r.kind === kind).reduce((n, r) => n + r.n, 0);
      const prizeCostCents = rows.filter((r) => r.kind === 'win').reduce((n, r) => n + r.prize_cents, 0);
      return { funnel: funnelOf({ scans: count('scan'), entries: count('entry'), plays: count('play'), wins: count('win') }), prizeCostCents };
    };
    const total = sum(tally);
    const grossCents = [...sales.values()].reduce((n, c) => n + c, 0);
    return {
      from: formatTimestamp(from)!,
      to: formatTimestamp(to)!,
      machineNo: q.machineNo ?? null,
      funnel: total.funnel,
      grossRevenue: centsToDecimal(grossCents),
      grossRevenueCents: grossCents,
      prizeCost: centsToDecimal(total.prizeCostCents),
      prizeCostCents: total.prizeCostCents,
      byMechanic: PRIZE_MECHANICS.map((mechanic) => {
        const s = sum(tally.filter((r) => r.mechanic === mechanic));
        return { mechanic, funnel: s.funnel, prizeCost: centsToDecimal(s.prizeCostCents), prizeCostCents: s.prizeCostCents };
      }),
      byMachine: machines.map((m) => {
        const s = sum(tally.filter((r) => r.machine_id === m.id));
        const gross = sales.get(m.id) ?? 0;
        return {
          machineNo: m.machine_no,
          funnel: s.funnel,
          grossRevenue: centsToDecimal(gross),
          grossRevenueCents: gross,
          prizeCost: centsToDecimal(s.prizeCostCents),
          prizeCostCents: s.prizeCostCents,
        };
      }),
      refused: Object.fromEntries(PRIZE_REFUSALS.map((r) => [r, refusals.find((x) => x.refusal === r)?.n ?? 0])) as PrizesReport['refused'],
      budget: machines.flatMap((m) =>
        periods.map((period, i) => {
          const budgetCents = budgets.get(m.id) ?? null;
          const spentCents = spentByPeriod[i]!.get(m.id) ?? 0;
          const use = budgetUse(budgetCents, spentCents);
          return {
            machineNo: m.machine_no,
            period,
            budget: budgetCents === null ? null : centsToDecimal(budgetCents),
            budgetCents,
            spent: centsToDecimal(spentCents),
            spentCents,
            left: use.leftCents === null ? null : centsToDecimal(use.leftCents),
            leftCents: use.leftCents,
            used: use.used,
          };
        }),
      ),
    };
  }

  /** The operator view's free-product and game blocks for one machine (its 30-day window starts at `from`). */
  async machineMoney(machine: GameMachine, from: number): Promise<{ freeProduct: FreeProductMoney; game: GameMoney }> {
    const repos = this.deps.store.repos;
    const now = this.deps.clock.now();
    const [free, tally, state, mechanics, budgetCents] = await Promise.all([
      repos.prizes.freeDrops(machine.id, from),
      repos.prizes.tally([machine.id], from, now + MAX_CLOCK_SKEW_MS + 1),
      this.stateOf(repos, machine, now),
      this.mechanicsOf(repos, machine.id),
      repos.prizes.settingsOf(machine.id).then((s) => s?.budgetCents ?? null),
    ]);
    const count = (kind: string) => tally.filter((r) => r.kind === kind).reduce((n, r) => n + r.n, 0);
    const prizeCents = tally.filter((r) => r.kind === 'win').reduce((n, r) => n + r.prize_cents, 0);
    const period = periodBounds(periodOf(now));
    const spentCents = (await repos.prizes.spentBetween([machine.id], period.start, period.end)).get(machine.id) ?? 0;
    return {
      freeProduct: { drops30Days: free.drops, cost30Days: centsToDecimal(free.costCents), costCents30Days: free.costCents },
      game: {
        plays30Days: count('play'),
        prizeCost30Days: centsToDecimal(prizeCents),
        prizeCostCents30Days: prizeCents,
        scans30Days: count('scan'),
        entries30Days: count('entry'),
        wins30Days: count('win'),
        mechanicsEnabled: PRIZE_MECHANICS.filter((m) => mechanics[m]?.enabled),
        period: state.period,
        monthlyBudget: budgetCents === null ? null : centsToDecimal(budgetCents),
        spentThisPeriod: centsToDecimal(spentCents),
        budgetLeft: state.budgetLeft,
      },
    };
  }

  /** `[from, to)` of a report: a period, two UTC days (both included), or the current period. */
  private windowOf(q: PrizesReportQuery): { from: number; to: number } {
    if (q.period !== undefined && (q.from !== undefined || q.to !== undefined))
      throw badRequest(undefined, [{ path: 'query.period', message: 'send either period or from/to, not both' }]);
    if (q.period !== undefined) {
      const b = periodBounds(q.period);
      return { from: b.start, to: b.end };
    }
    if (q.from === undefined && q.to === undefined) {
      const b = periodBounds(periodOf(this.deps.clock.now()));
      return { from: b.start, to: b.end };
    }
    if (q.from === undefined || q.to === undefined)
      throw badRequest(undefined, [{ path: q.from === undefined ? 'from' : 'to', message: 'from and to go together' }]);
    const from = Date.parse(`${q.from}T00:00:00Z`);
    const to = Date.parse(`${q.to}T00:00:00Z`) + DAY;
    if (to <= from) throw badRequest(undefined, [{ path: 'query.to', message: 'must not be before from' }]);
    if (to - from > MAX_REPORT_DAYS * DAY) throw badRequest(undefined, [{ path: 'query.to', message: `a report covers at most ${MAX_REPORT_DAYS} days` }]);
    return { from, to };
  }

  private async visibleMachine(p: Principal, machineNo: string): Promise<MachineRef> {
    return visibleMachine(this.deps.store.repos.machines, p, machineNo);
  }

  private async cabinetMachine(caller: CabinetCaller): Promise<MachineRef> {
    const m = await this.deps.store.repos.machines.machineById(caller.machineId);
    if (!m) throw machineNotFound();
    return m;
  }

  private async mechanicsOf(repos: Repos, machineId: string): Promise<Mechanics> {
    const out: Mechanics = {};
    for (const r of await repos.prizes.mechanicsOf([machineId])) {
      if (!isMechanic(r.mechanic)) continue;
      out[r.mechanic] = { enabled: r.enabled === 1, maxWinsPerDay: r.max_wins_per_day, maxPrizeCents: r.max_prize_cents };
    }
    return out;
  }

  /** Each mechanic as it runs now, with today's wins (machine-local day), and the period's budget left. */
  private async stateOf(
    repos: Repos,
    m: GameMachine,
    now: number,
  ): Promise<PrizeStateData & { winsToday: Record<PrizeMechanic, number>; spentCents: number; budgetCents: number | null }> {
    const mechanics = await this.mechanicsOf(repos, m.id);
    const budgetCents = (await repos.prizes.settingsOf(m.id))?.budgetCents ?? null;
    const day = localDayBounds(now, m.time_zone);
    const today = await repos.prizes.tally([m.id], day.start, day.end);
    const period = periodOf(now);
    const b = periodBounds(period);
    const spentCents = (await repos.prizes.spentBetween([m.id], b.start, b.end)).get(m.id) ?? 0;
    const winsToday = Object.fromEntries(
      PRIZE_MECHANICS.map((x) => [x, today.filter((r) => r.kind === 'win' && r.mechanic === x).reduce((n, r) => n + r.n, 0)]),
    ) as Record<PrizeMechanic, number>;
    const left = budgetUse(budgetCents, spentCents).leftCents;
    return {
      mechanics: Object.fromEntries(
        PRIZE_MECHANICS.map((x) => {
          const s = mechanics[x];
          const cap = s?.maxWinsPerDay ?? null;
          return [
            x,
            {
              enabled: s?.enabled ?? false,
              maxWinsPerDay: cap,
              winsLeftToday: cap === null ? null : Math.max(0, cap - winsToday[x]),
              maxPrizeValue: s?.maxPrizeCents == null ? null : centsToDecimal(s.maxPrizeCents),
            },
          ];
        }),
      ) as PrizeStateData['mechanics'],
      period,
      budgetLeft: left === null ? null : centsToDecimal(left),
      winsToday,
      spentCents,
      budgetCents,
    };
  }

  private async settingsView(repos: Repos, m: MachineRef): Promise<PrizeMechanics> {
    const s = await repos.prizes.settingsOf(m.id);
    const state = await this.stateOf(repos, m, this.deps.clock.now());
    const mechanics = await this.mechanicsOf(repos, m.id);
    const left = budgetUse(state.budgetCents, state.spentCents).leftCents;
    return {
      machineNo: m.machine_no,
      mechanics: Object.fromEntries(
        PRIZE_MECHANICS.map((x) => {
          const v = mechanics[x];
          const cap = v?.maxPrizeCents ?? null;
          return [
            x,
            {
              enabled: v?.enabled ?? false,
              maxWinsPerDay: v?.maxWinsPerDay ?? null,
              maxPrizeValue: cap === null ? null : centsToDecimal(cap),
              maxPrizeValueCents: cap,
              winsToday: state.winsToday[x],
            },
          ];
        }),
      ) as PrizeMechanics['mechanics'],
      monthlyBudget: state.budgetCents === null ? null : centsToDecimal(state.budgetCents),
      monthlyBudgetCents: state.budgetCents,
      period: state.period,
      spent: centsToDecimal(state.spentCents),
      spentCents: state.spentCents,
      budgetLeft: left === null ? null : centsToDecimal(left),
      budgetLeftCents: left,
      updatedAt: s === null ? null : formatTimestamp(s.updatedAt),
    };
  }
}

function cabinetView(s: PrizeStateData): PrizeStateData {
  return { mechanics: s.mechanics, period: s.period, budgetLeft: s.budgetLeft };
}

function isMechanic(s: string): s is PrizeMechanic {
  return (PRIZE_MECHANICS as readonly string[]).includes(s);
}

function isRefusal(s: string | null | undefined): s is PrizeRefusal {
  return s != null && (PRIZE_REFUSALS as readonly string[]).includes(s);
}
