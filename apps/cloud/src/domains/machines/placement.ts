import { badRequest } from '../../http/errors.ts';

/** A rule violation, rendered like a schema one: `Bad request — invalid or missing parameters: body.<field>: <what is wrong>`. */
export const refuse = (field: string, message: string) => badRequest(undefined, [{ path: field ? `body.${field}` : 'body', message }]);
import type { GeocodeOutcome } from './geocoder.ts';

/**
 * Placement rules of spec 1 §4.3 (PATCH rules 1–5), as pure functions over column values. The
 * service runs them inside its transaction; nothing here does I/O.
 *
 * Model: `location` is the display label (what `geo.address` shows); `lat`/`lng` are the pin;
 * `address` is the street address as typed, with `place_id` and `geocode_status`/`geocode_detail`
 * as the geocoder's evidence for the pin.
 */

/** The placement columns of a machine row. */
export interface PlacementState {
  location: string;
  lat: number | null;
  lng: number | null;
  address: string | null;
  place_id: string | null;
}

/** The placement fields of a request, already type- and range-checked by the schema. */
export interface PlacementInput {
  location?: string | undefined;
  lat?: number | undefined;
  lng?: number | undefined;
  address?: string | undefined;
  placeId?: string | undefined;
}

/** Column values a placement write sets. */
export interface PlacementColumns {
  location?: string;
  lat?: number | null;
  lng?: number | null;
  address?: string | null;
  place_id?: string | null;
  geocode_status?: string | null;
  geocode_detail?: string | null;
}

export type PlacementPlan =
  /** Nothing about the placement changes (absent, or equal to what is stored). */
  | { kind: 'none' }
  /** New coordinates (rule 3: no geocoding): the address label and geocoder evidence are cleared. */
  | { kind: 'pin'; columns: PlacementColumns }
  /** A new location label alone: the earlier pin and its evidence are cleared. */
  | { kind: 'label'; columns: PlacementColumns }
  /** A new address: stored as typed, pin cleared until the geocoder answers. */
  | { kind: 'address'; columns: PlacementColumns; address: string; labelSent: boolean };

const NO_EVIDENCE = { geocode_status: null, geocode_detail: null } as const;

/** Rules 1–2 and the pin's own checks; the 400 message says what is wrong. */
function checkShape(input: PlacementInput): void {
  const hasLat = input.lat !== undefined;
  const hasLng = input.lng !== undefined;
  if (hasLat !== hasLng) throw refuse(hasLat ? 'lng' : 'lat', `lat and lng must be sent together (got only ${hasLat ? 'lat' : 'lng'})`);
  if (hasLat && input.address !== undefined) throw refuse('address', 'send either address or lat/lng, not both: an address is geocoded into coordinates');
  if (hasLat && input.lat === 0 && input.lng === 0) throw refuse('lat', 'lat/lng 0,0 is not a placement (it is the default of an unset GPS fix)');
  if (input.placeId !== undefined && !hasLat)
    throw refuse('placeId', 'placeId is accepted only together with lat and lng (for an address, the geocoder sets it)');
}

/**
 * Decides what a request does to a machine's placement. Values equal to the stored ones are not a
 * change, so a client that re-sends the whole form does not clear anything.
 */
export function planPlacement(current: PlacementState, input: PlacementInput): PlacementPlan {
  checkShape(input);
  const labelChanged = input.location !== undefined && input.location !== current.location;
  if (input.lat !== undefined && input.lng !== undefined) {
    const placeId = input.placeId ?? null;
    const changed = input.lat !== current.lat || input.lng !== current.lng || (input.placeId !== undefined && placeId !== current.place_id) || labelChanged;
    if (!changed) return { kind: 'none' };
    return {
      kind: 'pin',
      columns: { lat: input.lat, lng: input.lng, place_id: placeId, address: null, ...NO_EVIDENCE, location: input.location ?? current.location },
    };
  }
  if (input.address !== undefined) {
    if (input.address === current.address && !labelChanged) return { kind: 'none' };
    return {
      kind: 'address',
      address: input.address,
      labelSent: input.location !== undefined,
      columns: { address: input.address, location: input.location ?? input.address, lat: null, lng: null, place_id: null, ...NO_EVIDENCE },
    };
  }
  if (labelChanged) {
    return { kind: 'label', columns: { location: input.location!, lat: null, lng: null, place_id: null, address: null, ...NO_EVIDENCE } };
  }
  return { kind: 'none' };
}

export const SKIPPED_DETAIL = 'Geocoding is not configured on this deployment (GEOCODER_URL is not set); the address is stored as typed';
export const NOT_FOUND_DETAIL = 'The geocoder found no match for this address; send a corrected address';
export const LOCATION_MAX = 255;

/**
 * Columns recording a geocoder outcome (rules 3–4). Resolved: pin, placeId and — unless the label
 * was sent — the formatted address as `location`. Anything else: no pin, the outcome recorded.
 */
export function geocodeColumns(outcome: GeocodeOutcome, labelSent: boolean): PlacementColumns {
  switch (outcome.status) {
    case 'resolved':
      return {
        lat: outcome.lat,
        lng: outcome.lng,
        place_id: outcome.placeId === null ? null : outcome.placeId.slice(0, 128),
        geocode_status: 'resolved',
        geocode_detail: `Resolved to "${outcome.formatted}"`.slice(0, 1000),
        ...(labelSent ? {} : { location: outcome.formatted.slice(0, LOCATION_MAX) }),
      };
    case 'not_found':
      return { lat: null, lng: null, place_id: null, geocode_status: 'not_found', geocode_detail: NOT_FOUND_DETAIL };
    case 'provider_error':
      return { lat: null, lng: null, place_id: null, geocode_status: 'provider_error', geocode_detail: outcome.detail.slice(0, 1000) };
    case 'skipped':
      return { lat: null, lng: null, place_id: null, geocode_status: 'skipped', geocode_detail: SKIPPED_DETAIL };
  }
}

/** `geo.geocodeStatus` and friends: absent when never geocoded; retryable only for provider_error and skipped. */
export function geocodeView(
  status: string | null,
  detail: string | null,
): { geocodeStatus?: GeocodeOutcome['status']; geocodeDetail?: string; geocodeRetryable?: boolean } {
  if (status !== 'resolved' && status !== 'not_found' && status !== 'provider_error' && status !== 'skipped') return {};
  return { geocodeStatus: status, geocodeDetail: detail ?? '', geocodeRetryable: status === 'provider_error' || status === 'skipped' };
}

/** Decimal degrees as the API's string form: plain notation, no exponent, no trailing zeros. */
export function formatDegrees(n: number | null): string | null {
  if (n === null || !Number.isFinite(n)) return null;
  const s = n
    .toFixed(10)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
  return s === '-0' ? '0' : s;
}
