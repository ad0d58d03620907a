import { ACKNOWLEDGED_KINDS, CHECKPOINT_RULES, RAISED_ON_ENTRY } from './checkpoint-kinds.ts';
import { CHECKPOINT_KINDS, DEAL_STAGES, STAGE_RANK, TERMINAL_STAGES, TRIGGERS, type DealStage } from './deal-vocabulary.ts';
import { ACTIONS } from './operations.ts';
import { TRANSITIONS } from './transitions.ts';

/**
 * THE done-for-you deal state machine (spec 3 §3) as it is served and drawn: generated from the tables the
 * API enforces — the transition table (transitions.ts: every stage move), the operations table
 * (operations.ts: requests that move no stage, the confirm gates among them) and the checkpoint-kind table
 * (checkpoint-kinds.ts: who raises each kind, what resolves it, which confirm gate). Served at
 * `GET /api/v1/meta/state-machines/dfy_deal` (`describeGraph`) and drawn in docs/dfy.md (`renderMermaid`; a
 * test keeps the doc in sync). Pure: no I/O, no clock.
 */

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
    actions: ACTIONS.map((a) => ({
      name: a.name,
      stages: [...a.stages],
      resolves: [...a.resolves],
      confirmGate: a.confirmGate,
      actors: [...a.actors],
      note: a.note,
    })),
    checkpoints: CHECKPOINT_KINDS.map((kind) => ({
      kind,
      raisedAt: [...CHECKPOINT_RULES[kind].raisedAt],
      raisedWhen: CHECKPOINT_RULES[kind].raisedWhen,
      resolvedBy: CHECKPOINT_RULES[kind].resolvedBy,
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
