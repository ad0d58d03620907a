import type { PrizeMechanic } from '@vend/protocol';
import type { Insertable } from 'kysely';
import type { PrizeEventsTable } from '../../db/schema.ts';
import { SeededRandom } from '../../random.ts';
import type { Repos } from '../../repos.ts';
import { periodOf } from '../calendar/period.ts';
import { judgeEvent, localDayBounds, type MechanicSettings } from './prizes.rules.ts';

const DAY = 86_400_000;
const SEED = 1316;

interface SeedGame {
  machineId: string;
  timeZone: string;
  budgetCents: number;
  mechanics: Partial<Record<PrizeMechanic, MechanicSettings>>;
  /** Scans a day, low–high. */
  scans: [number, number];
}

/** Alice's station kiosk runs spin-to-win and a loyalty card; her library kiosk a scratch card on a tight budget. */
const GAMES: SeedGame[] = [
  {
    machineId: 'mch_sbx_sbxalice0001',
    timeZone: 'America/New_York',
    budgetCents: 15_000,
    mechanics: {
      spinToWin: { enabled: true, maxWinsPerDay: 6, maxPrizeCents: 300 },
      loyaltyStamp: { enabled: true, maxWinsPerDay: 3, maxPrizeCents: 325 },
    },
    scans: [8, 22],
  },
  {
    machineId: 'mch_sbx_sbxalice0003',
    timeZone: 'America/Los_Angeles',
    budgetCents: 4_000,
    mechanics: { scratchCard: { enabled: true, maxWinsPerDay: 3, maxPrizeCents: 200 } },
    scans: [4, 12],
  },
];

/**
 * The prize-game part of the sandbox data set: mechanics and budgets on two of alice's kiosks and 30
 * days of game events judged by the same rules as the cabinet leg (so some wins are refused at the
 * daily cap or once the tight budget is spent), so the prizes report and the operator view tell a
 * story on first start. Deterministic from the seed day.
 */
export async function seedPrizeGame(tx: Repos, now: number): Promise<void> {
  const rng = new SeededRandom(SEED);
  const today = Math.floor(now / DAY) * DAY;
  for (const g of GAMES) {
    const mechanics = Object.entries(g.mechanics).map(([mechanic, s]) => ({ mechanic, ...s }));
    await tx.prizes.replaceSettings(g.machineId, g.budgetCents, mechanics, today - 30 * DAY);
    const names = Object.keys(g.mechanics) as PrizeMechanic[];
    const rows: Insertable<PrizeEventsTable>[] = [];
    const wins = new Map<string, number>();
    const spent = new Map<string, number>();
    let n = 0;
    const push = (kind: string, mechanic: PrizeMechanic | null, at: number, prizeCents: number | null, refusal: string | null) => {
      n++;
      rows.push({
        id: `pze_sbx_${g.machineId.slice(-4)}_${String(n).padStart(5, '0')}`,
        machine_id: g.machineId,
        event_id: `sbx-${String(n).padStart(5, '0')}`,
        kind,
        mechanic,
        at,
        aisle_no: null,
        prize_cents: prizeCents,
        refusal,
        received_at: at,
      });
    };
    for (let day = 29; day >= 0; day--) {
      const scans = rng.int(...g.scans);
      for (let i = 0; i < scans; i++) {
        const at = Math.min(today - day * DAY + rng.int(7 * 3600, 21 * 3600) * 1000, now - 600_000);
        push('scan', null, at, null, null);
        if (!rng.chance(70)) continue;
        const mechanic = rng.pick(names);
        push('entry', mechanic, at + 20_000, null, null);
        const plays = rng.int(1, 2);
        for (let p = 0; p < plays; p++) {
          push('play', mechanic, at + 40_000 + p * 30_000, null, null);
          if (!rng.chance(25)) continue;
          const winAt = at + 50_000 + p * 30_000;
          const prizeCents = rng.pick([100, 150, 200, 250, 325]);
          const dayKey = `${mechanic}@${localDayBounds(winAt, g.timeZone).start}`;
          const period = periodOf(winAt);
          const refusal = judgeEvent({
            kind: 'win',
            mechanic,
            at: winAt,
            now,
            mechanics: g.mechanics,
            prizeCents,
            winsThatDay: wins.get(dayKey) ?? 0,
            spentThatPeriod: spent.get(period) ?? 0,
            budgetCents: g.budgetCents,
          });
          push('win', mechanic, winAt, refusal === null ? prizeCents : null, refusal);
          if (refusal !== null) continue;
          wins.set(dayKey, (wins.get(dayKey) ?? 0) + 1);
          spent.set(period, (spent.get(period) ?? 0) + prizeCents);
        }
      }
    }
    await tx.prizes.insertEvents(rows);
  }
}
