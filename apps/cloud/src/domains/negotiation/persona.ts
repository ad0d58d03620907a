import { roundsOf, renderOffer, type Turn } from './engine.ts';
import { POWER_ARRANGEMENTS, VENUE_ASKS, draw, fnv1a, half, type PowerArrangement, type Proposal, type VenueAsk } from './terms.ts';

/**
 * The sandbox counterparty: a deterministic venue persona seeded by the venue (its name and coordinates), so
 * a negotiation runs to convergence or impasse with nobody on the other side — and the same venue answers
 * the same way every time. It never sees the mandate. Each round's chance is a named draw of the seed and
 * the round (no generator state), so a replay needs nothing but the turns.
 */
export interface Persona {
  seed: number;
  /** 0.2–0.9: how slowly the ask falls, how long it waits, how likely it insists. */
  stubbornness: number;
  openingAskPct: number;
  /** The lowest share it accepts. */
  reservationPct: number;
  termMonths: number;
  power: PowerArrangement;
  /** Accepts our power arrangement when it is not its own. */
  flexibleOnPower: boolean;
  /** Standing asks (made in its first counter; kept when it insists). */
  asks: VenueAsk[];
  insistsOnAsks: boolean;
  /** Chance per counter of an occasional extra ask (often outside a mandate). */
  extraAskRate: number;
  /** Our offers it waits for before walking away. */
  patienceRounds: number;
  /** Days after our first proposed install date it can host an install. */
  readyAfterDays: number;
}

const TERMS = [12, 24, 36, 48] as const;
const pick = <T>(xs: readonly T[], r: number): T => xs[Math.floor(r * xs.length)]!;

export function personaOf(venue: { name: string; lat: number; lng: number }): Persona {
  const seed = fnv1a(`${venue.name}|${venue.lat}|${venue.lng}`);
  const d = (label: string) => draw(seed, 0, label);
  const stubbornness = Math.round((0.2 + 0.7 * d('stubborn')) * 100) / 100;
  const openingAskPct = 12 + half(12 * d('ask'));
  return {
    seed,
    stubbornness,
    openingAskPct,
    reservationPct: half(openingAskPct * (0.55 + 0.3 * d('reserve'))),
    termMonths: pick(TERMS, d('term')),
    power: pick(POWER_ARRANGEMENTS, d('power')),
    flexibleOnPower: d('powerFlex') >= stubbornness,
    asks: d('asks') < 0.3 ? [pick(VENUE_ASKS, d('askKind'))] : [],
    insistsOnAsks: d('insist') < stubbornness * 0.5,
    extraAskRate: Math.round((0.1 + 0.2 * d('extraRate')) * 100) / 100,
    patienceRounds: 4 + Math.floor(stubbornness * 8),
    readyAfterDays: Math.floor(d('delay') * 21),
  };
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The persona's current ask: from its opening toward its reservation, more slowly the more stubborn. */
export function askAt(p: Persona, round: number): number {
  const keep = 1 - ((1 - p.stubbornness) * 0.4 + 0.1);
  return Math.max(p.reservationPct, half(p.reservationPct + (p.openingAskPct - p.reservationPct) * keep ** (round - 1)));
}

/** The persona's answer to our standing offer (the last turn must be ours). */
export function personaReply(p: Persona, turns: readonly Turn[]): Turn {
  const standing = turns[turns.length - 1];
  if (!standing || standing.actor === 'venue') throw new Error('the venue answers our offer');
  const o = standing.proposal;
  const round = roundsOf(turns);
  const ask = askAt(p, round);
  const readyOn = addDays(turns[0]!.proposal.installDate, p.readyAfterDays);
  const shareOk = o.revenueSharePct >= ask;
  const termOk = Math.abs(o.termMonths - p.termMonths) <= 12;
  const powerOk = o.power === p.power || p.flexibleOnPower;
  const dateOk = o.installDate >= readyOn || round >= 3;
  const wanted = p.insistsOnAsks || round === 1 ? p.asks : [];
  const asksOk = wanted.every((a) => o.asks.includes(a));
  const base = { actor: 'venue' as const, round, inEnvelope: true, violations: [] as string[] };
  if (shareOk && termOk && powerOk && dateOk && asksOk) {
    return {
      ...base,
      message: `Agreed: ${renderOffer(o)}.`,
      proposal: o,
      accept: true,
      walkAway: false,
      reasoning: `persona: ${o.revenueSharePct}% meets its ask ${ask}%`,
    };
  }
  if (round >= p.patienceRounds) {
    return {
      ...base,
      message: `We will pass: ${renderOffer(o)} does not work for us.`,
      proposal: o,
      accept: false,
      walkAway: true,
      reasoning: `persona: out of patience after ${round} offers (ask ${ask}%)`,
    };
  }
  const extra = draw(p.seed, round, 'extra') < p.extraAskRate ? [pick(VENUE_ASKS, draw(p.seed, round, 'extraKind'))] : [];
  const counter: Proposal = {
    revenueSharePct: shareOk ? o.revenueSharePct : ask,
    termMonths: termOk ? o.termMonths : p.termMonths,
    power: powerOk ? o.power : p.power,
    installDate: dateOk ? o.installDate : readyOn,
    asks: [...new Set([...o.asks, ...wanted, ...extra])].sort(),
  };
  return {
    ...base,
    message: `We would need ${renderOffer(counter)}.`,
    proposal: counter,
    accept: false,
    walkAway: false,
    reasoning: `persona: counters at ${ask}%`,
  };
}
