import type { EventSink } from '../../webhooks/webhook-events.ts';
import type { Clock } from '@vend/protocol';
import type { z } from 'zod';
import type { Config } from '../../../config.ts';
import { newId } from '../../../crypto/ids.ts';
import type { DfyCheckpointRow, DfyDealRow, DfyWorkOrderRow } from '../../../db/schema.ts';
import type { AuditLog } from '../../../http/audit.ts';
import { AppError, conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { formatTimestamp } from '../../../http/time-format.ts';
import type { AppStore, Repos } from '../../../repos.ts';
import type { MachinesService } from '../../machines/machines.service.ts';
import type { CredentialAdminService } from '../../device-credentials/credential-admin.service.ts';
import { CATALOG, CATALOG_VERSION, priceOf, type Tier } from './catalog.ts';
import { ACKNOWLEDGED_KINDS, CHECKPOINTS, STAGE_RANK, TERMINAL_STAGES, decideMove, type Actor, type CheckpointKind, type DealStage } from './deal-graph.ts';
import { foldDeal, type DealEvent, type DealOrigin, type DealState, type Envelope, type TouchChannel } from './deal-model.ts';
import { DealWriter, MoveRefused } from './deal-writer.ts';
import { DEFAULT_SETTINGS, approvalReasons, outsideMandate, workOrderForward, type PortfolioSettings, type WorkOrderState } from './dfy.rules.ts';
import type {
  AdvanceBody,
  AutopilotBody,
  CatalogData,
  Checkpoint,
  CreateDealBody,
  ListCheckpointsQuery,
  ListDealsQuery,
  Portfolio,
  PreorderBody,
  Replay,
  Securities,
  SettingsBody,
  TermsBody,
  TrackingBody,
  Venue,
  WorkOrder,
  WorkOrderBody,
} from './dfy.schemas.ts';
import { conciergeFeesSince, dealSubject, subjectMode } from '../modes/mode-inputs.ts';
import { poolFee } from '../pool/pool-fee.ts';
import type { Capability } from '../modes/modes.ts';
import { STARTER_PLANOGRAM } from '../shipping-install/planogram.ts';

type In<T extends z.ZodType> = z.output<T>;

export interface DfyDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** The fleet pin and the terminal bind are the machines domain's operations. */
  machines: Pick<MachinesService, 'provisionPin' | 'bindTerminal'>;
  /** Install day: the deal opens an enrolment arm on its pin so the shipped cabinet can enrol. */
  credentials: Pick<CredentialAdminService, 'arm'>;
  config: Pick<Config, 'mode'>;
  /** Fleet events: a checkpoint raised on a deal reaches the operator's webhooks and alert rules. */
  events: EventSink;
}

/** A cabinet is verified online when its last heartbeat is this recent (spec 1 §8: unseen > ~10 min is down). */
export const ONLINE_WINDOW_MS = 10 * 60_000;
/** The enrolment arm an install opens stays open this long (the spec's maximum, 24 h). */
export const INSTALL_ARM_TTL_MINUTES = 1440;
const BATCH = 200;

const dealNotFound = () => notFound('Deal');
const usd = (cents: number) => Math.round(cents) / 100;

/**
 * The done-for-you placement pipeline, part 1 (spec 3 §1–§4, §8; docs/decisions/dfy.md): deals and their
 * forward-only stages (the table in deal-graph.ts), checkpoints and the inbox, the four confirm gates,
 * pre-order and refund, checkout and the fleet pin, shipping, install work orders, auto-onboarding,
 * portfolio settings and views, replay. Every deal, checkpoint and work order is its operator's (others 404).
 */
export class DfyService {
  constructor(private readonly deps: DfyDeps) {}

  catalog(): In<typeof CatalogData> {
    return {
      version: CATALOG_VERSION,
      currency: 'USD',
      tiers: CATALOG.map((c) => ({ tier: c.tier, name: c.name, priceCents: c.priceCents, priceUsd: usd(c.priceCents) })),
    };
  }

  // ---- deals

  /** An operator asks for a machine to be placed: a deal at shortlisting (its scout checkpoint raised). */
  async createDeal(p: Principal, body: CreateDealBody): Promise<DealState> {
    return this.write(p, 'dfy.deal_create', async (tx, now) => {
      const w = DealWriter.create(tx, p.operatorId, now, 'operator');
      this.created(w, body, 'request');
      await w.move('deal_created');
      return w;
    });
  }

  /**
   * Confirmed checkout of a pre-order (spec 3 §4 `POST /preorder`): the deal is created and paid up front at
   * the catalog price of its tier (never a client amount), then moves shortlisting → pre_ordered.
   */
  async preorder(p: Principal, body: PreorderBody): Promise<DealState> {
    return this.write(p, 'dfy.preorder', async (tx, now) => {
      const w = DealWriter.create(tx, p.operatorId, now, 'operator');
      this.created(w, body, 'preorder');
      await this.payPreorder(tx, w, now);
      return w;
    });
  }

  /** Pays the pre-order of a requested deal still at shortlisting (confirmed): shortlisting → pre_ordered. */
  async preorderDeal(p: Principal, dealId: string): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.preorder', async (w, tx, now) => {
      if (w.stage !== 'shortlisting' || w.facts().preorderPaid)
        throw new MoveRefused(`Deal is ${w.stage}: a pre-order payment needs an unpaid deal at shortlisting`, 'illegal');
      await this.payPreorder(tx, w, now);
    });
  }

  /** The pre-order payment at the catalog price of the deal's tier, then the move it allows. */
  private async payPreorder(tx: Repos, w: DealWriter, now: number): Promise<void> {
    const amount = priceOf(w.deal.tier);
    const paymentId = newId('dpay', now);
    w.emit({ type: 'preorder_paid', amountCents: amount, paymentId });
    await w.move('preorder_paid', { confirm: true });
    await w.ensureRow();
    await tx.dfy.insertPayment({
      id: paymentId,
      deal_id: w.dealId,
      operator_id: w.operatorId,
      kind: 'preorder',
      amount_cents: amount,
      created_at: now,
      refunded_at: null,
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
    const now = this.deps.clock.now();
    const w = DealWriter.create(tx, operatorId, now, 'operator', 'system');
    this.created(w, { tier, hardwareVariant: 'agent', venue: null, note, autopilot: true }, 'pool');
    await w.move('deal_created');
    const amount = priceOf(tier);
    const paymentId = newId('dpay', now);
    w.emit({ type: 'machine_paid', amountCents: amount, paymentId });
    await w.ensureRow();
    await tx.dfy.insertPayment({
      id: paymentId,
      deal_id: w.dealId,
      operator_id: operatorId,
      kind: 'pool',
      amount_cents: amount,
      created_at: now,
      refunded_at: null,
    });
    const deal = await this.flush(tx, w);
    await this.deps.audit.record(tx, null, 'dfy.deal_create_pool', `deal:${w.dealId}`);
    return deal;
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

  async listDeals(p: Principal, q: In<typeof ListDealsQuery>) {
    const { total, rows } = await this.deps.store.repos.dfy.deals({ operatorId: p.admin ? null : p.operatorId, stage: q.stage }, q.size, (q.page - 1) * q.size);
    return { page: q.page, size: q.size, total, records: rows.map(stateOf) };
  }

  async getDeal(p: Principal, dealId: string): Promise<DealState> {
    return stateOf(await this.owned(this.deps.store.repos, p, dealId));
  }

  /** The deal's log re-applied from the first event; `matchesStored` compares it with the stored deal byte for byte. */
  async replay(p: Principal, dealId: string): Promise<In<typeof Replay>> {
    const repo = this.deps.store.repos.dfy;
    const row = await this.owned(this.deps.store.repos, p, dealId);
    const events = (await repo.events(dealId)).map((e) => JSON.parse(e.event_json) as DealEvent);
    const deal = foldDeal(dealId, events);
    return {
      dealId,
      events: events.map((e) => ({ ...e, data: e.data as unknown as Record<string, unknown> })),
      deal,
      matchesStored: JSON.stringify(deal) === row.state_json,
    };
  }

  async advance(p: Principal, dealId: string, body: In<typeof AdvanceBody>): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.advance', async (w) => {
      await w.move('advance', { to: body.to });
    });
  }

  /**
   * The operator accepts a venue from the scout's shortlist: resolves scout_outreach, shortlisting → outreach.
   * `linked`: the caller's own rows for the choice (the outreach directory link), in the same transaction.
   */
  async acceptScout(p: Principal, dealId: string, venue: In<typeof Venue>, linked?: (tx: Repos, w: DealWriter) => Promise<void>): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.scout_accept', async (w, tx) => {
      if (w.stage !== 'shortlisting') throw new MoveRefused(`Deal is ${w.stage}: accepting a scout result needs the deal at shortlisting`, 'illegal');
      w.emit({ type: 'venue_chosen', venue });
      await w.move('scout_accepted');
      if (linked) await linked(tx, w);
    });
  }

  /**
   * Confirm gate 1: start the negotiation inside a mandate (resolves negotiation_target), inside the caller's
   * transaction — the negotiation domain stores its mandate and opening turn in the same one. `null` (no
   * operator credential: a tick, a channel) is refused by the table's gate.
   */
  async startNegotiationIn(tx: Repos, p: Principal | null, dealId: string, envelope: Envelope, confirmed: boolean): Promise<DealState> {
    return this.changeIn(tx, p, dealId, 'dfy.negotiation_start', async (w) => {
      w.checkAction('start_negotiation', confirmed);
      if (w.deal.negotiation.status !== 'not_started') throw conflict(`Deal is ${w.stage}: the negotiation was already started`);
      await w.resolve('negotiation_target', 'start_negotiation');
      w.emit({ type: 'negotiation_started', envelope });
    });
  }

  /**
   * The terms the negotiation converged on, for review: raises negotiation_review and, near the mandate
   * edge (key rule 2), terms_approval. Terms outside the mandate are refused (409). The negotiation engine
   * records them inside its own transaction; `null` is the system (a venue's reply from a real channel).
   */
  async recordTermsIn(tx: Repos, p: Principal | null, dealId: string, terms: In<typeof TermsBody>): Promise<DealState> {
    return this.changeIn(tx, p, dealId, 'dfy.terms_record', async (w) => {
      const n = w.deal.negotiation;
      if (w.stage !== 'outreach' || n.status === 'not_started' || !n.envelope) {
        throw new MoveRefused(`Deal is ${w.stage}: recording terms needs the deal at outreach with a negotiation started`, 'needs');
      }
      const outside = outsideMandate(n.envelope, terms);
      if (outside) throw conflict(`Terms outside the mandate: ${outside}`);
      const reasons = approvalReasons(n.envelope, terms);
      w.emit({ type: 'terms_recorded', terms, approvalReasons: reasons });
      await w.raise('negotiation_review', `revenue share ${terms.revenueSharePct}%, ${terms.termMonths} months, ${terms.rounds} rounds`);
      if (reasons.length) await w.raise('terms_approval', reasons.join('; '));
      // terms recorded again, now inside the comfortable band: the earlier approval request is moot
      else await w.resolve('terms_approval', 'superseded');
    });
  }

  async recordTerms(p: Principal, dealId: string, terms: In<typeof TermsBody>): Promise<DealState> {
    return this.deps.store.transaction((tx) => this.recordTermsIn(tx, p, dealId, terms));
  }

  /** Raises a checkpoint on a deal inside the caller's transaction (an escalation of the negotiation). */
  async raiseIn(tx: Repos, p: Principal | null, dealId: string, kind: CheckpointKind, detail: string): Promise<DealState> {
    return this.changeIn(tx, p, dealId, `dfy.checkpoint_${kind}`, async (w) => {
      await w.raise(kind, detail);
    });
  }

  /** The deal inside the caller's transaction, as its owner sees it (another operator's: 404; null: the system). */
  async dealIn(tx: Repos, p: Principal | null, dealId: string): Promise<DealState> {
    return stateOf(await this.owned(tx, p, dealId));
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
      if (!w.open('terms_approval')) throw conflict(`Deal is ${w.stage}: no terms_approval checkpoint is open`);
      w.checkAction('approve_terms', confirmed);
      await w.resolve('terms_approval', 'approve_terms');
      w.emit({ type: 'terms_approved' });
    });
  }

  /** Confirm gate 3: send the lease (the only transmit path): lease_chat → lease_sent; 409 until terms are approved. */
  async sendLease(p: Principal, dealId: string, confirmed: boolean): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.lease_send', async (w) => {
      await w.move('lease_sent', { confirm: confirmed });
      if (!w.facts().machinePaid) await w.raise('money', `${w.deal.tier} at ${w.deal.priceUsd} USD`);
    });
  }

  /** The venue signed: lease_sent → signed, or → ready_to_ship (fleet pin provisioned) when already paid. */
  async recordSignature(p: Principal, dealId: string): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.lease_signed', async (w, tx) => {
      if (w.stage !== 'lease_sent') throw new MoveRefused(`Deal is ${w.stage}: a signature needs the deal at lease_sent`, 'illegal');
      w.emit({ type: 'lease_signed' });
      const to = await w.move('signature');
      return to === 'ready_to_ship' ? this.provisionPin(tx, w) : undefined;
    });
  }

  /**
   * Confirm gate 4: pay for the machine at the catalog price (resolves money). At `signed` the deal moves to
   * ready_to_ship and the fleet pin is pre-provisioned at the leased coordinates; at `lease_sent` the payment
   * waits for the signature. A deal its pre-order already paid is 409 (nothing is charged twice).
   */
  async checkout(p: Principal, dealId: string, confirmed: boolean): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.checkout', async (w, tx, now) => {
      w.checkAction('payment', confirmed);
      if (w.facts().machinePaid)
        throw conflict(`Deal is ${w.stage}: the machine is already paid${w.deal.money.preorderPaidUsd > 0 ? ' (by its pre-order)' : ''}`);
      const due = priceOf(w.deal.tier) - Math.round(w.deal.money.preorderPaidUsd * 100);
      const paymentId = newId('dpay', now);
      w.emit({ type: 'machine_paid', amountCents: due, paymentId });
      await tx.dfy.insertPayment({
        id: paymentId,
        deal_id: w.dealId,
        operator_id: w.operatorId,
        kind: 'checkout',
        amount_cents: due,
        created_at: now,
        refunded_at: null,
      });
      if (w.stage === 'signed') {
        await w.move('payment', { confirm: confirmed });
        return this.provisionPin(tx, w);
      }
      await w.resolve('money', 'payment');
      return undefined;
    });
  }

  /** On payment with a signed lease: the machine record at the leased coordinates, claimable by the shipped cabinet. */
  private async provisionPin(tx: Repos, w: DealWriter): Promise<{ machineId: string }> {
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
    return { machineId };
  }

  /** Tracking recorded: ready_to_ship → shipped (no refund after this). */
  async recordTracking(p: Principal, dealId: string, body: In<typeof TrackingBody>): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.tracking', async (w) => {
      if (w.stage !== 'ready_to_ship') throw new MoveRefused(`Deal is ${w.stage}: tracking needs the deal at ready_to_ship`, 'illegal');
      w.emit({ type: 'tracking_recorded', carrier: body.carrier, trackingNumber: body.trackingNumber });
      await w.move('tracking_recorded');
    });
  }

  async setAutopilot(p: Principal, dealId: string, body: In<typeof AutopilotBody>): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.autopilot_set', async (w) => {
      if (TERMINAL_STAGES.includes(w.stage)) throw conflict(`Deal is ${w.stage}: nothing left to automate`);
      w.emit({ type: 'autopilot_set', enabled: body.enabled });
    });
  }

  /** Cancels the deal (the only correction); refunds its payments when it has not shipped. */
  async cancel(p: Principal, dealId: string, reason: string): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.cancel', async (w, tx, now) => {
      if (STAGE_RANK[w.stage] < STAGE_RANK.shipped) await this.refundAll(tx, w, now, reason);
      w.emit({ type: 'cancel_requested', reason });
      await w.move('cancel');
    });
  }

  /** The refund path (confirmed): every payment of a deal that has not shipped is refunded and the deal cancelled. */
  async refund(p: Principal, dealId: string, reason: string): Promise<DealState> {
    return this.onDeal(p, dealId, 'dfy.refund', async (w, tx, now) => {
      if (w.stage === 'cancelled') throw conflict('Deal is cancelled: nothing left to refund');
      if (STAGE_RANK[w.stage] >= STAGE_RANK.shipped) throw conflict(`Deal is ${w.stage}: refundable only until shipped`);
      if (!(await this.refundAll(tx, w, now, reason))) throw conflict(`Deal is ${w.stage}: nothing paid to refund`);
      w.emit({ type: 'cancel_requested', reason });
      await w.move('cancel');
    });
  }

  private async refundAll(tx: Repos, w: DealWriter, now: number, reason: string): Promise<boolean> {
    const paid = await tx.dfy.refundPayments(w.dealId, now);
    if (!paid.length) return false;
    // the pool paid for this machine: its price goes back to the operator's pool balance
    if (paid.some((x) => x.kind === 'pool')) await tx.dfyFleets.returnDeal(w.operatorId, w.dealId, now);
    w.emit({ type: 'refunded', amountCents: paid.reduce((a, x) => a + Number(x.amount_cents), 0), paymentIds: paid.map((x) => x.id), reason });
    return true;
  }

  // ---- install

  /** Confirmed install dispatch on a shipped deal: a `dfy_install` work order, open. */
  async dispatchInstall(p: Principal, dealId: string): Promise<In<typeof WorkOrder>> {
    let id = '';
    await this.onDeal(p, dealId, 'dfy.install_dispatch', async (w, tx, now) => {
      if (w.stage !== 'shipped') throw new MoveRefused(`Deal is ${w.stage}: install dispatch needs the deal at shipped`, 'illegal');
      const open = (await tx.dfy.workOrdersOf(w.dealId)).find((o) => o.type === 'dfy_install' && o.state !== 'completed');
      if (open) throw conflict(`Deal is ${w.stage}: install work order ${open.id} is already ${open.state}`);
      id = newId('wo', now);
      await tx.dfy.insertWorkOrder({
        id,
        deal_id: w.dealId,
        operator_id: w.operatorId,
        type: 'dfy_install',
        state: 'open',
        assignee: null,
        scheduled_for: null,
        created_at: now,
        updated_at: now,
      });
      w.emit({ type: 'install_dispatched', workOrderId: id });
    });
    return this.workOrder(p, id);
  }

  async workOrder(p: Principal, id: string): Promise<In<typeof WorkOrder>> {
    const o = await this.deps.store.repos.dfy.lockWorkOrder(id);
    if (!o || !(p.admin || o.operator_id === p.operatorId)) throw notFound('Work order');
    return workOrderView(o);
  }

  /**
   * Advances a work order forward only. Reaching `on_site` begins the install: shipped → installing, and an
   * enrolment arm opens on the deal's pin so the cabinet being installed can enrol.
   */
  async advanceWorkOrder(p: Principal, id: string, body: In<typeof WorkOrderBody>): Promise<In<typeof WorkOrder>> {
    const now = this.deps.clock.now();
    let arm: string | null = null;
    await this.deps.store.transaction(async (tx) => {
      const o = await tx.dfy.lockWorkOrder(id);
      if (!o || !(p.admin || o.operator_id === p.operatorId)) throw notFound('Work order');
      const from = o.state as WorkOrderState;
      if (!workOrderForward(from, body.state)) throw conflict(`Work order is ${from}: it moves forward only (${from} → ${body.state} refused)`);
      await tx.dfy.updateWorkOrder(id, {
        state: body.state,
        updated_at: now,
        ...(body.assignee !== undefined ? { assignee: body.assignee } : {}),
        ...(body.scheduledFor !== undefined ? { scheduled_for: Date.parse(body.scheduledFor) } : {}),
      });
      const row = (await tx.dfy.lockDeal(o.deal_id))!;
      const w = await DealWriter.open(tx, row, now, 'operator');
      w.emit({ type: 'install_progress', workOrderId: id, state: body.state });
      const onSite = body.state === 'on_site' || body.state === 'completed';
      if (onSite && w.stage === 'shipped') {
        await w.move('install_began');
        arm = w.deal.machineNo;
      }
      await this.flush(tx, w);
      await this.deps.audit.record(tx, p, 'dfy.work_order', `work_order:${id} ${from}->${body.state}`);
    });
    // the arm is the device-credentials domain's own write (its transaction, its audit record)
    if (arm !== null && (await this.deps.store.repos.machines.machineByNo(arm))) {
      try {
        await this.deps.credentials.arm(p, arm, { reason: `dfy install, work order ${id}`, ttlMinutes: INSTALL_ARM_TTL_MINUTES });
      } catch (err) {
        // already enrolled (or revoked: its owner resets it): no arm is needed or possible, and the advance stands
        if (!(err instanceof AppError && err.status === 409)) throw err;
      }
    }
    return this.workOrder(p, id);
  }

  // ---- onboarding

  /**
   * Auto-onboarding (the background loop): each installing deal whose cabinet is verified online through the
   * gateway (enrolled, registered, heartbeat within 10 minutes) gets its payment terminal bound and its starter
   * planogram loaded, then goes live. A failed bind raises cashless_fail and does not hold the deal back.
   */
  async onboardTick(): Promise<number> {
    const now = this.deps.clock.now();
    let live = 0;
    for (const row of await this.deps.store.repos.dfy.dealsAt('installing', BATCH)) {
      const done = await this.deps.store.transaction(async (tx) => {
        const w = await DealWriter.open(tx, row, now, 'system', 'system');
        if (w.stage !== 'installing' || !w.deal.machineNo) return false;
        const m = await tx.machines.findView(w.deal.machineNo);
        if (!m) return false;
        const identity = await tx.deviceCredentials.lockIdentity(m.id);
        const online =
          m.status === 'online' &&
          m.last_seen !== null &&
          now - Number(m.last_seen) <= ONLINE_WINDOW_MS &&
          identity?.cred_state === 'enrolled' &&
          m.agent_version !== null;
        if (!online) return false;
        const bind = await this.deps.machines.bindTerminal(tx, m.id);
        await tx.inventory.loadPlanogram(m.id, STARTER_PLANOGRAM);
        w.emit({ type: 'onboarding_checked', online: true, terminal: bind.ok ? 'bound' : 'failed', planogram: true });
        if (!bind.ok) await w.raise('cashless_fail', bind.reason);
        await w.move('onboarded', { facts: { onboarded: true } });
        await this.flush(tx, w, { machineId: m.id });
        await this.deps.audit.record(tx, null, 'dfy.live', `deal:${w.dealId} machine:${m.machine_no} terminal:${bind.ok ? 'bound' : 'failed'}`);
        return true;
      });
      if (done) live++;
    }
    return live;
  }

  // ---- autopilot

  /**
   * The deal's own part of an autopilot tick (the tick is DfyAutopilotService's), as the autopilot — never
   * as an operator: with `negotiation` on, raises negotiation_target on an outreach deal without one; with
   * `contracting` on, reviews converged terms (negotiation_review) so the deal enters lease_chat, which raises
   * lease_send (terms_approval stays open where rule 2 raised it); with `install` on, in the sandbox,
   * dispatches a ready_to_ship deal with a sandbox tracking number. Every confirm gate is only reported as
   * waiting — the table refuses the autopilot on each of them.
   */
  async autopilotDeal(
    p: Principal | null,
    row: DfyDealRow,
    on: Record<Capability, boolean>,
  ): Promise<{ raised: CheckpointKind[]; shipped: boolean; reviewed: boolean; gatesWaiting: { stage: DealStage; needs: string }[] }> {
    const now = this.deps.clock.now();
    const out = { raised: [] as CheckpointKind[], shipped: false, reviewed: false, gatesWaiting: [] as { stage: DealStage; needs: string }[] };
    await this.deps.store.transaction(async (tx) => {
      const fresh = await tx.dfy.deal(row.id);
      if (!fresh) return;
      const w = await DealWriter.open(tx, fresh, now, 'autopilot', 'system');
      if (TERMINAL_STAGES.includes(w.stage)) return;
      if (on.negotiation && w.stage === 'outreach' && w.deal.negotiation.status === 'not_started' && !w.open('negotiation_target')) {
        await w.raise('negotiation_target', 'autopilot: ready to negotiate; starting needs a confirmed operator request');
        out.raised.push('negotiation_target');
      }
      // key rule 4: with contracting off the converged negotiation stops here, without a lease checkpoint
      if (on.contracting && w.stage === 'outreach' && w.open('negotiation_review')) {
        await w.move('negotiation_reviewed');
        out.reviewed = true;
        out.raised.push('lease_send');
      }
      if (on.install && w.stage === 'ready_to_ship' && this.deps.config.mode === 'sandbox') {
        w.emit({ type: 'tracking_recorded', carrier: 'sandbox-freight', trackingNumber: `SBX${w.dealId.slice(-10).toUpperCase()}` });
        await w.move('tracking_recorded');
        out.shipped = true;
      }
      // what a gate would need: the table says the autopilot may not pass it
      for (const trigger of ['lease_sent', 'payment'] as const) {
        const v = decideMove(w.facts(), { trigger, actor: 'autopilot', confirm: true });
        if (!v.ok && v.reason === 'gate') out.gatesWaiting.push({ stage: w.stage, needs: v.message });
      }
      for (const [kind, action] of [
        ['negotiation_target', 'start_negotiation'],
        ['terms_approval', 'approve_terms'],
      ] as const) {
        if (w.open(kind)) out.gatesWaiting.push({ stage: w.stage, needs: `${action} needs a request with confirm: true from an operator credential` });
      }
      if (!w.changed) return;
      await this.flush(tx, w);
      await this.deps.audit.record(tx, p, 'dfy.autopilot_tick', `deal:${w.dealId}`);
    });
    return out;
  }

  // ---- checkpoints

  async checkpoints(p: Principal, q: In<typeof ListCheckpointsQuery>) {
    const repos = this.deps.store.repos;
    if (q.dealId !== undefined) await this.owned(repos, p, q.dealId);
    const { total, rows } = await repos.dfy.checkpoints(
      { operatorId: p.admin ? null : p.operatorId, resolved: q.resolved, dealId: q.dealId, kind: q.kind },
      q.size,
      (q.page - 1) * q.size,
    );
    const stages = new Map<string, DealStage>();
    for (const r of rows) if (!stages.has(r.deal_id)) stages.set(r.deal_id, ((await repos.dfy.deal(r.deal_id))?.stage ?? 'cancelled') as DealStage);
    return { page: q.page, size: q.size, total, records: rows.map((r) => checkpointView(r, stages.get(r.deal_id)!)) };
  }

  /** Resolves an acknowledgement checkpoint (call outcome, contact verified, reply read, mode resumed, cashless fixed). */
  async acknowledge(p: Principal, checkpointId: string): Promise<In<typeof Checkpoint>> {
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const c = await tx.dfy.checkpoint(checkpointId);
      if (!c || !(p.admin || c.operator_id === p.operatorId)) throw notFound('Checkpoint');
      const kind = c.kind as CheckpointKind;
      if (c.resolved) throw conflict(`Checkpoint ${kind} is already resolved`);
      if (!ACKNOWLEDGED_KINDS.includes(kind)) throw conflict(`Checkpoint ${kind} is resolved only by ${CHECKPOINTS[kind].resolvedBy}`);
      const w = await DealWriter.open(tx, (await tx.dfy.lockDeal(c.deal_id))!, now, 'operator');
      await w.resolve(kind, 'acknowledged');
      await this.flush(tx, w);
      await this.deps.audit.record(tx, p, 'dfy.checkpoint_ack', `checkpoint:${c.id}`);
      return checkpointView((await tx.dfy.checkpoint(checkpointId))!, w.stage);
    });
  }

  // ---- portfolio

  /** `repos`: a transaction's, when asked from inside one (SQLite has one connection). */
  async settingsOf(operatorId: string, repos: Repos = this.deps.store.repos): Promise<PortfolioSettings> {
    const json = await repos.dfy.settings(operatorId);
    return json ? { ...DEFAULT_SETTINGS, ...(JSON.parse(json) as PortfolioSettings) } : DEFAULT_SETTINGS;
  }

  async getSettings(p: Principal) {
    const json = await this.deps.store.repos.dfy.settings(p.operatorId);
    const row = json ? (JSON.parse(json) as PortfolioSettings & { updatedAt: string }) : null;
    return { ...(row ?? DEFAULT_SETTINGS), updatedAt: row?.updatedAt ?? null };
  }

  async putSettings(p: Principal, body: SettingsBody) {
    const now = this.deps.clock.now();
    const stored = { ...body, updatedAt: formatTimestamp(now)! };
    await this.deps.store.transaction(async (tx) => {
      await tx.dfy.putSettings(p.operatorId, JSON.stringify(stored), now);
      await this.deps.audit.record(tx, p, 'dfy.settings', `portfolio:${p.operatorId}`);
    });
    return stored;
  }

  async portfolio(p: Principal): Promise<In<typeof Portfolio>> {
    const { securities: _, ...view } = await this.views(p);
    return view;
  }

  async securities(p: Principal): Promise<In<typeof Securities>> {
    const { securities, ...view } = await this.views(p);
    return { ...view, ...securities };
  }

  private async views(p: Principal) {
    const repos = this.deps.store.repos;
    const now = this.deps.clock.now();
    const d = new Date(now);
    const monthStart = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    const rows = await repos.dfy.allDeals(p.operatorId);
    const deals = rows.map((r) => ({ row: r, s: stateOf(r) }));
    const settings = await this.settingsOf(p.operatorId);
    const byStage: Record<string, number> = {};
    for (const { s } of deals) byStage[s.stage] = (byStage[s.stage] ?? 0) + 1;
    const live = deals.filter(({ s }) => s.stage === 'live' && s.machineNo);
    const revenue = await repos.dfy.revenueSince(
      live.map(({ row }) => row.machine_id).filter((x): x is string => x !== null),
      monthStart,
    );
    const inventory = await repos.dfyInventory.costsSince(p.operatorId, monthStart);
    let poolFeeCents = 0;
    let poolFeeEstimate = false;
    const machines = live.map(({ row, s }) => {
      const capitalUsd = s.priceUsd;
      const revenueCents = revenue.get(row.machine_id ?? '') ?? 0;
      const revenueMtdUsd = usd(revenueCents);
      // supplier orders count at their estimate until received
      const inv = inventory.get(row.machine_id ?? '') ?? { cents: 0, actualCents: 0, estimate: false };
      // the pool fee, on pool-funded machines only: on the costs at estimate, and again on the settled actuals
      const poolFunded = s.origin === 'pool';
      const fee = poolFunded ? poolFee(revenueCents, inv.cents).feeCents : 0;
      const feeActual = poolFunded ? poolFee(revenueCents, inv.actualCents).feeCents : 0;
      poolFeeCents += fee;
      if (poolFunded && inv.estimate) poolFeeEstimate = true;
      return {
        machineNo: s.machineNo!,
        dealId: s.id,
        capitalUsd,
        revenueMtdUsd,
        yieldPct: capitalUsd > 0 ? Math.round((revenueMtdUsd / capitalUsd) * 10_000) / 100 : 0,
        poolFunded,
        poolFeeMtdUsd: usd(fee),
        profitMtdUsd: usd(revenueCents - inv.cents - fee),
        profitActualMtdUsd: usd(revenueCents - inv.actualCents - feeActual),
        hasEstimates: inv.estimate,
      };
    });
    const capital = deals
      .filter(({ s }) => s.stage !== 'cancelled' && (s.money.machinePaidUsd > 0 || s.money.preorderPaidUsd > 0))
      .reduce((a, { s }) => a + s.priceUsd, 0);
    const revenueMtdUsd = usd(machines.reduce((a, m) => a + Math.round(m.revenueMtdUsd * 100), 0));
    const costLines = [
      { name: 'pool fee (2%, pool-funded machines only)', usd: usd(poolFeeCents), estimate: poolFeeEstimate },
      {
        name: 'concierge fees (99 USD/month prorated by enrolled days)',
        usd: usd(await conciergeFeesSince(repos, p.operatorId, monthStart, now)),
        estimate: false,
      },
      {
        name: 'inventory supplier orders (55% of retail until received)',
        usd: usd([...inventory.values()].reduce((a, c) => a + c.cents, 0)),
        estimate: [...inventory.values()].some((c) => c.estimate),
      },
    ];
    const cost = costLines.reduce((a, c) => a + c.usd, 0);
    const { rows: open } = await repos.dfy.checkpoints({ operatorId: p.operatorId, resolved: false }, 10_000, 0);
    const byKind: Record<string, number> = {};
    for (const c of open) byKind[c.kind] = (byKind[c.kind] ?? 0) + 1;
    const profit = usd(machines.reduce((a, m) => a + Math.round(m.profitMtdUsd * 100), 0));
    const profitActual = usd(machines.reduce((a, m) => a + Math.round(m.profitActualMtdUsd * 100), 0));
    const modeCounts = { auto: 0, hybrid: 0, manual: 0 };
    for (const { row, s } of deals) if (s.stage !== 'cancelled') modeCounts[(await subjectMode(repos, dealSubject(row), settings)).mode.label]++;
    return {
      machinesOwned: live.length,
      dealsInFlight: deals.filter(({ s }) => !TERMINAL_STAGES.includes(s.stage)).length,
      dealsByStage: byStage,
      capitalValueUsd: capital,
      revenueMtdUsd,
      costLines,
      netMtdUsd: usd(Math.round(revenueMtdUsd * 100) - Math.round(cost * 100)),
      perMachineYield: machines.map(({ machineNo, dealId, capitalUsd, revenueMtdUsd, yieldPct }) => ({
        machineNo,
        dealId,
        capitalUsd,
        revenueMtdUsd,
        yieldPct,
      })),
      checkpointInbox: { open: open.length, byKind },
      securities: {
        machines,
        profitMtdUsd: profit,
        profitActualMtdUsd: profitActual,
        hasEstimates: machines.some((m) => m.hasEstimates),
        fleetRollups: {
          machines: machines.length,
          revenueMtdUsd,
          profitMtdUsd: profit,
          avgYieldPct: machines.length ? Math.round((machines.reduce((a, m) => a + m.yieldPct, 0) / machines.length) * 100) / 100 : 0,
        },
        modeCounts,
      },
    };
  }

  // ---- other domains' writes on a deal (outreach; negotiation)

  /**
   * A change another domain makes to a deal: locked, changed through its writer as `actor` on `channel`,
   * flushed and audited in the one transaction the change's own rows are written in (`tx`). Only the
   * owner's deal (404 otherwise; `p` null: a background tick or a provider callback that found the deal).
   */
  async amendDeal<T>(
    p: Principal | null,
    dealId: string,
    action: string,
    as: { actor: Actor; channel?: TouchChannel },
    change: (w: DealWriter, tx: Repos, now: number) => Promise<T>,
  ): Promise<{ deal: DealState; result: T }> {
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const row = p ? await this.owned(tx, p, dealId) : await tx.dfy.deal(dealId);
      if (!row) throw dealNotFound();
      const w = await DealWriter.open(tx, row, now, as.actor, as.channel ?? 'api');
      const result = await change(w, tx, now);
      const deal = w.changed ? await this.flush(tx, w) : w.deal;
      if (w.changed) await this.deps.audit.record(tx, p, action, `deal:${w.dealId}`);
      return { deal, result };
    });
  }

  // ---- plumbing

  private async owned(repos: Repos, p: Principal | null, dealId: string): Promise<DfyDealRow> {
    const row = await repos.dfy.deal(dealId);
    if (!row || !(p === null || p.admin || row.operator_id === p.operatorId)) throw dealNotFound();
    return row;
  }

  /** One change to an existing deal inside the caller's transaction: locked, changed through its writer, flushed, audited. */
  private async changeIn(tx: Repos, p: Principal | null, dealId: string, action: string, change: (w: DealWriter) => Promise<void>): Promise<DealState> {
    const now = this.deps.clock.now();
    const row = await this.owned(tx, p, dealId);
    const w = await DealWriter.open(tx, row, now, p ? 'operator' : 'system', p ? 'api' : 'system');
    await change(w);
    const deal = await this.flush(tx, w);
    await this.deps.audit.record(tx, p, action, `deal:${w.dealId}`);
    return deal;
  }

  /** One write on an existing deal: locked, changed through its writer, flushed and audited in one transaction. */
  private async onDeal(
    p: Principal,
    dealId: string,
    action: string,
    change: (w: DealWriter, tx: Repos, now: number) => Promise<void | { machineId: string }>,
  ): Promise<DealState> {
    return this.write(p, action, async (tx, now) => {
      const row = await this.owned(tx, p, dealId);
      const w = await DealWriter.open(tx, row, now, 'operator');
      const r = await change(w, tx, now);
      return r ? { w, machineId: r.machineId } : w;
    });
  }

  /** Flushes the deal and tells the operator's webhooks and alert rules of each checkpoint raised meanwhile, in the same transaction. */
  private async flush(tx: Repos, w: DealWriter, set: { machineId?: string } = {}): Promise<DealState> {
    const deal = await w.flush(set);
    for (const c of w.takeRaised()) {
      await this.deps.events.emit(tx, {
        operatorId: w.operatorId,
        type: 'dfy.checkpoint_raised',
        machineNo: null,
        data: { dealId: w.dealId, stage: deal.stage, ...c },
      });
    }
    return deal;
  }

  private async write(
    p: Principal,
    action: string,
    make: (tx: Repos, now: number) => Promise<DealWriter | { w: DealWriter; machineId: string }>,
  ): Promise<DealState> {
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const out = await make(tx, now);
      const w = out instanceof DealWriter ? out : out.w;
      const deal = await this.flush(tx, w, out instanceof DealWriter ? {} : { machineId: out.machineId });
      await this.deps.audit.record(tx, p, action, `deal:${w.dealId}`);
      return deal;
    });
  }
}

function stateOf(row: DfyDealRow): DealState {
  return JSON.parse(row.state_json) as DealState;
}

function checkpointView(c: DfyCheckpointRow, stage: DealStage): In<typeof Checkpoint> {
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
    resolvesWith: CHECKPOINTS[kind].resolvedBy,
  };
}

function workOrderView(o: DfyWorkOrderRow): In<typeof WorkOrder> {
  return {
    id: o.id,
    dealId: o.deal_id,
    type: o.type as 'dfy_install',
    state: o.state as WorkOrderState,
    assignee: o.assignee,
    scheduledFor: formatTimestamp(o.scheduled_for === null ? null : Number(o.scheduled_for)),
    createdAt: formatTimestamp(Number(o.created_at))!,
    updatedAt: formatTimestamp(Number(o.updated_at))!,
  };
}
