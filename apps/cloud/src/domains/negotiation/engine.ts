import { half, outOfMandateAsks, outsideEnvelope, type Mandate, type Proposal } from './terms.ts';

/**
 * The deterministic negotiation engine (spec 3 key rule 3): our side's next move is a pure function of the
 * mandate, the prior converged deals of the venue's vertical and the turns so far — the same inputs give the
 * same turns, byte for byte. No language model decides money; messages are rendered from the proposal.
 */

export type TurnActor = 'engine' | 'venue' | 'operator';

export interface Turn {
  actor: TurnActor;
  /** Our offers count the rounds: the opening is round 1, the venue's answer to it too, our next offer round 2. */
  round: number;
  message: string;
  proposal: Proposal;
  /** Accepts the other side's standing proposal (the proposal repeats it). */
  accept: boolean;
  /** Walks away: the negotiation ends at an impasse. */
  walkAway: boolean;
  reasoning: string;
  inEnvelope: boolean;
  /** Why the proposal is outside the mandate (empty when inside). */
  violations: string[];
}

/** A deal of the same vertical that converged before: the anchor of the opening offer. */
export interface Prior {
  dealId: string;
  revenueSharePct: number;
}

/** The engine stops at an impasse after this many of our offers without convergence. */
export const MAX_ROUNDS = 12;

export type Conclusion =
  { status: 'running' } | { status: 'converged'; terms: Proposal; rounds: number } | { status: 'impasse'; rounds: number; reason: string };

const ours = (t: Turn) => t.actor !== 'venue';
/** The grid point at or below x: an engine share never exceeds the mandate max. */
const floorHalf = (x: number) => Math.floor(x * 2) / 2;

export function roundsOf(turns: readonly Turn[]): number {
  return turns.filter(ours).length;
}

export function conclusion(turns: readonly Turn[]): Conclusion {
  const last = turns[turns.length - 1];
  if (!last) return { status: 'running' };
  if (last.accept) return { status: 'converged', terms: last.proposal, rounds: roundsOf(turns) };
  if (last.walkAway) return { status: 'impasse', rounds: roundsOf(turns), reason: last.reasoning };
  return { status: 'running' };
}

/** Out-of-mandate asks the venue made over the whole negotiation (low confidence, key rule 2). */
export function countOutOfMandateAsks(m: Mandate, turns: readonly Turn[]): number {
  return turns.filter((t) => t.actor === 'venue' && !t.accept && !t.walkAway).reduce((n, t) => n + outOfMandateAsks(m, t.proposal).length, 0);
}

export function renderOffer(p: Proposal): string {
  const asks = p.asks.length ? `, with ${p.asks.join(' and ').replaceAll('_', ' ')}` : '';
  return `a ${p.revenueSharePct}% revenue share over ${p.termMonths} months, power by ${p.power.replaceAll('_', ' ')}, install on ${p.installDate}${asks}`;
}

export function sameProposal(a: Proposal, b: Proposal): boolean {
  return (
    a.revenueSharePct === b.revenueSharePct &&
    a.termMonths === b.termMonths &&
    a.power === b.power &&
    a.installDate === b.installDate &&
    [...a.asks].sort().join() === [...b.asks].sort().join()
  );
}

/** Builds a turn of ours with its envelope check. */
function ourTurn(
  m: Mandate,
  round: number,
  proposal: Proposal,
  reasoning: string,
  message: string,
  flags: { accept?: boolean; walkAway?: boolean } = {},
): Turn {
  const violations = outsideEnvelope(m, proposal);
  return {
    actor: 'engine',
    round,
    message,
    proposal,
    accept: flags.accept ?? false,
    walkAway: flags.walkAway ?? false,
    reasoning,
    inEnvelope: violations.length === 0,
    violations,
  };
}

/**
 * The opening offer. Without a useful prior it opens half the room between target and max below the target.
 * When prior deals of the vertical converged above the target, it opens just below the lowest of them (half
 * a point) — never above the mandate max — and the reasoning cites those deals.
 */
export function openingTurn(m: Mandate, priors: readonly Prior[]): Turn {
  const above = priors
    .filter((p) => p.revenueSharePct > m.revenueShareTargetPct)
    .sort((a, b) => a.revenueSharePct - b.revenueSharePct || cmp(a.dealId, b.dealId));
  let share: number;
  let why: string;
  if (above.length) {
    const lowest = above[0]!.revenueSharePct;
    share = Math.max(0, Math.min(floorHalf(m.revenueShareMaxPct), floorHalf(lowest - 0.5)));
    why =
      `prior deals of this vertical converged above the target ${m.revenueShareTargetPct}%: ` +
      above.map((p) => `${p.dealId} at ${p.revenueSharePct}%`).join(', ') +
      `; opening just below the lowest (${lowest}%) at ${share}%, capped at the mandate max ${m.revenueShareMaxPct}%`;
  } else {
    share = Math.max(0, floorHalf(m.revenueShareTargetPct - (m.revenueShareMaxPct - m.revenueShareTargetPct) / 2));
    why = `no prior deal of this vertical converged above the target; opening half the room below the target ${m.revenueShareTargetPct}% (max ${m.revenueShareMaxPct}%) at ${share}%`;
  }
  const proposal: Proposal = {
    revenueSharePct: share,
    termMonths: m.termTargetMonths,
    power: m.powerArrangements[0]!,
    installDate: m.installWindow.earliest,
    asks: [],
  };
  return ourTurn(m, 1, proposal, `round 1: ${why}; term at the target ${m.termTargetMonths} months`, `We would like to offer ${renderOffer(proposal)}.`);
}

/**
 * Our answer to the venue's last counter: concede on the share by a fixed step toward the mandate max (never
 * past it, never past their ask), take their term, power, date and asks where the mandate allows, decline the
 * rest; accept their counter when it needs nothing more; walk away after `MAX_ROUNDS` offers.
 */
export function answerTurn(m: Mandate, turns: readonly Turn[]): Turn {
  const counter = turns[turns.length - 1];
  if (!counter || counter.actor !== 'venue') throw new Error('the engine answers a venue turn');
  const standing = [...turns].reverse().find(ours)!;
  const opening = turns.find(ours)!;
  const round = roundsOf(turns) + 1;
  const c = counter.proposal;
  const cap = floorHalf(m.revenueShareMaxPct);
  const step = Math.max(0.5, half((cap - opening.proposal.revenueSharePct) / 4));
  const planned = Math.min(cap, half(standing.proposal.revenueSharePct + step));
  const share = Math.min(planned, c.revenueSharePct);
  const notes: string[] = [`venue asks ${c.revenueSharePct}%`];
  notes.push(
    share === c.revenueSharePct
      ? `their ask is within our next step (${planned}%)`
      : `we move ${standing.proposal.revenueSharePct}% → ${share}% (step ${step}, mandate max ${m.revenueShareMaxPct}%)`,
  );
  const termMonths = Math.min(m.termMaxMonths, Math.max(m.termMinMonths, c.termMonths));
  if (termMonths !== c.termMonths) notes.push(`term ${c.termMonths} months declined, ${termMonths} is the nearest bound`);
  const power = m.powerArrangements.includes(c.power) ? c.power : standing.proposal.power;
  if (power !== c.power) notes.push(`power by ${c.power} declined`);
  const w = m.installWindow;
  const installDate = c.installDate < w.earliest ? w.earliest : c.installDate > w.latest ? w.latest : c.installDate;
  if (installDate !== c.installDate) notes.push(`install date ${c.installDate} declined, ${installDate} is the window's edge`);
  const asks = c.asks.filter((a) => !m.dealBreakers.includes(a));
  const declined = c.asks.filter((a) => m.dealBreakers.includes(a));
  if (declined.length) notes.push(`declined deal-breaker ask(s): ${declined.join(', ')}`);
  const proposal: Proposal = { revenueSharePct: share, termMonths, power, installDate, asks };
  if (sameProposal(proposal, c)) {
    return ourTurn(m, round, c, `round ${round}: ${notes.join('; ')}; their counter is inside the mandate: accept`, `Agreed: ${renderOffer(c)}.`, {
      accept: true,
    });
  }
  if (round > MAX_ROUNDS) {
    return ourTurn(
      m,
      round,
      standing.proposal,
      `round ${round}: no convergence within ${MAX_ROUNDS} offers; the venue still asks ${c.revenueSharePct}%: walk away`,
      `Thank you for your time; we cannot go further than ${renderOffer(standing.proposal)}.`,
      { walkAway: true },
    );
  }
  const final = share === cap && c.revenueSharePct > cap ? ' (our ceiling)' : '';
  return ourTurn(m, round, proposal, `round ${round}: ${notes.join('; ')}${final}`, `We can offer ${renderOffer(proposal)}.`);
}

/** A venue turn (sandbox persona or a real channel) with its envelope check: the venue never sees the mandate. */
export function judged(m: Mandate, t: Turn): Turn {
  const violations = outsideEnvelope(m, t.proposal);
  return { ...t, inEnvelope: violations.length === 0, violations };
}

/** An operator-authored offer: validated by the caller's schema, NOT clamped; outside the mandate it is flagged. */
export function operatorTurn(m: Mandate, turns: readonly Turn[], proposal: Proposal, message: string | null): Turn {
  const round = roundsOf(turns) + 1;
  const last = turns[turns.length - 1];
  const accept = last !== undefined && last.actor === 'venue' && sameProposal(proposal, last.proposal);
  const t = ourTurn(
    m,
    round,
    proposal,
    `round ${round}: operator-authored${accept ? ', accepting the venue counter' : ''}`,
    message ?? `${accept ? 'Agreed' : 'We can offer'}: ${renderOffer(proposal)}.`,
    { accept },
  );
  return { ...t, actor: 'operator', reasoning: t.inEnvelope ? t.reasoning : `${t.reasoning}; OUTSIDE the mandate: ${t.violations.join('; ')}` };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
