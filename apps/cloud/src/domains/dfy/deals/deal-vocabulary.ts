/**
 * The words of the done-for-you deal state machine (spec 3 §3): its stages and their ranks, the triggers of
 * its moves, its checkpoint kinds, who acts and the facts a condition reads. The tables that use them are
 * `transitions.ts` (stage moves), `operations.ts` (requests on a deal), `checkpoint-kinds.ts` (who raises a
 * checkpoint, what resolves it, which confirm gate) and `deal-graph.ts` (what is served and drawn).
 * Pure: no I/O, no clock.
 */

export const DEAL_STAGES = [
  'shortlisting',
  'pre_ordered',
  'outreach',
  'lease_chat',
  'lease_sent',
  'signed',
  'ready_to_ship',
  'shipped',
  'installing',
  'live',
  'cancelled',
] as const;
export type DealStage = (typeof DEAL_STAGES)[number];

/**
 * The rank of each stage: a move never lowers it (the two intake stages, `pre_ordered` and `shortlisting`,
 * share rank 0). `cancelled` and `live` are terminal.
 */
export const STAGE_RANK: Record<DealStage, number> = {
  shortlisting: 0,
  pre_ordered: 0,
  outreach: 1,
  lease_chat: 2,
  lease_sent: 3,
  signed: 4,
  ready_to_ship: 5,
  shipped: 6,
  installing: 7,
  live: 8,
  cancelled: 9,
};

export const TERMINAL_STAGES: readonly DealStage[] = ['live', 'cancelled'];

export const CHECKPOINT_KINDS = [
  'scout_outreach',
  'negotiation_review',
  'lease_send',
  'terms_approval',
  'money',
  'cashless_fail',
  'call_outcome',
  'contact_verify',
  'mode_resume',
  'negotiation_target',
  'reply_review',
  'inventory_cap',
] as const;
export type CheckpointKind = (typeof CHECKPOINT_KINDS)[number];

export const TRIGGERS = [
  'deal_created',
  'preorder_paid',
  'advance',
  'scout_accepted',
  'negotiation_reviewed',
  'lease_sent',
  'signature',
  'payment',
  'tracking_recorded',
  'install_began',
  'onboarded',
  'cancel',
] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** Who asks: an operator credential's request, the autopilot's tick, or the system (onboarding, a provider callback). */
export type Actor = 'operator' | 'autopilot' | 'system';

/** Facts about a deal a condition reads (besides its stage and which checkpoints are open). */
export interface DealFacts {
  /** Stages the deal has held, in order, the current one last. */
  visited: readonly DealStage[];
  /** Kinds of the deal's open (unresolved) checkpoints. */
  open: ReadonlySet<CheckpointKind>;
  /** A venue is named on the deal (chosen from the shortlist, or given when the deal was requested). */
  venueKnown: boolean;
  /** The pre-order payment was taken. */
  preorderPaid: boolean;
  /** The machine was paid (the checkout, or a pre-order that covers it). */
  machinePaid: boolean;
  /** The lease was signed by the venue. */
  signed: boolean;
  /** An operator started the negotiation (`negotiation/start`, confirmed). */
  negotiationStarted: boolean;
  /** A shipment tracking number is recorded. */
  trackingRecorded: boolean;
  /** The deal's install work order reached `on_site`. */
  installOnSite: boolean;
  /** Auto-onboarding verified the cabinet: online through the gateway, terminal bind attempted, planogram loaded. */
  onboarded: boolean;
}
export type FactName = keyof Omit<DealFacts, 'visited' | 'open'>;

/** The stage a deal with these facts is at (null: not created yet). */
export function stageOf(facts: Pick<DealFacts, 'visited'>): DealStage | null {
  return facts.visited[facts.visited.length - 1] ?? null;
}
