import { describe, expect, it } from 'vitest';
import { ACKNOWLEDGED_KINDS, CHECKPOINT_RULES, RAISED_ON_ENTRY, decideRaise, decideResolve, gatesWaiting, type Resolver } from './checkpoint-kinds.ts';
import { CHECKPOINT_KINDS, DEAL_STAGES, TRIGGERS, type CheckpointKind, type DealFacts, type DealStage } from './deal-vocabulary.ts';
import { ACTIONS, OPERATIONS, OPERATION_NAMES, decideOperation } from './operations.ts';
import { TRANSITIONS, stagesMovedBy } from './transitions.ts';

const facts = (visited: DealStage[], open: CheckpointKind[] = [], over: Partial<DealFacts> = {}): DealFacts => ({
  visited,
  open: new Set(open),
  venueKnown: true,
  preorderPaid: false,
  machinePaid: false,
  signed: false,
  negotiationStarted: false,
  trackingRecorded: false,
  installOnSite: false,
  onboarded: false,
  ...over,
});

describe('the three deal tables agree with each other', () => {
  it('whatever resolves a checkpoint is listed for its kind: each edge its trigger, each operation its name', () => {
    for (const e of TRANSITIONS) for (const k of e.checkpoints) expect(CHECKPOINT_RULES[k].resolvers, `${e.trigger} resolves ${k}`).toContain(e.trigger);
    for (const o of OPERATIONS) for (const k of o.resolves) expect(CHECKPOINT_RULES[k].resolvers, `${o.name} resolves ${k}`).toContain(o.name);
  });

  it("a kind's confirm gate is one of its resolvers and a confirm gate of the transition or operations table; acknowledged kinds have none", () => {
    const gated = new Set<string>([
      ...TRANSITIONS.filter((x) => x.confirmGate).map((x) => x.trigger),
      ...OPERATIONS.filter((o) => o.confirmGate).map((o) => o.name),
    ]);
    for (const kind of CHECKPOINT_KINDS) {
      const { confirmGate, resolvers } = CHECKPOINT_RULES[kind];
      if (confirmGate === null) continue;
      expect(resolvers).toContain(confirmGate);
      expect(gated.has(confirmGate), `${kind}: ${confirmGate}`).toBe(true);
    }
    for (const kind of ACKNOWLEDGED_KINDS) expect(CHECKPOINT_RULES[kind].confirmGate).toBeNull();
    expect([...ACKNOWLEDGED_KINDS].sort()).toEqual(['call_outcome', 'cashless_fail', 'contact_verify', 'mode_resume', 'reply_review']);
  });

  it('an operation that makes a move runs only where its move leaves from; the payment alone also runs before the signature', () => {
    for (const o of OPERATIONS.filter((x) => x.move !== null)) {
      const extra = o.stages.filter((s) => !stagesMovedBy(o.move!).includes(s));
      expect(extra, o.name).toEqual(o.name === 'payment' ? ['lease_sent'] : []);
    }
    expect(new Set(OPERATIONS.map((o) => o.name))).toEqual(new Set(OPERATION_NAMES));
    expect(ACTIONS.map((a) => a.name)).toEqual(['start_negotiation', 'approve_terms', 'payment', 'order_approval']);
  });

  it('entering a stage raises exactly the kinds the table says the entry raises there', () => {
    for (const stage of DEAL_STAGES) {
      for (const kind of RAISED_ON_ENTRY[stage] ?? []) expect(CHECKPOINT_RULES[kind].raisedAt).toContain(stage);
    }
    expect(RAISED_ON_ENTRY).toEqual({ shortlisting: ['scout_outreach'], outreach: ['negotiation_target'], lease_chat: ['lease_send'] });
  });

  it('a resolver the table does not list is refused for every kind; cancel and superseded resolve any', () => {
    const all: Resolver[] = [...TRIGGERS, ...OPERATION_NAMES, 'acknowledged', 'superseded'];
    for (const kind of CHECKPOINT_KINDS) {
      for (const by of all) {
        const allowed = CHECKPOINT_RULES[kind].resolvers.includes(by) || by === 'cancel' || by === 'superseded';
        expect(decideResolve(kind, by).ok, `${kind} by ${by}`).toBe(allowed);
      }
    }
    expect(decideResolve('inventory_cap', 'inventory_off')).toEqual({ ok: true, as: 'cancelled: inventory capability off' });
  });

  it('raising is moot outside the kind’s stages, once its moot fact holds, or while one is open; an unlisted raiser is refused', () => {
    expect(decideRaise(facts(['shortlisting', 'outreach']), 'reply_review', 'outreach')).toEqual({ ok: true, raise: true });
    expect(decideRaise(facts(['shortlisting', 'outreach', 'lease_chat']), 'reply_review', 'outreach')).toEqual({ ok: true, raise: false });
    expect(decideRaise(facts(['shortlisting', 'outreach'], ['reply_review']), 'reply_review', 'outreach')).toEqual({ ok: true, raise: false });
    expect(decideRaise(facts(['shortlisting', 'outreach'], [], { negotiationStarted: true }), 'negotiation_target', 'autopilot')).toEqual({
      ok: true,
      raise: false,
    });
    expect(decideRaise(facts(['lease_chat', 'lease_sent'], [], { machinePaid: true }), 'money', 'contracting')).toEqual({ ok: true, raise: false });
    expect(decideRaise(facts(['shortlisting', 'outreach']), 'reply_review', 'inventory')).toMatchObject({ ok: false });
  });

  it('the autopilot touches a venue only until its negotiation starts; an operator at any time of the outreach stage', () => {
    const outreach = ['shortlisting', 'outreach'] as DealStage[];
    expect(decideOperation(facts(outreach), 'auto_outreach', 'autopilot', false)).toEqual({ ok: true });
    expect(decideOperation(facts(outreach, [], { negotiationStarted: true }), 'auto_outreach', 'autopilot', false)).toMatchObject({
      ok: false,
      reason: 'needs',
    });
    expect(decideOperation(facts(outreach, [], { negotiationStarted: true }), 'outreach', 'operator', false)).toEqual({ ok: true });
    expect(decideOperation(facts([...outreach, 'lease_chat']), 'outreach', 'operator', false)).toMatchObject({
      ok: false,
      message: 'Deal is lease_chat: outreach needs the deal at outreach',
    });
  });

  it('the gates a deal waits on are the confirm gates of its open checkpoints, as the autopilot is refused them', () => {
    expect(gatesWaiting(facts(['shortlisting', 'outreach', 'lease_chat'], ['lease_send', 'terms_approval']))).toEqual([
      'Deal is lease_chat: lease_sent → lease_sent needs a request with confirm: true from an operator credential',
      'approve_terms needs a request with confirm: true from an operator credential',
    ]);
    // the payment taken before the signature is not waited on: the deal waits for the venue
    expect(gatesWaiting(facts(['shortlisting', 'outreach', 'lease_chat', 'lease_sent'], ['money']))).toEqual([]);
    expect(gatesWaiting(facts(['shortlisting', 'outreach', 'lease_chat', 'lease_sent', 'signed'], ['money'], { machinePaid: true }))).toEqual([
      'Deal is signed: payment → ready_to_ship needs a request with confirm: true from an operator credential',
    ]);
  });
});
