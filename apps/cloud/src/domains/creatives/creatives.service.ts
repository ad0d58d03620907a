import type { Insertable } from 'kysely';
import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import { newId } from '../../crypto/ids.ts';
import type { CreativeRow, CreativesTable } from '../../db/schema.ts';
import { AppError, badRequest, machineNotFound, notFound } from '../../http/errors.ts';
import type { AppStore } from '../../repos.ts';
import { advertiseQrId, qrPng } from './advertise-qr.ts';
import { ACCEPTED_TYPES, formatBytes, formatOf, maxBytesOf, probeMedia, sniff, wrongType, type MeasuredMedia, type MediaType } from './media-probe.ts';
import { MEDIA_FILE, type MediaStore } from './media-store.ts';
import { PosterRenderer } from './poster.ts';
import type { CreativeView } from './creatives.schemas.ts';
import { MAX_BRIEF_CHARS } from './creatives.schemas.ts';
import type { Studio } from './studio.ts';

export interface CreativesDeps {
  store: AppStore;
  clock: Clock;
  /** Where the files go: `<DATA_DIR>/media`, shared by every replica. */
  media: MediaStore;
  /** The external studio (STUDIO_URL); null: the built-in renderer makes the posters. */
  studio: Studio | null;
  config: Config;
  /** House posters kept rendered (default POSTER_CACHE_ENTRIES). */
  posterCacheEntries?: number;
}

/** House posters kept rendered (one per machine and base address); the least recently used is dropped first. */
export const POSTER_CACHE_ENTRIES = 128;
/**
 * House-poster renders waiting at most (one runs at a time). Without PUBLIC_BASE_URL a poster's QR
 * follows the request's Host, so a caller varying it could make every request a fresh render (~0.3 s
 * of CPU); past this queue such requests answer 503 with Retry-After instead of taking the CPU.
 */
export const POSTER_RENDER_QUEUE = 8;
/** Side of the QR on the house poster, in pixels. */
const HOUSE_QR_SIZE = 720;
/** A machine code (spec 1 §8): what a poster address may name. */
const MACHINE_NO = /^[A-Za-z0-9-]{8,32}$/;

const BASE64_BODY = /^[A-Za-z0-9+/]*$/;
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const notBase64 = (why: string) => badRequest(`dataBase64 is not canonical base64: ${why}`);

/**
 * Canonical base64 (RFC 4648 §4) to bytes, refusing anything else: other characters, white space or
 * line breaks, a `data:` prefix, missing or extra padding, non-zero padding bits (two spellings of the
 * same bytes). The decoded size is known from the length alone, so an oversized upload is refused
 * before anything is decoded.
 */
export function decodeBase64Strict(s: string, maxBytes: number, tooLarge: (bytes: number) => AppError): Buffer {
  if (s.length === 0) throw badRequest('undecodable: dataBase64 is empty');
  if (s.startsWith('data:')) throw notBase64('send the bare base64 of the file, without a data: URL prefix');
  if (s.length % 4 !== 0) throw notBase64(`its length (${s.length}) is not a multiple of 4 (padding missing, or white space inside)`);
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  const decoded = (s.length / 4) * 3 - pad;
  if (decoded > maxBytes) throw tooLarge(decoded);
  const body = s.slice(0, s.length - pad);
  if (!BASE64_BODY.test(body)) throw notBase64('only A–Z, a–z, 0–9, + and / may appear, then = padding (no white space, line breaks or URL-safe - and _)');
  if (pad > 0) {
    const last = BASE64_ALPHABET.indexOf(body.at(-1)!);
    if ((last & (pad === 2 ? 0x0f : 0x03)) !== 0) throw notBase64('the bits after the last byte are not zero');
  }
  return Buffer.from(s, 'base64');
}

/**
 * Creatives: uploads measured from their bytes and stored by content hash, studio generations (an
 * external studio or the built-in renderer), the rows campaigns and screensavers attach, the files
 * served at stable URLs, and each machine's house poster.
 */
export class CreativesService {
  readonly #posters = new PosterRenderer();
  /** Rendered house posters by the address their QR encodes (in-flight renders included: one render per key). */
  readonly #houseCache = new Map<string, Promise<Buffer>>();
  /** The last house-poster render queued: renders run one after another. */
  #renderTail: Promise<unknown> = Promise.resolve();
  #renderQueue = 0;

  constructor(private readonly deps: CreativesDeps) {}

  /**
   * Measures an upload and stores its file. The declared type must be one of the four accepted and
   * must be what the bytes are; the size is refused from the base64 length before decoding; the bytes
   * are then measured (probeMedia). Nothing is stored unless every rule passes.
   */
  async measureUpload(input: { contentType: string; dataBase64: string }): Promise<MeasuredMedia> {
    const declared = input.contentType.split(';')[0]!.trim().toLowerCase() as MediaType;
    if (!ACCEPTED_TYPES.includes(declared)) {
      throw wrongType(`contentType ${JSON.stringify(input.contentType.slice(0, 100))} is not accepted`);
    }
    const max = maxBytesOf(declared);
    const kind = formatOf(declared).kind === 'video' ? 'videos' : 'images';
    const bytes = decodeBase64Strict(input.dataBase64, max, (n) => badRequest(`too large: ${formatBytes(n)}, at most ${formatBytes(max)} for ${kind}`));
    const actual = sniff(bytes);
    if ('type' in actual && actual.type !== declared) {
      throw badRequest(`wrong type: contentType says ${declared} but the bytes are ${formatOf(actual.type).name}`);
    }
    const media = await probeMedia(bytes);
    await this.deps.media.put(media.sha256, media.ext, bytes);
    return media;
  }

  /**
   * One studio generation from a brief. With a studio configured: its answer, which must be an
   * acceptable portrait image (else 502), referenced by its X-Studio-Ref. Without: the built-in
   * renderer's 1080×1920 PNG composed from the brief and the sponsor's name, referenced
   * `builtin:<first 16 hex of its hash>`. The external studio's contract carries the brief only.
   */
  async generate(brief: string, sponsorName: string | null = null): Promise<MeasuredMedia & { contentxRef: string }> {
    const text = brief.trim();
    if (!text) throw badRequest('brief is empty');
    if (text.length > MAX_BRIEF_CHARS) throw badRequest(`brief is longer than ${MAX_BRIEF_CHARS} characters`);
    const { studio } = this.deps;
    if (!studio) return this.builtin(text, sponsorName);
    const answer = await studio.generate(text);
    let media: MeasuredMedia;
    try {
      media = await probeMedia(answer.bytes);
    } catch (err) {
      if (err instanceof AppError && err.status === 400) throw new AppError('upstream', `Studio answered an unusable creative: ${err.message}`);
      throw err;
    }
    if (media.kind !== 'image') throw new AppError('upstream', `Studio answered ${formatOf(media.mediaType).name}; the studio contract is a portrait image`);
    await this.deps.media.put(media.sha256, media.ext, answer.bytes);
    return { ...media, contentxRef: answer.ref };
  }

  /** The built-in renderer's poster of a brief (and its sponsor), stored: what `generate` makes without a studio, and the sandbox seed's creatives. */
  async builtin(brief: string, sponsorName: string | null = null): Promise<MeasuredMedia & { contentxRef: string }> {
    const png = await this.#posters.briefPoster(brief, sponsorName);
    const media = await probeMedia(png);
    await this.deps.media.put(media.sha256, media.ext, png);
    return { ...media, contentxRef: `builtin:${media.sha256.slice(0, 16)}` };
  }

  /** The row that records a measured creative for an operator; the caller inserts it in its own transaction. */
  row(operatorId: string, media: MeasuredMedia, source: 'upload' | 'contentx', contentxRef: string | null, now: number): Insertable<CreativesTable> {
    return {
      id: newId('crv', now),
      operator_id: operatorId,
      sha256: media.sha256,
      media_type: media.mediaType,
      kind: media.kind,
      width: media.width,
      height: media.height,
      duration_ms: media.durationMs,
      bytes: media.bytes,
      source,
      contentx_ref: contentxRef,
      created_at: now,
    };
  }

  view(row: CreativeRow): CreativeView {
    const mediaType = row.media_type as MediaType;
    return {
      id: row.id,
      url: mediaUrl(row.sha256, mediaType),
      mediaType,
      kind: row.kind === 'video' ? 'video' : 'image',
      width: row.width,
      height: row.height,
      durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
      bytes: Number(row.bytes),
      source: row.source === 'contentx' ? 'contentx' : 'upload',
      contentxRef: row.contentx_ref,
    };
  }

  /** A stored file by its served name (`<sha256>.<ext>`); 404 for any other name or a file not stored. */
  async mediaFile(file: string): Promise<{ path: string; mediaType: MediaType; sha256: string }> {
    const m = MEDIA_FILE.exec(file);
    if (!m) throw notFound('Media');
    const sha256 = m[1]!;
    const ext = m[2] as MeasuredMedia['ext'];
    if (!(await this.deps.media.has(sha256, ext))) throw notFound('Media');
    return { path: this.deps.media.pathOf(sha256, ext), mediaType: MEDIA_TYPE_OF_EXT[ext], sha256 };
  }

  /**
   * A machine's "Advertise on this screen" house poster (1080×1920 PNG): its advertise QR —
   * `<base>/advertise?machine=<no>&qr=<qrId>`, as `GET …/advertise-qr` encodes it — and its code.
   * Base: PUBLIC_BASE_URL, else the request's origin. 404 for an unknown or malformed code.
   */
  async housePoster(machineNo: string, origin: string): Promise<Buffer> {
    if (!MACHINE_NO.test(machineNo)) throw machineNotFound();
    const machine = await this.deps.store.repos.machines.machineByNo(machineNo);
    if (!machine) throw machineNotFound();
    const no = machine.machine_no;
    const address = `${this.deps.config.publicBaseUrl ?? origin}/advertise?machine=${encodeURIComponent(no)}&qr=${advertiseQrId(no, this.deps.config.dataKey)}`;
    const cached = this.#houseCache.get(address);
    if (cached) {
      this.#houseCache.delete(address);
      this.#houseCache.set(address, cached);
      return cached;
    }
    if (this.#renderQueue >= POSTER_RENDER_QUEUE) {
      throw new AppError('unavailable', 'House posters are being drawn; try again in a few seconds', { headers: { 'Retry-After': '5' } });
    }
    this.#renderQueue++;
    const draw = async () => this.#posters.housePoster({ machineNo: no, qrPng: await qrPng(address, HOUSE_QR_SIZE), qrSize: HOUSE_QR_SIZE, address });
    const render = this.#renderTail.then(draw, draw).finally(() => this.#renderQueue--);
    this.#renderTail = render.catch(() => undefined);
    this.#houseCache.set(address, render);
    render.catch(() => this.#houseCache.delete(address)); // a failed render is not kept
    while (this.#houseCache.size > (this.deps.posterCacheEntries ?? POSTER_CACHE_ENTRIES)) this.#houseCache.delete(this.#houseCache.keys().next().value!);
    return render;
  }
}

const EXT_OF: Record<MediaType, MeasuredMedia['ext']> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'video/mp4': 'mp4' };
const MEDIA_TYPE_OF_EXT: Record<MeasuredMedia['ext'], MediaType> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp', mp4: 'video/mp4' };

/** Where a stored file is served: `/media/<sha256>.<ext>` (relative to this service). */
export function mediaUrl(sha256: string, mediaType: MediaType): string {
  return `/media/${sha256}.${EXT_OF[mediaType]}`;
}
