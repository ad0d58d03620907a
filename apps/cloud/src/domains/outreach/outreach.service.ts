import type { Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import { sha256Hex } from '../../crypto/secrets.ts';
import type { OutreachDealRow, OutreachDirectoryRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { badRequest, conflict, notFound, unauthorized } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { Parsed } from '../../http/route.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { Actor } from '../dfy/deals/deal-vocabulary.ts';
import type { DealState } from '../dfy/deals/deal-model.ts';
import { dealAllows, type DealChange } from '../dfy/deals/deal-port.ts';
import type { DfyService } from '../dfy/deals/dfy.service.ts';
import type { Channel, ChannelAdapter } from './channels/channel.ts';
import { verifyCallback } from './channels/callback-signature.ts';
import { RETRY_CADENCE_MS, isStopReply, normaliseOrder, pickChannel, scoreVenue, type Ineligible } from './outreach.rules.ts';
import type {
  CallbackResult,
  DirectoryVenue,
  DirectoryVenueInput,
  Draft,
  ImportResult,
  InboundCallback,
  Preview,
  Shortlist,
  ShortlistQuery,
  StatusCallback,
  StepResult,
} from './outreach.schemas.ts';
import { SCRIPT_LIBRARY_VERSION, renderScript } from './scripts.ts';
import { scriptFactsOf } from './script-facts.ts';
import { planTouch, unsubscribeUrl, type TouchPlanContext } from './touch-plan.ts';

/**
 * The hook an inbound venue reply is handed to once it is recorded (the negotiation domain's
 * `answerFromChannel`, wired in the composition root): a reply becomes a negotiation turn there.
 */
export interface CounterpartyReplyHook {
  answerFromChannel(dealId: string, reply: { channel: Channel; text: string }): Promise<unknown>;
}

export interface OutreachDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  dfy: Pick<DfyService, 'amendDeal' | 'acceptScout' | 'getDeal'>;
  /** The adapter of each channel; null: not configured. */
  channels: Record<Channel, ChannelAdapter | null>;
  /** Keys the unsubscribe tokens (HMAC) and checks the provider callbacks' signatures. */
  secrets: { token: string; callback: string | undefined };
  /** Where the links in messages and the providers' callbacks point (PUBLIC_BASE_URL). */
  baseUrl: string;
  /** The negotiation domain: a reply that plainly answers our standing offer becomes the venue's turn there. */
  replies?: CounterpartyReplyHook;
}

export const STATUS_CALLBACK_PATH = '/api/v1/dfy/outreach/callbacks/status';
export const INBOUND_CALLBACK_PATH = '/api/v1/dfy/outreach/callbacks/inbound';
/** Provider statuses that mean the address did not take the message: its contact needs verifying. */
const FAILED_STATUSES = new Set(['failed', 'undelivered', 'bounced', 'canceled']);

/**
 * Done-for-you outreach (spec 3 §1, §3, §4, key rule 8; docs/decisions/outreach.md): the venue directory
 * and the scored shortlist, the outreach run of a deal (round-robin over its channel order, calling window,
 * frequency caps, 24 h cadence), every message rendered from the one script library, the signed provider
 * callbacks, opt-outs, and the checkpoints the outreach stage raises. Every change to a deal goes through the
 * deal core's port (`DfyService.amendDeal`, one transaction with this domain's rows), whose tables decide
 * where a touch may go: the autopilot's only until the negotiation starts, an operator's at any time.
 */
export class OutreachService {
  constructor(private readonly deps: OutreachDeps) {}

  // ---- the venue directory and the shortlist

  async importDirectory(p: Principal, venues: Parsed<typeof DirectoryVenueInput>[]): Promise<Parsed<typeof ImportResult>> {
    const now = this.deps.clock.now();
    const names = new Set<string>();
    for (const v of venues) {
      if (names.has(v.name.toLowerCase())) throw badRequest(`Venue "${v.name}" appears twice in the import`);
      names.add(v.name.toLowerCase());
    }
    return this.deps.store.transaction(async (tx) => {
      const r = await tx.outreach.upsertVenues(
        venues.map((v) => ({
          id: newId('ovn', now),
          operator_id: p.operatorId,
          name: v.name,
          address: v.address,
          lat: v.lat,
          lng: v.lng,
          vertical: v.vertical.toLowerCase(),
          time_zone: v.timeZone,
          email: v.email?.toLowerCase() ?? null,
          phone: v.phone,
          daily_visitors: v.dailyVisitors,
          created_at: now,
        })),
      );
      await this.deps.audit.record(tx, p, 'dfy.directory_import', `directory:${p.operatorId} +${r.created} ~${r.updated}`);
      return { ...r, total: (await tx.outreach.directory(p.operatorId)).length };
    });
  }

  async directory(p: Principal) {
    const rows = await this.deps.store.repos.outreach.directory(p.operatorId);
    return { total: rows.length, records: rows.map(venueView) };
  }

  /** The directory scored for the deal's placement: its tier, and the spot and vertical asked for. */
  async shortlist(p: Principal, dealId: string, q: Parsed<typeof ShortlistQuery>): Promise<Parsed<typeof Shortlist>> {
    const deal = await this.deps.dfy.getDeal(p, dealId);
    if ((q.lat === undefined) !== (q.lng === undefined)) throw badRequest('lat and lng go together');
    const near = q.lat !== undefined && q.lng !== undefined ? { lat: q.lat, lng: q.lng } : deal.venue;
    const scored = await this.scored(this.deps.store.repos, p.operatorId, deal, near, q.vertical?.toLowerCase() ?? null);
    return { dealId: deal.id, records: scored.slice(0, q.size) };
  }

  /** The operator's directory scored for a deal, best first (ties by name). */
  private async scored(repos: Repos, operatorId: string, deal: DealState, near: { lat: number; lng: number } | null, vertical: string | null) {
    const rows = await repos.outreach.directory(operatorId);
    return rows
      .map((r) => ({ ...venueView(r), ...scoreVenue({ ...r, dailyVisitors: r.daily_visitors }, { tier: deal.tier, near, vertical }) }))
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
  }

  /** The top of a deal's shortlist as the scout ranks it by default (the autopilot's placement pass); null: empty directory. */
  async topShortlisted(dealId: string): Promise<{ venueId: string; name: string; score: number } | null> {
    const repos = this.deps.store.repos;
    const row = await repos.dfy.deal(dealId);
    if (!row) throw notFound('Deal');
    const deal = JSON.parse(row.state_json) as DealState;
    const top = (await this.scored(repos, row.operator_id, deal, deal.venue, null))[0];
    return top ? { venueId: top.id, name: top.name, score: top.score } : null;
  }

  /**
   * The autopilot accepts a shortlisted venue alone (shortlisting → outreach, resolving scout_outreach) when
   * `allowed` — asked inside the transaction, after the deal's lock — says so; otherwise nothing changes and
   * its reason is returned. The outreach run is linked, not started.
   */
  async autoAccept(dealId: string, venueId: string, allowed: (tx: Repos, operatorId: string) => Promise<string | null>): Promise<string | null> {
    const r = await this.deps.dfy.amendDeal(null, dealId, 'dfy.scout_auto_accept', { actor: 'autopilot', channel: 'system' }, async (deal, tx) => {
      const v = await tx.outreach.venue(venueId);
      if (!v || v.operator_id !== deal.operatorId) throw notFound('Directory venue');
      const chosen = { type: 'venue_chosen', venue: { name: v.name, address: v.address, lat: v.lat, lng: v.lng } } as const;
      if (!deal.allows('accept_scout', { event: chosen })) return `deal is ${deal.stage}: nothing to accept`;
      const refusal = await allowed(tx, deal.operatorId);
      if (refusal) return refusal;
      await deal.act('accept_scout', { event: chosen });
      await this.linkRun(tx, deal.dealId, v);
      return null;
    });
    return r.result;
  }

  /** Accepts a shortlisted directory venue: the scout result (resolves scout_outreach; shortlisting → outreach). */
  async acceptShortlisted(p: Principal, dealId: string, venueId: string): Promise<DealState> {
    const v = await this.ownVenue(this.deps.store.repos, p, venueId);
    return this.deps.dfy.acceptScout(p, dealId, { name: v.name, address: v.address, lat: v.lat, lng: v.lng }, async (tx, deal) => {
      await this.link(tx, p, deal.dealId, v.id);
    });
  }

  /** Links a deal to one of the caller's directory venues: its outreach run, not started. */
  private async link(tx: Repos, p: Principal, dealId: string, venueId: string): Promise<OutreachDealRow> {
    return this.linkRun(tx, dealId, await this.ownVenue(tx, p, venueId));
  }

  private async linkRun(tx: Repos, dealId: string, v: OutreachDirectoryRow): Promise<OutreachDealRow> {
    const run = {
      deal_id: dealId,
      operator_id: v.operator_id,
      venue_id: v.id,
      channel_order: JSON.stringify(normaliseOrder(undefined)),
      cursor: 0,
      started_at: null,
      last_touch_at: null,
    };
    await tx.outreach.putRun(run);
    return run;
  }

  // ---- the outreach run

  /**
   * Starts the deal's outreach (the channel order given, or the default) and sends the first touch; on a
   * started run, the next touch on demand (the cadence, window and caps still apply).
   */
  async start(p: Principal, dealId: string, body: { channelOrder?: Channel[] | undefined; venueId?: string | undefined }): Promise<Parsed<typeof StepResult>> {
    return this.begin(p, dealId, body);
  }

  /** `p` null: the autopilot starts a run it linked (the default channel order). */
  private async begin(
    p: Principal | null,
    dealId: string,
    body: { channelOrder?: Channel[] | undefined; venueId?: string | undefined },
  ): Promise<Parsed<typeof StepResult>> {
    const actor = p ? 'operator' : 'autopilot';
    await this.deps.dfy.amendDeal(p, dealId, 'dfy.outreach_start', { actor, ...(p ? {} : { channel: 'system' as const }) }, async (w, tx, now) => {
      await w.act(p ? 'outreach' : 'auto_outreach');
      const run = (await tx.outreach.run(w.dealId)) ?? (p && body.venueId ? await this.link(tx, p, w.dealId, body.venueId) : undefined);
      if (!run) throw conflict(`Deal is ${w.stage}: outreach needs a directory venue (accept one from the shortlist, or give venueId)`);
      if (body.venueId !== undefined && body.venueId !== run.venue_id) throw conflict(`Deal is ${w.stage}: its outreach is with another directory venue`);
      if (run.started_at !== null && body.channelOrder === undefined) return;
      const order = normaliseOrder(body.channelOrder);
      await tx.outreach.putRun({ ...run, channel_order: JSON.stringify(order), cursor: 0, started_at: run.started_at ?? now });
      w.emit({ type: 'outreach_started', venueId: run.venue_id, channelOrder: order }, { scriptVersion: SCRIPT_LIBRARY_VERSION });
      const venue = (await tx.outreach.venue(run.venue_id))!;
      // no way to reach the venue at all: a person must find a contact before anything is sent
      if (!venue.email && !venue.phone) await w.raise('contact_verify', 'outreach', `${venue.name}: no e-mail or phone in the directory`);
    });
    return this.step(dealId, actor, p);
  }

  /**
   * One outreach step: the next touch when the cadence allows, on the first channel of the rotation that has
   * contact info, configuration, no opt-out and (voice, text) the calling window and room under its cap.
   * The touch is claimed (message row, cursor, deal event) in one transaction before it is sent, so two
   * steps never send twice; a send the provider refuses marks it failed and raises contact_verify.
   */
  async step(dealId: string, actor: Actor, p: Principal | null): Promise<Parsed<typeof StepResult>> {
    const claim = await this.deps.dfy.amendDeal(p, dealId, 'dfy.outreach_touch', { actor }, async (w, tx, now) => {
      const empty = { touch: null, skipped: [] as { channel: Channel; reason: Ineligible }[] };
      await w.act(actor === 'operator' ? 'outreach' : 'auto_outreach');
      const run = await tx.outreach.run(w.dealId);
      if (!run?.started_at) throw conflict(`Deal is ${w.stage}: outreach has not started`);
      if (w.open('reply_review')) return { ...empty, waiting: { reason: 'reply_review' as const, until: null } };
      if (run.last_touch_at !== null && now < Number(run.last_touch_at) + RETRY_CADENCE_MS) {
        return { ...empty, waiting: { reason: 'cadence' as const, until: formatTimestamp(Number(run.last_touch_at) + RETRY_CADENCE_MS) } };
      }
      const plan = await planTouch(tx, run, w.deal, now, this.touchContext());
      const picked = pickChannel(plan.order, run.cursor, (c) => plan.channels[c].reason);
      if (picked.channel === null) {
        const never = picked.skipped.every((s) => s.reason === 'no_contact' || s.reason === 'opted_out' || s.reason === 'not_configured');
        return { touch: null, skipped: picked.skipped, waiting: { reason: never ? ('no_channel' as const) : ('no_channel_now' as const), until: null } };
      }
      const c = plan.channels[picked.channel];
      const messageId = newId('omsg', now);
      await tx.outreach.insertMessage({
        id: messageId,
        deal_id: w.dealId,
        operator_id: w.operatorId,
        venue_id: run.venue_id,
        channel: picked.channel,
        to_address: c.to!,
        script_id: c.message.scriptId,
        script_version: c.message.scriptVersion,
        provider_ref: messageId,
        status: 'sending',
        unsubscribe_hash: c.token ? sha256Hex(c.token) : null,
        sent_at: now,
        status_at: now,
      });
      await tx.outreach.putRun({ ...run, cursor: picked.nextCursor, last_touch_at: now });
      w.emit(
        { type: 'outreach_touch', messageId, scriptId: c.message.scriptId, to: c.to! },
        { channel: picked.channel, scriptVersion: c.message.scriptVersion },
      );
      // a call's outcome (reached, voicemail, call back) is for a person to record
      if (picked.channel === 'voice') await w.raise('call_outcome', 'outreach', `call to ${c.to} (${c.message.scriptId})`);
      return {
        touch: { messageId, channel: picked.channel, to: c.to!, message: c.message },
        skipped: picked.skipped,
        waiting: null,
      };
    });
    const r = claim.result;
    if (!r.touch) return { dealId, touch: null, waiting: r.waiting, skipped: r.skipped };
    const t = r.touch;
    let status = 'sent';
    let providerRef = t.messageId;
    try {
      providerRef = (await this.deps.channels[t.channel]!.send(t.to, t.message, `${this.deps.baseUrl}${STATUS_CALLBACK_PATH}`)).providerRef;
    } catch {
      status = 'failed';
    }
    await this.deps.dfy.amendDeal(null, dealId, 'dfy.outreach_sent', { actor, channel: t.channel }, async (w, tx) => {
      await tx.outreach.setSent(t.messageId, providerRef, status, this.deps.clock.now());
      if (status === 'failed') {
        w.emit({ type: 'outreach_delivery', messageId: t.messageId, status }, { scriptVersion: t.message.scriptVersion });
        await w.raise('contact_verify', 'outreach', `${t.channel} to ${t.to} could not be sent`);
      }
    });
    return {
      dealId,
      touch: { messageId: t.messageId, channel: t.channel, to: t.to, scriptId: t.message.scriptId, scriptVersion: t.message.scriptVersion, status },
      waiting: null,
      skipped: r.skipped,
    };
  }

  /**
   * The autopilot's outreach pass over one deal at outreach (DfyAutopilotService's tick calls it): with the
   * deal's resolved `outreach` capability on, a linked run is started and a started run takes its next step
   * (cadence, calling window and caps still apply); with it off, a started run raises mode_resume (automation
   * paused: the operator resumes it, or steps on demand). Once the negotiation has started the venue is talked
   * to there: the operations table lets the autopilot touch it no more (nor report paused automation); an
   * operator still may (`POST …/outreach/start`).
   */
  async autopilotPass(dealId: string, on: boolean): Promise<'touched' | 'waiting' | 'paused' | 'none'> {
    const repos = this.deps.store.repos;
    const run = await repos.outreach.run(dealId);
    if (!run) return 'none';
    const row = await repos.dfy.deal(dealId);
    if (!row || !dealAllows(JSON.parse(row.state_json) as DealState, 'auto_outreach', 'autopilot')) return 'none';
    if (!on) {
      if (run.started_at === null) return 'none';
      await this.deps.dfy.amendDeal(null, dealId, 'dfy.outreach_paused', { actor: 'autopilot', channel: 'system' }, async (w) => {
        await w.raise('mode_resume', 'outreach', 'outreach automation is paused: the deal’s outreach capability is off');
      });
      return 'paused';
    }
    const r = run.started_at === null ? await this.begin(null, dealId, {}) : await this.step(dealId, 'autopilot', null);
    return r.touch ? 'touched' : 'waiting';
  }

  /** The exact per-channel renders of the deal's next touch, with whether each channel could carry it now. */
  async preview(p: Principal, dealId: string): Promise<Parsed<typeof Preview>> {
    const deal = await this.deps.dfy.getDeal(p, dealId);
    const run = await this.deps.store.repos.outreach.run(deal.id);
    if (!run) throw conflict(`Deal is ${deal.stage}: outreach needs a directory venue (accept one from the shortlist)`);
    const plan = await planTouch(this.deps.store.repos, run, deal, this.deps.clock.now(), this.touchContext());
    return {
      dealId: deal.id,
      stage: deal.stage,
      scriptKind: plan.kind,
      scriptVersion: SCRIPT_LIBRARY_VERSION,
      channels: plan.order.map((channel) => {
        const c = plan.channels[channel];
        return { channel, to: c.to, eligibleNow: c.reason === null, reason: c.reason, message: c.message };
      }),
    };
  }

  /** An intro e-mail drafted from the script library for the deal's venue (nothing is sent). */
  async draft(p: Principal, dealId: string, senderName: string | undefined): Promise<Parsed<typeof Draft>> {
    const deal = await this.deps.dfy.getDeal(p, dealId);
    const run = await this.deps.store.repos.outreach.run(deal.id);
    const venue = run ? await this.deps.store.repos.outreach.venue(run.venue_id) : undefined;
    const venueName = venue?.name ?? deal.venue?.name;
    if (!venueName) throw conflict(`Deal is ${deal.stage}: a draft needs a venue on the deal`);
    const m = renderScript('intro', 'email', {
      ...scriptFactsOf(deal, venueName, senderName),
      unsubscribeUrl: unsubscribeUrl(this.touchContext(), deal.id, 1),
    });
    return { subject: m.subject!, body: m.body, scriptId: m.scriptId, scriptVersion: m.scriptVersion, to: venue?.email ?? null };
  }

  // ---- provider callbacks and opt-outs

  /** A provider's signed delivery status: recorded on the message; a failed delivery raises contact_verify. */
  async statusCallback(body: Parsed<typeof StatusCallback>): Promise<Parsed<typeof CallbackResult>> {
    const ref = body.MessageSid ?? body.CallSid;
    const status = (body.MessageStatus ?? body.CallStatus ?? '').toLowerCase();
    if (!ref || !status) throw badRequest('A status callback names MessageSid or CallSid and its status');
    const m = await this.deps.store.repos.outreach.messageByProviderRef(ref);
    if (!m) return { accepted: false, dealId: null, effect: 'unknown message' };
    await this.deps.dfy.amendDeal(null, m.deal_id, 'dfy.outreach_status', { actor: 'system', channel: m.channel as Channel }, async (w, tx, now) => {
      await tx.outreach.setStatus(m.id, status, now);
      w.emit({ type: 'outreach_delivery', messageId: m.id, status }, { scriptVersion: m.script_version });
      // moot once the deal has moved on from outreach (the checkpoint-kind table)
      if (FAILED_STATUSES.has(status)) await w.raise('contact_verify', 'outreach', `${m.channel} to ${m.to_address}: ${status}`);
    });
    return { accepted: true, dealId: m.deal_id, effect: FAILED_STATUSES.has(status) ? 'contact_verify' : 'recorded' };
  }

  /**
   * A venue's reply (a text, or an inbound e-mail), signed by the provider: "STOP" opts the address out at
   * once; anything else raises reply_review and pauses automated touches until a person has read it.
   */
  async inbound(body: Parsed<typeof InboundCallback>): Promise<Parsed<typeof CallbackResult>> {
    const from = body.Channel === 'email' ? body.From.trim().toLowerCase() : body.From.trim();
    const m = await this.deps.store.repos.outreach.lastMessageTo(from);
    if (!m) return { accepted: false, dealId: null, effect: 'unknown sender' };
    const channel = body.Channel;
    const stop = isStopReply(body.Body);
    await this.deps.dfy.amendDeal(null, m.deal_id, 'dfy.outreach_reply', { actor: 'system', channel }, async (w, tx, now) => {
      w.emit({ type: 'reply_received', outreachChannel: channel, stop });
      if (stop) await this.optOut(tx, w, m.operator_id, channel, from, 'stop_reply', now);
      else await w.raise('reply_review', 'outreach', `${channel} from ${from}: ${body.Body.slice(0, 200)}`);
    });
    if (!stop) await this.deps.replies?.answerFromChannel(m.deal_id, { channel, text: body.Body });
    return { accepted: true, dealId: m.deal_id, effect: stop ? 'opted_out' : 'reply_review' };
  }

  /** The unsubscribe link of an e-mail: the address is opted out at once (idempotent). */
  async unsubscribe(token: string): Promise<{ unsubscribed: boolean }> {
    const m = await this.deps.store.repos.outreach.messageByUnsubscribeHash(sha256Hex(token));
    if (!m) throw notFound('Unsubscribe link');
    await this.deps.dfy.amendDeal(null, m.deal_id, 'dfy.outreach_unsubscribe', { actor: 'system', channel: 'email' }, async (w, tx, now) => {
      await this.optOut(tx, w, m.operator_id, 'email', m.to_address, 'unsubscribe_link', now);
    });
    return { unsubscribed: true };
  }

  // ---- plumbing

  private async optOut(
    tx: Repos,
    w: DealChange,
    operatorId: string,
    channel: Channel,
    address: string,
    source: 'stop_reply' | 'unsubscribe_link',
    now: number,
  ) {
    if (await tx.outreach.optOut(operatorId, channel, address, source, now)) w.emit({ type: 'opted_out', outreachChannel: channel, source });
  }

  /** A provider callback is judged on its signature before anything of it is read (401). */
  verifyCallback(path: string, params: unknown, signature: unknown): void {
    const fields = params && typeof params === 'object' ? Object.entries(params) : [];
    const strings = Object.fromEntries(fields.filter((e): e is [string, string] => typeof e[1] === 'string'));
    if (Object.keys(strings).length !== fields.length || !verifyCallback(this.deps.secrets.callback, path, strings, signature)) {
      throw unauthorized('Callback signature missing or invalid');
    }
  }

  private touchContext(): TouchPlanContext {
    return { channels: this.deps.channels, baseUrl: this.deps.baseUrl, tokenKey: this.deps.secrets.token };
  }

  private async ownVenue(repos: Repos, p: Principal, venueId: string): Promise<OutreachDirectoryRow> {
    const v = await repos.outreach.venue(venueId);
    if (!v || v.operator_id !== p.operatorId) throw notFound('Directory venue');
    return v;
  }
}

function venueView(r: OutreachDirectoryRow): Parsed<typeof DirectoryVenue> {
  return {
    id: r.id,
    name: r.name,
    address: r.address,
    lat: Number(r.lat),
    lng: Number(r.lng),
    vertical: r.vertical,
    timeZone: r.time_zone,
    email: r.email,
    phone: r.phone,
    dailyVisitors: Number(r.daily_visitors),
  };
}
