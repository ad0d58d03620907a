import {
  DEAL_STAGES,
  STAGE_RANK,
  TERMINAL_STAGES,
  stageOf,
  type Actor,
  type CheckpointKind,
  type DealFacts,
  type DealStage,
  type FactName,
  type Trigger,
} from './deal-vocabulary.ts';
import { stagesMovedBy, type Refusal } from './transitions.ts';

/**
 * The operations table: every request on an existing deal that is not a bare stage move, with the stages it
 * runs at, who may ask, its confirm gate, the checkpoints it needs open and resolves, the facts it needs and
 * the words of its 409. `DealWriter.act` decides each one here (and then makes the stage move the operation
 * makes, through the transition table), so no service writes its own stage check. Pure: no I/O, no clock.
 */

export const OPERATION_NAMES = [
  'start_negotiation',
  'approve_terms',
  'payment',
  'order_approval',
  'inventory_off',
  'preorder',
  'accept_scout',
  'record_terms',
  'sign',
  'record_tracking',
  'dispatch_install',
  'set_autopilot',
  'refund',
  'set_mandate',
  'outreach',
  'auto_outreach',
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

export interface Operation {
  name: OperationName;
  /** The stages it runs at (an operation that makes a move: where the transition table moves by its trigger). */
  stages: readonly DealStage[];
  /** The stage move it makes where the transition table has an edge by this trigger from the deal's stage. */
  move: Trigger | null;
  /** Checkpoints it resolves when it makes no move (a move resolves its own edge's). */
  resolves: readonly CheckpointKind[];
  /** Checkpoints that must be open, checked before anything else. */
  needsOpen: readonly CheckpointKind[];
  /** Conditions on the deal's facts, each with the words of its 409 (after "Deal is <stage>: "). */
  needs: readonly { fact: FactName; is: boolean; refusal: string | ((f: DealFacts) => string) }[];
  /** Only on a request with `confirm: true` from an operator credential. */
  confirmGate: boolean;
  actors: readonly Actor[];
  /** The 409's words at a stage it does not run at (null: "<name> needs the deal at <stages>"); per stage where they differ. */
  refusal: string | null;
  refusalAt: Partial<Record<DealStage, string>>;
  /** One of the graph's actions served at GET /api/v1/meta/state-machines/dfy_deal (the confirm gates that move no stage). */
  served: boolean;
  note: string;
}

type Row = Partial<Omit<Operation, 'stages'>> & Pick<Operation, 'name'> & { stages?: readonly DealStage[] };
const op = (x: Row): Operation => ({
  move: null,
  resolves: [],
  needsOpen: [],
  needs: [],
  confirmGate: false,
  actors: ['operator'],
  refusal: null,
  refusalAt: {},
  served: false,
  note: '',
  ...x,
  stages: x.stages ?? (x.move ? stagesMovedBy(x.move) : []),
});

const NOT_TERMINAL = DEAL_STAGES.filter((s) => !TERMINAL_STAGES.includes(s));
const BEFORE_SHIPPED = DEAL_STAGES.filter((s) => STAGE_RANK[s] < STAGE_RANK.shipped);

export const OPERATIONS: readonly Operation[] = [
  // the graph's actions: confirm gates that move no stage (payment moves one only at signed)
  op({
    name: 'start_negotiation',
    stages: ['outreach'],
    resolves: ['negotiation_target'],
    needs: [{ fact: 'negotiationStarted', is: false, refusal: 'the negotiation was already started' }],
    confirmGate: true,
    served: true,
    note: 'autopilot may only raise negotiation_target',
  }),
  op({
    name: 'approve_terms',
    stages: ['lease_chat'],
    needsOpen: ['terms_approval'],
    resolves: ['terms_approval'],
    confirmGate: true,
    served: true,
    note: 'required when terms are within 1% of the share ceiling, a term sits at a bound, or confidence is low',
  }),
  op({
    name: 'payment',
    stages: ['lease_sent', 'signed'],
    move: 'payment',
    resolves: ['money'],
    // nothing is charged twice
    needs: [{ fact: 'machinePaid', is: false, refusal: (f) => `the machine is already paid${f.preorderPaid ? ' (by its pre-order)' : ''}` }],
    confirmGate: true,
    served: true,
    note: 'checkout; at signed it moves the deal to ready_to_ship',
  }),
  op({
    name: 'order_approval',
    stages: ['live'],
    resolves: ['inventory_cap'],
    confirmGate: true,
    served: true,
    note: 'supplier orders over the monthly cap (part 3)',
  }),
  // key rule 4: the machine's inventory capability went off, its supplier order is cancelled with its checkpoint
  op({ name: 'inventory_off', stages: ['live'], resolves: ['inventory_cap'], actors: ['system'] }),
  // requests whose move the transition table decides (and gates); here: where they run and their words
  op({
    name: 'preorder',
    move: 'preorder_paid',
    needs: [{ fact: 'preorderPaid', is: false, refusal: 'a pre-order payment needs an unpaid deal at shortlisting' }],
    refusal: 'a pre-order payment needs an unpaid deal at shortlisting',
  }),
  op({ name: 'accept_scout', move: 'scout_accepted', actors: ['operator', 'autopilot'], refusal: 'accepting a scout result needs the deal at shortlisting' }),
  op({ name: 'sign', move: 'signature', refusal: 'a signature needs the deal at lease_sent' }),
  op({ name: 'record_tracking', move: 'tracking_recorded', actors: ['operator', 'autopilot'], refusal: 'tracking needs the deal at ready_to_ship' }),
  // requests that move no stage
  op({
    name: 'record_terms',
    stages: ['outreach'],
    needs: [{ fact: 'negotiationStarted', is: true, refusal: 'recording terms needs the deal at outreach with a negotiation started' }],
    // the operator's recorded terms, or the negotiation's converged ones (a venue's reply from a channel)
    actors: ['operator', 'system'],
    refusal: 'recording terms needs the deal at outreach with a negotiation started',
  }),
  op({ name: 'dispatch_install', stages: ['shipped'], refusal: 'install dispatch needs the deal at shipped' }),
  op({ name: 'set_autopilot', stages: NOT_TERMINAL, refusal: 'nothing left to automate' }),
  op({ name: 'refund', stages: BEFORE_SHIPPED, refusal: 'refundable only until shipped', refusalAt: { cancelled: 'nothing left to refund' } }),
  op({
    name: 'set_mandate',
    stages: ['shortlisting', 'pre_ordered', 'outreach'],
    refusal: "a mandate is set before the negotiation's terms (at shortlisting, pre_ordered, outreach)",
  }),
  // a touch of the venue: an operator's at any time of the outreach stage; the autopilot's only until the
  // negotiation starts (from then on the venue is talked to there, docs/decisions/deal-pipeline.md)
  op({ name: 'outreach', stages: ['outreach'], refusal: 'outreach needs the deal at outreach' }),
  op({
    name: 'auto_outreach',
    stages: ['outreach'],
    actors: ['autopilot'],
    needs: [{ fact: 'negotiationStarted', is: false, refusal: 'the negotiation has started: only an operator’s request touches the venue now' }],
    refusal: 'outreach needs the deal at outreach',
  }),
];

export function operation(name: OperationName): Operation {
  return OPERATIONS.find((o) => o.name === name)!;
}

/** The graph's actions, as served (and as the table test reads them). */
export const ACTIONS: readonly Operation[] = OPERATIONS.filter((o) => o.served);

/** Whether an operation may run at `stage` for `actor` (a confirm gate: only an operator with `confirm: true`). */
export function decideAction(stage: DealStage, name: OperationName, actor: Actor, confirm: boolean): { ok: true } | Refusal {
  const a = operation(name);
  if (!a.stages.includes(stage)) {
    const words = a.refusalAt[stage] ?? a.refusal ?? `${name} needs the deal at ${a.stages.join(' or ')}`;
    return { ok: false, reason: 'illegal', message: `Deal is ${stage}: ${words}` };
  }
  if (a.confirmGate && (actor !== 'operator' || !confirm)) {
    return { ok: false, reason: 'gate', message: `Deal is ${stage}: ${name} needs a request with confirm: true from an operator credential` };
  }
  if (!a.actors.includes(actor)) return { ok: false, reason: 'gate', message: `Deal is ${stage}: ${name} needs ${a.actors.join(' or ')}, not ${actor}` };
  return { ok: true };
}

/** Decides an operation on a deal: its open checkpoints first, then its stage, its gate and actors, then its facts. */
export function decideOperation(facts: DealFacts, name: OperationName, actor: Actor, confirm: boolean): { ok: true } | Refusal {
  const stage = stageOf(facts);
  if (stage === null) return { ok: false, reason: 'illegal', message: `Deal is (start): ${name} needs an existing deal` };
  const a = operation(name);
  const closed = a.needsOpen.find((k) => !facts.open.has(k));
  if (closed) return { ok: false, reason: 'needs', message: `Deal is ${stage}: no ${closed} checkpoint is open` };
  const v = decideAction(stage, name, actor, confirm);
  if (!v.ok) return v;
  const unmet = a.needs.find((n) => facts[n.fact] !== n.is);
  if (unmet) return { ok: false, reason: 'needs', message: `Deal is ${stage}: ${typeof unmet.refusal === 'string' ? unmet.refusal : unmet.refusal(facts)}` };
  return { ok: true };
}
