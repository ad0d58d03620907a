import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import type { DfyNegotiationMandateRow, DfyNegotiationRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import { badRequest, conflict } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { Parsed } from '../../http/route.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { operationRefusal } from '../dfy/deals/deal-port.ts';
import type { DfyService } from '../dfy/deals/dfy.service.ts';
import { answerTurn, conclusion, countOutOfMandateAsks, judged, openingTurn, operatorTurn, roundsOf, type Prior, type Turn } from './engine.ts';
import { band, buildGraph, escalationOf, type StoredTurn } from './graph.ts';
import {
  ProposalBody,
  type Advice,
  type EnvelopeBody,
  type Graph,
  type Graphs,
  type MandateVersion,
  type Negotiation,
  type OperatorTurnBody,
  type StartBody,
  type StepBody,
} from './negotiation.schemas.ts';
import { personaOf, personaReply } from './persona.ts';
import { dealEnvelope, outsideEnvelope, type Mandate, type Proposal, type Vertical } from './terms.ts';

export interface NegotiationDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Stage moves and checkpoints stay the deal's: the negotiation asks the DFY service, inside its own transaction. */
  dfy: Pick<DfyService, 'dealIn' | 'startNegotiationIn' | 'recordTermsIn' | 'raiseIn'>;
  config: Pick<Config, 'mode'>;
}

/** A venue's reply from a real channel (the outreach domain's inbound e-mail or text). */
export interface CounterpartyReply {
  channel: 'email' | 'sms' | 'voice';
  message: string;
  /** What the venue asks; omitted with `accept` or `walkAway`: our standing offer. */
  proposal?: Proposal;
  accept?: boolean;
  walkAway?: boolean;
}

/** One-word replies read as an answer to our standing offer (answerFromChannel). */
const ASSENT = new Set(['yes', 'y', 'accept', 'accepted', 'agree', 'agreed', 'deal']);
const REFUSAL = new Set(['no', 'n', 'decline', 'declined', 'refuse']);

type Status = 'running' | 'converged' | 'impasse' | 'outside_mandate';
const DAY = 86_400_000;

/**
 * The negotiation of a deal (spec 3 §2, §4, key rules 1–3; docs/decisions/negotiation.md): the versioned
 * mandate, the confirmed start, the deterministic engine against the sandbox venue persona or a real
 * channel's replies, advice, operator turns and the graphs. Every deal is its operator's (others 404).
 */
export class NegotiationService {
  constructor(private readonly deps: NegotiationDeps) {}

  // ---- mandate and start

  /** Stores a new mandate version (validated by the schema); fixed once the negotiation started (409). */
  async putEnvelope(p: Principal, dealId: string, body: EnvelopeBody): Promise<Parsed<typeof MandateVersion>> {
    return this.deps.store.transaction(async (tx) => {
      const row = await this.storeMandate(tx, p, dealId, body);
      await this.deps.audit.record(tx, p, 'dfy.negotiation_envelope', `deal:${dealId} v${row.version}`);
      return mandateView(row);
    });
  }

  private async storeMandate(tx: Repos, p: Principal, dealId: string, body: EnvelopeBody): Promise<DfyNegotiationMandateRow> {
    const deal = await this.deps.dfy.dealIn(tx, p, dealId);
    // where a mandate may be set (before the negotiation's terms) is the deal core's operations table
    const refused = operationRefusal(deal, 'set_mandate', 'operator');
    if (refused) throw conflict(refused);
    if (await tx.negotiation.negotiation(dealId))
      throw conflict(`Deal is ${deal.stage}: the mandate is fixed once the negotiation started; an operator turn may go outside it`);
    const now = this.deps.clock.now();
    const { vertical, installWindow, ...rest } = body;
    const mandate: Mandate = { ...rest, installWindow: installWindow ?? { earliest: day(now + 7 * DAY), latest: day(now + 60 * DAY) } };
    const version = ((await tx.negotiation.latestMandate(dealId))?.version ?? 0) + 1;
    // the deal's owner (an admin may set a mandate on any deal; it stays the owner's)
    const owner = (await tx.dfy.deal(dealId))!.operator_id;
    const row = { deal_id: dealId, version, operator_id: owner, vertical, mandate_json: JSON.stringify(mandate), created_at: now };
    await tx.negotiation.insertMandate(row);
    return row;
  }

  /**
   * Confirm gate 1 (key rule 1): only an operator's request with `confirm: true` starts the negotiation — the
   * DFY table refuses any other actor, so the autopilot can only raise `negotiation_target`. The opening
   * offer is the engine's first turn, in the same transaction.
   */
  async start(p: Principal, dealId: string, body: Parsed<typeof StartBody>): Promise<Parsed<typeof Negotiation>> {
    return this.deps.store.transaction(async (tx) => {
      const deal = await this.deps.dfy.dealIn(tx, p, dealId);
      if (body.envelope) await this.storeMandate(tx, p, dealId, body.envelope);
      const mrow = await tx.negotiation.latestMandate(dealId);
      if (!mrow) throw conflict(`Deal is ${deal.stage}: start_negotiation needs a mandate (PUT the envelope first)`);
      const mandate = JSON.parse(mrow.mandate_json) as Mandate;
      await this.deps.dfy.startNegotiationIn(tx, p, dealId, dealEnvelope(mandate), body.confirm);
      const now = this.deps.clock.now();
      const priors = await this.priors(tx, mrow.operator_id, mrow.vertical, dealId);
      await tx.negotiation.insertNegotiation({
        deal_id: dealId,
        operator_id: mrow.operator_id,
        vertical: mrow.vertical,
        status: 'running',
        counterparty: this.deps.config.mode === 'sandbox' ? 'sandbox_persona' : 'channel',
        mandate_version: mrow.version,
        rounds: 0,
        out_of_mandate_asks: 0,
        outcome_json: null,
        created_at: now,
        updated_at: now,
      });
      const neg = (await tx.negotiation.lockNegotiation(dealId))!;
      await this.append(tx, neg, [], [openingTurn(mandate, priors)], 'engine');
      await this.deps.audit.record(tx, p, 'dfy.negotiation_opened', `deal:${dealId}`);
      return this.viewIn(tx, p, dealId);
    });
  }

  /** Converged deals of the operator's vertical (their own only: another operator's deals are never cited). */
  private async priors(tx: Repos, operatorId: string, vertical: string, dealId: string): Promise<Prior[]> {
    const rows = await tx.negotiation.negotiations(operatorId, { vertical, status: 'converged' });
    return rows.filter((r) => r.deal_id !== dealId && r.outcome_json).map((r) => ({ dealId: r.deal_id, revenueSharePct: outcomeOf(r).terms!.revenueSharePct }));
  }

  // ---- the turns

  /**
   * On demand (and from the deal's autopilot tick, part 3): in the sandbox the venue persona answers our
   * standing offer and the engine answers it, up to `rounds` times, stopping at convergence or impasse.
   * With a real counterparty the venue answers through its channel (`recordCounterpartyReply`): 409.
   */
  async step(p: Principal | null, dealId: string, body: Parsed<typeof StepBody>): Promise<Parsed<typeof Negotiation>> {
    return this.deps.store.transaction(async (tx) => {
      const { deal, neg, mandate, turns } = await this.running(tx, p, dealId);
      if (neg.counterparty !== 'sandbox_persona') throw conflict(`Deal is ${deal.stage}: the venue answers through its channel, not the sandbox persona`);
      const persona = personaOf(deal.venue!);
      const added: Turn[] = [];
      for (let i = 0; i < body.rounds; i++) {
        const all = [...turns, ...added];
        if (conclusion(all).status !== 'running') break;
        const last = all[all.length - 1]!;
        if (last.actor !== 'venue') added.push(judged(mandate, personaReply(persona, all)));
        const now = [...turns, ...added];
        if (conclusion(now).status === 'running') added.push(answerTurn(mandate, now));
      }
      await this.append(tx, neg, turns, added, 'sandbox', p);
      await this.deps.audit.record(tx, p, 'dfy.negotiation_step', `deal:${dealId}`);
      return this.viewIn(tx, p, dealId);
    });
  }

  /**
   * The autopilot's negotiation pass over one deal (DfyAutopilotService's tick, `negotiation` on): a
   * negotiation an operator started, against the sandbox persona and still running, takes one round (the
   * venue persona's answer and the engine's) per tick until it converges or stalls. It never starts one:
   * that is confirm gate 1. With a real counterparty the venue answers through its channel: nothing to do.
   */
  async autopilotStep(dealId: string): Promise<'stepped' | 'none'> {
    const neg = await this.deps.store.repos.negotiation.negotiation(dealId);
    if (!neg || neg.status !== 'running' || neg.counterparty !== 'sandbox_persona') return 'none';
    await this.step(null, dealId, { rounds: 1 });
    return 'stepped';
  }

  /**
   * A reply from a real channel (an inbound e-mail or text) becomes a venue turn through the same path as the
   * persona's, and the engine answers it. The outreach domain calls this; no operator is behind it.
   */
  async recordCounterpartyReply(dealId: string, reply: CounterpartyReply): Promise<Parsed<typeof Negotiation>> {
    return this.deps.store.transaction(async (tx) => {
      const { deal, neg, mandate, turns } = await this.running(tx, null, dealId);
      const standing = standingOf(turns);
      if (!standing || turns[turns.length - 1]!.actor === 'venue') throw conflict(`Deal is ${deal.stage}: no offer of ours awaits the venue's answer`);
      // the channel's parse is another domain's: the proposal is checked here like an operator's
      if (reply.proposal && !ProposalBody.safeParse(reply.proposal).success) throw badRequest('the venue reply carries a malformed proposal');
      const ends = reply.accept === true || reply.walkAway === true;
      const proposal = ends || !reply.proposal ? standing : reply.proposal;
      const venue = judged(mandate, {
        actor: 'venue',
        round: roundsOf(turns),
        message: reply.message,
        proposal,
        accept: reply.accept === true,
        walkAway: reply.walkAway === true,
        reasoning: `reply by ${reply.channel}`,
        inEnvelope: true,
        violations: [],
      });
      const added = [venue];
      if (conclusion([...turns, venue]).status === 'running') added.push(answerTurn(mandate, [...turns, venue]));
      await this.append(tx, neg, turns, added, reply.channel, null);
      await this.deps.audit.record(tx, null, 'dfy.negotiation_reply', `deal:${dealId} ${reply.channel}`);
      return this.viewIn(tx, null, dealId);
    });
  }

  /**
   * A venue's free-text reply from a channel (the outreach domain's inbound callback). Money is never read out
   * of prose: only a reply that is one plain word of assent ("yes", "accept", "agreed") or refusal ("no",
   * "decline") answers our standing offer, and only while one awaits the venue; anything else stays with the
   * `reply_review` checkpoint for a person, who records the venue's counter as a structured reply.
   * Never throws for a reply it cannot use: the provider's callback must not be retried for it.
   */
  async answerFromChannel(
    dealId: string,
    reply: { channel: CounterpartyReply['channel']; text: string },
  ): Promise<'accepted' | 'walked_away' | 'left_for_review'> {
    const word = reply.text
      .trim()
      .toLowerCase()
      .replace(/[.!]+$/, '');
    const verdict = ASSENT.has(word) ? 'accept' : REFUSAL.has(word) ? 'walkAway' : null;
    if (!verdict) return 'left_for_review';
    const neg = await this.deps.store.repos.negotiation.negotiation(dealId);
    if (!neg || neg.status !== 'running') return 'left_for_review';
    const turns = await this.turnsOf(this.deps.store.repos, dealId);
    if (!standingOf(turns) || turns[turns.length - 1]!.actor === 'venue') return 'left_for_review';
    await this.recordCounterpartyReply(dealId, { channel: reply.channel, message: reply.text.trim(), [verdict]: true });
    return verdict === 'accept' ? 'accepted' : 'walked_away';
  }

  /** An operator-authored offer: validated, not clamped; outside the mandate it is flagged (and escalated in the graph). */
  async operatorTurn(p: Principal, dealId: string, body: Parsed<typeof OperatorTurnBody>): Promise<Parsed<typeof Negotiation>> {
    return this.deps.store.transaction(async (tx) => {
      const { neg, mandate, turns } = await this.running(tx, p, dealId);
      await this.append(tx, neg, turns, [operatorTurn(mandate, turns, body.proposal, body.message ?? null)], 'api', p);
      await this.deps.audit.record(tx, p, 'dfy.negotiation_operator_turn', `deal:${dealId}`);
      return this.viewIn(tx, p, dealId);
    });
  }

  /** Suggests our next move without storing anything: the standing offer does not move. */
  async advise(p: Principal, dealId: string): Promise<Parsed<typeof Advice>> {
    const repos = this.deps.store.repos;
    const deal = await this.deps.dfy.dealIn(repos, p, dealId);
    const neg = await repos.negotiation.negotiation(dealId);
    const mrow = await repos.negotiation.latestMandate(dealId);
    if (!mrow) throw conflict(`Deal is ${deal.stage}: advice needs a mandate (PUT the envelope first)`);
    const mandate = JSON.parse(mrow.mandate_json) as Mandate;
    if (!neg) return { suggestion: openingTurn(mandate, await this.priors(repos, mrow.operator_id, mrow.vertical, dealId)), standingOffer: null };
    if (neg.status !== 'running') throw conflict(`Deal is ${deal.stage}: the negotiation ended (${neg.status})`);
    const turns = await this.turnsOf(repos, dealId);
    const standing = standingOf(turns);
    const last = turns[turns.length - 1]!;
    if (last.actor === 'venue') return { suggestion: answerTurn(mandate, turns), standingOffer: standing };
    const violations = outsideEnvelope(mandate, standing!);
    // a suggestion is not a stored turn: it has no seq of its own
    const { seq: _stored, ...move } = last;
    return {
      suggestion: {
        ...move,
        actor: 'engine',
        accept: false,
        walkAway: false,
        reasoning: `hold: our offer of round ${last.round} awaits the venue's answer`,
        inEnvelope: violations.length === 0,
        violations,
      },
      standingOffer: standing,
    };
  }

  /** Appends turns, rolls the counts up and settles the outcome with the deal (terms or an escalation). */
  private async append(tx: Repos, neg: DfyNegotiationRow, before: readonly Turn[], added: readonly Turn[], venueChannel: string, p: Principal | null = null) {
    const now = this.deps.clock.now();
    const mandate = JSON.parse((await tx.negotiation.latestMandate(neg.deal_id))!.mandate_json) as Mandate;
    let seq = before.length;
    for (const t of added) {
      await tx.negotiation.insertTurn({
        deal_id: neg.deal_id,
        seq: ++seq,
        operator_id: neg.operator_id,
        actor: t.actor,
        channel: t.actor === 'venue' ? venueChannel : t.actor === 'engine' ? 'engine' : 'api',
        mandate_version: neg.mandate_version,
        turn_json: JSON.stringify(t),
        at: now,
      });
    }
    const all = [...before, ...added];
    const c = conclusion(all);
    const asks = countOutOfMandateAsks(mandate, all);
    let status: Status = c.status;
    if (c.status === 'converged') {
      const inside = outsideEnvelope(mandate, c.terms).length === 0;
      status = inside ? 'converged' : 'outside_mandate';
      if (inside) {
        await this.deps.dfy.recordTermsIn(tx, p, neg.deal_id, {
          revenueSharePct: c.terms.revenueSharePct,
          termMonths: c.terms.termMonths,
          rounds: c.rounds,
          outOfMandateAsks: asks,
        });
      } else {
        await this.deps.dfy.raiseIn(
          tx,
          p,
          neg.deal_id,
          'reply_review',
          'negotiation',
          `the venue accepted terms outside the mandate (${outsideEnvelope(mandate, c.terms).join('; ')}): make an offer inside it or cancel`,
        );
      }
    } else if (c.status === 'impasse') {
      await this.deps.dfy.raiseIn(
        tx,
        p,
        neg.deal_id,
        'reply_review',
        'negotiation',
        `negotiation impasse after ${c.rounds} rounds: ${all[all.length - 1]!.message}`,
      );
    }
    await tx.negotiation.saveNegotiation(neg.deal_id, {
      status,
      rounds: roundsOf(all),
      out_of_mandate_asks: asks,
      outcome_json:
        c.status === 'running'
          ? null
          : JSON.stringify({ terms: c.status === 'converged' ? c.terms : null, rounds: c.rounds, openingPct: all[0]!.proposal.revenueSharePct }),
      updated_at: now,
    });
  }

  private async running(tx: Repos, p: Principal | null, dealId: string) {
    const deal = await this.deps.dfy.dealIn(tx, p, dealId);
    const neg = await tx.negotiation.lockNegotiation(dealId);
    if (!neg) throw conflict(`Deal is ${deal.stage}: the negotiation has not started (a confirmed start is needed)`);
    if (neg.status !== 'running') throw conflict(`Deal is ${deal.stage}: the negotiation ended (${neg.status})`);
    const mandate = JSON.parse((await tx.negotiation.latestMandate(dealId))!.mandate_json) as Mandate;
    return { deal, neg, mandate, turns: await this.turnsOf(tx, dealId) };
  }

  // ---- views

  async get(p: Principal, dealId: string): Promise<Parsed<typeof Negotiation>> {
    return this.viewIn(this.deps.store.repos, p, dealId);
  }

  private async viewIn(repos: Repos, p: Principal | null, dealId: string): Promise<Parsed<typeof Negotiation>> {
    const deal = await this.deps.dfy.dealIn(repos, p, dealId);
    const neg = await repos.negotiation.negotiation(dealId);
    const mrow = await repos.negotiation.latestMandate(dealId);
    const rows = await repos.negotiation.turns(dealId);
    const turns = rows.map((r) => ({
      seq: r.seq,
      channel: r.channel,
      mandateVersion: r.mandate_version,
      at: formatTimestamp(Number(r.at))!,
      ...(JSON.parse(r.turn_json) as Turn),
    }));
    const last = turns[turns.length - 1];
    return {
      dealId,
      dealStage: deal.stage,
      status: (neg?.status ?? 'not_started') as Parsed<typeof Negotiation>['status'],
      counterparty: (neg?.counterparty ?? null) as 'sandbox_persona' | 'channel' | null,
      vertical: (neg?.vertical ?? mrow?.vertical ?? null) as Vertical | null,
      mandate: mrow ? mandateView(mrow) : null,
      rounds: neg?.rounds ?? 0,
      outOfMandateAsks: neg?.out_of_mandate_asks ?? 0,
      standingOffer: standingOf(turns),
      awaiting: neg?.status === 'running' && last ? (last.actor === 'venue' ? 'engine' : 'venue') : null,
      turns,
    };
  }

  async graph(p: Principal, dealId: string): Promise<Parsed<typeof Graph>> {
    const repos = this.deps.store.repos;
    const deal = await this.deps.dfy.dealIn(repos, p, dealId);
    const neg = await repos.negotiation.negotiation(dealId);
    const mandates = (await repos.negotiation.mandates(dealId)).map((m) => ({ version: m.version, createdAt: formatTimestamp(Number(m.created_at))! }));
    return { dealId, ...buildGraph(deal, mandates, await this.turnsOf(repos, dealId), neg?.status ?? 'running') };
  }

  /** Per-vertical convergence bands and a per-negotiation rollup of the caller's negotiations. */
  async graphs(p: Principal): Promise<Parsed<typeof Graphs>> {
    const repos = this.deps.store.repos;
    const rows = await repos.negotiation.negotiations(ownerFilter(p));
    const negotiations = [];
    const byVertical = new Map<Vertical, { sharePct: number; rounds: number }[]>();
    for (const r of rows) {
      const turns = await this.turnsOf(repos, r.deal_id);
      const outcome = r.outcome_json ? outcomeOf(r) : null;
      const finalPct = outcome?.terms?.revenueSharePct ?? null;
      if (r.status === 'converged' && finalPct !== null) {
        const v = r.vertical as Vertical;
        byVertical.set(v, [...(byVertical.get(v) ?? []), { sharePct: finalPct, rounds: r.rounds }]);
      }
      negotiations.push({
        dealId: r.deal_id,
        vertical: r.vertical as Vertical,
        status: r.status as Status,
        mandateVersion: r.mandate_version,
        rounds: r.rounds,
        openingPct: turns[0]?.proposal.revenueSharePct ?? null,
        finalPct,
        outOfMandateAsks: r.out_of_mandate_asks,
        escalations: turns.filter((t) => escalationOf(t) !== null).length + (r.status === 'impasse' || r.status === 'outside_mandate' ? 1 : 0),
      });
    }
    const verticals = [...byVertical.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([vertical, xs]) => ({ vertical, ...band(xs) }));
    return { verticals, negotiations };
  }

  private async turnsOf(repos: Repos, dealId: string): Promise<StoredTurn[]> {
    return (await repos.negotiation.turns(dealId)).map((r) => ({ seq: r.seq, ...(JSON.parse(r.turn_json) as Turn) }));
  }
}

function standingOf(turns: readonly Turn[]): Proposal | null {
  return [...turns].reverse().find((t) => t.actor !== 'venue')?.proposal ?? null;
}

function outcomeOf(r: DfyNegotiationRow): { terms: Proposal | null; rounds: number; openingPct: number } {
  return JSON.parse(r.outcome_json!) as { terms: Proposal | null; rounds: number; openingPct: number };
}

function mandateView(r: DfyNegotiationMandateRow): Parsed<typeof MandateVersion> {
  return {
    dealId: r.deal_id,
    version: r.version,
    vertical: r.vertical as Vertical,
    mandate: JSON.parse(r.mandate_json) as Mandate,
    createdAt: formatTimestamp(Number(r.created_at))!,
  };
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
