import {
  CHECKPOINT_KINDS,
  DEAL_STAGES,
  STAGE_RANK,
  TRIGGERS,
  stageOf,
  type CheckpointKind,
  type DealFacts,
  type DealStage,
  type FactName,
  type Trigger,
} from './deal-vocabulary.ts';
import type { OperationName } from './operations.ts';
import { decideMove } from './transitions.ts';

/**
 * The checkpoint-kind table: for each kind, the stages it belongs to, who raises it, what resolves it and
 * which confirm gate that is. `DealWriter.raise` and `DealWriter.resolve` read it for every checkpoint, so
 * whether the inbox may acknowledge a kind, or an action resolve it, is a column here, never a service's
 * `if`. Pure: no I/O, no clock.
 */

/** Who raises a checkpoint: the move into a stage, or the part of the pipeline that found the work. */
export const RAISERS = ['entry', 'contracting', 'negotiation', 'outreach', 'autopilot', 'onboarding', 'inventory'] as const;
export type Raiser = (typeof RAISERS)[number];

/**
 * What resolves a checkpoint: a stage move (its trigger), an operation (operations.ts), or the inbox's
 * acknowledgement. Every kind is also resolved by `cancel`, and as `superseded` once the deal
 * moved past every stage it belongs to (or, for terms_approval, terms were recorded again inside the band).
 */
export type Resolver = Trigger | OperationName | 'acknowledged' | 'superseded';
const EVERY_KIND: readonly Resolver[] = ['cancel', 'superseded'];
/** The resolver's words where they are not its name (stored as `resolvedBy`). */
const RESOLVED_AS: Partial<Record<Resolver, string>> = { inventory_off: 'cancelled: inventory capability off' };

export interface CheckpointKindRule {
  /** The stages it belongs to: raising it elsewhere is moot (nothing is raised). */
  raisedAt: readonly DealStage[];
  raisedBy: readonly Raiser[];
  /** Once this fact holds there is nothing to ask: raising it is moot. */
  mootOnce: FactName | null;
  resolvers: readonly Resolver[];
  /** The confirm gate that resolves it (an operator's request with `confirm: true`); null: none. */
  confirmGate: Resolver | null;
  raisedWhen: string;
  /** The words the inbox shows (`resolvesWith`), the graph serves and a refused resolution names. */
  resolvedBy: string;
}

const ACK = { resolvers: ['acknowledged'], confirmGate: null, mootOnce: null } as const;

export const CHECKPOINT_RULES: Record<CheckpointKind, CheckpointKindRule> = {
  scout_outreach: {
    raisedAt: ['shortlisting'],
    raisedBy: ['entry'],
    mootOnce: null,
    resolvers: ['scout_accepted'],
    confirmGate: null,
    raisedWhen: 'the deal enters shortlisting',
    resolvedBy: 'scout_accepted (a venue chosen)',
  },
  negotiation_review: {
    raisedAt: ['outreach'],
    raisedBy: ['negotiation'],
    mootOnce: null,
    resolvers: ['negotiation_reviewed'],
    confirmGate: null,
    raisedWhen: 'agreed terms are recorded for review',
    resolvedBy: 'negotiation_reviewed',
  },
  lease_send: {
    raisedAt: ['lease_chat'],
    raisedBy: ['entry'],
    mootOnce: null,
    resolvers: ['lease_sent'],
    confirmGate: 'lease_sent',
    raisedWhen: 'the deal enters lease_chat',
    resolvedBy: 'lease_sent (confirmed)',
  },
  terms_approval: {
    raisedAt: ['outreach', 'lease_chat'],
    raisedBy: ['negotiation'],
    mootOnce: null,
    resolvers: ['approve_terms'],
    confirmGate: 'approve_terms',
    raisedWhen: 'the reviewed terms are near the mandate edge (rule 2)',
    resolvedBy: 'approve_terms (confirmed)',
  },
  money: {
    raisedAt: ['lease_sent', 'signed'],
    raisedBy: ['contracting'],
    mootOnce: 'machinePaid',
    resolvers: ['payment'],
    confirmGate: 'payment',
    raisedWhen: 'the deal enters lease_sent unpaid',
    resolvedBy: 'payment (confirmed checkout)',
  },
  cashless_fail: {
    raisedAt: ['installing', 'live'],
    raisedBy: ['onboarding'],
    ...ACK,
    raisedWhen: 'auto-onboarding could not bind the payment terminal',
    resolvedBy: 'acknowledgement (after binding by hand)',
  },
  call_outcome: {
    raisedAt: ['outreach'],
    raisedBy: ['outreach'],
    ...ACK,
    raisedWhen: 'outreach placed a voice call: its outcome is for a person to record',
    resolvedBy: 'acknowledgement',
  },
  contact_verify: {
    raisedAt: ['outreach'],
    raisedBy: ['outreach'],
    ...ACK,
    raisedWhen: 'outreach started on a venue with no e-mail or phone, or a send or its delivery failed',
    resolvedBy: 'acknowledgement',
  },
  mode_resume: {
    raisedAt: ['outreach'],
    raisedBy: ['outreach'],
    ...ACK,
    raisedWhen: 'the outreach pass found the deal’s automation paused (autopilot off)',
    resolvedBy: 'acknowledgement',
  },
  negotiation_target: {
    raisedAt: ['outreach'],
    raisedBy: ['entry', 'autopilot'],
    mootOnce: 'negotiationStarted',
    resolvers: ['start_negotiation'],
    confirmGate: 'start_negotiation',
    raisedWhen: 'the deal enters outreach, or an autopilot tick finds an outreach deal with none',
    resolvedBy: 'start_negotiation (confirmed)',
  },
  reply_review: {
    raisedAt: ['outreach'],
    raisedBy: ['outreach', 'negotiation'],
    ...ACK,
    raisedWhen: 'a venue replied by text or e-mail: automated touches wait until it is read',
    resolvedBy: 'acknowledgement',
  },
  inventory_cap: {
    raisedAt: ['live'],
    raisedBy: ['inventory'],
    mootOnce: null,
    resolvers: ['order_approval', 'inventory_off'],
    confirmGate: 'order_approval',
    raisedWhen: 'a supplier order exceeds the monthly cap (part 3)',
    resolvedBy: 'order_approval (confirmed)',
  },
};

/** Kinds an operator resolves by acknowledging them at the inbox; the others only by their action. */
export const ACKNOWLEDGED_KINDS: readonly CheckpointKind[] = CHECKPOINT_KINDS.filter((k) => CHECKPOINT_RULES[k].resolvers.includes('acknowledged'));

/** Checkpoints raised on entering a stage (the inbox's work for that stage). */
export const RAISED_ON_ENTRY: Partial<Record<DealStage, readonly CheckpointKind[]>> = {};
for (const s of DEAL_STAGES) {
  const kinds = CHECKPOINT_KINDS.filter((k) => CHECKPOINT_RULES[k].raisedBy.includes('entry') && CHECKPOINT_RULES[k].raisedAt.includes(s));
  if (kinds.length) RAISED_ON_ENTRY[s] = kinds;
}

/**
 * Whether an open checkpoint is moot once the deal enters `stage`: every stage it belongs to ranks below
 * (the scout's shortlist once a pre-ordered deal with a venue goes to outreach). Such a checkpoint is
 * resolved by the move, as `superseded`.
 */
export function supersededAt(kind: CheckpointKind, stage: DealStage): boolean {
  return stage !== 'cancelled' && CHECKPOINT_RULES[kind].raisedAt.every((s) => STAGE_RANK[s] < STAGE_RANK[stage]);
}

/**
 * Whether `by` may raise `kind` on a deal with these facts: refused when the table does not name the raiser;
 * moot (nothing raised) at a stage the kind does not belong to, once its moot fact holds, or while one is open.
 */
export function decideRaise(facts: DealFacts, kind: CheckpointKind, by: Raiser): { ok: false; message: string } | { ok: true; raise: boolean } {
  const rule = CHECKPOINT_RULES[kind];
  if (!rule.raisedBy.includes(by)) return { ok: false, message: `Checkpoint ${kind} is raised only by ${rule.raisedBy.join(' or ')}, not ${by}` };
  const stage = stageOf(facts);
  const moot = stage === null || !rule.raisedAt.includes(stage) || (rule.mootOnce !== null && facts[rule.mootOnce]);
  return { ok: true, raise: !moot && !facts.open.has(kind) };
}

/** Whether `by` may resolve `kind` (the words of the 409 when not). */
export function decideResolve(kind: CheckpointKind, by: Resolver): { ok: true; as: string } | { ok: false; message: string } {
  const rule = CHECKPOINT_RULES[kind];
  if (!rule.resolvers.includes(by) && !EVERY_KIND.includes(by)) return { ok: false, message: `Checkpoint ${kind} is resolved only by ${rule.resolvedBy}` };
  return { ok: true, as: RESOLVED_AS[by] ?? by };
}

const isTrigger = (r: Resolver): r is Trigger => (TRIGGERS as readonly string[]).includes(r);

/**
 * The confirm gates a deal waits on, as the autopilot sees them (it may pass none): each open checkpoint whose
 * kind a confirm gate resolves — a gated move where the table has it leave from here, otherwise the action.
 */
export function gatesWaiting(facts: DealFacts): string[] {
  const out: string[] = [];
  for (const kind of CHECKPOINT_KINDS) {
    const gate = CHECKPOINT_RULES[kind].confirmGate;
    if (gate === null || !facts.open.has(kind)) continue;
    if (isTrigger(gate)) {
      const v = decideMove(facts, { trigger: gate, actor: 'autopilot', confirm: true });
      if (!v.ok && v.reason === 'gate') out.push(v.message);
    } else out.push(`${gate} needs a request with confirm: true from an operator credential`);
  }
  return out;
}
