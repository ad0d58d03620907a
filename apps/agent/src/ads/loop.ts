import { z } from 'zod';
import { AdLoopData } from '@vend/protocol';
import type { AdEntry, Clock } from '@vend/protocol';
import { backoffDelay } from '../cloud/backoff.ts';
import type { RandomSource } from '../cloud/backoff.ts';
import { CloudError } from '../cloud/client.ts';
import type { CloudClient, CloudLogger } from '../cloud/client.ts';
import { readJsonIfValid, writeFileAtomic } from '../state/fs-atomic.ts';
import { elapsedNow } from '../state/monotonic.ts';
import { Waker } from '../cloud/waker.ts';

/**
 * The attract loop the kiosk plays: fetched from `/apk/getAd` at start and every `refreshMs`
 * (jittered ±20 %, so a fleet does not call in step), sooner when the kiosk asks for a loop older than
 * that; the last good one is kept on disk (atomically) and served while the cloud is away, marked
 * stale once older than `staleMs`. A failed fetch never replaces a good loop.
 */

/** The last good loop as the cloud sent it (URLs unresolved), and when it came. */
export const StoredLoop = z.object({ fetchedAt: z.number().int(), loop: AdLoopData });
export type StoredLoop = z.infer<typeof StoredLoop>;

/** Where the loop is kept: a file in production, memory in unit tests. */
export interface LoopStore {
  read(): StoredLoop | null;
  write(stored: StoredLoop): void;
}

/** `ad-loop.json` in the state directory, replaced atomically; unreadable content is no loop. */
export class FileLoopStore implements LoopStore {
  constructor(readonly path: string) {}
  read(): StoredLoop | null {
    return readJsonIfValid(this.path, StoredLoop);
  }
  write(stored: StoredLoop): void {
    writeFileAtomic(this.path, JSON.stringify(stored) + '\n', { mode: 0o600 });
  }
}

export class MemoryLoopStore implements LoopStore {
  writes = 0;
  constructor(public stored: StoredLoop | null = null) {}
  read(): StoredLoop | null {
    return this.stored;
  }
  write(stored: StoredLoop): void {
    this.writes++;
    this.stored = stored;
  }
}

/**
 * A media URL of the loop made absolute: http(s) URLs as they are; one relative to the cloud
 * (`/media/<sha>.png`, `//host/x`, `media/x.png`) against the agent's cloud URL (its path prefix kept,
 * as the client builds leg URLs); any other scheme (`data:`, `javascript:`) is null — never played.
 */
export function resolveMediaUrl(url: string, cloudUrl: string): string | null {
  const base = cloudUrl.replace(/\/+$/, '');
  let out: string;
  if (/^https?:\/\//i.test(url)) out = url;
  else if (url.startsWith('//')) out = `${new URL(base).protocol}${url}`;
  else if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return null;
  else out = url.startsWith('/') ? base + url : `${base}/${url}`;
  if (!URL.canParse(out)) return null;
  return new URL(out).href;
}

/** The loop's entries with absolute URLs (`remoteUrl`); entries whose URL cannot be played are left out. */
export function resolveEntries(entries: AdEntry[], cloudUrl: string): { entries: (AdEntry & { remoteUrl: string })[]; refused: string[] } {
  const out: (AdEntry & { remoteUrl: string })[] = [];
  const refused: string[] = [];
  for (const e of entries) {
    const remoteUrl = resolveMediaUrl(e.url, cloudUrl);
    if (remoteUrl === null) refused.push(e.id);
    else out.push({ ...e, remoteUrl });
  }
  return { entries: out, refused };
}

export interface AdLoopKeeperOptions {
  client: Pick<CloudClient, 'getAd'>;
  store: LoopStore;
  clock: Clock;
  random: RandomSource;
  log: CloudLogger;
  refreshMs: number;
  staleMs: number;
  backoff: { baseMs: number; capMs: number };
  /** A new loop was fetched (the media cache follows it). */
  onLoop?: (loop: AdLoopData) => void;
}

/** The least time between two fetches the kiosk's requests cause (the loop's own schedule is not limited). */
export const DEMAND_GAP_MS = 5_000;

export interface LoopView {
  stored: StoredLoop | null;
  source: 'cloud' | 'disk' | 'none';
  stale: boolean;
  ageMs: number | null;
  error: string | null;
}

export class AdLoopKeeper {
  private stored: StoredLoop | null;
  private source: 'cloud' | 'disk' | 'none';
  private inflight: Promise<boolean> | null = null;
  private failures = 0;
  private stopped = false;
  private retryAfterMs: number | null = null;
  private readonly waker = new Waker();
  lastAttemptAt: number | null = null;
  lastError: { at: number; message: string } | null = null;
  /**
   * The same two instants on the monotonic clock, for the loop's age and the gap between on-demand
   * fetches: a wall-clock step must neither keep an old loop fresh nor hold a fetch off for hours
   * (state/monotonic.ts). Null until this process fetched.
   */
  private fetchedElapsed: number | null = null;
  private attemptElapsed: number | null = null;

  constructor(private readonly opts: AdLoopKeeperOptions) {
    this.stored = opts.store.read();
    this.source = this.stored ? 'disk' : 'none';
  }

  /**
   * How old the loop served is: by the monotonic clock once this process fetched it; a loop from disk by
   * wall time, and 'unknown' when stamped in the future (the clock was stepped back since): due and stale.
   */
  private age(): number | 'unknown' | null {
    if (this.stored === null) return null;
    if (this.fetchedElapsed !== null) return elapsedNow(this.opts.clock) - this.fetchedElapsed;
    const age = this.opts.clock.now() - this.stored.fetchedAt;
    return age < 0 ? 'unknown' : age;
  }

  /** What the kiosk is served now. */
  view(): LoopView {
    const age = this.age();
    return {
      stored: this.stored,
      source: this.source,
      stale: age === null || age === 'unknown' || age > this.opts.staleMs,
      ageMs: age === 'unknown' ? 0 : age,
      error: this.lastError?.message ?? null,
    };
  }

  /** One fetch (joined by concurrent callers); true when a loop came. Never throws for a cloud failure. */
  refresh(signal?: AbortSignal): Promise<boolean> {
    this.inflight ??= this.fetchOnce(signal).finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  /**
   * The kiosk asked for the loop: with none, or one older than the refresh interval, a fetch is due
   * (at most one per DEMAND_GAP_MS). Resolves once it is done when there is no loop at all (so the
   * first request after enrolment gets one); otherwise at once, the fetch going on behind.
   */
  async demand(signal?: AbortSignal): Promise<void> {
    const age = this.age();
    const due = age === null || age === 'unknown' || age >= this.opts.refreshMs;
    if (!due || this.stopped) return;
    if (this.inflight) {
      if (this.stored === null) await this.inflight;
      return;
    }
    if (this.attemptElapsed !== null && elapsedNow(this.opts.clock) - this.attemptElapsed < DEMAND_GAP_MS) return;
    const fetch = this.refresh(signal);
    if (this.stored === null) await fetch;
  }

  /** Something changed (enrolled, registered, the cloud is back): fetch now. */
  wake(): void {
    this.failures = 0;
    this.waker.wake();
  }

  /** Fetches at start, then every refreshMs (jittered); after a failure sooner, with backoff. Stops on revocation. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && !this.stopped) {
      const ok = await this.refresh(signal);
      if (signal.aborted || this.stopped) return;
      const { refreshMs, backoff, random } = this.opts;
      const wait = ok
        ? Math.round(refreshMs * (0.8 + 0.4 * random()))
        : Math.min(refreshMs, backoffDelay(this.failures++, { ...backoff, random }, this.retryAfterMs));
      await this.waker.idle(this.opts.clock, signal, wait);
    }
  }

  private async fetchOnce(signal?: AbortSignal): Promise<boolean> {
    const { clock, log } = this.opts;
    this.lastAttemptAt = clock.now();
    this.attemptElapsed = elapsedNow(clock);
    try {
      const loop = await this.opts.client.getAd({ attempts: 1, ...(signal ? { signal } : {}) });
      const stored = { fetchedAt: clock.now(), loop };
      const changed = JSON.stringify(loop) !== JSON.stringify(this.stored?.loop);
      // the fetch time matters too (staleness after a restart): written every time, a small file
      this.opts.store.write(stored);
      this.stored = stored;
      this.fetchedElapsed = elapsedNow(clock);
      this.source = 'cloud';
      this.lastError = null;
      this.failures = 0;
      this.retryAfterMs = null;
      if (changed) log.info({ entries: loop.entries.length, slotSeconds: loop.slotSeconds }, 'ad loop updated');
      this.opts.onLoop?.(loop);
      return true;
    } catch (e) {
      if (!(e instanceof CloudError)) {
        // the disk refused the write: keep serving what is in memory
        this.lastError = { at: clock.now(), message: `ad loop not kept: ${(e as Error).message}` };
        log.error({ error: (e as Error).message }, 'ad loop could not be written to the state directory');
        return false;
      }
      if (e.kind === 'aborted') return false;
      this.lastError = { at: clock.now(), message: e.message };
      this.retryAfterMs = e.retryAfterMs;
      if (e.kind === 'revoked') {
        this.stopped = true;
        log.error({}, 'credential revoked: the ad loop is no longer fetched (the last one is still served)');
      } else if (e.kind !== 'no-credential') log.warn({ error: e.message, kept: this.stored !== null }, 'ad loop not fetched; serving the last one');
      return false;
    }
  }
}
