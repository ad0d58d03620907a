import { z } from 'zod';
import { describeSerialFaults, NO_UNSAFE_CHARS, NO_UNSAFE_CHARS_BREAKS_ALLOWED, SERIAL_MAX, SERIAL_MIN } from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';
import { ScreenView } from './screen.schemas.ts';

/** A trimmed single-line text field of at most `max` characters (spec 1 §8). */
export const line = (field: string, max: number) =>
  z.string().trim().max(max, `${field} must be at most ${max} characters`).regex(NO_UNSAFE_CHARS, `${field} must not contain control characters`);

/** Free text (tabs and line breaks allowed) of at most `max` characters. */
const text = (field: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .regex(NO_UNSAFE_CHARS_BREAKS_ALLOWED, `${field} must not contain control characters`);

/** Plain decimal degrees: optional sign, up to three integer digits, up to ten decimals. No exponents, no spaces. */
const DECIMAL_DEGREES = /^[+-]?\d{1,3}(\.\d{1,10})?$/;

/** The same, within the bound, as the document states it: latitude to ±90, longitude to ±180 (leading zeros allowed). */
const DEGREES_WITHIN = {
  lat: '^[+-]?(?:0?90(?:\\.0{1,10})?|0?[0-8]?\\d(?:\\.\\d{1,10})?)$',
  lng: '^[+-]?(?:180(?:\\.0{1,10})?|(?:1[0-7]\\d|0?\\d{1,2})(?:\\.\\d{1,10})?)$',
} as const;

/** `lat`/`lng` arrive as strings of decimal degrees (spec 1 §2.1) and leave this schema as finite numbers. */
export const degrees = (field: 'lat' | 'lng') => {
  const bound = field === 'lat' ? 90 : 180;
  return z
    .string()
    .meta({ pattern: DEGREES_WITHIN[field] })
    .transform((s, ctx) => {
      const n = Number(s);
      if (!DECIMAL_DEGREES.test(s) || !Number.isFinite(n) || Math.abs(n) > bound) {
        ctx.addIssue({ code: 'custom', message: `${field} must be decimal degrees between -${bound} and ${bound} (a string such as "40.7506")` });
        return z.NEVER;
      }
      return n === 0 ? 0 : n; // no negative zero
    });
};

/** Letters first, then letters, digits, `_`, `+`, `-`, in `/`-separated parts: refuses offsets such as `+01:00`. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** The canonical IANA name of a zone, or null when it is not one this runtime knows. */
export function canonicalTimeZone(name: string): string | null {
  if (name.length > 64 || !ZONE_NAME.test(name)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const timeZone = z.string().transform((s, ctx) => {
  const zone = canonicalTimeZone(s);
  if (zone === null) {
    ctx.addIssue({
      code: 'custom',
      message: `timeZone must be an IANA zone name such as "Europe/London" (at most 64 characters); "${s.slice(0, 64)}" is not one`,
    });
    return z.NEVER;
  }
  return zone;
});

/** A percentage 0–100 with at most four decimals (8.875 means 8.875 %). */
export const salesTaxRate = z
  .number()
  .min(0, 'salesTaxRate must be a percentage between 0 and 100')
  .max(100, 'salesTaxRate must be a percentage between 0 and 100')
  .refine((n) => Number(n.toFixed(4)) === n, 'salesTaxRate must have at most 4 decimals')
  .meta({ multipleOf: 0.0001 });

/** An operator's email as a filter or owner (admin credentials). */
export const OperatorEmail = z
  .string()
  .trim()
  .min(1, 'operatorEmail must not be empty')
  .max(254, 'operatorEmail must be at most 254 characters')
  .regex(NO_UNSAFE_CHARS, 'operatorEmail must not contain control characters');

/** A claimable serial (spec 1 §8): the document states the rule as a pattern; the message names every fault. */
export const MachineNo = z
  .string()
  .superRefine((s, ctx) => {
    const fault = describeSerialFaults(s);
    if (fault) ctx.addIssue({ code: 'custom', message: fault });
  })
  .meta({ pattern: `^[A-Za-z0-9-]{${SERIAL_MIN},${SERIAL_MAX}}$` });

export const MachineNoParams = z.object({ machineNo: z.string() });

export const RegisterBody = z.strictObject({
  machineNo: MachineNo,
  name: line('name', 100).pipe(z.string().min(1, 'name must not be empty')).optional(),
  location: line('location', 255).optional(),
  lat: degrees('lat').optional(),
  lng: degrees('lng').optional(),
  operatorEmail: OperatorEmail.optional(),
});
export type RegisterInput = z.output<typeof RegisterBody>;

export const UpdateBody = z.strictObject({
  name: line('name', 100).pipe(z.string().min(1, 'name must not be empty')).optional(),
  notes: text('notes', 255).nullable().optional(),
  location: line('location', 255).optional(),
  lat: degrees('lat').optional(),
  lng: degrees('lng').optional(),
  address: line('address', 255).pipe(z.string().min(1, 'address must not be empty')).optional(),
  placeId: line('placeId', 128).pipe(z.string().min(1, 'placeId must not be empty')).optional(),
  timeZone: timeZone.nullable().optional(),
  salesTaxRate: salesTaxRate.nullable().optional(),
  venueId: line('venueId', 64).pipe(z.string().min(1, 'venueId must not be empty')).nullable().optional(),
});
export type UpdateInput = z.output<typeof UpdateBody>;

export const RetryGeocodeBody = z.strictObject({
  address: line('address', 255).pipe(z.string().min(1, 'address must not be empty')).optional(),
});
export type RetryGeocodeInput = z.output<typeof RetryGeocodeBody>;

export const ListQuery = PagingQuery.extend({
  // A page beyond any fleet answers an empty page; the cap keeps OFFSET inside every dialect's range.
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  status: z.enum(['online', 'offline']).optional(),
  operatorEmail: OperatorEmail.optional(),
});
export type ListInput = z.output<typeof ListQuery>;

// ---- responses (spec 1 §2.1) ----

export const GeocodeStatus = z.enum(['resolved', 'not_found', 'provider_error', 'skipped']);

export const Geo = z.object({
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  address: z.string().describe('the location label'),
  placeId: z.string().nullable(),
  geocodeStatus: GeocodeStatus.optional().describe('absent when the machine was never geocoded'),
  geocodeDetail: z.string().optional(),
  geocodeRetryable: z.boolean().optional().describe('true only for provider_error and skipped'),
});

export const PaymentTerminal = z.object({
  terminalId: z.string(),
  merchantAccount: z.string(),
  provider: z.string(),
  boundAt: z.string().describe('YYYY-MM-DDTHH:MM:SS.mmm+0000'),
});

export const Machine = z.object({
  id: z.string(),
  machineNo: z.string(),
  name: z.string(),
  status: z.enum(['online', 'offline']),
  lastSeen: z.string().nullable().describe('YYYY-MM-DDTHH:MM:SS.mmm+0000; null if never seen'),
  location: z.string(),
  lat: z.string().nullable(),
  lng: z.string().nullable(),
  geo: Geo,
  notes: z.string().nullable(),
  expireDate: z.string().nullable(),
  rentState: z.number().int(),
  operatorEmail: z.string().nullable().optional().describe('admin credentials only; null for an unclaimed machine'),
  timeZone: z.string().nullable(),
  address: z.string().nullable(),
  placeId: z.string().nullable(),
  salesTaxRate: z.number().nullable().describe('percent, e.g. 8.875'),
  venueId: z.string().nullable(),
  screen: ScreenView.nullable().describe('the advertising screen block (PUT /api/v1/machines/{machineNo}/screen); null when never set'),
  software: z.object({
    agentVersion: z.string().nullable(),
    platform: z.string().nullable(),
    vmcVersion: z.string().nullable(),
    apkVersion: z.string().nullable(),
  }),
  paymentTerminal: PaymentTerminal.nullable(),
});
export type MachineView = z.infer<typeof Machine>;

/** What recording `salesTaxRate` did to the machine's order history (docs/decisions/finance.md "Tax"). */
export const TaxRestatement = z.object({
  restatedOrders: z.number().int().describe('orders in open periods whose rate changed: their netCents and tax follow, chargedCents never'),
  pinnedOrders: z.number().int().describe('unstamped orders in closed periods stamped at the rate they were reported at, so the new rate cannot reach them'),
  blockedPeriods: z
    .array(z.object({ period: z.string(), reason: z.enum(['remitted', 'paid_out']), orders: z.number().int() }))
    .describe('closed periods left unchanged (also listed at GET /api/v1/tax/restatements-blocked)'),
});
export type TaxRestatementView = z.infer<typeof TaxRestatement>;

/** The PATCH/PUT answer: the machine, plus `taxRestatement` when the request changed `salesTaxRate`. */
export const UpdatedMachine = Machine.extend({
  taxRestatement: TaxRestatement.optional().describe('present only when this request changed salesTaxRate'),
});
export type UpdatedMachineView = z.infer<typeof UpdatedMachine>;

export const MachinePage = z.object({
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
  records: z.array(Machine),
});
