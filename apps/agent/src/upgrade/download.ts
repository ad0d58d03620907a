import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Dispatcher } from 'undici';
import type { Clock } from '@vend/protocol';

/**
 * Downloading a signed artifact (spec 2 §4.4 step 9; TUF's endless-data and slow-retrieval attacks):
 * never more than the signed size (a Content-Length above it is refused before the body is read, and
 * the body is cut off at the first byte past it), a stall timer and an overall deadline derived from
 * a minimum transfer rate (both on the injected clock), the SHA-256 computed while writing, and no
 * redirects (the signed URL under the trusted prefix is the only place bytes come from).
 */

/** What the downloader needs from an HTTP client; the default is undici, tests may trust a test CA. */
export interface ArtifactResponse {
  status: number;
  /** The Content-Length header as a number, or null when absent or unparseable. */
  contentLength: number | null;
  body: AsyncIterable<Uint8Array>;
  /** Stops reading and releases the connection (idempotent). */
  cancel(): void;
}
export type ArtifactFetch = (url: string, opts: { signal: AbortSignal; timeoutMs: number }) => Promise<ArtifactResponse>;

/**
 * undici's `request`: GET, no redirects followed, header and between-chunk timeouts of `timeoutMs`
 * (at least 60 s, spec 2 §8). `dispatcher` lets a caller pin a CA (tests use a self-signed one).
 */
export function undiciArtifactFetch(opts: { dispatcher?: Dispatcher } = {}): ArtifactFetch {
  return async (url, { signal, timeoutMs }) => {
    // undici is loaded when a download starts, not with the daemon (docs/decisions/agent.md "Footprint")
    const { request } = await import('undici');
    const res = await request(url, {
      method: 'GET',
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      headers: { 'accept-encoding': 'identity' },
      ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
    });
    const raw = res.headers['content-length'];
    const len = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : null;
    return {
      status: res.statusCode,
      contentLength: len,
      body: res.body,
      cancel: () => {
        if (res.body.destroyed) return;
        // an unread body errors with "aborted" when destroyed: that is expected here, not a crash
        res.body.on('error', () => {});
        res.body.destroy();
      },
    };
  };
}

export type DownloadErrorCode = 'download-failed' | 'size-mismatch' | 'digest-mismatch';

export class DownloadError extends Error {
  constructor(
    readonly code: DownloadErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

export interface DownloadLimits {
  /** Header timeout, stall timeout and the deadline's floor (spec 2 §8: the download uses at least 60 s). */
  timeoutMs: number;
  /** Slowest acceptable average rate; the deadline is timeoutMs + size / minBytesPerSecond. */
  minBytesPerSecond: number;
}

export const DEFAULT_DOWNLOAD_LIMITS: DownloadLimits = { timeoutMs: 60_000, minBytesPerSecond: 8 * 1024 };

export interface DownloadParams {
  url: string;
  size: number;
  sha256: string;
  /** Where the bytes go; created exclusively (0600), removed again on any failure. */
  dest: string;
  fetch: ArtifactFetch;
  clock: Clock;
  limits?: Partial<DownloadLimits>;
  /** Aborts the download from outside (the daemon stopping). */
  signal?: AbortSignal;
  /** Called after each chunk is written, with the bytes so far (the crash-test hook rides on it). */
  onProgress?: (bytes: number) => void | Promise<void>;
}

/** The overall deadline for `size` bytes under `limits`. */
export function downloadDeadlineMs(size: number, limits: DownloadLimits): number {
  return Math.max(60_000, limits.timeoutMs) + Math.ceil((size * 1000) / limits.minBytesPerSecond);
}

/**
 * Downloads `url` into `dest`, refusing on the first sign that the bytes are not the signed ones.
 * Resolves when `dest` holds exactly `size` bytes whose SHA-256 is `sha256`; otherwise rejects with a
 * DownloadError and leaves no `dest` behind.
 */
export async function downloadArtifact(params: DownloadParams): Promise<void> {
  const limits = { ...DEFAULT_DOWNLOAD_LIMITS, ...params.limits };
  const timeoutMs = Math.max(60_000, limits.timeoutMs);
  const ctl = new AbortController();
  const abort = (err: DownloadError): void => {
    if (!ctl.signal.aborted) ctl.abort(err);
  };
  const onOuterAbort = (): void => abort(new DownloadError('download-failed', 'the download was stopped'));
  if (params.signal?.aborted) throw new DownloadError('download-failed', 'the download was stopped');
  params.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const deadlineMs = downloadDeadlineMs(params.size, limits);
  const deadline = params.clock.setTimeout(
    () => abort(new DownloadError('download-failed', `slow retrieval: ${params.size} bytes not received within ${Math.round(deadlineMs / 1000)} s`)),
    deadlineMs,
  );
  let stall: unknown = null;
  const armStall = (): void => {
    if (stall !== null) params.clock.clearTimeout(stall);
    stall = params.clock.setTimeout(() => abort(new DownloadError('download-failed', `stalled: no bytes for ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  };

  let res: ArtifactResponse | null = null;
  let fd: fs.promises.FileHandle | null = null;
  let ok = false;
  try {
    armStall();
    try {
      res = await params.fetch(params.url, { signal: ctl.signal, timeoutMs });
    } catch (err) {
      throw reasonOf(ctl.signal, err);
    }
    if (ctl.signal.aborted) throw reasonOf(ctl.signal, null);
    if (res.status !== 200) throw new DownloadError('download-failed', `the artifact server answered ${res.status}`);
    if (res.contentLength !== null && res.contentLength > params.size) {
      throw new DownloadError('size-mismatch', `the server announces ${res.contentLength} bytes; the signed size is ${params.size}`);
    }
    fd = await fs.promises.open(params.dest, 'wx', 0o600);
    const hash = createHash('sha256');
    let received = 0;
    // every read races the abort, so a body that ignores the signal cannot hold the download
    const stopped = new Promise<never>((_resolve, reject) => {
      if (ctl.signal.aborted) reject(ctl.signal.reason);
      else ctl.signal.addEventListener('abort', () => reject(ctl.signal.reason), { once: true });
    });
    stopped.catch(() => {});
    const chunks = res.body[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await Promise.race([chunks.next(), stopped]);
        if (next.done) break;
        const chunk = next.value;
        if (received + chunk.length > params.size) {
          abort(new DownloadError('size-mismatch', `more than the signed ${params.size} bytes: stopped at the signed size`));
          break;
        }
        received += chunk.length;
        hash.update(chunk);
        await fd.write(chunk);
        armStall();
        await params.onProgress?.(received);
      }
    } catch (err) {
      throw reasonOf(ctl.signal, err);
    } finally {
      if (ctl.signal.aborted) void chunks.return?.()?.catch(() => {});
    }
    if (ctl.signal.aborted) throw reasonOf(ctl.signal, null);
    if (received !== params.size) throw new DownloadError('size-mismatch', `received ${received} bytes; the signed size is ${params.size}`);
    const digest = hash.digest('hex');
    if (digest !== params.sha256) throw new DownloadError('digest-mismatch', `SHA-256 of the download is ${digest}; the signed digest is ${params.sha256}`);
    await fd.sync();
    ok = true;
  } finally {
    params.clock.clearTimeout(deadline);
    if (stall !== null) params.clock.clearTimeout(stall);
    params.signal?.removeEventListener('abort', onOuterAbort);
    res?.cancel();
    await fd?.close();
    if (!ok) await fs.promises.rm(params.dest, { force: true });
  }
}

function reasonOf(signal: AbortSignal, err: unknown): DownloadError {
  if (signal.aborted && signal.reason instanceof DownloadError) return signal.reason;
  if (err instanceof DownloadError) return err;
  const failure = err as { code?: string; message?: string } | null;
  return new DownloadError('download-failed', `download failed: ${failure?.code ? `${failure.code}: ` : ''}${failure?.message ?? String(err)}`);
}
