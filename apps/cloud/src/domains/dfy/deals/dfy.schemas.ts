import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { CAPABILITIES } from './dfy.rules.ts';
import { WORK_ORDER_STATES, WORK_ORDER_TYPES } from './dfy.rules.ts';
import { CHECKPOINT_KINDS, DEAL_STAGES, TRIGGERS } from './deal-vocabulary.ts';
import { DEAL_ORIGINS, HARDWARE_VARIANTS, TOUCH_CHANNELS } from './deal-model.ts';
import { TIERS } from './catalog.ts';

export const TIMESTAMP = 'YYYY-MM-DDTHH:MM:SS.mmm+0000';
const id = z.string().min(1).max(64);
export const text = (max: number) => safeString({ trim: true }).min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
/** `confirm: true`, the mark of a confirmed operator request (the four confirm gates). */
export const confirm = z.literal(true, { error: 'confirm: true is required' }).describe('must be true: this action needs an explicit confirmed request');

export const Venue = z.strictObject({
  name: text(200),
  address: text(255).nullable().default(null),
  lat: z
    .number()
    .min(-90)
    .max(90)
    .refine((v) => v !== 0, 'must not be 0'),
  lng: z.number().min(-180).max(180),
});

export const DealParams = z.object({ dealId: id });
export const CheckpointParams = z.object({ checkpointId: id });
export const WorkOrderParams = z.object({ id });

export const CreateDealBody = z.strictObject({
  tier: z.enum(TIERS),
  hardwareVariant: z.enum(HARDWARE_VARIANTS).describe('`reyeah`-family or agent-family cabinet'),
  venue: Venue.nullable().default(null).describe('a venue already known (skips the shortlist once pre-ordered); null: the scout shortlists'),
  note: text(500).nullable().default(null),
  autopilot: z.boolean().nullable().default(null).describe('per-deal override of the portfolio autopilot; null follows the portfolio'),
});
export type CreateDealBody = z.infer<typeof CreateDealBody>;

export const PreorderBody = CreateDealBody.omit({ autopilot: true }).extend({
  confirm,
  amountUsd: z.number().optional().describe('ignored: the pre-order is charged the catalog price of its tier'),
  autopilot: z.boolean().nullable().default(null),
});
export type PreorderBody = z.infer<typeof PreorderBody>;

export const ListDealsQuery = z.object({
  stage: z.enum(DEAL_STAGES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});
export const ListCheckpointsQuery = z.object({
  resolved: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  dealId: id.optional(),
  kind: z.enum(CHECKPOINT_KINDS).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(100).default(20),
});

export const AdvanceBody = z.strictObject({ to: z.enum(['shortlisting', 'outreach']) });
export const ScoutAcceptBody = z.strictObject({ venue: Venue });
export const Envelope = z
  .strictObject({
    revenueShareTargetPct: z.number().min(0).max(100),
    revenueShareMaxPct: z.number().min(0).max(100),
    termMinMonths: z.number().int().min(1).max(240),
    termTargetMonths: z.number().int().min(1).max(240),
    termMaxMonths: z.number().int().min(1).max(240),
  })
  .refine((e) => e.revenueShareTargetPct <= e.revenueShareMaxPct, {
    message: 'revenueShareTargetPct must not exceed revenueShareMaxPct',
    path: ['revenueShareTargetPct'],
  })
  .refine((e) => e.termMinMonths <= e.termTargetMonths && e.termTargetMonths <= e.termMaxMonths, {
    message: 'terms must satisfy termMinMonths ≤ termTargetMonths ≤ termMaxMonths',
    path: ['termTargetMonths'],
  });
export const TermsBody = z.strictObject({
  revenueSharePct: z.number().min(0).max(100),
  termMonths: z.number().int().min(1).max(240),
  rounds: z.number().int().min(1).max(1000),
  outOfMandateAsks: z.number().int().min(0).max(1000).default(0),
});
export const ConfirmBody = z.strictObject({ confirm });
/** A client's amount is read by nobody: the catalog prices every checkout (spec 3 §2). */
const ignoredAmount = z.number().optional().describe('ignored: every amount comes from the server catalog');
export const CheckoutBody = z.strictObject({ confirm, amountUsd: ignoredAmount });
export const EmptyBody = z.strictObject({});
export const TrackingBody = z.strictObject({ carrier: text(64), trackingNumber: text(64) });
export const CancelBody = z.strictObject({ reason: text(500) });
export const RefundBody = z.strictObject({ confirm, reason: text(500) });
export const AutopilotBody = z.strictObject({ enabled: z.boolean().nullable() });
export const WorkOrderBody = z.strictObject({
  state: z.enum(WORK_ORDER_STATES),
  assignee: text(200).optional(),
  scheduledFor: z.iso.datetime({ offset: true }).optional(),
});

const Capabilities = z.strictObject(
  Object.fromEntries(CAPABILITIES.map((c) => [c, z.boolean().nullable().describe('null: no default, the autopilot switch decides')])) as Record<
    (typeof CAPABILITIES)[number],
    z.ZodNullable<z.ZodBoolean>
  >,
);
export const SettingsBody = z.strictObject({
  autopilot: z.boolean(),
  autoApproveScore: z.number().int().min(0).max(100),
  maxAutoApprove: z.number().int().min(0).max(1000),
  installMode: z.enum(['team', 'self']),
  autoInventory: z.boolean(),
  inventoryMonthlyCapUsd: z.number().min(0).max(1_000_000),
  moneyThresholdUsd: z.number().min(0).max(1_000_000),
  capabilityDefaults: Capabilities,
});
export type SettingsBody = z.infer<typeof SettingsBody>;
export const Settings = SettingsBody.extend({ updatedAt: z.string().nullable().describe(`${TIMESTAMP}; null: never set (defaults)`) });

// ---- answers

export const CatalogData = z.object({
  version: z.string(),
  currency: z.literal('USD'),
  tiers: z.array(z.object({ tier: z.enum(TIERS), name: z.string(), priceUsd: z.number(), priceCents: z.number().int() })),
});

const VenueOut = z.object({ name: z.string(), address: z.string().nullable(), lat: z.number(), lng: z.number() });
const EnvelopeOut = z.object({
  revenueShareTargetPct: z.number(),
  revenueShareMaxPct: z.number(),
  termMinMonths: z.number(),
  termTargetMonths: z.number(),
  termMaxMonths: z.number(),
});
const TermsOut = z.object({ revenueSharePct: z.number(), termMonths: z.number(), rounds: z.number(), outOfMandateAsks: z.number() });
const Stage = z.enum(DEAL_STAGES);
export const Deal = z.object({
  id: z.string(),
  stage: Stage,
  stagesVisited: z.array(Stage),
  origin: z.enum(DEAL_ORIGINS).describe('request; preorder (paid up front); pool (funded by the investment pool, fully managed)'),
  tier: z.enum(TIERS),
  priceUsd: z.number(),
  hardwareVariant: z.enum(HARDWARE_VARIANTS),
  autopilot: z.boolean().nullable().describe('per-deal override: true, false, or null (follows the portfolio)'),
  note: z.string().nullable(),
  venue: VenueOut.nullable(),
  negotiation: z.object({
    status: z.enum(['not_started', 'started', 'terms_recorded', 'approved']),
    envelope: EnvelopeOut.nullable(),
    terms: TermsOut.nullable(),
    approvalReasons: z.array(z.string()),
  }),
  lease: z.object({ sent: z.boolean(), signed: z.boolean() }),
  money: z.object({ preorderPaidUsd: z.number(), machinePaidUsd: z.number(), refundedUsd: z.number(), paymentIds: z.array(z.string()) }),
  machineNo: z.string().nullable().describe('the fleet pin pre-provisioned at the leased coordinates on payment'),
  shipment: z.object({ carrier: z.string(), trackingNumber: z.string() }).nullable(),
  install: z.object({ workOrderId: z.string().nullable(), state: z.string().nullable() }),
  onboarding: z.object({ online: z.boolean(), terminal: z.enum(['bound', 'failed', 'pending']), planogram: z.boolean() }).nullable(),
  openCheckpoints: z.array(z.object({ kind: z.enum(CHECKPOINT_KINDS), id: z.string() })),
  cancelReason: z.string().nullable(),
  outreach: z
    .object({
      venueId: z.string().describe('the directory venue contacted'),
      channelOrder: z.array(z.enum(['email', 'sms', 'voice'])),
      touches: z.number().int(),
      lastTouchAt: z.string().nullable().describe(TIMESTAMP),
      optedOut: z.array(z.enum(['email', 'sms', 'voice'])).describe('channels the venue opted out of'),
      replies: z.number().int(),
    })
    .optional()
    .describe('present once outreach has started (docs/dfy.md#outreach-part-2)'),
  createdAt: z.string().describe(TIMESTAMP),
  updatedAt: z.string().describe(TIMESTAMP),
  timeline: z.array(
    z.object({
      seq: z.number().int(),
      at: z.string(),
      event: z.string(),
      actor: z.enum(['operator', 'autopilot', 'system']),
      channel: z.enum(TOUCH_CHANNELS),
      stage: Stage,
      scriptVersion: z.string().nullable(),
    }),
  ),
});
/** A payment asked of the processor and not made yet: the operator is sent to `checkoutUrl` to pay. */
export const AwaitingPayment = z.object({
  id: z.string().describe('the payment id (the processor intent pays for it; the same request again answers the same payment)'),
  kind: z.enum(['preorder', 'checkout']),
  status: z.literal('awaiting_payment'),
  amountUsd: z.number().describe('the catalog amount (never a client amount)'),
  currency: z.string(),
  processor: z.string(),
  paymentIntentId: z.string(),
  checkoutUrl: z.string().describe("where the operator pays (the processor's hosted page); the deal moves once the processor reports the payment"),
  createdAt: z.string().describe(TIMESTAMP),
});

/** One payment taken for the deal, and its refund. */
export const DealPayment = z.object({
  id: z.string(),
  kind: z.enum(['preorder', 'checkout', 'pool']),
  amountUsd: z.number(),
  currency: z.string(),
  processor: z.string().nullable().describe('where the money was taken; null: recorded without a processor (the sandbox, the investment pool)'),
  paidAt: z.string().describe(TIMESTAMP),
  refundedAt: z.string().nullable().describe(`${TIMESTAMP}; when the refund was decided (the deal cancelled before shipping)`),
  refund: z
    .object({
      status: z.enum(['owed', 'issued', 'failed']),
      refundId: z.string().nullable().describe("the processor's refund"),
      reason: z.string().nullable().describe("the processor's reason for a failed refund"),
      at: z.string().nullable().describe(TIMESTAMP),
    })
    .nullable()
    .describe(
      'a processor payment refunded through the processor: owed → issued, or failed with its reason (retry: POST …/refund); null: no refund through a processor',
    ),
});

/**
 * A deal as its single-deal answers show it: the stored deal (byte for byte its replay) and, only while one awaits
 * the operator, the payment to make.
 */
export const DealView = Deal.extend({
  payment: AwaitingPayment.optional().describe(
    'present only while a payment awaits the operator (a deployment with a real payment processor): send the operator to payment.checkoutUrl; the deal moves when the processor reports it paid. Absent: nothing to pay now',
  ),
});

/** The deal's money view: the payment awaiting the operator, the payments taken and their refunds. */
export const DealMoney = z.object({
  dealId: z.string(),
  payment: AwaitingPayment.nullable().describe('the payment awaiting the operator (its checkoutUrl); null: nothing to pay now'),
  payments: z.array(DealPayment).describe('the payments taken for this deal, oldest first, each with its refund'),
});

export const DealPaymentWebhookResult = z.object({
  eventId: z.string(),
  type: z.string(),
  paymentId: z.string(),
  dealId: z.string().nullable(),
  duplicate: z.boolean().describe('the event id (or another event of the same intent) was applied before: nothing changed'),
  status: z
    .enum(['awaiting_payment', 'paid', 'expired'])
    .nullable()
    .describe('the payment after this event (expired: its page can no longer be paid; ask again)'),
  refundOwed: z
    .boolean()
    .describe('the deal could no longer take this payment (cancelled or moved on meanwhile): recorded, and owed back through the processor'),
});

export const DealPage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(Deal) });

export const Replay = z.object({
  dealId: z.string(),
  events: z.array(
    z.object({
      seq: z.number().int(),
      at: z.string(),
      actor: z.string(),
      channel: z.string(),
      scriptVersion: z.string().nullable(),
      data: z.record(z.string(), z.unknown()),
    }),
  ),
  deal: Deal.describe('the deal re-applied from the first event; byte for byte the stored deal'),
  matchesStored: z.boolean(),
});

export const Checkpoint = z.object({
  id: z.string(),
  kind: z.enum(CHECKPOINT_KINDS),
  dealId: z.string(),
  dealStage: Stage,
  resolved: z.boolean(),
  detail: z.string().nullable(),
  raisedBy: z.string(),
  raisedAt: z.string(),
  resolvedBy: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  resolvesWith: z.string().describe('the action that resolves it'),
});
export const CheckpointPage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(Checkpoint) });

export const WorkOrder = z.object({
  id: z.string(),
  dealId: z.string(),
  type: z.enum(WORK_ORDER_TYPES),
  state: z.enum(WORK_ORDER_STATES),
  assignee: z.string().nullable(),
  scheduledFor: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const TickResult = z.object({
  examined: z.number().int().describe('deals with at least one capability on'),
  accepted: z
    .array(z.object({ dealId: z.string(), venueId: z.string(), venueName: z.string(), score: z.number() }))
    .describe('shortlisting deals whose top venue the autopilot accepted alone (score ≥ autoApproveScore, under maxAutoApprove per UTC day)'),
  touches: z.array(z.string()).describe('deals whose outreach run sent a touch'),
  negotiationSteps: z.array(z.string()).describe('deals whose operator-started sandbox negotiation took a round'),
  reviewed: z.array(z.string()).describe('deals whose converged terms the autopilot reviewed (contracting on): now at lease_chat with lease_send'),
  shipped: z.array(z.string()).describe('deals whose shipment autopilot dispatched (sandbox)'),
  raised: z.array(z.object({ dealId: z.string(), kind: z.enum(CHECKPOINT_KINDS) })),
  waiting: z
    .array(z.object({ dealId: z.string(), stage: Stage, checkpoint: z.enum(CHECKPOINT_KINDS), reason: z.string() }))
    .describe('what the autopilot left to a person within its bounds (a venue it may not accept alone)'),
  gatesWaiting: z.array(z.object({ dealId: z.string(), stage: Stage, needs: z.string() })).describe('confirm gates autopilot cannot pass'),
  conflicts: z
    .array(z.object({ dealId: z.string(), message: z.string() }))
    .describe('deals that changed under the tick (a request in between): left for the next tick'),
  inventory: z
    .object({ examined: z.number().int(), queued: z.array(z.string()), pendingApproval: z.array(z.string()) })
    .describe('the inventory pass: supplier orders placed alone (queued) and those stopped at approval (inventory_cap)'),
});

const MachineYield = z.object({
  machineNo: z.string(),
  dealId: z.string(),
  capitalUsd: z.number(),
  revenueMtdUsd: z.number(),
  yieldPct: z.number().describe('month-to-date revenue / capital × 100'),
});
export const Portfolio = z.object({
  machinesOwned: z.number().int().describe('live done-for-you machines'),
  dealsInFlight: z.number().int(),
  dealsByStage: z.record(z.string(), z.number().int()),
  capitalValueUsd: z.number().describe('catalog price of the machines paid for and not refunded'),
  revenueMtdUsd: z.number(),
  costLines: z.array(z.object({ name: z.string(), usd: z.number(), estimate: z.boolean() })),
  netMtdUsd: z.number(),
  perMachineYield: z.array(MachineYield),
  checkpointInbox: z.object({ open: z.number().int(), byKind: z.record(z.string(), z.number().int()) }),
});
export const Securities = Portfolio.extend({
  machines: z.array(
    MachineYield.extend({
      poolFunded: z.boolean().describe('funded by the investment pool: the pool fee applies'),
      poolFeeMtdUsd: z.number().describe('the pool fee month to date (0 unless pool-funded), on the costs at estimate; part of profitMtdUsd'),
      profitMtdUsd: z.number(),
      profitActualMtdUsd: z.number(),
      hasEstimates: z.boolean(),
    }),
  ),
  profitMtdUsd: z.number(),
  profitActualMtdUsd: z.number(),
  hasEstimates: z.boolean(),
  fleetRollups: z.object({ machines: z.number().int(), revenueMtdUsd: z.number(), profitMtdUsd: z.number(), avgYieldPct: z.number() }),
  modeCounts: z.object({ auto: z.number().int(), hybrid: z.number().int(), manual: z.number().int() }),
});

export const StateMachine = z.object({
  name: z.string(),
  initial: z.string(),
  states: z.array(z.object({ name: z.string(), rank: z.number().int(), terminal: z.boolean(), raises: z.array(z.string()) })),
  transitions: z.array(
    z.object({
      from: z.string().nullable(),
      trigger: z.enum(TRIGGERS),
      to: z.string(),
      checkpoints: z.array(z.string()),
      blockedBy: z.array(z.string()),
      conditions: z.array(z.string()),
      confirmGate: z.boolean(),
      actors: z.array(z.string()),
      note: z.string(),
    }),
  ),
  triggers: z.array(z.object({ name: z.string(), confirmGate: z.boolean(), actors: z.array(z.string()) })),
  actions: z.array(
    z.object({
      name: z.string(),
      stages: z.array(z.string()),
      resolves: z.array(z.string()),
      confirmGate: z.boolean(),
      actors: z.array(z.string()),
      note: z.string(),
    }),
  ),
  checkpoints: z.array(
    z.object({ kind: z.string(), raisedAt: z.array(z.string()), raisedWhen: z.string(), resolvedBy: z.string(), acknowledgeable: z.boolean() }),
  ),
  rules: z.array(z.string()),
});
export const StateMachineParams = z.object({ name: z.enum(['dfy_deal']) });
