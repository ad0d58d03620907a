import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { CHANNELS } from './channels/channel.ts';
import { SCRIPT_KINDS } from './scripts.ts';
import { isValidTimeZone } from './outreach.rules.ts';

const text = (max: number) => safeString({ trim: true }).min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const id = z.string().min(1).max(64);

export const DealParams = z.object({ dealId: id });
export const TokenParams = z.object({ token: z.string().min(16).max(128) });

export const DirectoryVenueInput = z.strictObject({
  name: text(200),
  address: text(255).nullable().default(null),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  vertical: text(60).describe('e.g. gym, office, laundromat, school, hospital'),
  timeZone: text(64)
    .refine(isValidTimeZone, 'must be an IANA time zone, e.g. America/New_York')
    .describe('the venue’s IANA time zone: voice and text only 9:00–20:00 there'),
  email: z.email().max(254).nullable().default(null),
  phone: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 number, e.g. +12125550100')
    .nullable()
    .default(null),
  dailyVisitors: z.number().int().min(0).max(1_000_000),
});

export const ImportBody = z.strictObject({
  venues: z.array(DirectoryVenueInput).min(1, 'at least one venue').max(500, 'at most 500 venues per import'),
});
export const ImportResult = z.object({ created: z.number().int(), updated: z.number().int(), total: z.number().int() });

export const DirectoryVenue = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  lat: z.number(),
  lng: z.number(),
  vertical: z.string(),
  timeZone: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  dailyVisitors: z.number().int(),
});
export const DirectoryPage = z.object({ total: z.number().int(), records: z.array(DirectoryVenue) });

export const ShortlistQuery = z.object({
  lat: z.coerce.number().min(-90).max(90).optional(),
  lng: z.coerce.number().min(-180).max(180).optional(),
  vertical: z.string().min(1).max(60).optional(),
  size: z.coerce.number().int().min(1).max(50).default(10),
});
export const Shortlist = z.object({
  dealId: z.string(),
  records: z.array(DirectoryVenue.extend({ score: z.number(), distanceKm: z.number().nullable() })),
});
export const ShortlistAcceptBody = z.strictObject({ venueId: id });

export const StartBody = z.strictObject({
  channelOrder: z
    .array(z.enum(CHANNELS))
    .min(1)
    .max(CHANNELS.length)
    .refine((a) => new Set(a).size === a.length, 'channels must be distinct')
    .optional()
    .describe('the rotation order for this deal; default email, sms, voice'),
  venueId: id.optional().describe('a directory venue, for a deal that reached outreach without one (a pre-order with its venue named)'),
});

export const Rendered = z.object({
  channel: z.enum(CHANNELS),
  scriptId: z.string(),
  scriptVersion: z.string(),
  subject: z.string().nullable(),
  body: z.string(),
  unsubscribeUrl: z.string().nullable(),
});

const Reason = z.enum(['no_contact', 'not_configured', 'opted_out', 'outside_window', 'frequency_cap']);

export const Preview = z.object({
  dealId: z.string(),
  stage: z.string(),
  scriptKind: z.enum(SCRIPT_KINDS),
  scriptVersion: z.string(),
  channels: z.array(z.object({ channel: z.enum(CHANNELS), to: z.string().nullable(), eligibleNow: z.boolean(), reason: Reason.nullable(), message: Rendered })),
});

export const StepResult = z.object({
  dealId: z.string(),
  touch: z
    .object({
      messageId: z.string(),
      channel: z.enum(CHANNELS),
      to: z.string(),
      scriptId: z.string(),
      scriptVersion: z.string(),
      status: z.string(),
    })
    .nullable(),
  waiting: z
    .object({
      reason: z.enum(['cadence', 'reply_review', 'no_channel_now', 'no_channel']),
      until: z.string().nullable().describe('YYYY-MM-DDTHH:MM:SS.mmm+0000: the cadence’s next slot'),
    })
    .nullable(),
  skipped: z.array(z.object({ channel: z.enum(CHANNELS), reason: Reason })),
});

export const DraftBody = z.strictObject({ senderName: text(100).optional() });
export const Draft = z.object({ subject: z.string(), body: z.string(), scriptId: z.string(), scriptVersion: z.string(), to: z.string().nullable() });

/** The provider's form-encoded callbacks (Twilio-style field names). */
export const StatusCallback = z.object({
  MessageSid: z.string().min(1).max(128).optional(),
  CallSid: z.string().min(1).max(128).optional(),
  MessageStatus: z.string().min(1).max(40).optional(),
  CallStatus: z.string().min(1).max(40).optional(),
});
export const InboundCallback = z.object({
  Channel: z.enum(['sms', 'email']).default('sms'),
  From: z.string().min(1).max(254),
  Body: z.string().max(10_000).default(''),
});
export const CallbackResult = z.object({ accepted: z.boolean(), dealId: z.string().nullable(), effect: z.string() });
