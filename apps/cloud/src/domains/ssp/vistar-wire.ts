import { z } from 'zod';
import { hasUnsafeChars, safeString } from '@vend/protocol';
import { DEFAULT_SUPPLY_SCREEN, PLAYABLE_MEDIA, type SupplyFill, type SupplyRequest } from './supply.ts';

/**
 * The SSP wire format: Vistar Media's ad-serving shape (`POST {base}/get_ad/json`), which the mock
 * SSP serves and `HttpSupply` speaks. One request asks for one ad per display area; the answer is
 * `{advertisement: [...]}`, one lease per filled area; a lease's `proof_of_play_url` is fetched once
 * when the ad has played (with `display_time`), and `lease_expiry` (unix seconds) bounds when.
 *
 * The request schema is strict about what it needs and strips what it does not know (an SSP ignores
 * extra fields). The answer is read leniently, ad by ad: an ad we cannot play is dropped, not fatal.
 */

/** Most display areas one request may list (the mock answers at most 3 of them). */
export const MAX_DISPLAY_AREAS = 16;

/** Longest URL accepted from an SSP for a creative or a PoP. */
const MAX_URL = 2048;

const token = (max: number) => safeString({ trim: true }).min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const pixels = z.number().int().min(1, 'must be at least 1').max(16384, 'must be at most 16384');
const seconds = z.number().int().min(1, 'must be at least 1').max(3600, 'must be at most 3600');

export const WireDisplayArea = z
  .object({
    id: token(64),
    width: pixels,
    height: pixels,
    allow_audio: z.boolean().optional(),
    /** MIME types the area can show, e.g. `image/png`, `video/mp4`. */
    supported_media: z.array(token(100)).min(1, 'must list at least one media type').max(16, 'must list at most 16 media types'),
    /** Seconds an ad must run at least / at most. */
    min_duration: seconds.optional(),
    max_duration: seconds.optional(),
  })
  .refine((a) => a.min_duration === undefined || a.max_duration === undefined || a.min_duration <= a.max_duration, {
    message: 'min_duration must not exceed max_duration',
    path: ['min_duration'],
  })
  .describe('An ad slot of the screen. min_duration must not exceed max_duration (400 otherwise).');

export const WireGetAdRequest = z
  .object({
    network_id: token(128),
    api_key: token(256),
    /** The screen asking (here: the machine's serial). */
    device_id: token(128),
    venue_id: token(128).optional(),
    /** When the ad will be shown, unix seconds. */
    display_time: z.number().int().min(0, 'must not be negative').max(99_999_999_999, 'must be unix seconds').optional(),
    direct_connection: z.boolean().optional(),
    number_of_screens: z.number().int().min(1).max(64).optional(),
    display_area: z
      .array(WireDisplayArea)
      .min(1, 'must list at least one display area')
      .max(MAX_DISPLAY_AREAS, `must list at most ${MAX_DISPLAY_AREAS} display areas`),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    /** Free-form attributes of the screen, e.g. `{name: 'venue_category', value: 'retail.convenience_stores'}`. */
    device_attribute: z
      .array(z.object({ name: token(64), value: safeString().max(256, 'must be at most 256 characters') }))
      .max(32)
      .optional(),
  })
  .refine((r) => new Set(r.display_area.map((a) => a.id)).size === r.display_area.length, {
    message: 'display area ids must be unique',
    path: ['display_area'],
  });
export type WireGetAdRequest = z.infer<typeof WireGetAdRequest>;

/** One leased ad, as the mock answers it. */
export const WireAd = z.object({
  lease_id: z.string(),
  display_area_id: z.string(),
  creative_id: z.string(),
  advertiser: z.string(),
  asset_url: z.string(),
  mime_type: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  length_in_seconds: z.number().int(),
  length_in_milliseconds: z.number().int(),
  proof_of_play_url: z.string(),
  /** Unix seconds: the PoP is refused after this. */
  lease_expiry: z.number().int(),
  /** Net CPM in the currency unit. */
  net_cpm: z.number(),
});
export type WireAd = z.infer<typeof WireAd>;

export const WireGetAdResponse = z.object({ advertisement: z.array(WireAd) });
export type WireGetAdResponse = z.infer<typeof WireGetAdResponse>;

/** Credentials an SSP issues a media owner. */
export interface SspCredentials {
  networkId: string;
  apiKey: string;
}

/**
 * The get_ad body for a supply request: `maxFills` display areas (`slot-1`…, capped at
 * MAX_DISPLAY_AREAS) of the screen's size, each asking for an ad of exactly one slot's length.
 */
export function toWireRequest(req: SupplyRequest, creds: SspCredentials): WireGetAdRequest {
  const areas = Math.max(0, Math.min(Math.floor(req.maxFills), MAX_DISPLAY_AREAS));
  const slot = Math.max(1, Math.min(3600, Math.round(req.slotSeconds)));
  const width = req.screen?.width ?? DEFAULT_SUPPLY_SCREEN.width;
  const height = req.screen?.height ?? DEFAULT_SUPPLY_SCREEN.height;
  const lat = req.screen?.lat ?? null;
  const lng = req.screen?.lng ?? null;
  const venueCategory = req.screen?.venueCategoryId ?? null;
  return {
    network_id: creds.networkId,
    api_key: creds.apiKey,
    device_id: req.machineNo,
    venue_id: req.machineNo,
    display_time: Math.floor(req.now / 1000),
    direct_connection: false,
    number_of_screens: 1,
    display_area: Array.from({ length: areas }, (_, i) => ({
      id: `slot-${i + 1}`,
      width,
      height,
      allow_audio: false,
      supported_media: [...PLAYABLE_MEDIA],
      min_duration: slot,
      max_duration: slot,
    })),
    ...(lat !== null && lng !== null ? { latitude: lat, longitude: lng } : {}),
    ...(venueCategory !== null ? { device_attribute: [{ name: 'venue_category', value: venueCategory }] } : {}),
  };
}

/** An ad as read from an SSP's answer: only what a fill needs, each field checked on its own. */
const IncomingAd = z.object({
  /** The mock's name; Vistar's own answers call it `id`. */
  lease_id: z.string().optional(),
  id: z.string().optional(),
  asset_url: z.string(),
  mime_type: z.string(),
  proof_of_play_url: z.string(),
  lease_expiry: z.number().finite(),
  net_cpm: z.number().finite().nonnegative().optional(),
  advertiser: z.string().optional(),
});

const IncomingAnswer = z.object({ advertisement: z.array(z.unknown()).optional() });

/**
 * An SSP URL made usable: resolved against `base` (an outside SSP's address: relative URLs become
 * absolute) and kept only if http(s). Without a base (the in-process mock) a path on this service
 * (`/…`, not `//…`) is kept as it is. Anything else (another scheme, control characters, too long) is null.
 */
export function usableUrl(raw: string, base: string | null): string | null {
  if (raw.length === 0 || raw.length > MAX_URL || hasUnsafeChars(raw) || /\s/.test(raw)) return null;
  if (base === null && raw.startsWith('/') && !raw.startsWith('//')) return raw;
  let url: URL;
  try {
    url = base === null ? new URL(raw) : new URL(raw, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const out = url.toString();
  return out.length <= MAX_URL ? out : null;
}

/** The loop entry's caption for an ad: "Sponsored · <advertiser>" (control characters dropped, 80 characters at most). */
export function headFor(advertiser: string | undefined): string {
  const cleaned = Array.from(advertiser ?? '', (ch) => (hasUnsafeChars(ch) ? ' ' : ch))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  const name = Array.from(cleaned).slice(0, 80).join('').trim();
  return name ? `Sponsored · ${name}` : 'Sponsored';
}

export type ReadAnswer = { ok: true; fills: SupplyFill[]; dropped: number } | { ok: false; reason: string };

/**
 * Reads a get_ad answer into fills: at most `maxFills`, each with a lease id, a playable media type,
 * usable URLs (see `usableUrl`) and a lease that has not expired at `now`; the first of a repeated
 * lease id wins. An answer that is not `{advertisement?: [...]}` is not ok; an ad that breaks a rule
 * is dropped and counted.
 */
export function readAnswer(json: unknown, opts: { maxFills: number; now: number; base: string | null }): ReadAnswer {
  const answer = IncomingAnswer.safeParse(json);
  if (!answer.success || json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { ok: false, reason: 'SSP answer was not {advertisement: [...]}' };
  }
  const fills: SupplyFill[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  for (const raw of answer.data.advertisement ?? []) {
    const fill = fillOf(raw, opts);
    if (fill === null || seen.has(fill.leaseId) || fills.length >= opts.maxFills) {
      dropped += 1;
      continue;
    }
    seen.add(fill.leaseId);
    fills.push(fill);
  }
  return { ok: true, fills, dropped };
}

const PLAYABLE: ReadonlySet<string> = new Set(PLAYABLE_MEDIA);

function fillOf(raw: unknown, opts: { now: number; base: string | null }): SupplyFill | null {
  const ad = IncomingAd.safeParse(raw);
  if (!ad.success) return null;
  const a = ad.data;
  const leaseId = a.lease_id ?? a.id;
  if (leaseId === undefined || leaseId.length === 0 || leaseId.length > 200 || hasUnsafeChars(leaseId)) return null;
  const mediaType = a.mime_type.trim().toLowerCase();
  if (!PLAYABLE.has(mediaType)) return null;
  const assetUrl = usableUrl(a.asset_url, opts.base);
  const popUrl = usableUrl(a.proof_of_play_url, opts.base);
  if (assetUrl === null || popUrl === null) return null;
  const expiresAt = Math.floor(a.lease_expiry * 1000);
  if (!Number.isSafeInteger(expiresAt) || expiresAt <= opts.now) return null;
  const netCpmMillis = Math.round((a.net_cpm ?? 0) * 1000);
  if (!Number.isSafeInteger(netCpmMillis)) return null;
  return { leaseId, assetUrl, mediaType, popUrl, netCpmMillis, expiresAt, head: headFor(a.advertiser) };
}
