import { z } from 'zod';
import { CreativeView } from '../creatives/creatives.schemas.ts';
import { safeString } from '@vend/protocol';
import { MachineNo } from '../machines/machines.schemas.ts';
import { decimalAmount } from '../../http/money.ts';
import { PagingQuery } from '../../http/paging.ts';

/** Sponsor types (spec 1 §2.5): a local business, or a brand stocked in the kiosk paying into the co-op. */
export const SPONSOR_TYPES = ['local-business', 'brand-coop'] as const;
export type SponsorType = (typeof SPONSOR_TYPES)[number];

export const CAMPAIGN_STATUSES = ['draft', 'active', 'paused', 'completed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const PRICING_MODELS = ['flat-monthly', 'cpm'] as const;
export type PricingModel = (typeof PRICING_MODELS)[number];

/** The most machines one campaign may name, and the most ZIP codes. */
export const TARGET_MACHINES_MAX = 500;
export const TARGET_ZIPS_MAX = 100;
/** A campaign's showings per loop rotation: at most the longest loop a screen may have. */
export const WEIGHT_MAX = 24;

const text = (max: number) => safeString({ trim: true }).min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const instant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp with an offset' });

export const TargetGeo = z
  .strictObject({
    zips: z
      .array(safeString({ trim: true }).regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]$/, 'must be a postal code'))
      .min(1)
      .max(TARGET_ZIPS_MAX)
      .optional(),
    city: text(100).optional(),
    nationwide: z.boolean().optional(),
  })
  .refine((g) => g.zips !== undefined || g.city !== undefined || g.nationwide === true, 'must name zips, a city or nationwide: true');
export type TargetGeo = z.infer<typeof TargetGeo>;

/** Pricing in decimal currency at the edge; integer cents inside. */
export const Pricing = z.discriminatedUnion('model', [
  z.strictObject({ model: z.literal('flat-monthly'), monthlyRatePerMachine: decimalAmount(1_000_000) }),
  z.strictObject({ model: z.literal('cpm'), cpmRate: decimalAmount(10_000) }),
]);
export type Pricing = z.infer<typeof Pricing>;

const campaignFields = {
  name: text(100),
  sponsorName: text(100),
  sponsorType: z.enum(SPONSOR_TYPES),
  targetMachines: z.array(MachineNo).min(1).max(TARGET_MACHINES_MAX).optional(),
  targetGeo: TargetGeo.optional(),
  weight: z.number().int().min(1).max(WEIGHT_MAX).optional(),
  flightStart: instant.optional(),
  flightEnd: instant.optional(),
  pricing: Pricing,
};

export const CreateCampaignBody = z.strictObject({
  ...campaignFields,
  /** Admin credentials only: the operator the campaign is for. */
  operatorEmail: safeString({ trim: true }).min(1).max(254).optional(),
});
export type CreateCampaignBody = z.infer<typeof CreateCampaignBody>;

/** PUT: the fields sent replace theirs; targeting switches kind when the other kind is sent. */
export const UpdateCampaignBody = z.strictObject({
  name: campaignFields.name.optional(),
  sponsorName: campaignFields.sponsorName.optional(),
  sponsorType: campaignFields.sponsorType.optional(),
  targetMachines: campaignFields.targetMachines,
  targetGeo: campaignFields.targetGeo,
  weight: campaignFields.weight,
  flightStart: instant.nullable().optional(),
  flightEnd: instant.nullable().optional(),
  pricing: Pricing.optional(),
});
export type UpdateCampaignBody = z.infer<typeof UpdateCampaignBody>;

export const CampaignParams = z.object({ id: z.string().min(1).max(64) });
export const CampaignListQuery = PagingQuery.extend({ status: z.enum(CAMPAIGN_STATUSES).optional() });
export type CampaignListQuery = z.infer<typeof CampaignListQuery>;

export const ContentxBody = z.strictObject({ brief: text(2000) });
export const UploadBody = z.strictObject({
  contentType: z.string().min(1).max(100),
  dataBase64: z.string().min(1),
});

/** The creative a campaign or screensaver shows: the creatives domain's own view, as the service returns it. */
export const CreativeSummary = CreativeView;

/** A self-serve buyer's contact, as a purchase's campaigns carry it. */
export const BuyerContact = z.object({ name: z.string(), email: z.string(), phone: z.string().nullable() });
export type BuyerContact = z.infer<typeof BuyerContact>;

export const Campaign = z.object({
  id: z.string(),
  name: z.string(),
  sponsorName: z.string(),
  sponsorType: z.enum(SPONSOR_TYPES),
  status: z.enum(CAMPAIGN_STATUSES),
  targetMachines: z.array(z.string()).nullable(),
  targetGeo: z.object({ zips: z.array(z.string()).optional(), city: z.string().optional(), nationwide: z.boolean().optional() }).nullable(),
  weight: z.number().int(),
  flightStart: z.string().nullable(),
  flightEnd: z.string().nullable(),
  pricing: z.union([
    z.object({ model: z.literal('flat-monthly'), monthlyRatePerMachine: z.number() }),
    z.object({ model: z.literal('cpm'), cpmRate: z.number() }),
  ]),
  creative: CreativeSummary.nullable(),
  creativeSource: z.enum(['upload', 'contentx']).nullable(),
  contentxRef: z.string().nullable(),
  generations: z.number().int(),
  generationsLeft: z.number().int(),
  sourceQrId: z.string().nullable(),
  sourceMachineNo: z.string().nullable(),
  adPurchaseId: z.string().nullable().describe('The self-serve ad purchase this campaign was drafted for; its approval activates it'),
  buyerContact: BuyerContact.nullable().describe("The self-serve buyer's contact (campaigns drafted for an ad purchase)"),
  activatedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  operatorEmail: z.string().optional(),
});
export type Campaign = z.infer<typeof Campaign>;

export const CampaignPage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(Campaign) });
export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) });

export const CampaignReport = z.object({
  campaignId: z.string(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  pricingModel: z.enum(PRICING_MODELS),
  machines: z.number().int(),
  plays: z.number().int(),
  estImpressions: z.number(),
  estRevenue: z.number(),
  estMonthlyValue: z.number(),
  playsByMachine: z.array(z.object({ machineNo: z.string(), plays: z.number().int() })),
  lastPlayAt: z.string().nullable(),
});
export type CampaignReport = z.infer<typeof CampaignReport>;

const SourceSplit = z.object({ plays: z.number().int(), share: z.number(), estImpressions: z.number() });
export const ReportsSummary = z.object({
  campaigns: z.array(CampaignReport),
  loop: z.object({
    plays: z.number().int(),
    'direct-sold': SourceSplit,
    programmatic: SourceSplit.extend({ estRevenue: z.number() }),
    house: SourceSplit,
  }),
  estRevenue: z.number(),
});
export type ReportsSummary = z.infer<typeof ReportsSummary>;
export const SummaryQuery = z.object({ operatorEmail: safeString({ trim: true }).min(1).max(254).optional() });
