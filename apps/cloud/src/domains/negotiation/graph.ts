import type { DealState } from '../dfy/deals/deal-model.ts';
import type { Turn } from './engine.ts';
import type { Proposal } from './terms.ts';

/**
 * The negotiation as a graph (spec 3 §4): parties, term-sheet versions (one per turn), escalations, the
 * outcome and the contract; edges mandates, proposed_by, counters, concedes_on, led_to, signed. Pure.
 */

export interface StoredTurn extends Turn {
  seq: number;
}
type NodeKind = 'party' | 'term_sheet' | 'escalation' | 'outcome' | 'contract';
type EdgeKind = 'mandates' | 'proposed_by' | 'counters' | 'concedes_on' | 'led_to' | 'signed';
export interface GraphNode {
  id: string;
  kind: NodeKind;
  label: string;
  data: Record<string, unknown>;
}
export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  label: string;
}

const partyOf = (t: Turn) => (t.actor === 'venue' ? 'party:venue' : t.actor === 'operator' ? 'party:operator' : 'party:engine');
const side = (t: Turn) => (t.actor === 'venue' ? 'venue' : 'us');

/** A turn that escalates to a person: the venue asked outside the mandate, or an operator moved outside it. */
export function escalationOf(t: Turn): string | null {
  if (t.inEnvelope || t.accept || t.walkAway) return null;
  const asks = t.actor === 'venue' ? t.violations.filter((v) => !v.startsWith('revenue share')) : t.violations;
  if (!asks.length) return null;
  return `${t.actor === 'venue' ? 'out-of-mandate ask' : 'operator move outside the mandate'}: ${asks.join('; ')}`;
}

/** The terms a proposal moved toward the other side's last proposal. */
function concessions(prev: Proposal, next: Proposal, theirs: Proposal, ourSide: boolean): string[] {
  const out: string[] = [];
  const toward = ourSide ? next.revenueSharePct > prev.revenueSharePct : next.revenueSharePct < prev.revenueSharePct;
  if (toward) out.push('revenueSharePct');
  if (next.termMonths !== prev.termMonths && next.termMonths === theirs.termMonths) out.push('termMonths');
  if (next.power !== prev.power && next.power === theirs.power) out.push('power');
  if (next.installDate !== prev.installDate && next.installDate === theirs.installDate) out.push('installDate');
  if (next.asks.join() !== prev.asks.join() && next.asks.join() === theirs.asks.join()) out.push('asks');
  return out;
}

export function buildGraph(
  deal: DealState,
  mandates: readonly { version: number; createdAt: string }[],
  turns: readonly StoredTurn[],
  status: string,
): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const nodes: GraphNode[] = [
    { id: 'party:operator', kind: 'party', label: 'operator', data: {} },
    { id: 'party:engine', kind: 'party', label: 'negotiation engine', data: {} },
    { id: 'party:venue', kind: 'party', label: deal.venue?.name ?? 'venue (not chosen yet)', data: {} },
  ];
  const edges: GraphEdge[] = mandates.map((m) => ({
    from: 'party:operator',
    to: 'party:engine',
    kind: 'mandates',
    label: `mandate v${m.version} (${m.createdAt})`,
  }));
  const last: Partial<Record<'us' | 'venue', StoredTurn>> = {};
  for (const t of turns) {
    const id = `ts:${t.seq}`;
    nodes.push({
      id,
      kind: 'term_sheet',
      label: `${t.actor} round ${t.round}: ${t.proposal.revenueSharePct}% over ${t.proposal.termMonths} months${t.accept ? ' (accepted)' : t.walkAway ? ' (walked away)' : ''}`,
      data: { seq: t.seq, actor: t.actor, round: t.round, proposal: t.proposal, inEnvelope: t.inEnvelope, accept: t.accept, walkAway: t.walkAway },
    });
    edges.push({ from: id, to: partyOf(t), kind: 'proposed_by', label: t.actor });
    const mine = last[side(t)];
    const theirs = last[side(t) === 'us' ? 'venue' : 'us'];
    if (theirs) {
      edges.push({ from: id, to: `ts:${theirs.seq}`, kind: 'counters', label: t.accept ? 'accepts' : t.walkAway ? 'walks away from' : 'counters' });
      if (mine)
        for (const term of concessions(mine.proposal, t.proposal, theirs.proposal, side(t) === 'us'))
          edges.push({ from: id, to: `ts:${theirs.seq}`, kind: 'concedes_on', label: term });
    }
    const esc = escalationOf(t);
    if (esc) {
      nodes.push({ id: `esc:${t.seq}`, kind: 'escalation', label: esc, data: { seq: t.seq } });
      edges.push({ from: id, to: `esc:${t.seq}`, kind: 'led_to', label: 'escalation' });
    }
    last[side(t)] = t;
  }
  const final = turns[turns.length - 1];
  if (final && status !== 'running') {
    nodes.push({
      id: 'outcome',
      kind: 'outcome',
      label: status,
      data: { status, terms: final.accept ? final.proposal : null, rounds: turns.filter((t) => t.actor !== 'venue').length },
    });
    edges.push({ from: `ts:${final.seq}`, to: 'outcome', kind: 'led_to', label: status });
    if (deal.negotiation.approvalReasons.length) {
      nodes.push({
        id: 'esc:terms_approval',
        kind: 'escalation',
        label: `terms approval: ${deal.negotiation.approvalReasons.join('; ')}`,
        data: { checkpoint: 'terms_approval' },
      });
      edges.push({ from: 'outcome', to: 'esc:terms_approval', kind: 'led_to', label: 'terms_approval' });
    }
    if (status !== 'converged') {
      nodes.push({
        id: 'esc:reply_review',
        kind: 'escalation',
        label: `${status}: an operator reads the venue's last reply`,
        data: { checkpoint: 'reply_review' },
      });
      edges.push({ from: 'outcome', to: 'esc:reply_review', kind: 'led_to', label: 'reply_review' });
    }
  }
  if (deal.lease.sent) {
    nodes.push({ id: 'contract', kind: 'contract', label: deal.lease.signed ? 'lease signed' : 'lease sent', data: { sent: true, signed: deal.lease.signed } });
    if (nodes.some((n) => n.id === 'outcome')) edges.push({ from: 'outcome', to: 'contract', kind: 'led_to', label: 'lease' });
    if (deal.lease.signed) edges.push({ from: 'party:venue', to: 'contract', kind: 'signed', label: 'venue signature' });
  }
  return { nodes, edges };
}

/** Per-vertical convergence band: min, median, max of the converged shares and the mean rounds. */
export function band(converged: readonly { sharePct: number; rounds: number }[]) {
  const xs = converged.map((c) => c.sharePct).sort((a, b) => a - b);
  const mid = xs.length >> 1;
  const median = xs.length % 2 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
  return {
    converged: xs.length,
    minPct: xs[0]!,
    medianPct: median,
    maxPct: xs[xs.length - 1]!,
    avgRounds: Math.round((converged.reduce((a, c) => a + c.rounds, 0) / converged.length) * 100) / 100,
  };
}
