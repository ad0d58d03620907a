import type { AdDraftCreativeRow, AdPurchaseRow } from '../../db/schema.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { SponsorType } from '../campaigns/campaigns.schemas.ts';
import { mediaUrl } from '../creatives/creatives.service.ts';
import type { MeasuredMedia, MediaType } from '../creatives/media-probe.ts';
import type { LineWithOperator } from './ad-purchases.repo.ts';
import type { AdPurchase, PurchaseStatusView, RefundView } from './ad-purchases.schemas.ts';
import { flightOf, resubmitRefusal, type LineStatus, type PurchaseStatus, type Reach } from './purchase.rules.ts';

/** One operator's part of a quote, as a purchase stores it (`parts_json`). */
export interface StoredPart {
  operatorId: string;
  operatorName: string;
  machines: number;
  machineNos: string[];
  amountCents: number;
}

const EXT: Record<MediaType, MeasuredMedia['ext']> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'video/mp4': 'mp4' };

/** The measured media a purchase (or a draft's creative) recorded, as the creatives domain takes it back. */
export function purchaseMedia(row: AdPurchaseRow): MeasuredMedia {
  const mediaType = row.media_type as MediaType;
  return {
    sha256: row.media_sha256,
    mediaType,
    kind: row.media_kind === 'video' ? 'video' : 'image',
    ext: EXT[mediaType],
    width: row.media_width,
    height: row.media_height,
    durationMs: row.media_duration_ms === null ? null : Number(row.media_duration_ms),
    bytes: Number(row.media_bytes),
  };
}

export function draftMediaView(c: AdDraftCreativeRow) {
  const mediaType = c.media_type as MediaType;
  return {
    id: c.id,
    url: mediaUrl(c.sha256, mediaType),
    mediaType,
    kind: c.kind === 'video' ? ('video' as const) : ('image' as const),
    width: c.width,
    height: c.height,
    durationMs: c.duration_ms === null ? null : Number(c.duration_ms),
    bytes: Number(c.bytes),
    source: c.source === 'contentx' ? ('contentx' as const) : ('upload' as const),
    contentxRef: c.contentx_ref,
    createdAt: formatTimestamp(c.created_at)!,
  };
}

export const partsOf = (row: AdPurchaseRow): StoredPart[] => JSON.parse(row.parts_json) as StoredPart[];
export const reachOf = (row: AdPurchaseRow): Reach => JSON.parse(row.reach_json) as Reach;

function lineView(l: LineWithOperator, flightEnd: number, now: number) {
  return {
    lineId: l.id,
    operatorName: l.operator_name,
    machines: l.machines,
    machineNos: JSON.parse(l.machine_nos_json) as string[],
    amountCents: Number(l.amount_cents),
    status: l.status as LineStatus,
    reason: l.reason,
    decidedAt: formatTimestamp(l.decided_at),
    refundOwedCents: Number(l.refund_owed_cents),
    refund: refundView(l),
    resubmittable: resubmitRefusal(l, flightEnd, now) === null,
    resubmissions: Number(l.resubmissions),
  };
}

/** A rejected line's refund: owed (also a line rejected before refunds were recorded), issued, or failed with the processor's reason. */
function refundView(l: LineWithOperator): RefundView | null {
  const amountCents = Number(l.refund_owed_cents);
  if (amountCents <= 0) return null;
  const status: RefundView['status'] = l.refund_status === 'issued' || l.refund_status === 'failed' ? l.refund_status : 'owed';
  return { status, amountCents, reason: status === 'failed' ? l.refund_failure : null, refundId: l.refund_id, at: formatTimestamp(l.refund_at) };
}

function core(row: AdPurchaseRow, lines: readonly LineWithOperator[]) {
  const flight = flightOf(row.flight_start, row.months);
  const media = purchaseMedia(row);
  return {
    purchaseId: row.id,
    status: row.status as PurchaseStatus,
    sponsorName: row.sponsor_name,
    sponsorType: row.sponsor_type as SponsorType,
    buyer: { name: row.buyer_name, email: row.buyer_email, phone: row.buyer_phone },
    reach: reachOf(row),
    slots: row.slots,
    months: row.months,
    flightStart: formatTimestamp(flight.start)!,
    flightEnd: formatTimestamp(flight.end)!,
    catalogVersion: row.catalog_version,
    currency: row.currency,
    rateCents: row.rate_cents,
    multiplierBps: row.multiplier_bps,
    monthlyRatePerMachineCents: row.monthly_rate_cents,
    machines: row.machines,
    totalCents: Number(row.total_cents),
    creative: {
      url: mediaUrl(media.sha256, media.mediaType),
      mediaType: media.mediaType,
      kind: media.kind,
      width: media.width,
      height: media.height,
      durationMs: media.durationMs,
      bytes: media.bytes,
      source: row.creative_source === 'contentx' ? ('contentx' as const) : ('upload' as const),
      contentxRef: row.contentx_ref,
    },
    generationsUsed: row.generations_used,
    refundOwedCents: lines.reduce((a, l) => a + Number(l.refund_owed_cents), 0),
    paidAt: formatTimestamp(row.paid_at),
    createdAt: formatTimestamp(row.created_at)!,
    updatedAt: formatTimestamp(row.updated_at)!,
  };
}

/** The buyer's status page: every operator's part and line, with reasons and refunds owed. */
export function buyerView(row: AdPurchaseRow, lines: readonly LineWithOperator[], now: number): PurchaseStatusView {
  const end = flightOf(row.flight_start, row.months).end;
  return {
    ...core(row, lines),
    checkoutUrl: row.status === 'awaiting_payment' ? row.checkout_url : null,
    operators: partsOf(row).map((p) => ({ operatorName: p.operatorName, machines: p.machines, machineNos: p.machineNos, amountCents: p.amountCents })),
    lines: lines.map((l) => lineView(l, end, now)),
  };
}

/** An operator's (or admin's) view: the lines it may see (the caller filters them) with their campaigns. */
export function operatorView(row: AdPurchaseRow, lines: readonly LineWithOperator[], now: number): AdPurchase {
  const end = flightOf(row.flight_start, row.months).end;
  return {
    ...core(row, lines),
    id: row.id,
    paymentProcessor: row.payment_processor,
    paymentIntentId: row.payment_intent_id,
    sourceQrId: row.source_qr_id,
    sourceMachineNo: row.source_machine_no,
    lines: lines.map((l) => ({ ...lineView(l, end, now), operatorEmail: l.operator_email, campaignId: l.campaign_id, decidedBy: l.decided_by })),
  };
}
