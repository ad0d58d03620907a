import { z } from 'zod';
import { PagingQuery } from '../../http/paging.ts';
import { OperatorEmail } from '../machines/machines.schemas.ts';
import { OPENOOH_ADCOM_TAXONOMY_ID, OPENOOH_TAXONOMY_VERSION } from '../machines/openooh-venues.ts';
import { ScreenView } from '../machines/screen.schemas.ts';

/** What a kiosk screen plays (the creative upload rules of spec 1 §8), as the export lists it. */
export const SCREEN_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'video/mp4'] as const;

export const InventoryQuery = PagingQuery.extend({
  // A page beyond the inventory answers an empty page; the cap keeps OFFSET inside every dialect's range.
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  operatorEmail: OperatorEmail.optional().describe('admin credentials only: one operator’s screens'),
});
export type InventoryInput = z.output<typeof InventoryQuery>;

export const DoohScreen = z.object({
  screenId: z.string().describe('the machine code (machineNo): stable and unique across operators'),
  machineNo: z.string(),
  name: z.string().describe('the machine’s name'),
  operatorEmail: z.string().nullable().optional().describe('admin credentials only; null for an unclaimed machine'),
  status: z.enum(['online', 'offline']).describe('online: the machine reported within the last 10 minutes'),
  lastSeen: z.string().nullable().describe('YYYY-MM-DDTHH:MM:SS.mmm+0000; null if never seen'),
  venue: z.object({
    name: z.string(),
    category: z.object({
      taxonomy: z.literal('OpenOOH Venue Taxonomy'),
      version: z.literal(OPENOOH_TAXONOMY_VERSION),
      adcomTaxonomyId: z.literal(OPENOOH_ADCOM_TAXONOMY_ID).describe('OpenRTB 2.6 dooh.venuetypetax'),
      id: z.number().int().describe('OpenOOH enumeration id (OpenRTB 2.6 dooh.venuetype)'),
      name: z.string().nullable().describe('null only if the id left the taxonomy'),
      fullName: z.string().nullable().describe('"Retail / Grocery / Check Out"'),
      idPath: z.array(z.number().int()).describe('OpenOOH venuetypelist: the ids from the parent down'),
    }),
  }),
  address: ScreenView.shape.address,
  geo: z
    .object({ lat: z.number(), lng: z.number(), source: z.enum(['screen', 'placement']) })
    .nullable()
    .describe('the screen’s own coordinates, else the machine’s placement; null when neither is known'),
  timeZone: z.string().nullable().describe('IANA zone of the machine; operating hours are local time there'),
  resolution: z.object({ width: z.number().int(), height: z.number().int() }),
  orientation: z.enum(['portrait', 'landscape', 'square']),
  panel: z.object({ diagonalInches: z.number() }),
  operatingHours: ScreenView.shape.operatingHours,
  openHoursPerWeek: z.number().describe('168 when open around the clock'),
  loop: z.object({
    slots: z.number().int(),
    slotSeconds: z.number().int(),
    loopSeconds: z.number().int().describe('slots × slotSeconds'),
    playsPerHour: z.number().describe('showings of one slot per open hour: 3600 / loopSeconds'),
  }),
  impressionsPerPlay: z.number(),
  minSpotSeconds: z.number().int().describe('the shortest spot: 5 s, the shortest slot a screen may have'),
  maxSpotSeconds: z.number().int().describe('the longest spot: one slot'),
  mediaTypes: z.array(z.enum(SCREEN_MEDIA_TYPES)),
});
export type DoohScreen = z.infer<typeof DoohScreen>;

export const DoohInventoryPage = z.object({
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
  records: z.array(DoohScreen),
});

// ---- the OpenOOH taxonomy listing (GET /api/v1/dooh/venue-types) ----

export const VenueTypeView = z.object({
  id: z.number().int(),
  name: z.string(),
  fullName: z.string().describe('names from the parent down: "Retail / Grocery / Check Out"'),
  tier: z.enum(['parent', 'child', 'grandchild']),
  parentId: z.number().int().nullable(),
  idPath: z.array(z.number().int()).describe('OpenOOH venuetypelist: the ids from the parent down'),
  slug: z.string().describe('the taxonomy’s string value (deprecated on the wire since 1.1)'),
  assignable: z.boolean().describe('whether a screen may be assigned this type (every type except a parent that has children)'),
});

export const VenueTypesView = z.object({
  taxonomy: z.literal('OpenOOH Venue Taxonomy'),
  version: z.literal(OPENOOH_TAXONOMY_VERSION),
  adcomTaxonomyId: z.literal(OPENOOH_ADCOM_TAXONOMY_ID).describe('AdCOM "DOOH Venue Taxonomies" value (OpenRTB 2.6 dooh.venuetypetax)'),
  records: z.array(VenueTypeView),
});
export type VenueTypesView = z.infer<typeof VenueTypesView>;
