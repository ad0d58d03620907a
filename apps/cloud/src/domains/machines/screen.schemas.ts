import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { childrenOf, isAssignable, OPENOOH_TAXONOMY_VERSION, VENUE_TYPES, venueTypeById } from './openooh-venues.ts';
import { checkHours, DAYS, isCountryCode, ISO_3166_ALPHA2, normalizeCity, normalizePostalCode } from './screen.rules.ts';

/**
 * The screen block of a machine (spec 1 §2.1 `screen`): the advertising screen's panel, resolution,
 * venue, address, geo, operating hours, loop shape, impressions-per-play estimate and OpenOOH venue
 * category. `ScreenBody` is what an operator PUTs (defaults filled, text normalised, rules checked:
 * wrong types 422, out-of-rule values 400); `ScreenView` is the block as stored and shown.
 */

/** Loop shape when the operator sets none (spec 1 §8: 8 slots × 15 s; one slot ≈ 12.5 % of screen time). */
export const DEFAULT_LOOP = Object.freeze({ slots: 8, slotSeconds: 15 });
export const LOOP_SLOTS = { min: 1, max: 24 } as const;
export const SLOT_SECONDS = { min: 5, max: 60 } as const;
/**
 * Impressions per play when the operator gives no estimate: one person sees each showing. A
 * conservative floor for a kiosk's attract screen until the venue's footfall is measured.
 */
export const DEFAULT_IMPRESSIONS_PER_PLAY = 1;

/** Single-line text, trimmed, no control characters, 1..max characters. */
const required = (field: string, max: number) =>
  safeString({ trim: true }).min(1, `${field} must not be empty`).max(max, `${field} must be at most ${max} characters`);
/** Optional single-line text: absent, null or empty is null. */
const optional = (field: string, max: number) =>
  safeString({ trim: true })
    .max(max, `${field} must be at most ${max} characters`)
    .nullish()
    .transform((s) => (s ? s : null));

const HHMM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const HHMM_OR_24 = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;
const Interval = z.strictObject({
  open: z.string().regex(HHMM, 'open must be a time HH:MM between 00:00 and 23:59'),
  close: z.string().regex(HHMM_OR_24, 'close must be a time HH:MM between 00:00 and 24:00'),
});
const Day = z.array(Interval).max(4, 'at most 4 opening intervals a day');

/** Postal codes as typed, trimmed and uppercased: letters, digits, spaces and hyphens. */
const POSTAL_CODE = /^[A-Z0-9](?:[A-Z0-9 -]*[A-Z0-9])?$/;

const Address = z.strictObject({
  line1: required('address.line1', 255),
  line2: optional('address.line2', 255),
  city: required('address.city', 100).transform(normalizeCity),
  region: optional('address.region', 100),
  postalCode: optional('address.postalCode', 16)
    .describe('letters, digits, spaces and hyphens; stored trimmed and uppercased')
    // as typed: a letter or digit at each end (the service trims, collapses spaces and uppercases first)
    .meta({ pattern: '^[A-Za-z0-9](?:[A-Za-z0-9 -]*[A-Za-z0-9])?$' })
    .transform((s) => (s === null ? null : normalizePostalCode(s)))
    .refine((s) => s === null || POSTAL_CODE.test(s), 'address.postalCode must be letters, digits, spaces and hyphens'),
  country: z
    .string()
    .transform((s) => s.trim().toUpperCase())
    .refine(isCountryCode, 'address.country must be an ISO 3166-1 alpha-2 country code such as "US" or "GB"')
    // the document names the codes as stored; the service also takes them in lower case and with spaces around
    .meta({ enum: [...ISO_3166_ALPHA2] })
    .describe('ISO 3166-1 alpha-2 (any case; stored uppercased)'),
});

const Geo = z
  .strictObject({
    lat: z.number().min(-90, 'geo.lat must be between -90 and 90').max(90, 'geo.lat must be between -90 and 90'),
    lng: z.number().min(-180, 'geo.lng must be between -180 and 180').max(180, 'geo.lng must be between -180 and 180'),
  })
  .refine((g) => g.lat !== 0 || g.lng !== 0, 'geo 0,0 is not a location (it is the default of an unset GPS fix)')
  .transform((g) => ({ lat: g.lat === 0 ? 0 : g.lat, lng: g.lng === 0 ? 0 : g.lng }));

const OperatingHours = z
  .strictObject(Object.fromEntries(DAYS.map((d) => [d, Day.optional()])) as Record<(typeof DAYS)[number], z.ZodOptional<typeof Day>>)
  .superRefine((hours, ctx) => {
    for (const issue of checkHours(hours)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  })
  // at least one day (its spans, and their overlaps, are the description's to say)
  .meta({ minProperties: 1 })
  .transform(
    (hours) =>
      Object.fromEntries(DAYS.map((d) => [d, [...(hours[d] ?? [])].sort((a, b) => a.open.localeCompare(b.open))])) as Record<
        (typeof DAYS)[number],
        { open: string; close: string }[]
      >,
  );

const Loop = z
  .strictObject({
    slots: z
      .number()
      .int()
      .min(LOOP_SLOTS.min, `loop.slots must be between ${LOOP_SLOTS.min} and ${LOOP_SLOTS.max}`)
      .max(LOOP_SLOTS.max, `loop.slots must be between ${LOOP_SLOTS.min} and ${LOOP_SLOTS.max}`)
      .default(DEFAULT_LOOP.slots),
    slotSeconds: z
      .number()
      .int()
      .min(SLOT_SECONDS.min, `loop.slotSeconds must be between ${SLOT_SECONDS.min} and ${SLOT_SECONDS.max}`)
      .max(SLOT_SECONDS.max, `loop.slotSeconds must be between ${SLOT_SECONDS.min} and ${SLOT_SECONDS.max}`)
      .default(DEFAULT_LOOP.slotSeconds),
  })
  .default({ ...DEFAULT_LOOP });

const VenueCategoryId = z
  .number()
  .int()
  .superRefine((id, ctx) => {
    const v = venueTypeById(id);
    if (!v) {
      ctx.addIssue({
        code: 'custom',
        message: `venueCategoryId ${id} is not an OpenOOH ${OPENOOH_TAXONOMY_VERSION} venue type (GET /api/v1/dooh/venue-types lists them)`,
      });
    } else if (!isAssignable(v)) {
      const some = childrenOf(id)
        .slice(0, 3)
        .map((c) => `${c.id} ${c.name}`)
        .join(', ');
      ctx.addIssue({
        code: 'custom',
        message: `venueCategoryId ${id} (${v.name}) is a parent category; OpenOOH assigns a screen to one of its child types (${some}, …)`,
      });
    }
  })
  // the document lists the assignable ids (GET /api/v1/dooh/venue-types names them)
  .meta({ enum: VENUE_TYPES.filter(isAssignable).map((v) => v.id) });

/** PUT /api/v1/machines/{machineNo}/screen: the whole block (it replaces the one stored). */
export const ScreenBody = z.strictObject({
  panel: z.strictObject({
    diagonalInches: z.number().min(5, 'panel.diagonalInches must be between 5 and 400').max(400, 'panel.diagonalInches must be between 5 and 400'),
  }),
  resolution: z.strictObject({
    width: z
      .number()
      .int()
      .min(120, 'resolution.width must be between 120 and 16384 pixels')
      .max(16384, 'resolution.width must be between 120 and 16384 pixels'),
    height: z
      .number()
      .int()
      .min(120, 'resolution.height must be between 120 and 16384 pixels')
      .max(16384, 'resolution.height must be between 120 and 16384 pixels'),
  }),
  venueName: required('venueName', 100),
  address: Address,
  geo: Geo.nullable().default(null).describe('the screen’s own coordinates; null: the machine’s placement coordinates stand in'),
  operatingHours: OperatingHours.nullable()
    .default(null)
    .describe(
      'local wall-clock hours in the machine’s timeZone, per day (mon…sun); a day left out is closed; close before open runs past midnight; null: open around the clock',
    ),
  loop: Loop.describe(`slots × slotSeconds; default ${DEFAULT_LOOP.slots} × ${DEFAULT_LOOP.slotSeconds} s`),
  impressionsPerPlay: z
    .number()
    .min(0, 'impressionsPerPlay must be between 0 and 10000')
    .max(10000, 'impressionsPerPlay must be between 0 and 10000')
    .refine((n) => Number(n.toFixed(2)) === n, 'impressionsPerPlay must have at most 2 decimals')
    .meta({ multipleOf: 0.01 })
    .default(DEFAULT_IMPRESSIONS_PER_PLAY)
    .describe(`estimated viewers per showing; default ${DEFAULT_IMPRESSIONS_PER_PLAY}`),
  venueCategoryId: VenueCategoryId.describe(`OpenOOH ${OPENOOH_TAXONOMY_VERSION} venue type id (a child or grandchild type)`),
});
export type ScreenInput = z.output<typeof ScreenBody>;

// ---- the block as stored and shown ----

const IntervalView = z.object({ open: z.string(), close: z.string() });

export const ScreenView = z.object({
  panel: z.object({ diagonalInches: z.number() }),
  resolution: z.object({ width: z.number().int(), height: z.number().int() }),
  venueName: z.string(),
  address: z.object({
    line1: z.string(),
    line2: z.string().nullable(),
    city: z.string().describe('trimmed, inner spaces collapsed'),
    region: z.string().nullable(),
    postalCode: z.string().nullable().describe('as typed, trimmed and uppercased'),
    country: z.string().describe('ISO 3166-1 alpha-2'),
  }),
  geo: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  operatingHours: z
    .object({
      mon: z.array(IntervalView),
      tue: z.array(IntervalView),
      wed: z.array(IntervalView),
      thu: z.array(IntervalView),
      fri: z.array(IntervalView),
      sat: z.array(IntervalView),
      sun: z.array(IntervalView),
    })
    .nullable()
    .describe('every day listed, [] = closed; null = open around the clock'),
  loop: z.object({ slots: z.number().int(), slotSeconds: z.number().int() }),
  impressionsPerPlay: z.number(),
  venueCategoryId: z.number().int(),
});
/** The screen block of a machine, as stored in `machines.screen_json` and shown as the machine's `screen`. */
export type ScreenBlock = z.infer<typeof ScreenView>;
