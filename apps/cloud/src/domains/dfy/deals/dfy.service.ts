import type { Clock } from '@vend/protocol';
import type { Config } from '../../../config.ts';
import { newId } from '../../../crypto/ids.ts';
import type { DfyCheckpointRow, DfyDealRow } from '../../../db/schema.ts';
import type { AuditLog } from '../../../http/audit.ts';
import { ownerFilter, requireOwned } from '../../../http/authenticate.ts';
import { conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { formatTimestamp } from '../../../http/time-format.ts';
import type { Parsed } from '../../../http/route.ts';
import type { AppStore, Repos } from '../../../repos.ts';
import type { MachinesService } from '../../machines/machines.service.ts';
import type { EventSink } from '../../webhooks/webhook-events.ts';
import { autopilotMoves, type AutopilotMoves } from './autopilot-moves.ts';
import { CATALOG, CATALOG_VERSION, priceOf, type Tier } from './catalog.ts';
import { CHECKPOINT_RULES, type Raiser } from './checkpoint-kinds.ts';
import { DealChanges, type ChangeScope } from './deal-changes.ts';
import { ProcessorPayments, type ProcessorPaymentsDeps } from './processor-payments.ts';
import { recordPayment } from './deal-payments.ts';
import { foldDeal, type DealEvent, type DealOrigin, type DealState, type Envelope, type TouchChannel } from './deal-model.ts';
import type { DealChange } from './deal-port.ts';
import type { Actor, CheckpointKind, DealStage } from './deal-vocabulary.ts';
import type { DealWriter } from './deal-writer.ts';
import { DEFAULT_SETTINGS, approvalReasons, outsideMandate, type CAPABILITIES, type PortfolioSettings } from './dfy.rules.ts';
import type {
  AdvanceBody,
  AutopilotBody,
  CatalogData,
  Checkpoint,
  CreateDealBody,
  ListCheckpointsQuery,
  ListDealsQuery,
  PreorderBody,
  Replay,
  TermsBody,
  Venue,
} from './dfy.schemas.ts';

export interface DfyDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** The fleet pin is the machines domain's operation. */
  machines: Pick<MachinesService, 'provisionPin'>;
  config: Pick<Config, 'mode'>;
  /** Fleet events: a checkpoint raised on a deal reaches the operator's webhooks and alert rules. */
  events: EventSink;
  /** Money through a real processor (processor-payments.ts); absent, or no `processor`: paid at once (the sandbox). */
  payments?: Pick<ProcessorPaymentsDeps, 'processor' | 'verifier'>;
}

const usd = (cents: number) => Math.round(cents) / 100;

/**
 * The done-for-you deal core, part 1 (spec 3 §1–§4, §8; docs/decisions/dfy.md, docs/decisions/deal-pipeline.md):
 * deals and their forward-only stages, checkpoints and the inbox, the four confirm gates, pre-order and
 * refund, checkout and the fleet pin, replay, and the port the negotiation, outreach and the autopilot
 * change deals through. Every move, operation and checkpoint is decided by the tables (transitions.ts,
 * operations.ts, checkpoint-kinds.ts); every write goes through `DealChanges`. Every deal and checkpoint is
 * its operator's (others 404). Shipping and install: DfyInstallService; the portfolio: DfyPortfolioService.
 */
export class DfyService {
  private readonly changes: DealChanges;
  /** Money through a real payment processor: its webhook, views and refunds (also in the sandbox, where nothing awaits). */
  readonly payments: ProcessorPayments;
  constructor(private readonly deps: DfyDeps) {
    this.changes = new DealChanges(deps);
    this.payments = new ProcessorPayments({ ...deps, processor: null, verifier: null, ...deps.payments }, this.changes, {
      created: (w, body, origin) => this.created(w, body, origin),
      provisionPin: (tx, w) => this.provisionPin(tx, w),
    });
  }

  catalog(): Parsed<typeof CatalogData> {
    return {
      version: CATALOG_VERSION,
      currency: 'USD',
      tiers: CATALOG.map((c) => ({ tier: c.tier, name: c.name, priceCents: c.priceCents, priceUsd: usd(c.priceCents) })),
    };
  }

  // ---- deals

  /** An operator asks for a machine to be placed: a deal at shortlisting (its scout checkpoint raised). */
  async createDeal(p: Principal, body: CreateDealBody): Promise<DealState> {
    return this.changes.create(p.operatorId, request(p, 'dfy.deal_create'), async (w) => {
      this.created(w, body, 'request');
      await w.move('deal_created');
    });
  }

  /**
   * Confirmed checkout of a pre-order (spec 3 §4 `POST /preorder`): the deal is created and paid up front at
   * the catalog price of its tier (never a client amount), then moves shortlisting → pre_ordered.
   */
  async preorder(p: Principal, body: PreorderBody): Promise<DealState> {
    if (this.deps.payments?.processor) return this.payments.preorder(p, body);
    return this.changes.create(p.operatorId, request(p, 'dfy.preorder'), async (w, tx, now) => {
      this.created(w, body, 'preorder');
      const amount = priceOf(w.deal.tier);
      const paymentId = newId('dpay', now);
      w.emit({ type: 'preorder_paid', amountCents: amount, paymentId });
      await w.move('preorder_paid', { confirm: true });
      await recordPayment(tx, w, { id: paymentId, kind: 'preorder', cents: amount }, now);
    });
  }

  /** Pays the pre-order of a requested deal still at shortlisting (confirmed): shortlisting → pre_ordered. */
  async preorderDeal(p: Principal, dealId: string): Promise<DealState> {
    if (this.deps.payments?.processor) return this.payments.preorderDeal(p, dealId);
    return this.onDeal(p, dealId, 'dfy.preorder', async (w, tx, now) => {
      const amount = priceOf(w.deal.tier);
      const paymentId = newId('dpay', now);
      await w.act('preorder', { confirm: true, event: { type: 'preorder_paid', amountCents: amount, paymentId } });
      await recordPayment(tx, w, { id: paymentId, kind: 'preorder', cents: amount }, now);
    });
  }

  /**
   * A deal the investment pool funds (spec 3 key rule 7), inside the pool's transaction. It is created as an
   * operator's request is (the operator's confirmed investment is the request: actor `operator`, channel
   * `system`), fully managed (its autopilot override on, so every capability resolves on), origin `pool`, and
   * its machine is paid by the pool at the catalog price (a `pool` payment: no money gate later; a refund
   * before shipping returns the price to the pool). The scout shortlists its venue.
   */
  async createPoolDealIn(tx: Repos, operatorId: string, tier: Tier, note: string): Promise<DealState> {
    const scope: ChangeScope = { tx, p: null, actor: 'operator', channel: 'system', audit: { action: 'dfy.deal_create_pool' } };
    return this.changes.create(operatorId, scope, async (w, _tx, now) => {
      this.created(w, { tier, hardwareVariant: 'agent', venue: null, note, autopilot: true }, 'pool');
      await w.move('deal_created');
      const amount = priceOf(tier);
      const paymentId = newId('dpay', now);
      w.emit({ type: 'machine_paid', amountCents: amount, paymentId });
      await recordPayment(tx, w, { id: paymentId, kind: 'pool', cents: amount }, now);
    });
  }

  private created(w: DealWriter, body: CreateDealBody | PreorderBody, origin: DealOrigin): void {
    w.emit({
      type: 'created',
      tier: body.tier,
      priceCents: priceOf(body.tier),
      hardwareVariant: body.hardwareVariant,
      venue: body.venue,
      note: body.note,
      autopilot: body.autopilot,
      origin,
    });
  }

  async listDeals(p: Principal, q: Parsed<typeof ListDealsQuery>) {
    const { total, rows } = await this.deps.store.repos.dfy.deals({ operatorId: ownerFilter(p), stage: q.stage }, q.size, (q.page - 1) * q.size);
    return { page: q.page, size: q.size, total, records: rows.map(stateOf) };
  }

  async getDeal(p: Principal, dealId: string): Promise<DealState> {
    return stateOf(await this.changes.owned(this.deps.store.repos, p, dealId));
  }

  /** The deal inside the caller's transaction, as its owner sees it (another operator's: 404; null: the system). */
  async dealIn(tx: Repos, p: Principal | null, dealId: string): Promise<DealState> {
    return stateOf(await this.changes.owned(tx, p, dealId));
  }

  /** The deal's log re-applied from the first event; `matchesStored` compares it with the stored deal byte for byte. */
  async replay(p: Principal, dealId: string): Promise<Parsed<typeof Replay>> {
    const row = await this.changes.owned(this.deps.store.repos, p, dealId);
    const events = (await this.deps.store.repos.dfy.events(dealId)).map((e) => JSON.parse(e.event_json) as DealEvent);
    const deal = foldDeal(dealId, events);
    return {
      dealId,
      events: events.map((e) => ({ ...e, data: e.data as unknown as Record<string, unknown> })),
      deal,
      matchesStored: JSON.stringify(deal) === row.state_json,
    };
  }

  async advance(p: Principal, dealId: string, body: Parsed<typeof AdvanceBody>): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.advance', async (w) => {
      await w.move('advance', { to: body.to });
    });
  }

  /**
   * The operator accepts a venue from the scout's shortlist: resolves scout_outreach, shortlisting → outreach.
   * `linked`: the caller's own rows for the choice (the outreach directory link), in the same transaction.
   */
  async acceptScout(p: Principal, dealId: string, venue: Parsed<typeof Venue>, linked?: (tx: Repos, deal: DealChange) => Promise<void>): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.scout_accept', async (w, tx) => {
      await w.act('accept_scout', { event: { type: 'venue_chosen', venue } });
      if (linked) await linked(tx, w);
    });
  }

  // ---- the negotiation's moves (its domain stores the turns in the same transaction)

  /**
   * Confirm gate 1: start the negotiation inside a mandate (resolves negotiation_target), inside the caller's
   * transaction — the negotiation domain stores its mandate and opening turn in the same one. `null` (no
   * operator credential: a tick, a channel) is refused by the table's gate.
   */
  async startNegotiationIn(tx: Repos, p: Principal | null, dealId: string, envelope: Envelope, confirmed: boolean): Promise<DealState> {
    return this.inTx(tx, p, dealId, 'dfy.negotiation_start', async (w) => {
      await w.act('start_negotiation', { confirm: confirmed });
      w.emit({ type: 'negotiation_started', envelope });
    });
  }

  /**
   * The terms the negotiation converged on, for review: raises negotiation_review and, near the mandate
   * edge (key rule 2), terms_approval. Terms outside the mandate are refused (409). The negotiation engine
   * records them inside its own transaction; `null` is the system (a venue's reply from a real channel).
   */
  async recordTermsIn(tx: Repos, p: Principal | null, dealId: string, terms: Parsed<typeof TermsBody>): Promise<DealState> {
    return this.inTx(tx, p, dealId, 'dfy.terms_record', async (w) => {
      await w.act('record_terms');
      // a started negotiation carries its mandate's envelope (negotiation_started)
      const envelope = w.deal.negotiation.envelope!;
      const outside = outsideMandate(envelope, terms);
      if (outside) throw conflict(`Terms outside the mandate: ${outside}`);
      const reasons = approvalReasons(envelope, terms);
      w.emit({ type: 'terms_recorded', terms, approvalReasons: reasons });
      await w.raise('negotiation_review', 'negotiation', `revenue share ${terms.revenueSharePct}%, ${terms.termMonths} months, ${terms.rounds} rounds`);
      if (reasons.length) await w.raise('terms_approval', 'negotiation', reasons.join('; '));
      // terms recorded again, now inside the comfortable band: the earlier approval request is moot
      else await w.resolve('terms_approval', 'superseded');
    });
  }

  async recordTerms(p: Principal, dealId: string, terms: Parsed<typeof TermsBody>): Promise<DealState> {
    return this.deps.store.transaction((tx) => this.recordTermsIn(tx, p, dealId, terms));
  }

  /** Raises a checkpoint on a deal as `by` inside the caller's transaction (an escalation of the negotiation; an inventory order over its cap). */
  async raiseIn(tx: Repos, p: Principal | null, dealId: string, kind: CheckpointKind, by: Raiser, detail: string): Promise<DealState> {
    return this.inTx(tx, p, dealId, `dfy.checkpoint_${kind}`, async (w) => {
      await w.raise(kind, by, detail);
    });
  }

  /** The reviewed negotiation: resolves negotiation_review, outreach → lease_chat (raises lease_send). */
  async reviewNegotiation(p: Principal, dealId: string): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.negotiation_review', async (w) => {
      await w.move('negotiation_reviewed');
    });
  }

  /** Confirm gate 2: approve terms near the mandate edge (resolves terms_approval). */
  async approveTerms(p: Principal, dealId: string, confirmed: boolean): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.terms_approve', async (w) => {
      await w.act('approve_terms', { confirm: confirmed });
      w.emit({ type: 'terms_approved' });
    });
  }

  // ---- the lease and the money

  /** Confirm gate 3: send the lease (the only transmit path): lease_chat → lease_sent; 409 until terms are approved. */
  async sendLease(p: Principal, dealId: string, confirmed: boolean): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.lease_send', async (w) => {
      await w.move('lease_sent', { confirm: confirmed });
      // moot when the machine is already paid (a pre-order, the pool)
      await w.raise('money', 'contracting', `${w.deal.tier} at ${w.deal.priceUsd} USD`);
    });
  }

  /** The venue signed: lease_sent → signed, or → ready_to_ship (fleet pin provisioned) when already paid. */
  async recordSignature(p: Principal, dealId: string): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.lease_signed', async (w, tx) => {
      if ((await w.act('sign', { event: { type: 'lease_signed' } })) === 'ready_to_ship') await this.provisionPin(tx, w);
    });
  }

  /**
   * Confirm gate 4: pay for the machine at the catalog price (resolves money). At `signed` the deal moves to
   * ready_to_ship and the fleet pin is pre-provisioned at the leased coordinates; at `lease_sent` the payment
   * waits for the signature. A deal its pre-order already paid is 409 (nothing is charged twice).
   */
  async checkout(p: Principal, dealId: string, confirmed: boolean): Promise<DealState> {
    if (this.deps.payments?.processor) return this.payments.checkout(p, dealId, confirmed);
    return this.onDeal(p, dealId, 'dfy.checkout', async (w, tx, now) => {
      const due = priceOf(w.deal.tier) - Math.round(w.deal.money.preorderPaidUsd * 100);
      const paymentId = newId('dpay', now);
      const to = await w.act('payment', { confirm: confirmed, event: { type: 'machine_paid', amountCents: due, paymentId } });
      await recordPayment(tx, w, { id: paymentId, kind: 'checkout', cents: due }, now);
      if (to === 'ready_to_ship') await this.provisionPin(tx, w);
    });
  }

  /** On payment with a signed lease: the machine record at the leased coordinates, claimable by the shipped cabinet. */
  private async provisionPin(tx: Repos, w: DealWriter): Promise<void> {
    const venue = w.deal.venue;
    if (!venue) throw conflict(`Deal is ${w.stage}: no leased venue to pin the machine at`);
    const machineNo = `DFY-${w.dealId.slice(-10).toUpperCase()}`;
    const machineId = await this.deps.machines.provisionPin(tx, {
      ownerId: w.operatorId,
      machineNo,
      name: `${venue.name} (${w.deal.tier})`.slice(0, 100),
      location: (venue.address ?? venue.name).slice(0, 255),
      lat: venue.lat,
      lng: venue.lng,
    });
    w.emit({ type: 'machine_provisioned', machineNo, lat: venue.lat, lng: venue.lng });
    w.placeMachine(machineId);
  }

  async setAutopilot(p: Principal, dealId: string, body: Parsed<typeof AutopilotBody>): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.autopilot_set', async (w) => {
      await w.act('set_autopilot');
      w.emit({ type: 'autopilot_set', enabled: body.enabled });
    });
  }

  /** Cancels the deal (the only correction); refunds its payments while the operations table still allows a refund (until shipped). */
  async cancel(p: Principal, dealId: string, reason: string): Promise<DealState> {
    const deal = await this.onDeal(p, dealId, 'dfy.cancel', async (w, tx, now) => {
      if (w.allows('refund')) await this.refundAll(tx, w, now, reason);
      w.emit({ type: 'cancel_requested', reason });
      await w.move('cancel');
    });
    // the cancel stands; a refund the processor refused or could not take stays on the money view (POST …/refund retries)
    await this.payments.issueOwed(p, dealId, reason).catch(() => undefined);
    return deal;
  }

  /**
   * The refund path (confirmed): every payment of a deal that has not shipped is refunded and the deal cancelled; one
   * taken through the processor is issued through it (`issueRefunds`: 502 failed, 503 still owed; the cancel stands).
   * While refunds are owed or failed, the call only issues them (the retry).
   */
  async refund(p: Principal, dealId: string, reason: string): Promise<DealState> {
    const repos = this.deps.store.repos;
    await this.changes.owned(repos, p, dealId);
    if (!(await repos.dfy.refundsToIssue(dealId)).length) {
      await this.onDeal(p, dealId, 'dfy.refund', async (w, tx, now) => {
        await w.act('refund');
        if (!(await this.refundAll(tx, w, now, reason))) throw conflict(`Deal is ${w.stage}: nothing paid to refund`);
        w.emit({ type: 'cancel_requested', reason });
        await w.move('cancel');
      });
    }
    await this.payments.issueOwed(p, dealId, reason);
    return this.getDeal(p, dealId);
  }

  private async refundAll(tx: Repos, w: DealWriter, now: number, reason: string): Promise<boolean> {
    const paid = await tx.dfy.refundPayments(w.dealId, now);
    if (!paid.length) return false;
    // the pool paid for this machine: its price goes back to the operator's pool balance
    if (paid.some((x) => x.kind === 'pool')) await tx.dfyFleets.returnDeal(w.operatorId, w.dealId, now);
    w.emit({ type: 'refunded', amountCents: paid.reduce((a, x) => a + Number(x.amount_cents), 0), paymentIds: paid.map((x) => x.id), reason });
    return true;
  }

  // ---- checkpoints

  async checkpoints(p: Principal, q: Parsed<typeof ListCheckpointsQuery>) {
    const repos = this.deps.store.repos;
    if (q.dealId !== undefined) await this.changes.owned(repos, p, q.dealId);
    const { total, rows } = await repos.dfy.checkpoints(
      { operatorId: ownerFilter(p), resolved: q.resolved, dealId: q.dealId, kind: q.kind },
      q.size,
      (q.page - 1) * q.size,
    );
    const stages = new Map<string, DealStage>();
    for (const r of rows) if (!stages.has(r.deal_id)) stages.set(r.deal_id, ((await repos.dfy.deal(r.deal_id))?.stage ?? 'cancelled') as DealStage);
    return { page: q.page, size: q.size, total, records: rows.map((r) => checkpointView(r, stages.get(r.deal_id)!)) };
  }

  /** Resolves a checkpoint the checkpoint-kind table lets the inbox acknowledge (call outcome, contact verified, reply read, mode resumed, cashless fixed). */
  async acknowledge(p: Principal, checkpointId: string): Promise<Parsed<typeof Checkpoint>> {
    return this.deps.store.transaction(async (tx) => {
      const c = requireOwned(p, await tx.dfy.checkpoint(checkpointId), () => notFound('Checkpoint'));
      if (c.resolved) throw conflict(`Checkpoint ${c.kind} is already resolved`);
      const scope: ChangeScope = { tx, p, actor: 'operator', audit: { action: 'dfy.checkpoint_ack', target: `checkpoint:${c.id}` } };
      const { deal } = await this.changes.change(c.deal_id, scope, (w) => w.resolve(c.kind as CheckpointKind, 'acknowledged'));
      return checkpointView((await tx.dfy.checkpoint(checkpointId))!, deal.stage);
    });
  }

  // ---- what automation reads and does

  /** The operator's portfolio settings (defaults until set). `repos`: a transaction's, when asked from inside one (SQLite has one connection). */
  async settingsOf(operatorId: string, repos: Repos = this.deps.store.repos): Promise<PortfolioSettings> {
    const json = await repos.dfy.settings(operatorId);
    return json ? { ...DEFAULT_SETTINGS, ...(JSON.parse(json) as PortfolioSettings) } : DEFAULT_SETTINGS;
  }

  /** The deal's own part of an autopilot tick (autopilot-moves.ts), as the autopilot, audited when it changed anything. */
  async autopilotDeal(p: Principal | null, row: DfyDealRow, on: Record<(typeof CAPABILITIES)[number], boolean>): Promise<AutopilotMoves> {
    const scope: ChangeScope = { p, actor: 'autopilot', channel: 'system', audit: { action: 'dfy.autopilot_tick' } };
    return (await this.changes.change(row.id, scope, (w) => autopilotMoves(w, on, this.deps.config.mode === 'sandbox'))).result;
  }

  /**
   * The port (deal-port.ts) for the layers above the core — outreach, the negotiation, the autopilot — and the
   * core's inventory automation: one change to a deal as `as.actor` on `as.channel`, through the tables, in
   * `as.tx` or a transaction of its own, audited as `action` when it changed anything (null: the caller
   * audits). Only the owner's deal (404 otherwise; `p` null: a background tick or a provider callback).
   */
  async amendDeal<T>(
    p: Principal | null,
    dealId: string,
    action: string | null,
    as: { actor: Actor; channel?: TouchChannel; tx?: Repos },
    change: (deal: DealChange, tx: Repos, now: number) => Promise<T>,
  ): Promise<{ deal: DealState; result: T }> {
    return this.changes.change(dealId, { ...as, p, audit: action === null ? null : { action } }, change);
  }

  // ---- plumbing

  /** An operator's request on a deal, in a transaction of its own. */
  private async onDeal(p: Principal, dealId: string, action: string, change: (w: DealWriter, tx: Repos, now: number) => Promise<void>): Promise<DealState> {
    return (await this.changes.change(dealId, request(p, action), change)).deal;
  }

  /** A change inside the caller's transaction: the operator's, or the system's (`p` null). */
  private async inTx(tx: Repos, p: Principal | null, dealId: string, action: string, change: (w: DealWriter) => Promise<void>): Promise<DealState> {
    const scope: ChangeScope = { tx, p, actor: p ? 'operator' : 'system', channel: p ? 'api' : 'system', audit: { action } };
    return (await this.changes.change(dealId, scope, change)).deal;
  }
}

function request(p: Principal, action: string): ChangeScope {
  return { p, actor: 'operator', audit: { action } };
}

function stateOf(row: DfyDealRow): DealState {
  return JSON.parse(row.state_json) as DealState;
}

function checkpointView(c: DfyCheckpointRow, stage: DealStage): Parsed<typeof Checkpoint> {
  const kind = c.kind as CheckpointKind;
  return {
    id: c.id,
    kind,
    dealId: c.deal_id,
    dealStage: stage,
    resolved: c.resolved === 1,
    detail: c.detail,
    raisedBy: c.raised_by,
    raisedAt: formatTimestamp(Number(c.raised_at))!,
    resolvedBy: c.resolved_by,
    resolvedAt: formatTimestamp(c.resolved_at === null ? null : Number(c.resolved_at)),
    resolvesWith: CHECKPOINT_RULES[kind].resolvedBy,
  };
}
