import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeGraph, renderMermaid } from './deal-graph.ts';
import { CHECKPOINT_KINDS, DEAL_STAGES, STAGE_RANK, TRIGGERS, type Actor, type CheckpointKind, type DealFacts, type DealStage } from './deal-vocabulary.ts';
import { ACTIONS, decideAction } from './operations.ts';
import { TRANSITIONS, decideMove } from './transitions.ts';

const DOC = fileURLToPath(new URL('../../../../../../docs/dfy.md', import.meta.url));
const FACT_NAMES = ['venueKnown', 'preorderPaid', 'machinePaid', 'signed', 'negotiationStarted', 'trackingRecorded', 'installOnSite', 'onboarded'] as const;

const step = fc.record({
  trigger: fc.constantFrom(...TRIGGERS),
  actor: fc.constantFrom<Actor>('operator', 'autopilot', 'system'),
  confirm: fc.boolean(),
  to: fc.option(fc.constantFrom(...DEAL_STAGES), { nil: undefined }),
  open: fc.subarray([...CHECKPOINT_KINDS]),
  facts: fc.record(Object.fromEntries(FACT_NAMES.map((f) => [f, fc.boolean()])) as Record<(typeof FACT_NAMES)[number], fc.Arbitrary<boolean>>),
});

describe('the dfy_deal transition table', () => {
  it('property: random trigger sequences never move backward, never re-enter a stage, and every move has its checkpoint, conditions and gate', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const visited: DealStage[] = [];
        for (const s of steps) {
          const facts: DealFacts = { visited, open: new Set<CheckpointKind>(s.open), ...s.facts };
          const v = decideMove(facts, { trigger: s.trigger, actor: s.actor, confirm: s.confirm, ...(s.to ? { to: s.to } : {}) });
          if (!v.ok) {
            expect(v.message).toMatch(/^Deal is /);
            continue;
          }
          const e = v.transition;
          const from = visited.at(-1) ?? null;
          expect(e.from).toBe(from);
          expect(e.trigger).toBe(s.trigger);
          // forward only: the rank never falls and no stage is entered twice
          if (from) expect(STAGE_RANK[e.to]).toBeGreaterThanOrEqual(STAGE_RANK[from]);
          expect(visited).not.toContain(e.to);
          // its checkpoints were open, its blockers were not, its conditions held
          for (const k of e.checkpoints) expect(s.open).toContain(k);
          for (const k of e.blockedBy) expect(s.open).not.toContain(k);
          for (const n of e.needs) expect(s.facts[n.fact]).toBe(n.is);
          // a confirm gate only for an operator's confirmed request; the actor is one the edge allows
          if (e.confirmGate) expect([s.actor, s.confirm]).toEqual(['operator', true]);
          expect(e.actors).toContain(s.actor);
          visited.push(e.to);
        }
        // the walk itself is forward: ranks never fall along it
        for (let i = 1; i < visited.length; i++) expect(STAGE_RANK[visited[i]!]).toBeGreaterThanOrEqual(STAGE_RANK[visited[i - 1]!]);
        expect(new Set(visited).size).toBe(visited.length);
      }),
      { numRuns: 2000 },
    );
  });

  it('every backward edge is refused even with every checkpoint open and every fact true', () => {
    const all: DealFacts = { visited: [], open: new Set(CHECKPOINT_KINDS), ...Object.fromEntries(FACT_NAMES.map((f) => [f, true])) } as unknown as DealFacts;
    for (const from of DEAL_STAGES) {
      for (const trigger of TRIGGERS) {
        for (const to of DEAL_STAGES) {
          if (STAGE_RANK[to] >= STAGE_RANK[from]) continue;
          const v = decideMove(
            { ...all, visited: ['shortlisting', from].filter((x, i, a) => a.indexOf(x) === i) as DealStage[] },
            { trigger, actor: 'operator', confirm: true, to },
          );
          expect(v.ok, `${from} -${trigger}-> ${to}`).toBe(false);
        }
      }
    }
    // the intake pair: a deal that went shortlisting → pre_ordered never goes back to shortlisting
    const back = decideMove({ ...all, visited: ['shortlisting', 'pre_ordered'] }, { trigger: 'advance', actor: 'operator', confirm: true, to: 'shortlisting' });
    expect(back).toMatchObject({ ok: false, reason: 'illegal' });
    if (!back.ok) expect(back.message).toMatch(/^Deal is pre_ordered: shortlisting was already held/);
  });

  it('the four confirm gates refuse the autopilot and the system, confirmed or not, and an unconfirmed operator', () => {
    const ready: DealFacts = {
      visited: ['shortlisting', 'outreach', 'lease_chat'],
      open: new Set(['lease_send']),
      ...Object.fromEntries(FACT_NAMES.map((f) => [f, true])),
    } as unknown as DealFacts;
    for (const actor of ['autopilot', 'system'] as const) {
      expect(decideMove(ready, { trigger: 'lease_sent', actor, confirm: true })).toMatchObject({ ok: false, reason: 'gate' });
      expect(
        decideMove({ ...ready, visited: [...ready.visited, 'lease_sent', 'signed'], open: new Set(['money']) }, { trigger: 'payment', actor, confirm: true }),
      ).toMatchObject({ ok: false, reason: 'gate' });
      for (const a of ACTIONS) expect(decideAction(a.stages[0]!, a.name, actor, true)).toMatchObject({ ok: false, reason: 'gate' });
    }
    expect(decideMove(ready, { trigger: 'lease_sent', actor: 'operator', confirm: false })).toMatchObject({ ok: false, reason: 'gate' });
    expect(decideMove(ready, { trigger: 'lease_sent', actor: 'operator', confirm: true })).toMatchObject({ ok: true });
    const gated = [...TRANSITIONS.filter((x) => x.confirmGate).map((x) => x.trigger), ...ACTIONS.filter((a) => a.confirmGate).map((a) => a.name)];
    expect(new Set(gated)).toEqual(new Set(['preorder_paid', 'lease_sent', 'payment', 'start_negotiation', 'approve_terms', 'order_approval']));
  });

  it('the 409 names the stage and what the move needs', () => {
    const f: DealFacts = {
      visited: ['shortlisting', 'outreach', 'lease_chat'],
      open: new Set(['lease_send', 'terms_approval']),
      ...Object.fromEntries(FACT_NAMES.map((x) => [x, false])),
    } as unknown as DealFacts;
    const v = decideMove(f, { trigger: 'lease_sent', actor: 'operator', confirm: true });
    expect(v).toEqual({ ok: false, reason: 'needs', message: 'Deal is lease_chat: lease_sent → lease_sent needs checkpoint terms_approval resolved first' });
    const w = decideMove({ ...f, visited: ['shortlisting'] }, { trigger: 'scout_accepted', actor: 'operator', confirm: false });
    expect(w).toEqual({ ok: false, reason: 'needs', message: 'Deal is shortlisting: scout_accepted → outreach needs open checkpoint scout_outreach' });
  });

  it('the served graph and the diagram come from the table; docs/dfy.md holds the current diagram', () => {
    const g = describeGraph();
    expect(g.transitions).toHaveLength(TRANSITIONS.length);
    expect(g.states.map((s) => s.name)).toEqual([...DEAL_STAGES]);
    expect(g.checkpoints.map((c) => c.kind)).toEqual([...CHECKPOINT_KINDS]);
    const doc = readFileSync(DOC, 'utf8');
    const m = /<!-- dfy_deal:begin -->\n```mermaid\n([\s\S]*?)\n```\n<!-- dfy_deal:end -->/.exec(doc);
    expect(m, 'docs/dfy.md has the generated block').not.toBeNull();
    expect(m![1], 'docs/dfy.md is out of date: regenerate the block with renderMermaid()').toBe(renderMermaid());
  });
});
