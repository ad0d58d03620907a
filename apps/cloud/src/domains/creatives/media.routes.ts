import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { notFound } from '../../http/errors.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { MEDIA_LIMITS } from './media-probe.ts';
import { MediaFileParams, PosterParams } from './creatives.schemas.ts';
import type { CreativesService } from './creatives.service.ts';

/** Tag of the public creative routes in the API document. */
export const MEDIA_TAG = 'screen advertising';

/** A stored file never changes (its name is its hash): caches may keep it for a year without asking. */
export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** A house poster changes when the deployment's public address does: caches ask again after five minutes. */
export const POSTER_CACHE_CONTROL = 'public, max-age=300';

/**
 * The largest upload body: a 60 MB MP4 as base64 (4/3 of it) plus room for the JSON around it. The
 * app's JSON parser stops at 1 MB; the upload routes mount this one before it (app.ts).
 */
export const UPLOAD_BODY_LIMIT = Math.ceil(MEDIA_LIMITS.videoMaxBytes / 3) * 4 + 64 * 1024;

/**
 * The JSON parser for the creative upload paths (large base64 bodies); mounted before the global
 * parser. Only a request that presents a credential gets the large limit: an anonymous one falls
 * through to the global 1 MB parser, so nobody can make the service read 80 MB without a key (the
 * route's guard then answers 401, or the global parser 413 for a large body).
 */
export function uploadJsonParser(): RequestHandler {
  // not strict, as the global parser (app.ts): a JSON text that is not an object is the route's to refuse (422)
  const parse = express.json({ limit: UPLOAD_BODY_LIMIT, type: ['application/json', 'application/*+json'], strict: false });
  return (req, res, next) => {
    if (req.headers['x-api-key'] === undefined && req.headers.authorization === undefined) return next();
    parse(req, res, next);
  };
}

/** The request's own origin (the base of the poster's QR when PUBLIC_BASE_URL is unset). */
function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}

/** Streams a file with byte ranges and conditional GET (send); a file gone meanwhile is a 404 in the envelope. */
function sendStored(res: Response, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // the ETag and the caching headers are set by the caller; send keeps a preset ETag for If-None-Match and If-Range
    res.sendFile(path, { etag: false, lastModified: false, cacheControl: false, dotfiles: 'deny', acceptRanges: true }, (err) => {
      if (!err || res.headersSent) resolve();
      else reject(notFound('Media'));
    });
  });
}

/**
 * Public creative routes (no key): the stored media files and each machine's house poster. The lead's
 * campaign and screensaver routes attach creatives; these serve them to kiosks and buyers.
 */
export function mediaRoutes(kit: RouteKit, creatives: CreativesService): Router {
  const r = Router();

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/media/:file',
      tag: MEDIA_TAG,
      summary: 'A stored creative file by its content address (`<sha256>.<png|jpg|webp|mp4>`)',
      description:
        'The bytes of an uploaded or generated creative, with its own Content-Type, a strong ETag (the hash), `Cache-Control: public, max-age=31536000, immutable` and byte ranges (video seeking). Any other name, or a file not stored, is a 404.',
      auth: 'none',
      params: MediaFileParams,
      envelope: false,
      contentType: ['image/png', 'image/jpeg', 'image/webp', 'video/mp4'],
      response: z.string().meta({ format: 'binary', description: 'The file (PNG, JPEG, WebP or MP4; Content-Type says which)' }),
      errors: [404],
    },
    async ({ params }, _req, res) => {
      const file = await creatives.mediaFile(params.file);
      res.setHeader('Content-Type', file.mediaType);
      res.setHeader('Cache-Control', MEDIA_CACHE_CONTROL);
      res.setHeader('ETag', `"${file.sha256}"`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      await sendStored(res, file.path);
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/advertise/poster/:machineNo.png',
      // derived ids are letters and digits; '.png' would put a dot in it
      operationId: 'getAdvertisePoster',
      tag: MEDIA_TAG,
      summary: "A machine's house poster: “Advertise on this screen” with its advertise QR (1080×1920 PNG)",
      description:
        'Buyer-facing, no key (spec 1 §4.7). The QR encodes the same address as the machine’s advertise QR (`<base>/advertise?machine=<no>&qr=<qrId>`). Pads the tail of every attract loop.',
      auth: 'none',
      params: PosterParams,
      envelope: false,
      contentType: 'image/png',
      errors: [404, 503],
    },
    async ({ params }, req, res) => {
      const png = await creatives.housePoster(params.machineNo, originOf(req));
      res.status(200).type('image/png');
      res.setHeader('Cache-Control', POSTER_CACHE_CONTROL);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.send(png);
    },
  );

  return r;
}
