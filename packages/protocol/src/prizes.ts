import { z } from 'zod';
import { SerialCarrier } from './gateway.ts';
import { safeString } from './text.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The kiosk prize game on the wire (cabinet leg `POST /cabinet/prize-events`, `GET /cabinet/prize-mechanics`).
 * A shopper scans the machine's game QR (`scan`), starts one of its mechanics (`entry`), plays a round
 * (`play`) and sometimes wins (`win`). The cabinet reports each step once, by its own `eventId`; the cloud
 * judges every event against the operator's settings and answers which ones it refused, with the
 * settings the cabinet must follow from now on.
 */

/** The fixed set of mechanics an operator may switch on per machine. */
export const PRIZE_MECHANICS = ['spinToWin', 'scratchCard', 'loyaltyStamp'] as const;
export type PrizeMechanic = (typeof PRIZE_MECHANICS)[number];

/** The funnel steps, in order. */
export const PRIZE_EVENT_KINDS = ['scan', 'entry', 'play', 'win'] as const;
export type PrizeEventKind = (typeof PRIZE_EVENT_KINDS)[number];

/**
 * Why an event was refused (kept once, never counted in the funnel or the budget):
 * - `mechanic_disabled`: the mechanic is off on this machine (a scan naming none: no mechanic is on);
 * - `over_max_prize_value`: the win's prize costs more than the mechanic's `maxPrizeValue`;
 * - `over_daily_cap`: the mechanic already awarded `maxWinsPerDay` wins that machine-local day;
 * - `over_budget`: the win would take the machine past its monthly prize budget;
 * - `clock_skew`: `at` is more than five minutes ahead of the cloud's clock.
 */
export const PRIZE_REFUSALS = ['mechanic_disabled', 'over_max_prize_value', 'over_daily_cap', 'over_budget', 'clock_skew'] as const;
export type PrizeRefusal = (typeof PRIZE_REFUSALS)[number];

export const PRIZE_EVENTS_MAX = 500;
/** The largest prize value one win may declare, in currency units. */
export const PRIZE_VALUE_MAX = 10_000;

const twoDecimals = (v: number) => Math.round(v * 100) / 100 === v;

export const PrizeEvent = lazySchema(() =>
  z
    .object({
      /** The cabinet's id of this event: a retried batch counts it once. */
      eventId: safeString().min(1).max(128),
      kind: z.enum(PRIZE_EVENT_KINDS),
      /** Required but on `scan` (a scan of the game's QR, before a mechanic is chosen). */
      mechanic: z.enum(PRIZE_MECHANICS).optional(),
      /** When it happened: epoch milliseconds or an ISO 8601 time. */
      at: z.union([z.number().int().min(0), safeString().min(1).max(64)]),
      /** A product prize: the aisle the free vend comes from (its FIFO cost is the prize cost). */
      aisleNo: z.number().int().min(1).max(1000).optional(),
      /** A prize that is not a product of the machine (voucher, credit): its value, decimal currency amount. */
      prizeValue: z.number().min(0).max(PRIZE_VALUE_MAX).refine(twoDecimals, 'must have at most two decimals').meta({ multipleOf: 0.01 }).optional(),
    })
    .superRefine((e, ctx) => {
      if (e.kind !== 'scan' && e.mechanic === undefined) ctx.addIssue({ code: 'custom', path: ['mechanic'], message: `a ${e.kind} names its mechanic` });
      if (e.kind === 'win' && e.aisleNo === undefined && e.prizeValue === undefined)
        ctx.addIssue({ code: 'custom', path: ['prizeValue'], message: 'a win names its prize: aisleNo (a product) or prizeValue' });
      if (e.kind !== 'win' && (e.aisleNo !== undefined || e.prizeValue !== undefined))
        ctx.addIssue({ code: 'custom', path: ['prizeValue'], message: 'only a win carries a prize (aisleNo, prizeValue)' });
    })
    .describe(
      'One prize event. Every kind but `scan` names its `mechanic`; a `win` names its prize (`aisleNo` for a product, or `prizeValue`), and no other kind carries one (400 otherwise).',
    ),
);
export type PrizeEvent = z.infer<typeof PrizeEvent>;

export const PrizeEventsRequest = lazySchema(() => SerialCarrier.extend({ events: z.array(PrizeEvent).min(1).max(PRIZE_EVENTS_MAX) }));
export type PrizeEventsRequest = z.infer<typeof PrizeEventsRequest>;

/** One mechanic as the cabinet must run it now. */
export const CabinetPrizeMechanic = lazySchema(() =>
  z.object({
    enabled: z.boolean(),
    /** null: no daily cap. */
    maxWinsPerDay: z.number().int().nullable(),
    /** Wins still allowed today (machine-local day); null: no daily cap. */
    winsLeftToday: z.number().int().nullable(),
    /** null: no per-prize cap. */
    maxPrizeValue: z.number().nullable(),
  }),
);

/** What the cabinet must follow: award nothing for a disabled mechanic, nor past a cap or the budget left. */
export const PrizeStateData = lazySchema(() =>
  z.object({
    mechanics: z.object(Object.fromEntries(PRIZE_MECHANICS.map((m) => [m, CabinetPrizeMechanic])) as Record<PrizeMechanic, typeof CabinetPrizeMechanic>),
    /** The current finance period `YYYY-MM` (UTC month) the budget is counted in. */
    period: z.string(),
    /** Prize budget left this period, decimal; null: no budget set. */
    budgetLeft: z.number().nullable(),
  }),
);
export type PrizeStateData = z.infer<typeof PrizeStateData>;

export const PrizeEventsData = lazySchema(() =>
  z.object({
    /** New events recorded and counted. */
    accepted: z.number().int(),
    /** Events already received (same eventId): their first verdict stands. */
    duplicates: z.number().int(),
    /** Every event of this batch the cloud refused (new or retried), with why. */
    refused: z.array(z.object({ eventId: z.string(), reason: z.enum(PRIZE_REFUSALS) })),
    state: PrizeStateData,
  }),
);
export type PrizeEventsData = z.infer<typeof PrizeEventsData>;
