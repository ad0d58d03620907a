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
