import { z } from 'zod';
import { PRIZE_MECHANICS, PRIZE_REFUSALS, type PrizeMechanic } from '@vend/protocol';
import { decimalAmount } from '../../http/money.ts';
import { PeriodString } from '../calendar/period.ts';
import { MachineNo } from '../machines/machines.schemas.ts';
import { parseWallClock } from '../calendar/local-time.ts';

/** The most a monthly prize budget may be, and the most one prize may be capped at, in currency units. */
export const BUDGET_MAX = 1_000_000;
export const PRIZE_CAP_MAX = 10_000;

export const PrizeMachineParams = z.object({ machineNo: z.string().min(1).max(128) });

const MechanicBody = z.strictObject({
  enabled: z.boolean(),
  /** Wins this mechanic may award per machine-local day; null or absent: no cap. */
  maxWinsPerDay: z.number().int('must be an integer').min(0, 'must be 0–100000').max(100_000, 'must be 0–100000').nullable().optional(),
  /** The most one prize of this mechanic may cost (decimal); null or absent: no cap. */
  maxPrizeValue: decimalAmount(PRIZE_CAP_MAX).nullable().optional(),
});

/**
 * PUT replaces the machine's settings whole: a mechanic left out is off (and forgets its caps);
 * `monthlyBudget` left out or null means no budget (wins limited by the caps alone).
 */
export const PutPrizeMechanicsBody = z.strictObject({
  mechanics: z.strictObject(
    Object.fromEntries(PRIZE_MECHANICS.map((m) => [m, MechanicBody.optional()])) as Record<PrizeMechanic, z.ZodOptional<typeof MechanicBody>>,
  ),
  monthlyBudget: decimalAmount(BUDGET_MAX).nullable().optional(),
});
export type PutPrizeMechanicsBody = z.infer<typeof PutPrizeMechanicsBody>;

const MechanicView = z.object({
  enabled: z.boolean(),
  maxWinsPerDay: z.number().int().nullable(),
  maxPrizeValue: z.number().nullable(),
  maxPrizeValueCents: z.number().int().nullable(),
  /** Wins accepted today (machine-local day). */
  winsToday: z.number().int(),
});

export const PrizeMechanics = z.object({
  machineNo: z.string(),
  mechanics: z.object(Object.fromEntries(PRIZE_MECHANICS.map((m) => [m, MechanicView])) as Record<PrizeMechanic, typeof MechanicView>),
  monthlyBudget: z.number().nullable(),
  monthlyBudgetCents: z.number().int().nullable(),
  /** The current finance period (UTC month) and its budget use. */
  period: z.string(),
  /** Prize cost of the wins accepted this period. */
  spent: z.number(),
  spentCents: z.number().int(),
  budgetLeft: z.number().nullable(),
  budgetLeftCents: z.number().int().nullable(),
  /** null until the operator first saves settings (every mechanic then reads as off). */
  updatedAt: z.string().nullable(),
});
export type PrizeMechanics = z.infer<typeof PrizeMechanics>;

const day = z.iso.date('must be a date YYYY-MM-DD').refine((d) => parseWallClock(`${d} 00:00:00`) !== null, 'must be a date from 1970-01-01 on');

/** `period` (a UTC month) or `from`/`to` (UTC days, both included); neither: the current period. */
export const PrizesReportQuery = z.object({
  period: PeriodString.optional(),
  from: day.optional(),
  to: day.optional(),
  machineNo: MachineNo.optional(),
});
export type PrizesReportQuery = z.infer<typeof PrizesReportQuery>;

const rate = z.number().nullable().describe('conversion from the step before, 4 decimals, half up; null when the step before is 0');
const Funnel = z.object({
  scans: z.number().int(),
  entries: z.number().int(),
  plays: z.number().int(),
  wins: z.number().int(),
  scanToEntry: rate,
  entryToPlay: rate,
  playToWin: rate,
  scanToWin: rate.describe('wins / scans'),
});

const BudgetMonth = z.object({
  machineNo: z.string(),
  period: z.string(),
  budget: z.number().nullable(),
  budgetCents: z.number().int().nullable(),
  spent: z.number(),
  spentCents: z.number().int(),
  left: z.number().nullable(),
  leftCents: z.number().int().nullable(),
  /** spent / budget, 4 decimals; null without a budget. */
  used: z.number().nullable(),
});

const Money = {
  grossRevenue: z.number().describe("the machines' shipped sales in the window (charged, refunds excluded), decimal"),
  grossRevenueCents: z.number().int(),
  prizeCost: z.number().describe('prize cost of the accepted wins in the window, decimal'),
  prizeCostCents: z.number().int(),
};

export const PrizesReport = z.object({
  from: z.string().describe('YYYY-MM-DDTHH:MM:SS.mmm+0000, included'),
  to: z.string().describe('YYYY-MM-DDTHH:MM:SS.mmm+0000, excluded'),
  machineNo: z.string().nullable(),
  funnel: Funnel,
  ...Money,
  byMechanic: z.array(z.object({ mechanic: z.enum(PRIZE_MECHANICS), funnel: Funnel, prizeCost: z.number(), prizeCostCents: z.number().int() })),
  byMachine: z.array(z.object({ machineNo: z.string(), funnel: Funnel, ...Money })),
  /** Events the cloud refused in the window, per reason (never in the funnel or the cost). */
  refused: z.object(Object.fromEntries(PRIZE_REFUSALS.map((r) => [r, z.number().int()])) as Record<(typeof PRIZE_REFUSALS)[number], z.ZodNumber>),
  /** Per machine and per period the window touches: the whole month's spend against its budget. */
  budget: z.array(BudgetMonth),
});
export type PrizesReport = z.infer<typeof PrizesReport>;

/** The operator view's free-product block (spec 1 §4.3): reward drops of the last 30 days and what their units cost. */
export const FreeProductMoney = z.object({
  drops30Days: z.number().int(),
  cost30Days: z.number().describe('FIFO cost of the units given away, decimal'),
  costCents30Days: z.number().int(),
});

/** The operator view's game block: the last 30 days' funnel and prize cost, and this period's budget. */
export const GameMoney = z.object({
  plays30Days: z.number().int(),
  prizeCost30Days: z.number(),
  prizeCostCents30Days: z.number().int(),
  scans30Days: z.number().int(),
  entries30Days: z.number().int(),
  wins30Days: z.number().int(),
  /** The mechanics switched on now. */
  mechanicsEnabled: z.array(z.enum(PRIZE_MECHANICS)),
  period: z.string(),
  monthlyBudget: z.number().nullable(),
  spentThisPeriod: z.number(),
  budgetLeft: z.number().nullable(),
});
export type FreeProductMoney = z.infer<typeof FreeProductMoney>;
export type GameMoney = z.infer<typeof GameMoney>;
