import { z } from 'zod';

/** A creative as the API shows it: what the bytes measured, and the stable URL they are served at. */
export const CreativeView = z.object({
  id: z.string(),
  /** `/media/<sha256>.<ext>`: content-addressed, immutable, relative to this service. */
  url: z.string(),
  mediaType: z.enum(['image/png', 'image/jpeg', 'image/webp', 'video/mp4']),
  kind: z.enum(['image', 'video']),
  width: z.number().int(),
  height: z.number().int(),
  /** Video length in ms; null for images. */
  durationMs: z.number().int().nullable(),
  bytes: z.number().int(),
  source: z.enum(['upload', 'contentx']),
  /** The studio's reference of a generated creative (`builtin:<hash prefix>` from the built-in renderer); null for uploads. */
  contentxRef: z.string().nullable(),
});
export type CreativeView = z.infer<typeof CreativeView>;

/**
 * An upload's body (spec 1 §4.7 `creative/upload`): the declared type and the file as canonical base64.
 * The rules (types, size, shape, duration) are the service's, measured from the bytes.
 */
export const CreativeUploadBody = z.object({
  contentType: z.string().max(255).describe('image/png, image/jpeg, image/webp or video/mp4: must be what the bytes are'),
  dataBase64: z.string().describe('The file, canonical base64 (RFC 4648 §4: A–Z a–z 0–9 + /, = padding, no line breaks, no data: prefix)'),
});
export type CreativeUploadBody = z.infer<typeof CreativeUploadBody>;

/** Most characters of a studio brief. */
export const MAX_BRIEF_CHARS = 2000;

/** A studio generation's body (spec 1 §4.7 `creative/contentx`). */
export const CreativeBriefBody = z.object({
  brief: z.string().max(MAX_BRIEF_CHARS).describe('What the poster should say and show (the built-in renderer draws this text)'),
});
export type CreativeBriefBody = z.infer<typeof CreativeBriefBody>;

/** `GET /media/{file}`: any string here; a name that is not `<64 hex>.<png|jpg|webp|mp4>` is a 404 like an unknown one. */
export const MediaFileParams = z.object({ file: z.string() });

/** `GET /advertise/poster/{machineNo}.png`: a malformed code is a 404 like an unknown one (no key: nothing to tell a prober). */
export const PosterParams = z.object({ machineNo: z.string() });
