import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';
import { emailLine } from '../auth/auth.schemas.ts';
import { SPONSOR_TYPES } from '../campaigns/campaigns.schemas.ts';
import { MachineNo, OperatorEmail } from '../machines/machines.schemas.ts';
import { LINE_STATUSES, PURCHASE_STATUSES } from './purchase.rules.ts';

const text = (max: number) => safeString({ trim: true }).min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
/** 3–10 letters, digits, spaces and hyphens, a letter or digit at each end (the value is trimmed first). */
export const POSTAL_CODE = /^[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]$/;
const PostalCode = safeString({ trim: true }).regex(POSTAL_CODE, 'must be a postal code');
const Token = z.string().min(1).max(200);

/** The most ZIP codes one purchase may name. */
export const REACH_ZIPS_MAX = 50;

export const Reach = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('machine'), machineNo: MachineNo.optional().describe("The kiosk; default: the advertise QR's machine (source)") }),
  z.strictObject({ kind: z.literal('zip'), zips: z.array(PostalCode).length(1) }),
  z.strictObject({ kind: z.literal('zips'), zips: z.array(PostalCode).min(1).max(REACH_ZIPS_MAX) }),
  z.strictObject({ kind: z.literal('city'), city: text(100) }),
  z.strictObject({ kind: z.literal('network') }),
]);
export type ReachInput = z.infer<typeof Reach>;

/**
 * What a buyer asks a price for. Fields the service does not read are ignored, not refused: an
 * amount or a quote sent along changes nothing (the quote is computed on the server only).
 */
export const QuoteBody = z.object({
  sponsorType: z.enum(SPONSOR_TYPES),
  reach: Reach,
  slots: z.number().int().min(1).max(2).describe('Slot tier: 1 standard, 2 double'),
  months: z.number().int().min(1).max(24).describe('Flight length in 30-day months (the price list says which are sold: 1–6)'),
  flightStart: z.iso.date('must be a date YYYY-MM-DD').optional().describe('First day (UTC), today to 90 days ahead; default: as soon as approved'),
  source: z
    .strictObject({ machineNo: MachineNo, qrId: z.string().min(1).max(64) })
    .optional()
    .describe('The advertise QR the buyer came from (`/advertise?machine=&qr=`)'),
});
export type QuoteBrief = z.infer<typeof QuoteBody>;

export const BuyerContactBody = z.strictObject({
  name: text(100),
  email: emailLine(),
  phone: safeString({ trim: true })
    // 5–32 of these characters, no space at either end (the value is trimmed first: "     " is no number)
    .regex(/^[+0-9().-][+0-9 ().-]{3,30}[+0-9().-]$/, 'must be a phone number (digits, spaces, + ( ) . -)')
    .optional(),
});

export const CreatePurchaseBody = QuoteBody.extend({
  sponsorName: text(80),
  buyer: BuyerContactBody,
  creative: z.strictObject({ draftToken: Token, creativeId: z.string().min(1).max(64) }).describe('A creative of the buyer’s draft'),
});
export type PurchaseOrder = z.infer<typeof CreatePurchaseBody>;

export const GenerateBody = z.strictObject({
  draftToken: Token.optional().describe('The draft to add to; none: a new draft'),
  brief: text(2000).describe('What the poster should say and show'),
  sponsorName: text(80).optional().describe('The sponsor, drawn on the built-in studio’s poster'),
});
export const DraftUploadBody = z.strictObject({
  draftToken: Token.optional().describe('The draft to add to; none: a new draft'),
  contentType: z.string().min(1).max(100),
  dataBase64: z.string().min(1),
});
export const DraftLookupBody = z.strictObject({ draftToken: Token });
export const StatusLookupBody = z.strictObject({ statusToken: Token });
export const ResubmitBody = z.strictObject({
  statusToken: Token,
  lineId: z.string().min(1).max(64).describe('The rejected line (its `lineId` on the status)'),
  creative: z.strictObject({ draftToken: Token, creativeId: z.string().min(1).max(64) }).describe('The new ad: a creative of a fresh draft of the buyer’s'),
});
export type ResubmitBody = z.infer<typeof ResubmitBody>;

export const KioskParams = z.object({ machineNo: z.string() });
export const KioskQuery = z.object({ qr: z.string().max(64).optional() });
export const IntentParams = z.object({ intentId: z.string().min(1).max(64) });

// ---- answers

const ReachView = z.object({
  kind: z.enum(['machine', 'zip', 'zips', 'city', 'network']),
  machineNo: z.string().optional(),
  zips: z.array(z.string()).optional(),
  city: z.string().optional(),
});

const MediaView = z.object({
  url: z.string(),
  mediaType: z.string(),
  kind: z.enum(['image', 'video']),
  width: z.number().int(),
  height: z.number().int(),
  durationMs: z.number().int().nullable(),
  bytes: z.number().int(),
  source: z.enum(['upload', 'contentx']),
  contentxRef: z.string().nullable(),
});

export const QuoteView = z.object({
  catalogVersion: z.string(),
  effectiveDate: z.string(),
  currency: z.string(),
  sponsorType: z.enum(SPONSOR_TYPES),
  reach: ReachView,
  slots: z.number().int(),
  months: z.number().int(),
  flightStart: z.string(),
  flightEnd: z.string(),
  machines: z.number().int(),
  rateCents: z.number().int(),
  multiplierBps: z.number().int(),
  monthlyRatePerMachineCents: z.number().int(),
  totalCents: z.number().int(),
  operators: z.array(z.object({ operatorName: z.string(), machines: z.number().int(), machineNos: z.array(z.string()), amountCents: z.number().int() })),
  source: z.object({ machineNo: z.string(), qrId: z.string() }).nullable(),
});
export type QuoteView = z.infer<typeof QuoteView>;

export const CreativeDraftView = z.object({
  draftToken: z.string().describe('Keep it: it reaches this draft (and is shown only to its holder)'),
  generationsUsed: z.number().int(),
  generationsLeft: z.number().int(),
  uploadsLeft: z.number().int(),
  usedByPurchase: z.boolean(),
  creatives: z.array(MediaView.extend({ id: z.string(), createdAt: z.string() })),
});
export type CreativeDraftView = z.infer<typeof CreativeDraftView>;

export const PurchaseCreated = z.object({
  purchaseId: z.string(),
  status: z.literal('awaiting_payment'),
  statusToken: z.string().describe('Shown this once, stored only hashed: it opens the status page'),
  statusUrl: z.string(),
  checkoutUrl: z.string(),
  paymentIntentId: z.string(),
  quote: QuoteView,
});
export type PurchaseCreated = z.infer<typeof PurchaseCreated>;

export const REFUND_STATUSES = ['owed', 'issued', 'failed'] as const;
export const RefundView = z
  .object({
    status: z
      .enum(REFUND_STATUSES)
      .describe(
        'owed: nobody has refunded it yet; issued: the processor accepted the refund; failed: the processor refused the last attempt (it may be retried)',
      ),
    amountCents: z.number().int(),
    reason: z.string().nullable().describe('failed: the processor’s reason'),
    refundId: z.string().nullable().describe('The processor’s refund id, once issued'),
    at: z.string().nullable().describe('When it was issued or last failed; null while owed'),
  })
  .describe('The refund of a rejected line; null for a line that owes none');
export type RefundView = z.infer<typeof RefundView>;

const LineView = z.object({
  lineId: z.string(),
  operatorName: z.string(),
  machines: z.number().int(),
  machineNos: z.array(z.string()),
  amountCents: z.number().int(),
  status: z.enum(LINE_STATUSES),
  reason: z.string().nullable(),
  decidedAt: z.string().nullable(),
  refundOwedCents: z.number().int(),
  refund: RefundView.nullable(),
  resubmittable: z.boolean().describe('Whether the buyer may change the ad and send this rejected line for approval again (its refund not issued)'),
  resubmissions: z.number().int().describe('How many times the buyer sent this line back for approval'),
});

const purchaseCore = {
  purchaseId: z.string(),
  status: z.enum(PURCHASE_STATUSES),
  sponsorName: z.string(),
  sponsorType: z.enum(SPONSOR_TYPES),
  buyer: z.object({ name: z.string(), email: z.string(), phone: z.string().nullable() }),
  reach: ReachView,
  slots: z.number().int(),
  months: z.number().int(),
  flightStart: z.string(),
  flightEnd: z.string(),
  catalogVersion: z.string(),
  currency: z.string(),
  rateCents: z.number().int(),
  multiplierBps: z.number().int(),
  monthlyRatePerMachineCents: z.number().int(),
  machines: z.number().int(),
  totalCents: z.number().int(),
  creative: MediaView,
  generationsUsed: z.number().int(),
  refundOwedCents: z.number().int().describe('Sum over rejected lines (each line’s `refund` says whether it was issued)'),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

/** What the buyer's status page shows. */
export const PurchaseStatusView = z.object({
  ...purchaseCore,
  checkoutUrl: z.string().nullable().describe('Where to pay, while awaiting payment'),
  operators: z.array(z.object({ operatorName: z.string(), machines: z.number().int(), machineNos: z.array(z.string()), amountCents: z.number().int() })),
  lines: z.array(LineView).describe('One per operator once paid, with its approval'),
});
export type PurchaseStatusView = z.infer<typeof PurchaseStatusView>;

/** A purchase as an operator (its own line only) or an admin (every line) sees it. */
export const AdPurchase = z.object({
  ...purchaseCore,
  id: z.string(),
  paymentProcessor: z.string(),
  paymentIntentId: z.string(),
  sourceQrId: z.string().nullable(),
  sourceMachineNo: z.string().nullable(),
  lines: z.array(LineView.extend({ operatorEmail: z.string(), campaignId: z.string().nullable(), decidedBy: z.string().nullable() })),
});
export type AdPurchase = z.infer<typeof AdPurchase>;

export const AdPurchasePage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(AdPurchase) });
export const AdPurchaseListQuery = PagingQuery.extend({
  status: z.enum(PURCHASE_STATUSES).optional().describe("The purchase's status"),
  lineStatus: z
    .enum(LINE_STATUSES)
    .optional()
    .describe("An operator's own line's status (admins: any line's); the approvals queue is lineStatus=pending_approval"),
});
export type AdPurchaseListQuery = z.infer<typeof AdPurchaseListQuery>;
export const AdPurchaseParams = z.object({ id: z.string().min(1).max(64) });
export const ApproveBody = z.strictObject({ operatorEmail: OperatorEmail.optional().describe("Admins: approve only this operator's line") });
export const RejectBody = z.strictObject({
  reason: text(500).describe('Shown to the buyer on the status page'),
  operatorEmail: OperatorEmail.optional().describe("Admins: reject only this operator's line"),
});
export type DecisionBody = z.infer<typeof RejectBody>;
export const RefundBody = z.strictObject({
  operatorEmail: OperatorEmail.optional().describe("Admins: refund only this operator's line (default: every line owing a refund)"),
});
export type RefundBody = z.infer<typeof RefundBody>;

export const KioskView = z.object({
  machineNo: z.string(),
  qrValid: z.boolean().describe('Whether `qr` is this machine’s advertise QR'),
  sellable: z.boolean().describe('Whether this kiosk is offered for advertising'),
  venueName: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  operatorName: z.string().nullable(),
});
export type KioskView = z.infer<typeof KioskView>;

export const WebhookResult = z.object({
  eventId: z.string(),
  type: z.string(),
  duplicate: z.boolean().describe('This event id (or this payment) was already applied: nothing changed'),
  purchaseId: z.string().nullable(),
  status: z.enum(PURCHASE_STATUSES).nullable(),
});
export type WebhookResult = z.infer<typeof WebhookResult>;
