import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Clock } from '@vend/protocol';
import type { CloudLogger } from '../cloud/client.ts';
import { streamedGet } from '../cloud/http.ts';
import { readTextIfExists, writeFileAtomic } from '../state/fs-atomic.ts';

/**
 * The loop's media kept in the state directory (`ad-media/`), so a kiosk keeps playing while the
 * cloud is away. After each loop fetch the cache follows the loop: files no longer in it are removed,
 * missing ones are downloaded in loop order while they fit under the cap (a file that does not fit
 * is played from its origin instead), and a copy older than a day is fetched again; a URL that could
 * not be fetched is tried again after MEDIA_RETRY_MS. Only images and
 * videos (by the answer's Content-Type), no redirects, nothing beyond the room left; each file is
 * written to a temp name, fsynced and renamed, and the index (`index.json`) is replaced atomically.
 * No credential is ever sent with a media request.
 */

export interface MediaResponse {
  status: number;
  contentType: string | null;
  contentLength: number | null;
  body: AsyncIterable<Uint8Array>;
  /** Stops reading and releases the connection (idempotent). */
  cancel(): void;
}
export type MediaFetch = (url: string, opts: { signal: AbortSignal; timeoutMs: number }) => Promise<MediaResponse>;

/**
 * GET over node:http (cloud/http.ts streamedGet): no redirects followed, header and between-chunk
 * timeouts. Not undici: the daemon fetches media while it runs, and undici, once loaded, would stay
 * resident (docs/decisions/agent.md "Footprint").
 */
export function nodeMediaFetch(): MediaFetch {
  return async (url, opts) => {
    const res = await streamedGet(url, opts);
    const len = res.headers['content-length'] ?? null;
    return {
      status: res.status,
      contentType: res.headers['content-type'] ?? null,
      contentLength: len !== null && /^\d{1,16}$/.test(len) ? Number(len) : null,
      body: res.body,
      cancel: res.cancel,
    };
  };
}

const MediaFile = z.object({
  key: z.string().regex(/^[0-9a-f]{32}$/),
  url: z.string(),
  contentType: z.string(),
  bytes: z.number().int().min(0),
  fetchedAt: z.number().int(),
});
export type MediaFile = z.infer<typeof MediaFile>;
const MediaIndex = z.object({ files: z.array(MediaFile) });

/** The file name of a URL's copy. */
export function mediaKey(url: string): string {
  return createHash('sha256').update(url).digest('hex').slice(0, 32);
}

/** A Content-Type the kiosk may play: image/* or video/*, parameters dropped; null otherwise. */
export function playableType(contentType: string | null): string | null {
  const t = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^(image|video)\/[a-z0-9][a-z0-9.+-]*$/.test(t) ? t : null;
}

export interface MediaCacheOptions {
  dir: string;
  capBytes: number;
  fetch: MediaFetch;
  clock: Clock;
  log: CloudLogger;
  /** Header and stall timeout of one download. */
  timeoutMs: number;
  /** A copy older than this is fetched again (default one day). */
  maxAgeMs?: number;
}

const INDEX = 'index.json';
/** A URL whose download failed is not tried again for this long (the loop is fetched every minute). */
export const MEDIA_RETRY_MS = 10 * 60_000;

export class MediaCache {
  private readonly byUrl = new Map<string, MediaFile>();
  private readonly byKey = new Map<string, MediaFile>();
  private readonly abort = new AbortController();
  private syncing: Promise<void> | null = null;
  private wanted: string[] = [];
  private again = false;
  /** When each URL's download last failed. */
  private readonly failedAt = new Map<string, number>();
  lastError: string | null = null;

  constructor(private readonly opts: MediaCacheOptions) {}

  /** Creates the directory and reads the index: entries whose file is gone or of another size are forgotten, stray files removed. */
  init(): void {
    mkdirSync(this.opts.dir, { recursive: true, mode: 0o700 });
    let files: MediaFile[] = [];
    try {
      const parsed = MediaIndex.safeParse(JSON.parse(readTextIfExists(join(this.opts.dir, INDEX)) ?? '{"files":[]}'));
      if (parsed.success) files = parsed.data.files;
    } catch {
      files = [];
    }
    for (const f of files) {
      try {
        if (statSync(join(this.opts.dir, f.key)).size === f.bytes && f.key === mediaKey(f.url)) this.put(f);
      } catch {
        // gone
      }
    }
    for (const name of readdirSync(this.opts.dir)) {
      if (name !== INDEX && !this.byKey.has(name)) this.unlinkQuietly(name);
    }
  }

  /** The copy of a URL, if there is one. */
  lookup(url: string): MediaFile | null {
    return this.byUrl.get(url) ?? null;
  }

  /** A copy by its key, with its path (the control channel serves it). */
  file(key: string): (MediaFile & { path: string }) | null {
    const f = this.byKey.get(key);
    return f ? { ...f, path: join(this.opts.dir, f.key) } : null;
  }

  status(): { files: number; bytes: number; capBytes: number; lastError: string | null } {
    return { files: this.byKey.size, bytes: this.used(), capBytes: this.opts.capBytes, lastError: this.lastError };
  }

  /** The loop changed (or was fetched again): make the cache follow these URLs. One sync at a time; the last call wins. */
  follow(urls: string[]): Promise<void> {
    this.wanted = [...new Set(urls)];
    if (this.syncing) {
      this.again = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      do {
        this.again = false;
        await this.sync(this.wanted);
      } while (this.again && !this.abort.signal.aborted);
    })().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  close(): void {
    this.abort.abort();
  }

  private used(): number {
    let n = 0;
    for (const f of this.byKey.values()) n += f.bytes;
    return n;
  }

  private put(f: MediaFile): void {
    this.byUrl.set(f.url, f);
    this.byKey.set(f.key, f);
  }

  private forget(f: MediaFile): void {
    this.byUrl.delete(f.url);
    this.byKey.delete(f.key);
    this.unlinkQuietly(f.key);
  }

  private unlinkQuietly(name: string): void {
    try {
      unlinkSync(join(this.opts.dir, name));
    } catch {
      // already gone
    }
  }

  private async sync(urls: string[]): Promise<void> {
    const { clock, log } = this.opts;
    const maxAge = this.opts.maxAgeMs ?? 86_400_000;
    let changed = false;
    for (const f of [...this.byKey.values()]) {
      if (!urls.includes(f.url)) {
        this.forget(f);
        changed = true;
      }
    }
    let errors = 0;
    for (const url of urls) {
      if (this.abort.signal.aborted) break;
      const have = this.byUrl.get(url);
      if (have && clock.now() - have.fetchedAt < maxAge) continue;
      const failed = this.failedAt.get(url);
      if (failed !== undefined && clock.now() - failed < MEDIA_RETRY_MS) continue;
      const room = this.opts.capBytes - (this.used() - (have?.bytes ?? 0));
      if (room <= 0) continue;
      try {
        const got = await this.download(url, room);
        this.put(got);
        this.failedAt.delete(url);
        changed = true;
        log.info({ url, bytes: got.bytes, contentType: got.contentType }, 'ad media cached');
      } catch (e) {
        errors++;
        this.failedAt.set(url, clock.now());
        this.lastError = `${url}: ${(e as Error).message}`;
        log.warn({ url, error: (e as Error).message }, 'ad media not cached; the kiosk plays it from its origin');
      }
    }
    for (const url of this.failedAt.keys()) if (!urls.includes(url)) this.failedAt.delete(url);
    if (errors === 0 && !this.abort.signal.aborted && this.failedAt.size === 0) this.lastError = null;
    if (changed) writeFileAtomic(join(this.opts.dir, INDEX), JSON.stringify({ files: [...this.byKey.values()] }) + '\n', { mode: 0o600 });
  }

  /** One file into the cache: refused when not 200, not an image or video, or larger than `limit`. */
  private async download(url: string, limit: number): Promise<MediaFile> {
    const res = await this.opts.fetch(url, { signal: this.abort.signal, timeoutMs: this.opts.timeoutMs });
    const key = mediaKey(url);
    const tmp = join(this.opts.dir, `.${key}.${randomBytes(4).toString('hex')}.tmp`);
    let fd: number | null = null;
    try {
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      const contentType = playableType(res.contentType);
      if (contentType === null) throw new Error(`not an image or a video (${res.contentType ?? 'no Content-Type'})`);
      if (res.contentLength !== null && res.contentLength > limit) throw new Error(`${res.contentLength} bytes: over the ${limit} bytes of room left`);
      fd = openSync(tmp, 'wx', 0o600);
      let bytes = 0;
      for await (const chunk of res.body) {
        bytes += chunk.length;
        if (bytes > limit) throw new Error(`over the ${limit} bytes of room left`);
        let off = 0;
        while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
      }
      if (res.contentLength !== null && bytes !== res.contentLength) throw new Error(`cut short: ${bytes} of ${res.contentLength} bytes`);
      fsyncSync(fd);
      closeSync(fd);
      fd = null;
      renameSync(tmp, join(this.opts.dir, key));
      return { key, url, contentType, bytes, fetchedAt: this.opts.clock.now() };
    } catch (e) {
      res.cancel();
      if (fd !== null) closeSync(fd);
      this.unlinkQuietly(tmp.slice(this.opts.dir.length + 1));
      throw e;
    }
  }
}
