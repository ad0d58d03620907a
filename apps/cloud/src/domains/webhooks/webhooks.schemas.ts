import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';
import { EVENT_TYPES } from './webhook-events.ts';

const TIMESTAMP = 'YYYY-MM-DDTHH:MM:SS.mmm+0000';

export const EndpointParams = z.object({ id: z.string().min(1).max(64) });

export const CreateEndpointBody = z.strictObject({
  url: z
    .string()
    .max(2048)
    .refine((u) => URL.canParse(u), 'must be an absolute URL')
    .meta({ format: 'uri' })
    .describe('http(s) URL the events are POSTed to; https only in production mode'),
  eventTypes: z
    .array(z.enum(EVENT_TYPES))
    .min(1)
    .max(EVENT_TYPES.length)
    .transform((ts) => [...new Set(ts)])
    .describe('the event types sent to this endpoint'),
  description: safeString({ trim: true }).max(255).optional(),
});
export type CreateEndpointBody = z.infer<typeof CreateEndpointBody>;

export const Endpoint = z.object({
  id: z.string(),
  url: z.string(),
  eventTypes: z.array(z.string()),
  description: z.string().nullable(),
  enabled: z.boolean().describe('false once the endpoint failed too many attempts in a row; POST …/enable turns it back on'),
  consecutiveFailures: z.number().int(),
  disabledAt: z.string().nullable().describe(TIMESTAMP),
  createdAt: z.string().describe(TIMESTAMP),
});
export type Endpoint = z.infer<typeof Endpoint>;
export const EndpointList = z.array(Endpoint);

export const EndpointWithSecret = Endpoint.extend({
  secret: z.string().describe('the signing secret: shown only in this answer (create, rotate), never again'),
});
export type EndpointWithSecret = z.infer<typeof EndpointWithSecret>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

export const Delivery = z.object({
  id: z.string(),
  eventId: z.string().describe('the event id the body carries (`id`): the receiver de-duplicates on it'),
  type: z.string(),
  status: z.enum(DELIVERY_STATUSES).describe('pending (not yet delivered, retrying), delivered (2xx), failed (24 h of retries ran out)'),
  attempts: z.number().int(),
  responseCode: z.number().int().nullable().describe("the last attempt's HTTP status; null when no response came"),
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable().describe(`${TIMESTAMP}; null unless pending`),
  lastAttemptAt: z.string().nullable().describe(TIMESTAMP),
  createdAt: z.string().describe(TIMESTAMP),
});
export type Delivery = z.infer<typeof Delivery>;

export const DeliveriesQuery = PagingQuery.extend({ status: z.enum(DELIVERY_STATUSES).optional() });

export const DeliveryPage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(Delivery) });
