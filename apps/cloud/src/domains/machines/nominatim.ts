import { request } from 'undici';
import { z } from 'zod';
import type { Geocoder, GeocodeResult } from './geocoder.ts';

/** Largest answer read from the provider; a `limit=1` answer is a few hundred bytes. */
const MAX_BODY_BYTES = 256 * 1024;

/** One element of Nominatim's `format=jsonv2` search answer, reduced to what placement uses. */
const NominatimPlace = z.object({
  osm_type: z.string().optional(),
  osm_id: z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]).optional(),
  lat: z.string(),
  lon: z.string(),
  display_name: z.string(),
});
const NominatimAnswer = z.array(z.unknown());

const OSM_TYPE: Record<string, string> = { node: 'N', way: 'W', relation: 'R', N: 'N', W: 'W', R: 'R' };

/**
 * Reads a Nominatim jsonv2 search answer. `[]` is not_found; a first element that cannot be read,
 * or whose coordinates are not usable degrees, is a provider_error (the provider broke its format).
 */
export function parseNominatimAnswer(json: unknown): GeocodeResult {
  const list = NominatimAnswer.safeParse(json);
  if (!list.success) return { status: 'provider_error', detail: 'geocoder answer was not a JSON array' };
  if (list.data.length === 0) return { status: 'not_found' };
  const place = NominatimPlace.safeParse(list.data[0]);
  if (!place.success) return { status: 'provider_error', detail: 'geocoder answer lacked lat, lon or display_name' };
  const p = place.data;
  const lat = Number(p.lat);
  const lng = Number(p.lon);
  if (!/^-?\d+(\.\d+)?$/.test(p.lat.trim()) || !/^-?\d+(\.\d+)?$/.test(p.lon.trim()) || Math.abs(lat) > 90 || Math.abs(lng) > 180) {
    return { status: 'provider_error', detail: `geocoder answered unusable coordinates (${p.lat}, ${p.lon})` };
  }
  if (lat === 0 && lng === 0) return { status: 'provider_error', detail: 'geocoder answered 0,0' };
  const type = p.osm_type === undefined ? undefined : OSM_TYPE[p.osm_type];
  const placeId = type !== undefined && p.osm_id !== undefined ? `osm:${type}${p.osm_id}` : null;
  return { status: 'resolved', lat, lng, placeId, formatted: p.display_name };
}

export interface NominatimOptions {
  /** Base URL; the client calls `{url}/search`. */
  url: string;
  timeoutMs: number;
  userAgent: string;
}

/**
 * OpenStreetMap Nominatim search over undici: `GET {url}/search?q=&format=jsonv2&limit=1&addressdetails=0`
 * with the configured User-Agent (Nominatim's usage policy requires one). A slow, failing or
 * malformed provider becomes `provider_error` with a detail; nothing here throws.
 */
export class NominatimGeocoder implements Geocoder {
  constructor(private readonly opts: NominatimOptions) {}

  searchUrl(address: string): string {
    const url = new URL(`${this.opts.url.replace(/\/+$/, '')}/search`);
    url.searchParams.set('q', address);
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('limit', '1');
    url.searchParams.set('addressdetails', '0');
    return url.toString();
  }

  async geocode(address: string, signal: AbortSignal): Promise<GeocodeResult> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const combined = AbortSignal.any([signal, timeout]);
    try {
      const res = await request(this.searchUrl(address), {
        method: 'GET',
        headers: { 'user-agent': this.opts.userAgent, accept: 'application/json' },
        signal: combined,
      });
      if (res.statusCode !== 200) {
        await res.body.dump();
        return { status: 'provider_error', detail: `geocoder answered HTTP ${res.statusCode}` };
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        size += buf.length;
        if (size > MAX_BODY_BYTES) {
          res.body.destroy();
          return { status: 'provider_error', detail: 'geocoder answer too large' };
        }
        chunks.push(buf);
      }
      let json: unknown;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return { status: 'provider_error', detail: 'geocoder answer was not JSON' };
      }
      return parseNominatimAnswer(json);
    } catch (err) {
      if (timeout.aborted) return { status: 'provider_error', detail: `geocoder did not answer within ${this.opts.timeoutMs} ms` };
      if (signal.aborted) return { status: 'provider_error', detail: 'geocoding was cancelled' };
      const code = (err as { code?: unknown }).code;
      return { status: 'provider_error', detail: `geocoder unreachable${typeof code === 'string' ? ` (${code})` : ''}` };
    }
  }
}
