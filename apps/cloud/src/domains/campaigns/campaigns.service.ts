import type { Clock } from '@vend/protocol';
import type { Insertable } from 'kysely';
import { newId } from '../../crypto/ids.ts';
import type { CampaignRow, CreativeRow, CreativesTable } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { ownerFilter, requireOwned } from '../../http/authenticate.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import { offsetOf, type Page } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { GENERATIONS_MAX, LIFECYCLE, type LifecycleAction } from './campaign.rules.ts';
import type { CampaignWithOwner } from './campaigns.repo.ts';
import type {
  BuyerContact,
  Campaign,
  CampaignListQuery,
  CreateCampaignBody,
  Pricing,
  SponsorType,
  TargetGeo,
  UpdateCampaignBody,
} from './campaigns.schemas.ts';

/** What the campaign service needs of measured media: it only hands it back to `row`. */
export interface Media {
  sha256: string;
}

/** The creatives domain as campaigns use it: measure an upload, generate with the studio, make the row, show it. */
export interface CreativeMaker {
  measureUpload(input: { contentType: string; dataBase64: string }): Promise<Media>;
  generate(brief: string, sponsorName: string | null): Promise<Media & { contentxRef: string }>;
  row(operatorId: string, media: Media, source: 'upload' | 'contentx', contentxRef: string | null, now: number): Insertable<CreativesTable>;
  view(row: CreativeRow): Campaign['creative'] & object;
}

export interface CampaignsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  creatives: CreativeMaker;
}

/** The draft campaign an operator's part of a paid self-serve purchase becomes (spec 1 §3). */
export interface PurchaseDraft {
  adPurchaseId: string;
  operatorId: string;
  name: string;
  sponsorName: string;
  sponsorType: SponsorType;
  /** Exactly one kind of targeting, already restricted to the operator's fleet. */
  targeting: { machines: string[] } | { geo: TargetGeo };
  weight: number;
  flightStart: number;
  flightEnd: number;
  monthlyRatePerMachineCents: number;
  /** A creative row of this operator, inserted in the same transaction. */
  creativeId: string;
  creativeSource: 'upload' | 'contentx';
  contentxRef: string | null;
  sourceQrId: string | null;
  sourceMachineNo: string | null;
  buyerContact: BuyerContact;
}

const refuse = (path: string, message: string) => badRequest(undefined, [{ path, message }]);
const parseJson = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));

/** Direct-sold campaigns (spec 1 §2.5, §4.7): drafts, the lifecycle, targeting, pricing and the creative. */
export class CampaignsService {
  constructor(private readonly deps: CampaignsDeps) {}

  async create(p: Principal, body: CreateCampaignBody): Promise<Campaign> {
    const now = this.deps.clock.now();
    if (body.operatorEmail !== undefined && !p.admin) throw new AppError('forbidden', 'operatorEmail is accepted only from admin credentials');
    const id = newId('cmp', now);
    await this.deps.store.transaction(async (tx) => {
      const ownerId = await this.ownerFor(tx, p, body.operatorEmail);
      const targeting = await this.checkTargeting(tx, ownerId, body.targetMachines, body.targetGeo);
      const flight = checkFlight(body.flightStart ?? null, body.flightEnd ?? null);
      await tx.campaigns.insert({
        id,
        operator_id: ownerId,
        name: body.name,
        sponsor_name: body.sponsorName,
        sponsor_type: body.sponsorType,
        status: 'draft',
        target_machines_json: targeting.machines ? JSON.stringify(targeting.machines) : null,
        target_geo_json: targeting.geo ? JSON.stringify(targeting.geo) : null,
        weight: body.weight ?? 1,
        flight_start: flight.start,
        flight_end: flight.end,
        ...pricingColumns(body.pricing),
        created_at: now,
        updated_at: now,
      });
      await this.deps.audit.record(tx, p, 'campaigns.create', `campaign:${id}`);
    });
    return this.get(p, id);
  }

  async list(p: Principal, q: CampaignListQuery): Promise<Page<Campaign>> {
    const { total, rows } = await this.deps.store.repos.campaigns.page({ operatorId: ownerFilter(p), status: q.status }, q.size, offsetOf(q));
    const creatives = await this.creativesOf(this.deps.store.repos, rows);
    return { page: q.page, size: q.size, total, records: rows.map((r) => this.view(p, r, creatives)) };
  }

  async get(p: Principal, id: string): Promise<Campaign> {
    const row = await this.visible(this.deps.store.repos, p, id);
    return this.view(p, row, await this.creativesOf(this.deps.store.repos, [row]));
  }

  async update(p: Principal, id: string, body: UpdateCampaignBody): Promise<Campaign> {
    const now = this.deps.clock.now();
    await this.deps.store.transaction(async (tx) => {
      const row = await this.visible(tx, p, id);
      if (row.status === 'completed') throw conflict('A completed campaign cannot be changed');
      if (body.targetMachines !== undefined && body.targetGeo !== undefined) throw refuse('targetGeo', 'send targetMachines or targetGeo, not both');
      const patch: Parameters<Repos['campaigns']['update']>[1] = { updated_at: now };
      if (body.targetMachines !== undefined || body.targetGeo !== undefined) {
        const t = await this.checkTargeting(tx, row.operator_id, body.targetMachines, body.targetGeo);
        patch.target_machines_json = t.machines ? JSON.stringify(t.machines) : null;
        patch.target_geo_json = t.geo ? JSON.stringify(t.geo) : null;
      }
      if (body.flightStart !== undefined || body.flightEnd !== undefined) {
        const start = body.flightStart !== undefined ? body.flightStart : formatTimestamp(row.flight_start);
        const end = body.flightEnd !== undefined ? body.flightEnd : formatTimestamp(row.flight_end);
        const flight = checkFlight(start, end);
        patch.flight_start = flight.start;
        patch.flight_end = flight.end;
      }
      if (body.name !== undefined) patch.name = body.name;
      if (body.sponsorName !== undefined) patch.sponsor_name = body.sponsorName;
      if (body.sponsorType !== undefined) patch.sponsor_type = body.sponsorType;
      if (body.weight !== undefined) patch.weight = body.weight;
      if (body.pricing !== undefined) Object.assign(patch, pricingColumns(body.pricing));
      if (!(await tx.campaigns.update(id, patch, ['draft', 'active', 'paused']))) throw conflict('A completed campaign cannot be changed');
      await this.deps.audit.record(tx, p, 'campaigns.update', `campaign:${id}`);
    });
    return this.get(p, id);
  }

  async remove(p: Principal, id: string): Promise<{ id: string; deleted: true }> {
    await this.deps.store.transaction(async (tx) => {
      const row = await this.visible(tx, p, id);
      if (row.ad_purchase_id !== null && row.status === 'draft')
        throw conflict(`This draft belongs to ad purchase ${row.ad_purchase_id}: reject the purchase (POST /api/v1/ad-purchases/{id}/reject) instead`);
      if (!(await tx.campaigns.deleteDraft(id))) throw conflict(`Only drafts can be deleted; this campaign is ${row.status} (complete it instead)`);
      await this.deps.audit.record(tx, p, 'campaigns.delete', `campaign:${id}`);
    });
    return { id, deleted: true };
  }

  /** activate / pause / complete, each from the source states of `LIFECYCLE`; anything else is a 409 naming the state. */
  async transition(p: Principal, id: string, action: LifecycleAction): Promise<Campaign> {
    const now = this.deps.clock.now();
    const rule = LIFECYCLE[action];
    await this.deps.store.transaction(async (tx) => {
      const row = await this.visible(tx, p, id);
      const from = rule.from as readonly string[];
      if (!from.includes(row.status)) throw conflict(`Cannot ${action} a campaign that is ${row.status} (${action} accepts ${from.join(' or ')})`);
      if (action === 'activate') {
        if (row.ad_purchase_id !== null && row.status === 'draft')
          throw conflict(
            `This draft belongs to ad purchase ${row.ad_purchase_id}: approve the purchase (POST /api/v1/ad-purchases/{id}/approve) to activate it`,
          );
        if (row.creative_id === null) throw conflict('Attach a creative before activating (creative/upload or creative/contentx)');
        if (row.flight_end !== null && row.flight_end <= now) throw conflict('The flight has already ended; move flightEnd before activating');
      }
      const patch = {
        status: rule.to,
        updated_at: now,
        ...(action === 'activate' && row.activated_at === null ? { activated_at: now } : {}),
        ...(action === 'complete' ? { ended_at: now } : {}),
      };
      if (!(await tx.campaigns.update(id, patch, from))) throw conflict(`The campaign changed state meanwhile; ${action} refused`);
      await this.deps.audit.record(tx, p, `campaigns.${action}`, `campaign:${id}`);
    });
    return this.get(p, id);
  }

  /**
   * The draft campaign of one operator's part of a paid purchase (the payment webhook's transaction):
   * flat-monthly at the purchase's per-machine rate, its creative attached, the buyer's contact and
   * the purchase named. Its one way to air is `activateForPurchase`. Returns its id.
   */
  async draftForPurchase(tx: Repos, d: PurchaseDraft, now: number): Promise<string> {
    const id = newId('cmp', now);
    await tx.campaigns.insert({
      id,
      operator_id: d.operatorId,
      name: d.name,
      sponsor_name: d.sponsorName,
      sponsor_type: d.sponsorType,
      status: 'draft',
      target_machines_json: 'machines' in d.targeting ? JSON.stringify(d.targeting.machines) : null,
      target_geo_json: 'geo' in d.targeting ? JSON.stringify(d.targeting.geo) : null,
      weight: d.weight,
      flight_start: d.flightStart,
      flight_end: d.flightEnd,
      pricing_model: 'flat-monthly',
      rate_cents: d.monthlyRatePerMachineCents,
      creative_id: d.creativeId,
      creative_source: d.creativeSource,
      contentx_ref: d.contentxRef,
      source_qr_id: d.sourceQrId,
      source_machine_no: d.sourceMachineNo,
      ad_purchase_id: d.adPurchaseId,
      buyer_contact_json: JSON.stringify(d.buyerContact),
      created_at: now,
      updated_at: now,
    });
    await this.deps.audit.record(tx, null, 'campaigns.create.purchase', `campaign:${id}`);
    return id;
  }

  /**
   * Puts an approved purchase's draft on air at once. The buyer paid for the flight's length: a
   * flight whose start has passed while it waited for approval is moved to start now, its length kept.
   * 409 unless it is still the purchase's draft.
   */
  async activateForPurchase(tx: Repos, p: Principal, id: string, now: number): Promise<void> {
    const row = await tx.campaigns.byId(id);
    if (!row || row.ad_purchase_id === null || row.status !== 'draft') throw conflict(`Campaign ${id} is no longer the purchase's draft`);
    let flight = { start: row.flight_start, end: row.flight_end };
    if (flight.start !== null && flight.start < now) flight = { start: now, end: flight.end === null ? null : now + (flight.end - flight.start) };
    const patch = { status: 'active', activated_at: now, flight_start: flight.start, flight_end: flight.end, updated_at: now };
    if (!(await tx.campaigns.update(id, patch, ['draft']))) throw conflict(`Campaign ${id} changed state meanwhile; approval refused`);
    await this.deps.audit.record(tx, p, 'campaigns.activate.purchase', `campaign:${id}`);
  }

  /** Removes a rejected purchase's draft (nothing airs, nothing lingers in the operator's list). 409 unless it is still that draft. */
  async discardForPurchase(tx: Repos, p: Principal, id: string): Promise<void> {
    const row = await tx.campaigns.byId(id);
    if (!row || row.ad_purchase_id === null || !(await tx.campaigns.deleteDraft(id))) throw conflict(`Campaign ${id} is no longer the purchase's draft`);
    await this.deps.audit.record(tx, p, 'campaigns.delete.purchase', `campaign:${id}`);
  }

  /** Attaches an uploaded creative: measured from its bytes (400 naming why it is refused), stored, then attached in one transaction. */
  async upload(p: Principal, id: string, input: { contentType: string; dataBase64: string }): Promise<Campaign> {
    await this.attachable(p, id);
    const media = await this.deps.creatives.measureUpload(input);
    await this.attach(p, id, media, 'upload', null);
    return this.get(p, id);
  }

  /**
   * Generates a creative with the studio and attaches it. A generation is reserved before the studio
   * is called (at most 3 per campaign, so concurrent calls cannot pass the cap) and given back if the
   * studio fails (its failure answered verbatim as 502).
   */
  async generate(p: Principal, id: string, brief: string): Promise<Campaign> {
    const campaign = await this.attachable(p, id);
    const campaigns = this.deps.store.repos.campaigns;
    if (!(await campaigns.reserveGeneration(id, GENERATIONS_MAX, this.deps.clock.now()))) {
      throw conflict(`This campaign has used its ${GENERATIONS_MAX} studio generations; upload a creative instead`);
    }
    let media: Media & { contentxRef: string };
    try {
      media = await this.deps.creatives.generate(brief, campaign.sponsor_name);
    } catch (e) {
      await campaigns.releaseGeneration(id);
      throw e;
    }
    await this.attach(p, id, media, 'contentx', media.contentxRef);
    return this.get(p, id);
  }

  private async attachable(p: Principal, id: string): Promise<CampaignWithOwner> {
    const row = await this.visible(this.deps.store.repos, p, id);
    if (row.status === 'completed') throw conflict('A completed campaign cannot take a new creative');
    return row;
  }

  private async attach(p: Principal, id: string, media: Media, source: 'upload' | 'contentx', contentxRef: string | null): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.store.transaction(async (tx) => {
      const row = await this.visible(tx, p, id);
      const creative = this.deps.creatives.row(row.operator_id, media, source, contentxRef, now);
      await tx.creatives.insert(creative);
      const patch = { creative_id: creative.id, creative_source: source, contentx_ref: contentxRef, updated_at: now };
      if (!(await tx.campaigns.update(id, patch, ['draft', 'active', 'paused']))) throw conflict('A completed campaign cannot take a new creative');
      await this.deps.audit.record(tx, p, `campaigns.creative.${source}`, `campaign:${id}`);
    });
  }

  /** The campaign if the caller may see it; 404 otherwise (another operator's campaign does not exist for them). */
  private async visible(tx: Repos, p: Principal, id: string): Promise<CampaignWithOwner> {
    return requireOwned(p, await tx.campaigns.byId(id), () => notFound('Campaign'));
  }

  private async ownerFor(tx: Repos, p: Principal, operatorEmail: string | undefined): Promise<string> {
    if (operatorEmail === undefined) return p.operatorId;
    const owner = await tx.machines.operatorByEmail(operatorEmail);
    if (!owner) throw refuse('operatorEmail', 'operatorEmail does not name an operator');
    return owner.id;
  }

  /** Exactly one kind of targeting; named machines must all be in the owner's fleet (400 naming the others). */
  private async checkTargeting(
    tx: Repos,
    operatorId: string,
    machines: string[] | undefined,
    geo: TargetGeo | undefined,
  ): Promise<{ machines: string[] | null; geo: TargetGeo | null }> {
    if (machines !== undefined && geo !== undefined) throw refuse('targetGeo', 'send targetMachines or targetGeo, not both');
    if (machines === undefined && geo === undefined) throw refuse('targetMachines', 'name targetMachines or a targetGeo');
    if (geo !== undefined) return { machines: null, geo };
    const unique = [...new Set(machines)];
    const fleet = new Set((await tx.campaigns.fleetScreens(operatorId)).map((m) => m.machine_no));
    const outside = unique.filter((no) => !fleet.has(no));
    if (outside.length > 0)
      throw refuse('targetMachines', `not in your fleet: ${outside.slice(0, 20).join(', ')}${outside.length > 20 ? ` and ${outside.length - 20} more` : ''}`);
    return { machines: unique, geo: null };
  }

  private async creativesOf(tx: Repos, rows: readonly CampaignRow[]): Promise<Map<string, CreativeRow>> {
    const ids = [...new Set(rows.map((r) => r.creative_id).filter((c): c is string => c !== null))];
    return new Map((await tx.creatives.byIds(ids)).map((c) => [c.id, c]));
  }

  private view(p: Principal, r: CampaignWithOwner, creatives: Map<string, CreativeRow>): Campaign {
    const creative = r.creative_id !== null ? creatives.get(r.creative_id) : undefined;
    return {
      id: r.id,
      name: r.name,
      sponsorName: r.sponsor_name,
      sponsorType: r.sponsor_type as Campaign['sponsorType'],
      status: r.status as Campaign['status'],
      targetMachines: parseJson<string[]>(r.target_machines_json),
      targetGeo: parseJson<TargetGeo>(r.target_geo_json),
      weight: r.weight,
      flightStart: formatTimestamp(r.flight_start),
      flightEnd: formatTimestamp(r.flight_end),
      pricing:
        r.pricing_model === 'cpm'
          ? { model: 'cpm', cpmRate: centsToDecimal(r.rate_cents) }
          : { model: 'flat-monthly', monthlyRatePerMachine: centsToDecimal(r.rate_cents) },
      creative: creative ? this.deps.creatives.view(creative) : null,
      creativeSource: r.creative_source as Campaign['creativeSource'],
      contentxRef: r.contentx_ref,
      generations: r.generations,
      generationsLeft: Math.max(0, GENERATIONS_MAX - r.generations),
      sourceQrId: r.source_qr_id,
      sourceMachineNo: r.source_machine_no,
      adPurchaseId: r.ad_purchase_id,
      buyerContact: parseJson<BuyerContact>(r.buyer_contact_json),
      activatedAt: formatTimestamp(r.activated_at),
      completedAt: formatTimestamp(r.ended_at),
      createdAt: formatTimestamp(r.created_at)!,
      updatedAt: formatTimestamp(r.updated_at)!,
      ...(p.admin ? { operatorEmail: r.operator_email } : {}),
    };
  }
}

function pricingColumns(pricing: Pricing): { pricing_model: string; rate_cents: number } {
  return pricing.model === 'cpm'
    ? { pricing_model: 'cpm', rate_cents: pricing.cpmRate }
    : { pricing_model: 'flat-monthly', rate_cents: pricing.monthlyRatePerMachine };
}

/** Flight times: both optional; when both are set the end is after the start. */
function checkFlight(start: string | null, end: string | null): { start: number | null; end: number | null } {
  const s = start === null ? null : Date.parse(start);
  const e = end === null ? null : Date.parse(end);
  if (s !== null && e !== null && e <= s) throw refuse('flightEnd', 'flightEnd must be after flightStart');
  return { start: s, end: e };
}
