import { request } from 'undici';
import { AppError } from '../../http/errors.ts';
import { MEDIA_LIMITS } from './media-probe.ts';

/**
 * The external creative studio (spec 1 §4.7 `creative/contentx`), configured by `STUDIO_URL`.
 *
 * Wire contract (one call per generation):
 *
 *   POST {STUDIO_URL}
 *   Content-Type: application/json
 *   Accept: image/png, image/jpeg, image/webp
 *   {"brief": "<the buyer's text>", "width": 1080, "height": 1920}
 *
 *   200 (any 2xx)
 *   Content-Type: image/png | image/jpeg | image/webp
 *   X-Studio-Ref: <the studio's reference of this generation: 1–128 of [A-Za-z0-9._:/-]>
 *   <the image bytes, at most 10 MB>
 *
 * Any other status is a failure whose body (text, the studio's words) is returned to the caller
 * verbatim as a 502, bounded to STUDIO_ERROR_CHARS characters. No answer within `timeoutMs` (headers
 * and body together), a refused connection, or an answer that is not an acceptable portrait image
 * (checked by the caller with the upload rules) are 502s with this service's own message.
 */
export interface Studio {
  generate(brief: string): Promise<StudioImage>;
}

export interface StudioImage {
  bytes: Buffer;
  /** The studio's reference of the generation (X-Studio-Ref). */
  ref: string;
}

export interface StudioOptions {
  url: string;
  timeoutMs: number;
}

/** The poster size asked for: the 9:16 screen. */
export const STUDIO_SIZE = { width: 1080, height: 1920 } as const;
/** Characters of a failing studio's body passed on (the error envelope bounds messages at 4096). */
export const STUDIO_ERROR_CHARS = 2000;
/** Bytes of a failing studio's body read at most. */
const MAX_ERROR_BODY = 64 * 1024;
const REF = /^[A-Za-z0-9._:/-]{1,128}$/;

const upstream = (message: string, cause?: unknown) => new AppError('upstream', message, cause === undefined ? {} : { cause });

/** The studio over HTTP (undici). Every failure is an AppError('upstream') — a 502. */
export class HttpStudio implements Studio {
  constructor(private readonly opts: StudioOptions) {}

  async generate(brief: string): Promise<StudioImage> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    try {
      const res = await request(this.opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'image/png, image/jpeg, image/webp' },
        body: JSON.stringify({ brief, width: STUDIO_SIZE.width, height: STUDIO_SIZE.height }),
        signal: timeout,
      });
      if (res.statusCode < 200 || res.statusCode > 299) {
        const text = (await readBounded(res.body, MAX_ERROR_BODY)).bytes.toString('utf8').trim();
        throw upstream(text ? cut(text, STUDIO_ERROR_CHARS) : `Studio answered HTTP ${res.statusCode} with no body`);
      }
      const ref = res.headers['x-studio-ref'];
      const answer = await readBounded(res.body, MEDIA_LIMITS.imageMaxBytes);
      if (answer.over) throw upstream(`Studio answer is larger than ${MEDIA_LIMITS.imageMaxBytes / (1024 * 1024)} MB`);
      if (typeof ref !== 'string' || !REF.test(ref)) throw upstream('Studio answer has no valid X-Studio-Ref header');
      if (answer.bytes.length === 0) throw upstream('Studio answered with an empty body');
      return { bytes: answer.bytes, ref };
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (timeout.aborted) throw upstream(`Studio did not answer within ${this.opts.timeoutMs} ms`, err);
      const code = (err as { code?: unknown }).code;
      throw upstream(`Studio unreachable${typeof code === 'string' ? ` (${code})` : ''}`, err);
    }
  }
}

/** `s` cut to `max` characters with an ellipsis (never half a surrogate pair). */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  let t = s.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(t)) t = t.slice(0, -1);
  return `${t}…`;
}

/** Reads at most `max` bytes of a body; `over` when it had more (the rest is dropped, the socket closed). */
async function readBounded(body: AsyncIterable<unknown> & { destroy(): unknown }, max: number): Promise<{ bytes: Buffer; over: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    if (size + buf.length > max) {
      chunks.push(buf.subarray(0, max - size));
      body.destroy();
      return { bytes: Buffer.concat(chunks), over: true };
    }
    size += buf.length;
    chunks.push(buf);
  }
  return { bytes: Buffer.concat(chunks), over: false };
}
