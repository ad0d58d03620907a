import type { Clock } from '@vend/protocol';
import type { AppStore } from '../../repos.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import { AppError } from '../../http/errors.ts';
import { offsetOf, type Page } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { ScreenRecord } from '../machines/machines.repo.ts';
import { isAssignable, OPENOOH_ADCOM_TAXONOMY_ID, OPENOOH_TAXONOMY_VERSION, VENUE_TYPES, venueTypeById } from '../machines/openooh-venues.ts';
import { DAYS, minutesOf } from '../machines/screen.rules.ts';
import { SLOT_SECONDS } from '../machines/screen.schemas.ts';
import { screenOf, type ScreenBlock } from '../machines/screen.ts';
import { SCREEN_MEDIA_TYPES, type DoohScreen, type InventoryInput, type VenueTypesView } from './dooh.schemas.ts';

/** Unseen for longer than this, a machine's screen is offline whatever its last status said (spec 1 §8: about 10 minutes). */
export const SCREEN_OFFLINE_AFTER_MS = 10 * 60_000;

export interface DoohInventoryDeps {
  store: AppStore;
  clock: Clock;
}

/** Open hours in a week: 168 when open around the clock (an overnight interval counts up to its close). */
export function openHoursPerWeek(hours: ScreenBlock['operatingHours']): number {
  if (hours === null) return 168;
  let minutes = 0;
  for (const day of DAYS) {
    for (const iv of hours[day]) {
      const open = minutesOf(iv.open);
      const close = minutesOf(iv.close);
      minutes += close > open ? close - open : close + 1440 - open;
    }
  }
  return Math.round((minutes / 60) * 100) / 100;
}

/** One machine of the screen inventory as an SSP onboarding file shows it; null when its stored block is unreadable. */
export function toDoohScreen(r: ScreenRecord, now: number, admin: boolean): DoohScreen | null {
  const screen = screenOf(r);
  if (!screen) return null;
  const category = venueTypeById(screen.venueCategoryId);
  const { width, height } = screen.resolution;
  const loopSeconds = screen.loop.slots * screen.loop.slotSeconds;
  const placed = r.lat !== null && r.lng !== null && (r.lat !== 0 || r.lng !== 0);
  return {
    screenId: r.machine_no,
    machineNo: r.machine_no,
    name: r.name,
    ...(admin ? { operatorEmail: r.operator_email } : {}),
    status: r.status === 'online' && r.last_seen !== null && now - r.last_seen <= SCREEN_OFFLINE_AFTER_MS ? 'online' : 'offline',
    lastSeen: formatTimestamp(r.last_seen),
    venue: {
      name: screen.venueName,
      category: {
        taxonomy: 'OpenOOH Venue Taxonomy',
        version: OPENOOH_TAXONOMY_VERSION,
        adcomTaxonomyId: OPENOOH_ADCOM_TAXONOMY_ID,
        id: screen.venueCategoryId,
        name: category?.name ?? null,
        fullName: category?.fullName ?? null,
        idPath: category ? [...category.idPath] : [screen.venueCategoryId],
      },
    },
    address: screen.address,
    geo: screen.geo ? { ...screen.geo, source: 'screen' } : placed ? { lat: r.lat!, lng: r.lng!, source: 'placement' } : null,
    timeZone: r.time_zone,
    resolution: { width, height },
    orientation: width === height ? 'square' : width < height ? 'portrait' : 'landscape',
    panel: screen.panel,
    operatingHours: screen.operatingHours,
    openHoursPerWeek: openHoursPerWeek(screen.operatingHours),
    loop: { ...screen.loop, loopSeconds, playsPerHour: Math.round((3600 / loopSeconds) * 100) / 100 },
    impressionsPerPlay: screen.impressionsPerPlay,
    minSpotSeconds: Math.min(SLOT_SECONDS.min, screen.loop.slotSeconds),
    maxSpotSeconds: screen.loop.slotSeconds,
    mediaTypes: [...SCREEN_MEDIA_TYPES],
  };
}

/**
 * The DOOH screen inventory (spec 1 §4.7 `GET /api/v1/dooh/inventory`): every machine of the caller
 * (admin: of everyone, or of `operatorEmail`) that has a screen block and is not retired, in a shape a
 * supply-side platform can onboard: OpenOOH venue ids, geo, loop, impressions per play.
 */
export class DoohInventoryService {
  constructor(private readonly deps: DoohInventoryDeps) {}

  async inventory(p: Principal, q: InventoryInput): Promise<Page<DoohScreen>> {
    if (q.operatorEmail !== undefined && !p.admin) throw new AppError('forbidden', 'The operatorEmail filter is for admin credentials only');
    const { total, records } = await this.deps.store.repos.machines.screens(
      { operatorId: ownerFilter(p), operatorEmail: q.operatorEmail },
      q.size,
      offsetOf(q),
    );
    const now = this.deps.clock.now();
    return { page: q.page, size: q.size, total, records: records.flatMap((r) => toDoohScreen(r, now, p.admin) ?? []) };
  }

  /** The OpenOOH venue taxonomy a screen's `venueCategoryId` is chosen from. */
  venueTypes(): VenueTypesView {
    return {
      taxonomy: 'OpenOOH Venue Taxonomy',
      version: OPENOOH_TAXONOMY_VERSION,
      adcomTaxonomyId: OPENOOH_ADCOM_TAXONOMY_ID,
      records: VENUE_TYPES.map((v) => ({
        id: v.id,
        name: v.name,
        fullName: v.fullName,
        tier: v.tier,
        parentId: v.parentId,
        idPath: [...v.idPath],
        slug: v.slug,
        assignable: isAssignable(v),
      })),
    };
  }
}
