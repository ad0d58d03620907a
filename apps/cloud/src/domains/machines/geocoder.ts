import type { Config } from '../../config.ts';
import { NominatimGeocoder } from './nominatim.ts';

/** What a geocoder can answer for one address. `skipped` is not among them: it means "no geocoder". */
export type GeocodeResult =
  | { status: 'resolved'; lat: number; lng: number; placeId: string | null; formatted: string }
  | { status: 'not_found' }
  | { status: 'provider_error'; detail: string };

/** Every outcome the machines API records in `geo.geocodeStatus`. */
export type GeocodeOutcome = GeocodeResult | { status: 'skipped' };

/** Turns a typed address into coordinates. Never throws for provider trouble: that is `provider_error`. */
export interface Geocoder {
  geocode(address: string, signal: AbortSignal): Promise<GeocodeResult>;
}

/** The deployment's geocoder: OpenStreetMap Nominatim at `GEOCODER_URL`, or none (every geocode `skipped`). */
export function createGeocoder(config: Config['geocoder']): Geocoder | null {
  return config ? new NominatimGeocoder(config) : null;
}
