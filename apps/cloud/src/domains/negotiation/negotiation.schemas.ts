import { z } from 'zod';
import { DEAL_STAGES } from '../dfy/deals/deal-vocabulary.ts';
import { confirm, text } from '../dfy/deals/dfy.schemas.ts';
import { POWER_ARRANGEMENTS, VENUE_ASKS, VERTICALS } from './terms.ts';

const date = z.iso.date('must be a date YYYY-MM-DD');
const unique = <T>(xs: T[]) => new Set(xs).size === xs.length;

/** The mandate (spec 3 §2): revenue share target and max, term min/target/max, power, install window, deal-breakers. */
export const EnvelopeBody = z
  .strictObject({
    revenueShareTargetPct: z.number().min(0).max(100),
    revenueShareMaxPct: z.number().min(0).max(100),
    termMinMonths: z.number().int().min(1).max(240),
    termTargetMonths: z.number().int().min(1).max(240),
    termMaxMonths: z.number().int().min(1).max(240),
    powerArrangements: z
      .array(z.enum(POWER_ARRANGEMENTS))
      .min(1)
      .max(POWER_ARRANGEMENTS.length)
      .refine(unique, 'must not repeat an arrangement')
      .default([...POWER_ARRANGEMENTS])
      .describe('acceptable power arrangements, preferred first; default: all'),
    installWindow: z
      .strictObject({ earliest: date, latest: date })
      .refine((w) => w.earliest <= w.latest, { message: 'earliest must not be after latest', path: ['latest'] })
      .nullable()
      .default(null)
      .describe('install dates the operator can meet, inclusive; null: from 7 to 60 days after the mandate is set'),
    dealBreakers: z.array(z.enum(VENUE_ASKS)).max(VENUE_ASKS.length).refine(unique, 'must not repeat an ask').default([]),
    vertical: z.enum(VERTICALS).default('other').describe("the venue's vertical: prior convergence is compared within it"),
  })
  .refine((e) => e.revenueShareTargetPct <= e.revenueShareMaxPct, {
    message: 'revenueShareTargetPct must not exceed revenueShareMaxPct',
    path: ['revenueShareTargetPct'],
  })
  .refine((e) => e.termMinMonths <= e.termTargetMonths && e.termTargetMonths <= e.termMaxMonths, {
    message: 'terms must satisfy termMinMonths ≤ termTargetMonths ≤ termMaxMonths',
    path: ['termTargetMonths'],
  });
export type EnvelopeBody = z.output<typeof EnvelopeBody>;

export const StartBody = z.strictObject({
  confirm,
  envelope: EnvelopeBody.optional().describe('a new mandate version stored first; omitted: the latest PUT one'),
});
export const StepBody = z.strictObject({
  rounds: z.number().int().min(1).max(24).default(24).describe('at most this many venue answers (each followed by ours); stops at convergence or impasse'),
});

export const ProposalBody = z.strictObject({
  revenueSharePct: z.number().min(0).max(100),
  termMonths: z.number().int().min(1).max(240),
  power: z.enum(POWER_ARRANGEMENTS),
  installDate: date,
  asks: z.array(z.enum(VENUE_ASKS)).max(VENUE_ASKS.length).refine(unique, 'must not repeat an ask').default([]),
});
export const OperatorTurnBody = z.strictObject({
  proposal: ProposalBody.describe('validated, NOT clamped to the mandate: a move outside it is flagged'),
  message: text(1000).optional().describe('what the venue reads; default: rendered from the proposal'),
});

// ---- answers

const ProposalOut = z.object({
  revenueSharePct: z.number(),
  termMonths: z.number().int(),
  power: z.enum(POWER_ARRANGEMENTS),
  installDate: z.string(),
  asks: z.array(z.enum(VENUE_ASKS)),
});
const MandateOut = z.object({
  revenueShareTargetPct: z.number(),
  revenueShareMaxPct: z.number(),
  termMinMonths: z.number().int(),
  termTargetMonths: z.number().int(),
  termMaxMonths: z.number().int(),
  powerArrangements: z.array(z.enum(POWER_ARRANGEMENTS)),
  installWindow: z.object({ earliest: z.string(), latest: z.string() }),
  dealBreakers: z.array(z.enum(VENUE_ASKS)),
});
export const MandateVersion = z.object({
  dealId: z.string(),
  version: z.number().int(),
  vertical: z.enum(VERTICALS),
  mandate: MandateOut,
  createdAt: z.string(),
});
const TurnFields = {
  actor: z.enum(['engine', 'venue', 'operator']),
  round: z.number().int(),
  message: z.string(),
  proposal: ProposalOut,
  accept: z.boolean(),
  walkAway: z.boolean(),
  reasoning: z.string(),
  inEnvelope: z.boolean(),
  violations: z.array(z.string()),
};
export const TurnOut = z.object({
  seq: z.number().int(),
  channel: z.string(),
  mandateVersion: z.number().int(),
  at: z.string(),
  ...TurnFields,
});
export const NEGOTIATION_STATUSES = ['not_started', 'running', 'converged', 'impasse', 'outside_mandate'] as const;
export const Negotiation = z.object({
  dealId: z.string(),
  dealStage: z.enum(DEAL_STAGES),
  status: z.enum(NEGOTIATION_STATUSES),
  counterparty: z.enum(['sandbox_persona', 'channel']).nullable().describe('who answers for the venue; null before the start'),
  vertical: z.enum(VERTICALS).nullable(),
  mandate: MandateVersion.nullable().describe('the mandate in force: the latest version, fixed once started'),
  rounds: z.number().int(),
  outOfMandateAsks: z.number().int(),
  standingOffer: ProposalOut.nullable().describe('our last offer'),
  awaiting: z.enum(['venue', 'engine']).nullable().describe('whose move it is while running'),
  turns: z.array(TurnOut),
});
export const Advice = z.object({
  suggestion: z.object(TurnFields).describe('a suggested next move; nothing is stored and the standing offer does not move'),
  standingOffer: ProposalOut.nullable(),
});

const NODE_KINDS = ['party', 'term_sheet', 'escalation', 'outcome', 'contract'] as const;
const EDGE_KINDS = ['mandates', 'proposed_by', 'counters', 'concedes_on', 'led_to', 'signed'] as const;
export const Graph = z.object({
  dealId: z.string(),
  nodes: z.array(z.object({ id: z.string(), kind: z.enum(NODE_KINDS), label: z.string(), data: z.record(z.string(), z.unknown()) })),
  edges: z.array(z.object({ from: z.string(), to: z.string(), kind: z.enum(EDGE_KINDS), label: z.string() })),
});
export const Graphs = z.object({
  verticals: z.array(
    z.object({
      vertical: z.enum(VERTICALS),
      converged: z.number().int(),
      minPct: z.number(),
      medianPct: z.number(),
      maxPct: z.number(),
      avgRounds: z.number(),
    }),
  ),
  negotiations: z.array(
    z.object({
      dealId: z.string(),
      vertical: z.enum(VERTICALS),
      status: z.enum(NEGOTIATION_STATUSES),
      mandateVersion: z.number().int(),
      rounds: z.number().int(),
      openingPct: z.number().nullable(),
      finalPct: z.number().nullable(),
      outOfMandateAsks: z.number().int(),
      escalations: z.number().int(),
    }),
  ),
});
