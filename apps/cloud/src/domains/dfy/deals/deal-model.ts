import type { Actor, CheckpointKind, DealFacts, DealStage, Trigger } from './deal-vocabulary.ts';
import type { Tier } from './catalog.ts';

/**
 * A deal is its event log: every change is one event appended in the same transaction that stores the
 * new state, and the state is `foldDeal(events)`. The stored state is built one event at a time
 * (`applyEvent` on the previous state); `GET /dfy/deals/{id}/replay` folds the log from the first event,
 * and the two must be the same bytes. Pure: no I/O, no clock (each event carries its instant).
 *
 * Parts 2 and 3 add event types (negotiation turns, outreach touches on voice/text/e-mail with the script
 * version, mode toggles, concierge, pool funding) and fields; nothing here has to change shape for them.
 */

export const HARDWARE_VARIANTS = ['reyeah', 'agent'] as const;
export type HardwareVariant = (typeof HARDWARE_VARIANTS)[number];

/** Where a deal came from: an operator's request, a paid pre-order, or the investment pool (funded by it, fully managed). */
export const DEAL_ORIGINS = ['request', 'preorder', 'pool'] as const;
export type DealOrigin = (typeof DEAL_ORIGINS)[number];

export const TOUCH_CHANNELS = ['api', 'system', 'voice', 'sms', 'email'] as const;
export type TouchChannel = (typeof TOUCH_CHANNELS)[number];

export interface Venue {
  name: string;
  address: string | null;
  lat: number;
  lng: number;
}

export interface Envelope {
  revenueShareTargetPct: number;
  revenueShareMaxPct: number;
  termMinMonths: number;
  termTargetMonths: number;
  termMaxMonths: number;
}

export interface Terms {
  revenueSharePct: number;
  termMonths: number;
  rounds: number;
  outOfMandateAsks: number;
}

export type DealEventData =
  | {
      type: 'created';
      tier: Tier;
      priceCents: number;
      hardwareVariant: HardwareVariant;
      venue: Venue | null;
      note: string | null;
      autopilot: boolean | null;
      origin: DealOrigin;
    }
  | { type: 'moved'; trigger: Trigger; from: DealStage | null; to: DealStage }
  | { type: 'checkpoint_raised'; kind: CheckpointKind; checkpointId: string }
  | { type: 'checkpoint_resolved'; kind: CheckpointKind; checkpointId: string; by: string }
  | { type: 'preorder_paid'; amountCents: number; paymentId: string }
  | { type: 'venue_chosen'; venue: Venue }
  | { type: 'negotiation_started'; envelope: Envelope }
  | { type: 'terms_recorded'; terms: Terms; approvalReasons: string[] }
  | { type: 'terms_approved' }
  | { type: 'lease_signed' }
  | { type: 'machine_paid'; amountCents: number; paymentId: string }
  | { type: 'machine_provisioned'; machineNo: string; lat: number; lng: number }
  | { type: 'tracking_recorded'; carrier: string; trackingNumber: string }
  | { type: 'install_dispatched'; workOrderId: string }
  | { type: 'install_progress'; workOrderId: string; state: string }
  | { type: 'autopilot_set'; enabled: boolean | null }
  | { type: 'onboarding_checked'; online: boolean; terminal: 'bound' | 'failed' | 'pending'; planogram: boolean }
  | { type: 'refunded'; amountCents: number; paymentIds: string[]; reason: string }
  | { type: 'cancel_requested'; reason: string }
  // outreach (part 2): the channel and script version of a touch ride on the event itself
  | { type: 'outreach_started'; venueId: string; channelOrder: OutreachChannel[] }
  | { type: 'outreach_touch'; messageId: string; scriptId: string; to: string }
  | { type: 'outreach_delivery'; messageId: string; status: string }
  | { type: 'opted_out'; outreachChannel: OutreachChannel; source: 'stop_reply' | 'unsubscribe_link' }
  | { type: 'reply_received'; outreachChannel: OutreachChannel; stop: boolean };

export type OutreachChannel = 'email' | 'sms' | 'voice';

/** A deal's outreach (absent until outreach starts, so deals stored before part 2 replay unchanged). */
export interface OutreachState {
  venueId: string;
  channelOrder: OutreachChannel[];
  touches: number;
  lastTouchAt: string | null;
  optedOut: OutreachChannel[];
  replies: number;
}

export interface DealEvent {
  seq: number;
  at: string;
  actor: Actor;
  channel: TouchChannel;
  scriptVersion: string | null;
  data: DealEventData;
}

export interface Touch {
  seq: number;
  at: string;
  event: DealEventData['type'];
  actor: Actor;
  channel: TouchChannel;
  stage: DealStage;
  scriptVersion: string | null;
}

/** The deal as the API shows it (and as it is stored and replayed). */
export interface DealState {
  id: string;
  stage: DealStage;
  stagesVisited: DealStage[];
  origin: DealOrigin;
  tier: Tier;
  priceUsd: number;
  hardwareVariant: HardwareVariant;
  autopilot: boolean | null;
  note: string | null;
  venue: Venue | null;
  negotiation: { status: 'not_started' | 'started' | 'terms_recorded' | 'approved'; envelope: Envelope | null; terms: Terms | null; approvalReasons: string[] };
  lease: { sent: boolean; signed: boolean };
  money: { preorderPaidUsd: number; machinePaidUsd: number; refundedUsd: number; paymentIds: string[] };
  machineNo: string | null;
  shipment: { carrier: string; trackingNumber: string } | null;
  install: { workOrderId: string | null; state: string | null };
  onboarding: { online: boolean; terminal: 'bound' | 'failed' | 'pending'; planogram: boolean } | null;
  openCheckpoints: { kind: CheckpointKind; id: string }[];
  cancelReason: string | null;
  outreach?: OutreachState;
  createdAt: string;
  updatedAt: string;
  timeline: Touch[];
}

const usd = (cents: number) => Math.round(cents) / 100;

/** Applies one event to the state (null before `created`); never mutates its input. */
export function applyEvent(prev: DealState | null, dealId: string, e: DealEvent): DealState {
  const d = e.data;
  let s: DealState;
  if (d.type === 'created') {
    if (prev) throw new Error(`deal ${dealId}: created twice`);
    s = {
      id: dealId,
      // the stage it is being created into (its first move follows in the same write)
      stage: d.origin === 'preorder' ? 'pre_ordered' : 'shortlisting',
      stagesVisited: [],
      origin: d.origin,
      tier: d.tier,
      priceUsd: usd(d.priceCents),
      hardwareVariant: d.hardwareVariant,
      autopilot: d.autopilot,
      note: d.note,
      venue: d.venue,
      negotiation: { status: 'not_started', envelope: null, terms: null, approvalReasons: [] },
      lease: { sent: false, signed: false },
      money: { preorderPaidUsd: 0, machinePaidUsd: 0, refundedUsd: 0, paymentIds: [] },
      machineNo: null,
      shipment: null,
      install: { workOrderId: null, state: null },
      onboarding: null,
      openCheckpoints: [],
      cancelReason: null,
      createdAt: e.at,
      updatedAt: e.at,
      timeline: [],
    };
  } else {
    if (!prev) throw new Error(`deal ${dealId}: ${d.type} before created`);
    s = structuredClone(prev);
    switch (d.type) {
      case 'moved':
        s.stage = d.to;
        break;
      case 'checkpoint_raised':
        s.openCheckpoints.push({ kind: d.kind, id: d.checkpointId });
        break;
      case 'checkpoint_resolved':
        s.openCheckpoints = s.openCheckpoints.filter((c) => c.id !== d.checkpointId);
        break;
      case 'preorder_paid':
        s.money.preorderPaidUsd = usd(d.amountCents);
        s.money.paymentIds.push(d.paymentId);
        break;
      case 'venue_chosen':
        s.venue = d.venue;
        break;
      case 'negotiation_started':
        s.negotiation.status = 'started';
        s.negotiation.envelope = d.envelope;
        break;
      case 'terms_recorded':
        s.negotiation.status = 'terms_recorded';
        s.negotiation.terms = d.terms;
        s.negotiation.approvalReasons = d.approvalReasons;
        break;
      case 'terms_approved':
        s.negotiation.status = 'approved';
        break;
      case 'lease_signed':
        s.lease.signed = true;
        break;
      case 'machine_paid':
        s.money.machinePaidUsd = usd(d.amountCents);
        s.money.paymentIds.push(d.paymentId);
        break;
      case 'machine_provisioned':
        s.machineNo = d.machineNo;
        break;
      case 'tracking_recorded':
        s.shipment = { carrier: d.carrier, trackingNumber: d.trackingNumber };
        break;
      case 'install_dispatched':
        s.install = { workOrderId: d.workOrderId, state: 'open' };
        break;
      case 'install_progress':
        s.install = { workOrderId: d.workOrderId, state: d.state };
        break;
      case 'autopilot_set':
        s.autopilot = d.enabled;
        break;
      case 'onboarding_checked':
        s.onboarding = { online: d.online, terminal: d.terminal, planogram: d.planogram };
        break;
      case 'refunded':
        s.money.refundedUsd = usd(Math.round(s.money.refundedUsd * 100) + d.amountCents);
        break;
      case 'cancel_requested':
        s.cancelReason = d.reason;
        break;
      case 'outreach_started':
        // started again with a new channel order: the count goes on (the next touch still follows up)
        s.outreach = { touches: 0, lastTouchAt: null, optedOut: [], replies: 0, ...s.outreach, venueId: d.venueId, channelOrder: d.channelOrder };
        break;
      case 'outreach_touch':
        if (s.outreach) {
          s.outreach.touches++;
          s.outreach.lastTouchAt = e.at;
        }
        break;
      case 'outreach_delivery':
        break;
      case 'opted_out':
        if (s.outreach && !s.outreach.optedOut.includes(d.outreachChannel)) s.outreach.optedOut.push(d.outreachChannel);
        break;
      case 'reply_received':
        if (s.outreach) s.outreach.replies++;
        break;
    }
  }
  if (d.type === 'moved') {
    s.stagesVisited.push(d.to);
    if (d.to === 'lease_sent') s.lease.sent = true;
  }
  s.updatedAt = e.at;
  s.timeline.push({ seq: e.seq, at: e.at, event: d.type, actor: e.actor, channel: e.channel, stage: s.stage, scriptVersion: e.scriptVersion });
  return s;
}

/** The deal from its whole log, first event first. */
export function foldDeal(dealId: string, events: readonly DealEvent[]): DealState {
  let s: DealState | null = null;
  for (const e of events) s = applyEvent(s, dealId, e);
  if (!s) throw new Error(`deal ${dealId}: no events`);
  return s;
}

/** What the transition table's conditions read of a deal. */
export function factsOf(s: DealState | null, extra: Partial<Pick<DealFacts, 'installOnSite' | 'onboarded'>> = {}): DealFacts {
  if (!s) {
    return {
      visited: [],
      open: new Set(),
      venueKnown: false,
      preorderPaid: false,
      machinePaid: false,
      signed: false,
      negotiationStarted: false,
      trackingRecorded: false,
      installOnSite: false,
      onboarded: false,
    };
  }
  return {
    visited: s.stagesVisited,
    open: new Set(s.openCheckpoints.map((c) => c.kind)),
    venueKnown: s.venue !== null,
    preorderPaid: s.money.preorderPaidUsd > 0,
    machinePaid: s.money.machinePaidUsd > 0 || s.money.preorderPaidUsd >= s.priceUsd,
    signed: s.lease.signed,
    negotiationStarted: s.negotiation.status !== 'not_started',
    trackingRecorded: s.shipment !== null,
    installOnSite: s.install.state === 'on_site' || s.install.state === 'completed',
    onboarded: s.onboarding !== null && s.onboarding.online && s.onboarding.planogram && s.onboarding.terminal !== 'pending',
    ...extra,
  };
}
