import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { emailLine } from '../auth/auth.schemas.ts';
import { PagingQuery } from '../../http/paging.ts';
import { isKnownZone } from '../calendar/local-time.ts';
import { ALERTABLE_TYPES } from './alerts.rules.ts';

const TIMESTAMP = 'YYYY-MM-DDTHH:MM:SS.mmm+0000';
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM (00:00–23:59)');

export const RuleParams = z.object({ id: z.string().min(1).max(64) });
export const AlertParams = RuleParams;

export const RuleScope = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('fleet') }),
  z.strictObject({ kind: z.literal('machine'), machineNo: z.string().min(1).max(32) }),
  z.strictObject({ kind: z.literal('group'), groupId: z.string().min(1).max(64).describe('an access group of the operator') }),
]);

export const CreateRuleBody = z.strictObject({
  name: safeString({ trim: true }).min(1, 'must not be empty').max(100),
  eventTypes: z
    .array(z.enum(ALERTABLE_TYPES as [string, ...string[]]))
    .min(1)
    .transform((ts) => [...new Set(ts)]),
  scope: RuleScope.default({ kind: 'fleet' }),
  quietHours: z
    .strictObject({ start: clock, end: clock })
    .optional()
    .describe('local HH:MM in timeZone; alerts raised inside are notified when they end (a window may span midnight)'),
  timeZone: z
    .string()
    .max(64)
    .refine((tz) => isKnownZone(tz), 'unknown time zone')
    .default('UTC'),
  webhook: z.boolean().default(true).describe("send alert.opened / alert.cleared to the operator's endpoints subscribed to them"),
  emails: z.array(emailLine()).max(10).default([]),
});
export type CreateRuleBody = z.infer<typeof CreateRuleBody>;

export const Rule = z.object({
  id: z.string(),
  name: z.string(),
  eventTypes: z.array(z.string()),
  scope: RuleScope,
  quietHours: z.object({ start: z.string(), end: z.string() }).nullable(),
  timeZone: z.string(),
  webhook: z.boolean(),
  emails: z.array(z.string()),
  createdAt: z.string().describe(TIMESTAMP),
});
export type Rule = z.infer<typeof Rule>;
export const RuleList = z.array(Rule);

export const ALERT_STATES = ['open', 'clearing', 'cleared', 'resolved'] as const;

export const Alert = z.object({
  id: z.string(),
  ruleId: z.string(),
  condition: z.string().describe('what the alert is about; at most one open alert per rule and condition'),
  type: z.string().describe('the event type that raised it'),
  machineNo: z.string().nullable(),
  state: z.enum(ALERT_STATES).describe('open; clearing (cleared, closes after 30 min unless it returns); cleared; resolved (closed by hand)'),
  occurrences: z.number().int().describe('how many times the condition was raised while this alert was live'),
  data: z.record(z.string(), z.unknown()).describe("the raising event's data (the latest occurrence)"),
  openedAt: z.string().describe(TIMESTAMP),
  notifiedAt: z.string().nullable().describe(TIMESTAMP),
  clearedAt: z.string().nullable().describe(TIMESTAMP),
});
export type Alert = z.infer<typeof Alert>;

export const AlertsQuery = PagingQuery.extend({ state: z.enum(ALERT_STATES).optional() });
export const AlertPage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(Alert) });
