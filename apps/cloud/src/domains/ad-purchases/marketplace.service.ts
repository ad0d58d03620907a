import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import { newId } from '../../crypto/ids.ts';
import { verifySecret } from '../../crypto/secrets.ts';
import type { AdCreativeDraftRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore } from '../../repos.ts';
import type { CreativesService } from '../creatives/creatives.service.ts';
import type { MeasuredMedia } from '../creatives/media-probe.ts';
import { screenOf } from '../machines/screen.ts';
import { advertiseQrId } from '../creatives/advertise-qr.ts';
import type { PricingCatalog } from '../pricing/catalog.ts';
import { priceQuote, type PricedQuote } from '../pricing/quote.ts';
import type {
  CreativeDraftView,
  KioskView,
  PurchaseCreated,
  PurchaseOrder,
  PurchaseStatusView,
  QuoteBrief,
  QuoteView,
  ResubmitBody,
} from './ad-purchases.schemas.ts';
import type { AdPurchasesService } from './ad-purchases.service.ts';
import type { Buyer } from './buyer.ts';
import type { PaymentProcessor } from './processor.ts';
import { flightOf, flightStartOf, mintToken, resolveReach, tokenParts, type OperatorReach, type Reach, type SellableMachine } from './purchase.rules.ts';
import { buyerView, draftMediaView, type StoredPart } from './purchase-views.ts';
import { StatusTokenSeal } from './status-token-seal.ts';

/** Hourly budgets per buyer address (no key to count on), and the uploads one draft may hold. */
export const MARKETPLACE_LIMITS = {
  quotesPerHour: 600,
  /** Studio generations and uploads together. */
  draftWritesPerHour: 60,
  purchasesPerHour: 20,
  lookupsPerHour: 600,
  uploadsPerDraft: 10,
} as const;

export interface MarketplaceDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  rateLimiter: Pick<RateLimiter, 'consume'>;
  /** The price list in force. */
  pricing: { current(): PricingCatalog };
  creatives: Pick<CreativesService, 'measureUpload' | 'generate'>;
  /** Null: no processor on this deployment (purchases answer 503; quotes still work). */
  processor: PaymentProcessor | null;
  config: Pick<Config, 'dataKey' | 'publicBaseUrl'>;
  /** A rejected line sent back for approval (the purchases service owns lines and their campaigns). */
  lines: Pick<AdPurchasesService, 'resubmitLine'>;
}

interface Resolved {
  catalog: PricingCatalog;
  sponsorType: QuoteBrief['sponsorType'];
  slots: 1 | 2;
  months: number;
  reach: Reach;
  groups: OperatorReach[];
  priced: PricedQuote;
  flight: { start: number; end: number };
  source: { machineNo: string; qrId: string } | null;
}

/** A machine code (spec 1 §8): anything else names no kiosk. */
const MACHINE_NO = /^[A-Za-z0-9-]{8,32}$/;
const refuse = (path: string, message: string) => badRequest(undefined, [{ path, message }]);
const draftNotFound = () => notFound('Creative draft');
const purchaseNotFound = () => notFound('Purchase');

/**
 * The buyer's side of the self-serve marketplace (spec 1 §4.7), no API key: quotes computed on the
 * server over opted-in operators' machines only, the creative draft (uploads and at most 3 studio
 * generations), the purchase and its payment intent, and the tokenized status. The buyer pages and
 * the JSON routes call these same methods.
 */
export class MarketplaceService {
  private readonly seal: StatusTokenSeal;
  constructor(private readonly deps: MarketplaceDeps) {
    this.seal = new StatusTokenSeal(deps.config.dataKey);
  }

  private async spend(buyer: Buyer, what: string, points: number): Promise<void> {
    if (!(await this.deps.rateLimiter.consume(`mkt:${what}:${buyer.ip}`, points))) {
      throw new AppError('rate_limited', undefined, { headers: { 'Retry-After': '3600' } });
    }
  }

  /** The kiosk an advertise QR leads to: whether the QR is its own and whether it is offered; a code unknown or malformed is 404. */
  async kiosk(buyer: Buyer, machineNo: string, qrId: string | undefined): Promise<KioskView> {
    await this.spend(buyer, 'lookup', MARKETPLACE_LIMITS.lookupsPerHour);
    if (!MACHINE_NO.test(machineNo)) throw notFound('Kiosk');
    const { repos } = this.deps.store;
    const sellable = await repos.adPurchases.sellableMachine(machineNo);
    const known = sellable ?? (await repos.machines.machineByNo(machineNo));
    if (!known) throw notFound('Kiosk');
    const screen = sellable ? screenOf(sellable) : null;
    return {
      machineNo: known.machine_no,
      qrValid: qrId !== undefined && qrId === advertiseQrId(known.machine_no, this.deps.config.dataKey),
      sellable: sellable !== undefined,
      venueName: screen?.venueName ?? null,
      city: screen?.address.city ?? null,
      postalCode: screen?.address.postalCode ?? null,
      operatorName: sellable?.operator_name ?? null,
    };
  }

  /** The price of a brief now: the reach resolved over opted-in operators' machines, the catalog in force. */
  async quote(buyer: Buyer, brief: QuoteBrief): Promise<QuoteView> {
    await this.spend(buyer, 'quote', MARKETPLACE_LIMITS.quotesPerHour);
    return this.quoteView(await this.resolve(brief, this.deps.clock.now()));
  }

  /**
   * One studio generation into a creative draft (a new draft when no token is given). At most the
   * catalog's generationsPerPurchase per draft, reserved before the studio is called and given back
   * if it fails (502); a 4th is a 409.
   */
  async generateCreative(
    buyer: Buyer,
    input: { draftToken?: string | undefined; brief: string; sponsorName?: string | undefined },
  ): Promise<CreativeDraftView> {
    await this.spend(buyer, 'draft', MARKETPLACE_LIMITS.draftWritesPerHour);
    const max = this.deps.pricing.current().ad.generationsPerPurchase;
    return this.addToDraft(input.draftToken, 'generations', max, async () => {
      const media = await this.deps.creatives.generate(input.brief, input.sponsorName ?? null);
      return { media, source: 'contentx', contentxRef: media.contentxRef };
    });
  }

  /** An uploaded creative into a draft (a new draft when no token is given): measured from its bytes, refused with the reason (400). */
  async uploadCreative(buyer: Buyer, input: { draftToken?: string | undefined; contentType: string; dataBase64: string }): Promise<CreativeDraftView> {
    await this.spend(buyer, 'draft', MARKETPLACE_LIMITS.draftWritesPerHour);
    return this.addToDraft(input.draftToken, 'uploads', MARKETPLACE_LIMITS.uploadsPerDraft, async () => {
      const media = await this.deps.creatives.measureUpload(input);
      return { media, source: 'upload', contentxRef: null };
    });
  }

  /** A creative draft by its token; 404 for any other token. */
  async draftOf(buyer: Buyer, draftToken: string): Promise<CreativeDraftView> {
    await this.spend(buyer, 'lookup', MARKETPLACE_LIMITS.lookupsPerHour);
    return this.draftView(await this.openDraft(draftToken), draftToken);
  }

  /**
   * The purchase: the quote recomputed here (whatever amount the client sent is ignored), the
   * creative taken from the buyer's draft (each draft buys once), a payment intent for the quoted
   * total, the purchase stored `awaiting_payment`. The status token is answered here only.
   */
  async createPurchase(buyer: Buyer, order: PurchaseOrder): Promise<PurchaseCreated> {
    await this.spend(buyer, 'purchase', MARKETPLACE_LIMITS.purchasesPerHour);
    const { processor } = this.deps;
    if (!processor) throw new AppError('unavailable', 'Payments are not configured on this deployment');
    const now = this.deps.clock.now();
    const r = await this.resolve(order, now);
    const draft = await this.openDraft(order.creative.draftToken).catch((e: unknown) => {
      throw e instanceof AppError && e.status === 404 ? refuse('creative.draftToken', 'no such creative draft') : e;
    });
    if (draft.purchase_id !== null) throw conflict('This creative draft was already used for a purchase');
    const creative = (await this.deps.store.repos.adPurchases.draftCreatives(draft.id)).find((c) => c.id === order.creative.creativeId);
    if (!creative) throw refuse('creative.creativeId', 'not a creative of this draft');

    const id = newId('adp', now);
    const { token, hash } = mintToken(id);
    const { totalCents, machines } = r.priced;
    const intent = await processor.createIntent({
      purchaseId: id,
      amountCents: totalCents,
      currency: r.catalog.currency,
      description: `Screen ad for ${order.sponsorName}: ${machines} kiosk${machines === 1 ? '' : 's'}, ${order.months} month${order.months === 1 ? '' : 's'}`,
    });
    const parts: StoredPart[] = r.groups.map((g, i) => ({
      operatorId: g.operatorId,
      operatorName: g.operatorName,
      machines: g.machineNos.length,
      machineNos: g.machineNos,
      amountCents: r.priced.parts[i]!.amountCents,
    }));
    await this.deps.store.transaction(async (tx) => {
      if (!(await tx.adPurchases.claimDraft(draft.id, id, now))) throw conflict('This creative draft was already used for a purchase');
      const generationsUsed = (await tx.adPurchases.draft(draft.id))!.generations;
      await tx.adPurchases.insertPurchase({
        id,
        status: 'awaiting_payment',
        status_token_hash: hash,
        status_token_sealed: this.seal.seal(token),
        buyer_name: order.buyer.name,
        buyer_email: order.buyer.email,
        buyer_phone: order.buyer.phone ?? null,
        sponsor_name: order.sponsorName,
        sponsor_type: order.sponsorType,
        reach_json: JSON.stringify(r.reach),
        slots: order.slots,
        months: order.months,
        flight_start: r.flight.start,
        catalog_version: r.catalog.version,
        currency: r.catalog.currency,
        rate_cents: r.priced.rateCents,
        multiplier_bps: r.priced.multiplierBps,
        monthly_rate_cents: r.priced.monthlyRatePerMachineCents,
        machines,
        total_cents: totalCents,
        parts_json: JSON.stringify(parts),
        media_sha256: creative.sha256,
        media_type: creative.media_type,
        media_kind: creative.kind,
        media_width: creative.width,
        media_height: creative.height,
        media_duration_ms: creative.duration_ms,
        media_bytes: creative.bytes,
        creative_source: creative.source,
        contentx_ref: creative.contentx_ref,
        generations_used: generationsUsed,
        draft_id: draft.id,
        payment_processor: processor.name,
        payment_intent_id: intent.intentId,
        checkout_url: intent.checkoutUrl,
        source_qr_id: r.source?.qrId ?? null,
        source_machine_no: r.source?.machineNo ?? null,
        created_at: now,
        updated_at: now,
      });
      await this.deps.audit.record(tx, null, 'ad_purchases.create', `ad_purchase:${id}`);
    });
    return {
      purchaseId: id,
      status: 'awaiting_payment',
      statusToken: token,
      statusUrl: `${this.deps.config.publicBaseUrl ?? ''}/advertise/status/${token}`,
      checkoutUrl: intent.checkoutUrl,
      paymentIntentId: intent.intentId,
      quote: this.quoteView(r),
    };
  }

  /** What the status page shows, by the status token; 404 for any other token. */
  async statusOf(buyer: Buyer, statusToken: string): Promise<PurchaseStatusView> {
    await this.spend(buyer, 'lookup', MARKETPLACE_LIMITS.lookupsPerHour);
    const parts = tokenParts(statusToken);
    const repo = this.deps.store.repos.adPurchases;
    const row = parts ? await repo.purchase(parts.id) : undefined;
    if (!parts || !row || !verifySecret(parts.secret, row.status_token_hash)) throw purchaseNotFound();
    return buyerView(row, await repo.linesOf([row.id]), this.deps.clock.now());
  }

  /**
   * The buyer sends a rejected line back for approval with a new ad (issue 34), authenticated by the status token
   * (404 for any other): the creative of a fresh draft of the buyer's (it is used up, like a purchase's), the line's
   * rules and the write are the purchases service's (`resubmitLine`). Answers the status as it now stands.
   */
  async resubmit(buyer: Buyer, body: ResubmitBody): Promise<PurchaseStatusView> {
    await this.spend(buyer, 'purchase', MARKETPLACE_LIMITS.purchasesPerHour);
    const parts = tokenParts(body.statusToken);
    const repo = this.deps.store.repos.adPurchases;
    const row = parts ? await repo.purchase(parts.id) : undefined;
    if (!parts || !row || !verifySecret(parts.secret, row.status_token_hash)) throw purchaseNotFound();
    const draft = await this.openDraft(body.creative.draftToken).catch((e: unknown) => {
      throw e instanceof AppError && e.status === 404 ? refuse('creative.draftToken', 'no such creative draft') : e;
    });
    if (draft.purchase_id !== null) throw conflict('This creative draft was already used for a purchase');
    const creative = (await repo.draftCreatives(draft.id)).find((c) => c.id === body.creative.creativeId);
    if (!creative) throw refuse('creative.creativeId', 'not a creative of this draft');
    await this.deps.lines.resubmitLine(row.id, body.lineId, { draftId: draft.id, creative });
    return buyerView((await repo.purchase(row.id))!, await repo.linesOf([row.id]), this.deps.clock.now());
  }

  // ---- the rule

  /**
   * A brief checked against the catalog in force and resolved now: the QR must be its machine's,
   * "this kiosk" defaults to the QR's machine, only opted-in operators' machines in service count,
   * and an empty reach is a 400.
   */
  private async resolve(brief: QuoteBrief, now: number): Promise<Resolved> {
    const catalog = this.deps.pricing.current();
    const { months, slotTiers } = catalog.ad;
    if (brief.months < months.min || brief.months > months.max) throw refuse('months', `must be from ${months.min} to ${months.max}`);
    const slots = Object.values(slotTiers).find((n) => n === brief.slots);
    if (slots === undefined) throw refuse('slots', 'must be 1 (standard) or 2 (double)');
    const source = brief.source ?? null;
    if (source && source.qrId !== advertiseQrId(source.machineNo, this.deps.config.dataKey)) throw refuse('source.qrId', "is not this machine's advertise QR");
    const start = flightStartOf(brief.flightStart, now);
    if (!start.ok) throw refuse('flightStart', start.reason);

    let reach: Reach;
    let rows;
    const repo = this.deps.store.repos.adPurchases;
    if (brief.reach.kind === 'machine') {
      const machineNo = brief.reach.machineNo ?? source?.machineNo;
      if (machineNo === undefined) throw refuse('reach.machineNo', 'name the kiosk (or send the advertise QR as source)');
      const one = await repo.sellableMachine(machineNo);
      reach = { kind: 'machine', machineNo: one?.machine_no ?? machineNo };
      rows = one ? [one] : [];
    } else {
      reach = brief.reach.kind === 'zip' ? { kind: 'zip', zips: [brief.reach.zips[0]!] } : brief.reach;
      rows = await repo.sellableMachines();
    }
    const fleet: SellableMachine[] = rows.map((m) => {
      const screen = screenOf(m);
      return {
        id: m.id,
        machineNo: m.machine_no,
        postalCode: screen?.address.postalCode ?? null,
        city: screen?.address.city ?? null,
        operatorId: m.operator_id,
        operatorName: m.operator_name,
      };
    });
    const groups = resolveReach(reach, fleet);
    if (groups.length === 0) {
      throw refuse(
        'reach',
        reach.kind === 'machine' ? `kiosk ${reach.machineNo} is not offered for advertising` : 'no kiosk offered for advertising is in this reach',
      );
    }
    const priced = priceQuote(catalog.ad, {
      sponsorType: brief.sponsorType,
      slots,
      months: brief.months,
      operators: groups.map((g) => ({ operatorId: g.operatorId, machines: g.machineNos.length })),
    });
    return { catalog, sponsorType: brief.sponsorType, slots, months: brief.months, reach, groups, priced, flight: flightOf(start.start, brief.months), source };
  }

  private quoteView(r: Resolved): QuoteView {
    return {
      catalogVersion: r.catalog.version,
      effectiveDate: r.catalog.effectiveDate,
      currency: r.catalog.currency,
      sponsorType: r.sponsorType,
      reach: r.reach,
      slots: r.slots,
      months: r.months,
      flightStart: formatTimestamp(r.flight.start)!,
      flightEnd: formatTimestamp(r.flight.end)!,
      machines: r.priced.machines,
      rateCents: r.priced.rateCents,
      multiplierBps: r.priced.multiplierBps,
      monthlyRatePerMachineCents: r.priced.monthlyRatePerMachineCents,
      totalCents: r.priced.totalCents,
      operators: r.groups.map((g, i) => ({
        operatorName: g.operatorName,
        machines: g.machineNos.length,
        machineNos: g.machineNos,
        amountCents: r.priced.parts[i]!.amountCents,
      })),
      source: r.source,
    };
  }

  // ---- creative drafts

  private async openDraft(draftToken: string): Promise<AdCreativeDraftRow> {
    const parts = tokenParts(draftToken);
    const row = parts ? await this.deps.store.repos.adPurchases.draft(parts.id) : undefined;
    if (!parts || !row || !verifySecret(parts.secret, row.token_hash)) throw draftNotFound();
    return row;
  }

  private async addToDraft(
    draftToken: string | undefined,
    what: 'generations' | 'uploads',
    max: number,
    make: () => Promise<{ media: MeasuredMedia; source: 'upload' | 'contentx'; contentxRef: string | null }>,
  ): Promise<CreativeDraftView> {
    const repo = this.deps.store.repos.adPurchases;
    let draft: { id: string; token: string } | null = null;
    if (draftToken !== undefined) {
      const row = await this.openDraft(draftToken);
      draft = { id: row.id, token: draftToken };
      if (!(await repo.reserve(row.id, what, max, this.deps.clock.now()))) {
        const now = await repo.draft(row.id);
        if (now?.purchase_id) throw conflict('This creative draft was already used for a purchase');
        throw conflict(
          what === 'generations' ? `This draft has used its ${max} studio generations; upload a creative instead` : `This draft holds its ${max} uploads`,
        );
      }
    }
    let made;
    try {
      made = await make();
    } catch (e) {
      if (draft) await repo.release(draft.id, what);
      throw e;
    }
    const now = this.deps.clock.now();
    // a new draft is written only once its first creative exists: a failed first call leaves nothing
    const id = draft?.id ?? newId('acd', now);
    const minted = draft ? null : mintToken(id);
    const token = draft?.token ?? minted!.token;
    await this.deps.store.transaction(async (tx) => {
      if (minted) await tx.adPurchases.insertDraft({ id, token_hash: minted.hash, [what]: 1, created_at: now, updated_at: now });
      const m = made.media;
      await tx.adPurchases.insertDraftCreative({
        id: newId('adc', now),
        draft_id: id,
        seq: (await tx.adPurchases.draftCreativeCount(id)) + 1,
        sha256: m.sha256,
        media_type: m.mediaType,
        kind: m.kind,
        width: m.width,
        height: m.height,
        duration_ms: m.durationMs,
        bytes: m.bytes,
        source: made.source,
        contentx_ref: made.contentxRef,
        created_at: now,
      });
      await this.deps.audit.record(tx, null, `ad_purchases.draft.${made.source}`, `ad_draft:${id}`);
    });
    return this.draftView((await repo.draft(id))!, token);
  }

  private async draftView(row: AdCreativeDraftRow, token: string): Promise<CreativeDraftView> {
    const max = this.deps.pricing.current().ad.generationsPerPurchase;
    const creatives = await this.deps.store.repos.adPurchases.draftCreatives(row.id);
    return {
      draftToken: token,
      generationsUsed: row.generations,
      generationsLeft: Math.max(0, max - row.generations),
      uploadsLeft: Math.max(0, MARKETPLACE_LIMITS.uploadsPerDraft - row.uploads),
      usedByPurchase: row.purchase_id !== null,
      creatives: creatives.map(draftMediaView),
    };
  }
}
