import { z } from 'zod';
import { SERIAL_MAX, SERIAL_MIN, safeString } from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';

export const COMMAND_STATUSES = ['pending', 'acknowledged', 'failed', 'expired'] as const;

/** Highest aisle number accepted in a request (a cabinet has at most rows × columnsPerRow lanes; far below this). */
export const MAX_AISLE_NO = 9999;

/** Free text: trimmed, 1..max characters, tabs and line breaks allowed, nothing PostgreSQL cannot store. */
const text = (max: number) => safeString({ allowBreaks: true, trim: true }).min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** A single-line token: no control characters at all. */
const token = (max: number) => safeString({ trim: true }).min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

export const ExternalRef = token(128);
const MachineNo = z
  .string()
  .regex(/^[A-Za-z0-9-]*$/, 'must be letters, digits, hyphens only')
  .min(SERIAL_MIN, `must be ${SERIAL_MIN}–${SERIAL_MAX} characters`)
  .max(SERIAL_MAX, `must be ${SERIAL_MIN}–${SERIAL_MAX} characters`);
const AisleNo = z.number().int().min(1, 'must be 1 or more').max(MAX_AISLE_NO, `must be at most ${MAX_AISLE_NO}`);
const Reason = text(255);

export const MachineParams = z.object({ machineNo: z.string().max(200) });
export const CommandParams = z.object({ machineNo: z.string().max(200), commandId: z.string().max(200) });

/** POST /machines/{machineNo}/commands/dispense. `externalRef` optional: without one every request is a new drop. */
export const DispenseBody = z.object({
  aisleNo: AisleNo,
  reason: Reason,
  externalRef: ExternalRef.nullish(),
});

/** First pass over a fulfil body: only the channel, which decides the scope. */
export const FulfillChannel = z.object({ channel: z.string().pipe(z.enum(['walkup', 'api_drop'])) });
export const WalkupBody = z.object({ channel: z.literal('walkup'), machineNo: MachineNo });
/** An integration call: `externalRef` is required here, so a retried request never drops twice. */
export const ApiDropBody = z.object({ channel: z.literal('api_drop'), machineNo: MachineNo, aisleNo: AisleNo, reason: Reason, externalRef: ExternalRef });
export const FulfillBody = z.discriminatedUnion('channel', [WalkupBody, ApiDropBody]);

/** The agent's ack: `success` decides; `outcome` is the agent's outcome code (e.g. `success`, `motor_jam`). */
export const AckBody = z.object({
  success: z.boolean(),
  outcome: token(64),
  detail: safeString({ allowBreaks: true }).max(1000, 'must be at most 1000 characters').default(''),
});

export const ListQuery = PagingQuery.extend({
  status: z.enum(COMMAND_STATUSES).optional(),
  externalRef: ExternalRef.optional(),
});

export const CommandData = z.object({
  commandId: z.string(),
  machineNo: z.string(),
  channel: z.literal('api_drop'),
  aisleNo: z.number().int(),
  reason: z.string(),
  externalRef: z.string().nullable(),
  status: z.enum(COMMAND_STATUSES),
  outcome: z.string().nullable(),
  detail: z.string().nullable(),
  orderNumber: z.string().nullable(),
  createdAt: z.string(),
  ackedAt: z.string().nullable(),
  expiredAt: z.string().nullable(),
});
export type CommandView = z.infer<typeof CommandData>;

export const EnqueueData = CommandData.extend({ duplicate: z.boolean() });
export const OrderSummary = z.object({
  orderNumber: z.string(),
  payStatus: z.string(),
  paidPrice: z.number(),
  chargedCents: z.number().int(),
  channel: z.string(),
  payMethod: z.string(),
});
export const AckData = CommandData.extend({ alreadyAcknowledged: z.boolean(), order: OrderSummary.nullable() });
export const FulfillData = z.union([
  z.object({ channel: z.literal('walkup'), machineNo: z.string(), dispense: z.literal(false), detail: z.string() }),
  EnqueueData.extend({ dispense: z.literal(true) }),
]);
export const CommandPage = z.object({ page: z.number(), size: z.number(), total: z.number(), records: z.array(CommandData) });
