/**
 * THE done-for-you deal state machine (spec 3 §3): one table, as data, that the API enforces
 * (`DfyService` asks `decideMove` before every stage change), that `GET /api/v1/meta/state-machines/dfy_deal`
 * serves (`describeGraph`) and that docs/dfy.md renders (`renderMermaid`; a test keeps the doc in sync).
 * Pure: no I/O, no clock.
 *
 * Forward only: every stage has a rank; a move must raise the rank, or keep it (the two intake stages,
 * `pre_ordered` and `shortlisting`, share rank 0) into a stage the deal has never held. So no stage is ever
 * entered twice and nothing moves back; corrections happen by cancelling (docs/decisions/dfy.md).
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

/** The rank of each stage: a move never lowers it. `cancelled` and `live` are terminal. */
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

/** Who asks for a move: an operator credential's request, or a background tick (autopilot, onboarding). */
export type Actor = 'operator' | 'autopilot' | 'system';

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

/** One edge of the table. `needs` are conditions; `checkpoints` must be open on the deal and are resolved by the move. */
export interface Transition {
  from: DealStage | null;
  trigger: Trigger;
  to: DealStage;
  /** Open checkpoints the move needs, and resolves. */
  checkpoints: readonly CheckpointKind[];
  /** Checkpoints that must NOT be open (approve the terms first). */
  blockedBy: readonly CheckpointKind[];
  /** Conditions, each a named fact and the words of the 409 when it does not hold. */
  needs: readonly { fact: keyof Omit<DealFacts, 'visited' | 'open'>; is: boolean; says: string }[];
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

/**
 * Actions that move no stage but are part of the graph: the two confirm gates that are not stage moves
 * (start negotiation, approve terms) and the payment taken before the signature, with what each resolves.
 */
export interface GraphAction {
  name: string;
  /** The stages it is allowed in. */
  stages: readonly DealStage[];
  resolves: readonly CheckpointKind[];
  confirmGate: boolean;
  actors: readonly Actor[];
  note: string;
}

export const ACTIONS: readonly GraphAction[] = [
  {
    name: 'start_negotiation',
    stages: ['outreach'],
    resolves: ['negotiation_target'],
    confirmGate: true,
    actors: ['operator'],
    note: 'autopilot may only raise negotiation_target',
  },
  {
    name: 'approve_terms',
    stages: ['lease_chat'],
    resolves: ['terms_approval'],
    confirmGate: true,
    actors: ['operator'],
    note: 'required when terms are within 1% of the share ceiling, a term sits at a bound, or confidence is low',
  },
  {
    name: 'payment',
    stages: ['lease_sent', 'signed'],
    resolves: ['money'],
    confirmGate: true,
    actors: ['operator'],
    note: 'checkout; at signed it moves the deal to ready_to_ship',
  },
  {
    name: 'order_approval',
    stages: ['live'],
    resolves: ['inventory_cap'],
    confirmGate: true,
    actors: ['operator'],
    note: 'supplier orders over the monthly cap (part 3)',
  },
];

/** Where each checkpoint kind is raised and what resolves it. */
export const CHECKPOINTS: Record<CheckpointKind, { raisedAt: readonly DealStage[]; raisedWhen: string; resolvedBy: string }> = {
  scout_outreach: { raisedAt: ['shortlisting'], raisedWhen: 'the deal enters shortlisting', resolvedBy: 'scout_accepted (a venue chosen)' },
  negotiation_target: {
    raisedAt: ['outreach'],
    raisedWhen: 'the deal enters outreach, or an autopilot tick finds an outreach deal with none',
    resolvedBy: 'start_negotiation (confirmed)',
  },
  call_outcome: { raisedAt: ['outreach'], raisedWhen: 'outreach placed a voice call: its outcome is for a person to record', resolvedBy: 'acknowledgement' },
  contact_verify: {
    raisedAt: ['outreach'],
    raisedWhen: 'outreach started on a venue with no e-mail or phone, or a send or its delivery failed',
    resolvedBy: 'acknowledgement',
  },
  mode_resume: { raisedAt: ['outreach'], raisedWhen: 'the outreach pass found the deal’s automation paused (autopilot off)', resolvedBy: 'acknowledgement' },
  reply_review: {
    raisedAt: ['outreach'],
    raisedWhen: 'a venue replied by text or e-mail: automated touches wait until it is read',
    resolvedBy: 'acknowledgement',
  },
  negotiation_review: {
    raisedAt: ['outreach'],
    raisedWhen: 'agreed terms are recorded for review',
    resolvedBy: 'negotiation_reviewed',
  },
  terms_approval: {
    raisedAt: ['outreach', 'lease_chat'],
    raisedWhen: 'the reviewed terms are near the mandate edge (rule 2)',
    resolvedBy: 'approve_terms (confirmed)',
  },
  lease_send: { raisedAt: ['lease_chat'], raisedWhen: 'the deal enters lease_chat', resolvedBy: 'lease_sent (confirmed)' },
  money: { raisedAt: ['lease_sent', 'signed'], raisedWhen: 'the deal enters lease_sent unpaid', resolvedBy: 'payment (confirmed checkout)' },
  cashless_fail: {
    raisedAt: ['installing', 'live'],
    raisedWhen: 'auto-onboarding could not bind the payment terminal',
    resolvedBy: 'acknowledgement (after binding by hand)',
  },
  inventory_cap: { raisedAt: ['live'], raisedWhen: 'a supplier order exceeds the monthly cap (part 3)', resolvedBy: 'order_approval (confirmed)' },
};

/** Kinds an operator resolves by acknowledging them at the inbox; the others only by their action. */
export const ACKNOWLEDGED_KINDS: readonly CheckpointKind[] = (Object.keys(CHECKPOINTS) as CheckpointKind[]).filter((k) =>
  CHECKPOINTS[k].resolvedBy.startsWith('acknowledgement'),
);

/**
 * Whether an open checkpoint is moot once the deal enters `stage`: every stage it belongs to ranks below
 * (the scout's shortlist once a pre-ordered deal with a venue goes to outreach). Such a checkpoint is
 * resolved by the move, as `superseded`.
 */
export function supersededAt(kind: CheckpointKind, stage: DealStage): boolean {
  return stage !== 'cancelled' && CHECKPOINTS[kind].raisedAt.every((s) => STAGE_RANK[s] < STAGE_RANK[stage]);
}

/** Checkpoints raised on entering a stage (the inbox's work for that stage). */
export const RAISED_ON_ENTRY: Partial<Record<DealStage, readonly CheckpointKind[]>> = {
  shortlisting: ['scout_outreach'],
  outreach: ['negotiation_target'],
  lease_chat: ['lease_send'],
};

export interface MoveRequest {
  trigger: Trigger;
  actor: Actor;
  /** `confirm: true` on the request. */
  confirm: boolean;
  /** For a trigger with two edges from one stage (`advance`), the stage wanted; otherwise the first edge whose conditions hold. */
  to?: DealStage;
}

export type MoveVerdict = { ok: true; transition: Transition } | { ok: false; reason: 'gate' | 'illegal' | 'needs'; message: string };

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

/**
 * Decides a move: the edge exists from the current stage, goes forward, the actor may fire it (a confirm
 * gate only for an operator with `confirm: true`), its checkpoints are open, none blocking is, its
 * conditions hold. The message names the stage and what the move needs (the 409's text).
 */
export function decideMove(facts: DealFacts, req: MoveRequest): MoveVerdict {
  const stage = facts.visited[facts.visited.length - 1] ?? null;
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
  let last: MoveVerdict | null = null;
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

/** Whether an action may run: the deal's stage allows it and the actor may (confirm gates: operator + confirm). */
export function decideAction(
  stage: DealStage,
  name: string,
  actor: Actor,
  confirm: boolean,
): { ok: true } | { ok: false; reason: 'gate' | 'illegal'; message: string } {
  const a = ACTIONS.find((x) => x.name === name);
  if (!a) return { ok: false, reason: 'illegal', message: `No action ${name}` };
  if (!a.stages.includes(stage)) return { ok: false, reason: 'illegal', message: `Deal is ${stage}: ${name} needs the deal at ${a.stages.join(' or ')}` };
  if (!a.actors.includes(actor) || (a.confirmGate && (actor !== 'operator' || !confirm))) {
    return { ok: false, reason: 'gate', message: `Deal is ${stage}: ${name} needs a request with confirm: true from an operator credential` };
  }
  return { ok: true };
}

/** The graph as `GET /api/v1/meta/state-machines/dfy_deal` serves it: generated from the tables above. */
export function describeGraph() {
  return {
    name: 'dfy_deal',
    initial: 'shortlisting' as DealStage,
    states: DEAL_STAGES.map((s) => ({ name: s, rank: STAGE_RANK[s], terminal: TERMINAL_STAGES.includes(s), raises: [...(RAISED_ON_ENTRY[s] ?? [])] })),
    transitions: TRANSITIONS.map((x) => ({
      from: x.from,
      trigger: x.trigger,
      to: x.to,
      checkpoints: [...x.checkpoints],
      blockedBy: [...x.blockedBy],
      conditions: x.needs.map((n) => n.says),
      confirmGate: x.confirmGate,
      actors: [...x.actors],
      note: x.note,
    })),
    triggers: TRIGGERS.map((name) => ({
      name,
      confirmGate: TRANSITIONS.some((x) => x.trigger === name && x.confirmGate),
      actors: [...new Set(TRANSITIONS.filter((x) => x.trigger === name).flatMap((x) => x.actors))],
    })),
    actions: ACTIONS.map((a) => ({ ...a, stages: [...a.stages], resolves: [...a.resolves], actors: [...a.actors] })),
    checkpoints: CHECKPOINT_KINDS.map((kind) => ({
      kind,
      raisedAt: [...CHECKPOINTS[kind].raisedAt],
      raisedWhen: CHECKPOINTS[kind].raisedWhen,
      resolvedBy: CHECKPOINTS[kind].resolvedBy,
      acknowledgeable: ACKNOWLEDGED_KINDS.includes(kind),
    })),
    rules: ['stages move strictly forward: the rank never falls and no stage is entered twice', 'corrections happen by cancelling'],
  };
}
export type DealGraph = ReturnType<typeof describeGraph>;

/** The Mermaid state diagram of the table (docs/dfy.md holds exactly this text between its markers). */
export function renderMermaid(): string {
  const lines = ['stateDiagram-v2'];
  for (const x of TRANSITIONS) {
    if (x.trigger === 'cancel') continue;
    const label = [x.trigger, ...x.checkpoints.map((k) => `[${k}]`), ...x.blockedBy.map((k) => `after ${k}`), x.confirmGate ? '(confirm)' : '']
      .filter(Boolean)
      .join(' ');
    lines.push(`    ${x.from ?? '[*]'} --> ${x.to}: ${label}`);
  }
  const cancellable = TRANSITIONS.filter((x) => x.trigger === 'cancel').map((x) => x.from);
  lines.push(`    note right of cancelled: cancel from ${cancellable.join(', ')}`);
  lines.push('    live --> [*]');
  lines.push('    cancelled --> [*]');
  return lines.join('\n');
}
