import { closeSync, createReadStream, fstatSync, openSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import {
  ControlAdLoop,
  ControlAdPlaysAccepted,
  ControlAdPlaysRequest,
  ControlPrizeEventsAccepted,
  ControlPrizeEventsRequest,
  ControlPrizeState,
} from '@vend/protocol';
import type { KioskAds } from '../ads/ads.ts';
import { ItemsRefused } from '../cloud/batch-spool.ts';
import type { KioskPrizes } from '../prizes/prizes.ts';
import { answer, readBody, refuse } from './respond.ts';
import { handleStorefront } from './kiosk-screen.ts';
import type { KioskStorefrontApi } from './kiosk-screen.ts';
import { serveScreen } from './screen-files.ts';

/**
 * The kiosk's routes on the control channel (docs/agent.md "Screen advertising", "Prize game"): the
 * attract loop, proof of play, the cached media and the prize game, for the kiosk's browser, which holds no bearer token. So they
 * take none, and instead:
 *
 * - **Host** must name the channel exactly — `127.0.0.1:<port>`, `localhost:<port>` or `[::1]:<port>`
 *   (421 otherwise): a page that rebinds its own name to 127.0.0.1 still sends its own name.
 * - **Origin**, when a browser sends one, must be an allowed kiosk origin (the configuration block's
 *   `kioskUiUrl`, resolved against the cloud URL, and the agent's `kioskOrigins`), else 403 and nothing
 *   done — so another page (an ad's own HTML in a frame, a site the kiosk strays to) can neither read
 *   the loop nor write plays. An allowed origin gets CORS headers and its preflight answered
 *   (Private Network Access included).
 * - **POST** bodies must be `application/json` (415 otherwise): no "simple" cross-site form post.
 *
 * The token is neither needed nor looked at: these routes read the loop and append plays, nothing
 * more, and they work with an empty control token too.
 *
 *   GET       /v1/ads/loop          the loop (ControlAdLoop)
 *   POST      /v1/ads/plays         {plays: [...]} (≤ 100, ≤ 64 KiB): 202 ControlAdPlaysAccepted once on disk
 *   GET/HEAD  /v1/ads/media/<key>   a cached media file (ETag, single byte ranges)
 *   POST      /v1/prizes/events     {events: [...]} (≤ 100, ≤ 64 KiB): 202 ControlPrizeEventsAccepted once on disk
 *   GET       /v1/prizes/state      the cloud's last prize state (ControlPrizeState)
 *   …         /v1/kiosk/…           the storefront and pay by phone (kiosk-screen.ts)
 *   GET/HEAD  /screen/…             the screen itself (screen-files.ts)
 *
 * The channel's own origins (`http://127.0.0.1:<port>`, `http://localhost:<port>`) are always allowed:
 * they are the screen this agent serves.
 */

const KIOSK_PREFIXES = ['/v1/ads/', '/v1/prizes/', '/v1/kiosk/', '/screen'];
const MAX_PLAYS_BODY = 64 * 1024;
const MAX_EVENTS_BODY = 64 * 1024;

/** A path of the kiosk's routes (no token; Host and Origin checked instead). */
export function isKioskPath(path: string): boolean {
  return KIOSK_PREFIXES.some((p) => path.startsWith(p));
}

export interface KioskRouteOptions {
  ads: KioskAds | null;
  /** The prize game (the routes under /v1/prizes/); null: they answer 404. */
  prizes?: KioskPrizes | null;
  /** The storefront and pay by phone (the routes under /v1/kiosk/); null: they answer 404. */
  storefront?: KioskStorefrontApi | null;
  /** Where the screen's built files are (null: /screen/ answers 404). */
  screenDir?: string | null;
  /** The cloud's origin: the screen may show pictures and media from it. */
  cloudOrigin?: string | null;
  /** Aborted when the daemon stops (cloud calls a kiosk route makes). */
  signal?: AbortSignal;
  /** The port the channel listens on (Host must name it). */
  port: number;
}

/** The origins of the screen this channel serves itself. */
export function selfOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
}

/** The Host header names this channel exactly (a missing one: an HTTP/1.0 client, never a browser). */
export function kioskHost(host: string | undefined, port: number): boolean {
  if (host === undefined) return true;
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host.toLowerCase());
}

/** A single byte range of a file of `size` bytes: null to send it whole (no header, or one this does not serve), 'unsatisfiable' for 416. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  const m = header === undefined ? null : /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

export async function handleKiosk(req: IncomingMessage, res: ServerResponse, url: URL, opts: KioskRouteOptions): Promise<void> {
  const method = req.method ?? 'GET';
  if (!kioskHost(req.headers.host, opts.port))
    return refuse(res, 421, 'misdirected', `the kiosk routes answer 127.0.0.1:${opts.port} or localhost:${opts.port} only`);
  const origin = req.headers.origin;
  res.setHeader('vary', 'Origin');
  if (origin !== undefined) {
    if (!selfOrigins(opts.port).includes(origin) && !(opts.ads?.allowedOrigins() ?? []).includes(origin))
      return refuse(res, 403, 'origin-not-allowed', `pages from ${origin} may not call the kiosk routes`);
    res.setHeader('access-control-allow-origin', origin);
  }
  if (method === 'OPTIONS') {
    res.setHeader('access-control-allow-methods', 'GET, HEAD, POST');
    res.setHeader('access-control-allow-headers', 'content-type, range');
    res.setHeader('access-control-max-age', '600');
    if (req.headers['access-control-request-private-network'] === 'true') res.setHeader('access-control-allow-private-network', 'true');
    res.writeHead(204, { 'content-length': 0 });
    res.end();
    return;
  }
  const path = url.pathname;
  if (path === '/screen' || path.startsWith('/screen/')) return serveScreen(req, res, path, opts.screenDir ?? null, opts.cloudOrigin ?? null);
  if (path.startsWith('/v1/kiosk/')) {
    if (method === 'POST' && !isJson(req)) return refuse(res, 415, 'unsupported-media-type', 'send the body as application/json');
    return handleStorefront(req, res, method, path, opts.storefront ?? null, opts.signal ?? new AbortController().signal);
  }
  if (path.startsWith('/v1/prizes/')) return handlePrizes(req, res, method, path, opts.prizes ?? null);
  const ads = opts.ads;
  if (!ads) return refuse(res, 404, 'not-found', 'screen advertising is not running on this agent');
  if (method === 'GET' && path === '/v1/ads/loop') {
    const localBase = `http://${req.headers.host ?? `127.0.0.1:${opts.port}`}`;
    return answer(res, ControlAdLoop, await ads.loop(localBase));
  }
  if (method === 'POST' && path === '/v1/ads/plays') {
    if (!isJson(req)) return refuse(res, 415, 'unsupported-media-type', 'send the plays as application/json');
    const body = await readBody(req, res, ControlAdPlaysRequest, MAX_PLAYS_BODY);
    if (body === null) return;
    return spooled(res, ControlAdPlaysAccepted, () => ads.addPlays(body.plays));
  }
  const media = /^\/v1\/ads\/media\/([0-9a-f]{32})$/.exec(path);
  if (media && (method === 'GET' || method === 'HEAD')) return serveMedia(req, res, ads, media[1]!);
  return refuse(res, 404, 'not-found', `no ${method} ${path}; see GET /v1/ads/loop, POST /v1/ads/plays, GET /v1/ads/media/<key>`);
}

const isJson = (req: IncomingMessage): boolean => req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() === 'application/json';

/** 202 with what a kiosk spool took, or its refusal (a bad item 400, a disk that refuses 503). */
function spooled<S extends z.ZodType>(res: ServerResponse, schema: S, take: () => z.input<S>): void {
  try {
    return answer(res, schema, take(), 202);
  } catch (e) {
    if (e instanceof ItemsRefused) return refuse(res, e.status, e.code, e.message);
    throw e;
  }
}

async function handlePrizes(req: IncomingMessage, res: ServerResponse, method: string, path: string, prizes: KioskPrizes | null): Promise<void> {
  if (!prizes) return refuse(res, 404, 'not-found', 'the prize game is not running on this agent');
  if (method === 'GET' && path === '/v1/prizes/state') return answer(res, ControlPrizeState, prizes.state());
  if (method === 'POST' && path === '/v1/prizes/events') {
    if (!isJson(req)) return refuse(res, 415, 'unsupported-media-type', 'send the events as application/json');
    const body = await readBody(req, res, ControlPrizeEventsRequest, MAX_EVENTS_BODY);
    if (body === null) return;
    return spooled(res, ControlPrizeEventsAccepted, () => prizes.addEvents(body.events));
  }
  return refuse(res, 404, 'not-found', `no ${method} ${path}; see POST /v1/prizes/events, GET /v1/prizes/state`);
}

function serveMedia(req: IncomingMessage, res: ServerResponse, ads: KioskAds, key: string): void {
  const file = ads.media(key);
  let fd: number;
  try {
    if (!file) throw new Error('not cached');
    fd = openSync(file.path, 'r'); // held open: a copy replaced or removed meanwhile is still served whole
  } catch {
    return refuse(res, 404, 'not-found', 'no such media in the cache (fetch the loop again)');
  }
  const size = fstatSync(fd).size;
  const headers: Record<string, string | number> = {
    'content-type': file.contentType,
    etag: `"${file.key}-${file.fetchedAt.toString(36)}-${size.toString(36)}"`,
    'cache-control': 'no-cache',
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
    // a cached file is shown, never run: an SVG opened on its own cannot script this origin
    'content-security-policy': "default-src 'none'; sandbox",
  };
  const range = req.headers['if-none-match'] === headers['etag'] ? 'not-modified' : byteRange(req.headers.range, size);
  if (range === 'not-modified' || range === 'unsatisfiable' || req.method === 'HEAD' || size === 0) {
    closeSync(fd);
    if (range === 'not-modified') res.writeHead(304, headers);
    else if (range === 'unsatisfiable') res.writeHead(416, { ...headers, 'content-range': `bytes */${size}`, 'content-length': 0 });
    else res.writeHead(200, { ...headers, 'content-length': size });
    res.end();
    return;
  }
  const length = range ? range.end - range.start + 1 : size;
  res.writeHead(range ? 206 : 200, {
    ...headers,
    'content-length': length,
    ...(range ? { 'content-range': `bytes ${range.start}-${range.end}/${size}` } : {}),
  });
  const body = createReadStream('', { fd, ...(range ? { start: range.start, end: range.end } : {}) });
  body.on('error', () => res.destroy());
  body.pipe(res);
}
