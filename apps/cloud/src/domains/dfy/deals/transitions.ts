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

/**
 * THE transition table of the done-for-you deal (spec 3 §3): every stage move of every deal is decided by
 * `decideMove` over these rows (`DealWriter.move` is the only way a stage changes), the API serves them at
 * `GET /api/v1/meta/state-machines/dfy_deal` and docs/dfy.md draws them (deal-graph.ts). Pure: no I/O, no clock.
 *
 * Forward only: a move must raise the rank, or keep it into a stage the deal has never held. So no stage is
 * ever entered twice and nothing moves back; corrections happen by cancelling (docs/decisions/dfy.md).
 */

/** One edge of the table. `checkpoints` must be open on the deal and are resolved by the move. */
export interface Transition {
  from: DealStage | null;
  trigger: Trigger;
  to: DealStage;
  /** Open checkpoints the move needs, and resolves. */
  checkpoints: readonly CheckpointKind[];
  /** Checkpoints that must NOT be open (approve the terms first). */
  blockedBy: readonly CheckpointKind[];
  /** Conditions, each a named fact and the words of the 409 when it does not hold. */
  needs: readonly { fact: FactName; is: boolean; says: string }[];
  /** Only on a request with `confirm: true` from an operator credential (spec 3 §1: the four confirm gates). */
  confirmGate: boolean;
  /** Who may fire it. */
  actors: readonly Actor[];
  /** What the spec's condition column says. */
  note: string;
}

const t = (x: Partial<Transition> & Pick<Transition, 'from' | 'trigger' | 'to'>): Transition => ({
  checkpoints: [],
  blockedBy: [],
  needs: [],
  confirmGate: false,
  actors: ['operator'],
  note: '',
  ...x,
});

/** The transition table of spec 3 §3 (plus cancelling), in the spec's order. */
export const TRANSITIONS: readonly Transition[] = [
  t({ from: null, trigger: 'deal_created', to: 'shortlisting', note: 'an operator asks for a machine to be placed (or a pre-order opens one)' }),
  t({
    from: null,
    trigger: 'preorder_paid',
    to: 'pre_ordered',
    needs: [{ fact: 'preorderPaid', is: true, says: 'the pre-order payment' }],
    note: 'a confirmed pre-order checkout creates its deal paid',
  }),
  t({ from: 'pre_ordered', trigger: 'advance', to: 'shortlisting', note: 'no venue yet: the scout shortlists' }),
  t({
    from: 'pre_ordered',
    trigger: 'advance',
    to: 'outreach',
    needs: [{ fact: 'venueKnown', is: true, says: 'a venue named on the deal' }],
    note: 'the venue is already named',
  }),
  t({
    from: 'shortlisting',
    trigger: 'preorder_paid',
    to: 'pre_ordered',
    needs: [{ fact: 'preorderPaid', is: true, says: 'the pre-order payment' }],
    confirmGate: true,
    note: 'pre-order is paid up front, refundable until shipped',
  }),
  t({
    from: 'shortlisting',
    trigger: 'scout_accepted',
    to: 'outreach',
    checkpoints: ['scout_outreach'],
    needs: [{ fact: 'venueKnown', is: true, says: 'a venue chosen from the shortlist' }],
    actors: ['operator', 'autopilot'],
    note: 'checkpoint scout_outreach (the autopilot alone only at autoApproveScore, up to maxAutoApprove a day)',
  }),
  t({
    from: 'outreach',
    trigger: 'negotiation_reviewed',
    to: 'lease_chat',
    checkpoints: ['negotiation_review'],
    needs: [{ fact: 'negotiationStarted', is: true, says: 'a negotiation started by a confirmed operator request' }],
    actors: ['operator', 'autopilot'],
    note: 'checkpoint negotiation_review (the autopilot with contracting on)',
  }),
  t({
    from: 'lease_chat',
    trigger: 'lease_sent',
    to: 'lease_sent',
    checkpoints: ['lease_send'],
    blockedBy: ['terms_approval'],
    confirmGate: true,
    note: 'checkpoints lease_send and terms_approval',
  }),
  t({
    from: 'lease_sent',
    trigger: 'signature',
    to: 'signed',
    needs: [
      { fact: 'signed', is: true, says: 'the venue signature' },
      { fact: 'machinePaid', is: false, says: 'a machine not yet paid' },
    ],
    note: 'machine not yet paid',
  }),
  t({
    from: 'lease_sent',
    trigger: 'signature',
    to: 'ready_to_ship',
    needs: [
      { fact: 'signed', is: true, says: 'the venue signature' },
      { fact: 'machinePaid', is: true, says: 'the machine paid' },
    ],
    note: 'signature and payment',
  }),
  t({
    from: 'signed',
    trigger: 'payment',
    to: 'ready_to_ship',
    checkpoints: ['money'],
    needs: [{ fact: 'machinePaid', is: true, says: 'the machine paid' }],
    confirmGate: true,
    note: 'checkpoint money; fleet pin pre-provisioned at the leased coordinates',
  }),
  t({
    from: 'ready_to_ship',
    trigger: 'tracking_recorded',
    to: 'shipped',
    needs: [{ fact: 'trackingRecorded', is: true, says: 'a shipment tracking number' }],
    actors: ['operator', 'autopilot'],
    note: 'tracking recorded (autopilot dispatches automatically in sandbox)',
  }),
  t({
    from: 'shipped',
    trigger: 'install_began',
    to: 'installing',
    needs: [{ fact: 'installOnSite', is: true, says: 'the install work order on site' }],
    note: 'install begins',
  }),
  t({
    from: 'installing',
    trigger: 'onboarded',
    to: 'live',
    needs: [{ fact: 'onboarded', is: true, says: 'the cabinet verified online, payments bound (or cashless_fail raised) and planogram loaded' }],
    actors: ['system'],
    note: 'verified online, payments bound, planogram loaded (auto-onboarding; a failed terminal bind raises cashless_fail and does not block going live)',
  }),
  ...DEAL_STAGES.filter((s) => !TERMINAL_STAGES.includes(s)).map((from) =>
    t({ from, trigger: 'cancel', to: 'cancelled', note: 'corrections happen by cancelling' }),
  ),
];

export interface MoveRequest {
  trigger: Trigger;
  actor: Actor;
  /** `confirm: true` on the request. */
  confirm: boolean;
  /** For a trigger with two edges from one stage (`advance`), the stage wanted; otherwise the first edge whose conditions hold. */
  to?: DealStage;
}

export type Refusal = { ok: false; reason: 'gate' | 'illegal' | 'needs'; message: string };
export type MoveVerdict = { ok: true; transition: Transition } | Refusal;

/** Whether `to` is forward of a deal that has held `visited` (the last one its current stage). */
export function isForward(visited: readonly DealStage[], to: DealStage): boolean {
  const from = visited[visited.length - 1];
  if (from === undefined) return true;
  if (TERMINAL_STAGES.includes(from)) return false;
  if (visited.includes(to)) return false;
  return STAGE_RANK[to] >= STAGE_RANK[from];
}

/** The edges leaving `stage` (null: a deal not created yet) fired by `trigger`. */
export function edges(stage: DealStage | null, trigger: Trigger): Transition[] {
  return TRANSITIONS.filter((x) => x.from === stage && x.trigger === trigger);
}

/** The stages of existing deals a trigger moves from (the operations that make a move run exactly there). */
export function stagesMovedBy(trigger: Trigger): DealStage[] {
  return [...new Set(TRANSITIONS.filter((x) => x.trigger === trigger && x.from !== null).map((x) => x.from!))];
}

/**
 * Decides a move: the edge exists from the current stage, goes forward, the actor may fire it (a confirm
 * gate only for an operator with `confirm: true`), its checkpoints are open, none blocking is, its
 * conditions hold. The message names the stage and what the move needs (the 409's text).
 */
export function decideMove(facts: DealFacts, req: MoveRequest): MoveVerdict {
  const stage = stageOf(facts);
  const here = stage ?? '(start)';
  const candidates = edges(stage, req.trigger).filter((e) => req.to === undefined || e.to === req.to);
  if (candidates.length === 0) {
    const from = TRANSITIONS.filter((x) => x.from === stage && x.trigger !== 'cancel');
    const allowed = from.length ? from.map((x) => `${x.trigger} → ${x.to}`).join(', ') : 'nothing (terminal)';
    return {
      ok: false,
      reason: 'illegal',
      message: `Deal is ${here}: ${req.trigger}${req.to ? ` to ${req.to}` : ''} is not a move from ${here}; allowed: ${allowed}`,
    };
  }
  let last: Refusal | null = null;
  for (const e of candidates) {
    if (!isForward(facts.visited, e.to)) {
      last = { ok: false, reason: 'illegal', message: `Deal is ${here}: ${e.to} was already held; stages move strictly forward (cancel to correct)` };
      continue;
    }
    if (e.confirmGate && (req.actor !== 'operator' || !req.confirm)) {
      last = { ok: false, reason: 'gate', message: `Deal is ${here}: ${e.trigger} → ${e.to} needs a request with confirm: true from an operator credential` };
      continue;
    }
    if (!e.actors.includes(req.actor)) {
      last = { ok: false, reason: 'gate', message: `Deal is ${here}: ${e.trigger} → ${e.to} needs ${e.actors.join(' or ')}, not ${req.actor}` };
      continue;
    }
    const missing = e.checkpoints.filter((k) => !facts.open.has(k));
    if (missing.length) {
      last = { ok: false, reason: 'needs', message: `Deal is ${here}: ${e.trigger} → ${e.to} needs open checkpoint ${missing.join(' and ')}` };
      continue;
    }
    const blocking = e.blockedBy.filter((k) => facts.open.has(k));
    if (blocking.length) {
      last = { ok: false, reason: 'needs', message: `Deal is ${here}: ${e.trigger} → ${e.to} needs checkpoint ${blocking.join(' and ')} resolved first` };
      continue;
    }
    const unmet = e.needs.filter((n) => facts[n.fact] !== n.is);
    if (unmet.length) {
      last = { ok: false, reason: 'needs', message: `Deal is ${here}: ${e.trigger} → ${e.to} needs ${unmet.map((n) => n.says).join(' and ')}` };
      continue;
    }
    return { ok: true, transition: e };
  }
  return last!;
}
