import type { AdEntry, Clock, ControlAdLoop, ControlAdPlay, ControlAdPlaysAccepted, ControlAdsStatus } from '@vend/protocol';
import type { AgentConfig } from '../config.ts';
import type { RandomSource } from '../cloud/backoff.ts';
import type { CloudClient, CloudLogger } from '../cloud/client.ts';
import { readTextIfExists } from '../state/fs-atomic.ts';
import type { StateDir } from '../state/state-dir.ts';
import { AdLoopKeeper, FileLoopStore, resolveEntries, resolveMediaUrl } from './loop.ts';
import type { LoopView } from './loop.ts';
import { MediaCache, nodeMediaFetch } from './media.ts';
import type { MediaFetch, MediaFile } from './media.ts';
import { JsonlJournal, MemoryJsonlJournal } from '../state/jsonl-journal.ts';
import { PlaySpoolRecord } from './play-journal.ts';
import { PlaySpool, PlaysRefused, normalizePlays } from './play-spool.ts';

export { PlaysRefused } from './play-spool.ts';

/** What the kiosk routes of the control channel need (control/kiosk.ts). */
export interface KioskAds {
  /** The loop, its entries pointing at `localBase` for media the agent holds. */
  loop(localBase: string): Promise<ControlAdLoop>;
  /** Takes the kiosk's plays durably; PlaysRefused for a bad play (400) or a disk that refuses (503). */
  addPlays(plays: ControlAdPlay[]): ControlAdPlaysAccepted;
  /** A cached media file by its key. */
  media(key: string): (MediaFile & { path: string }) | null;
  /** Origins whose pages may call the kiosk routes. */
  allowedOrigins(): string[];
}

export type AdsConfig = Pick<
  AgentConfig,
  | 'cloudUrl'
  | 'adRefreshSeconds'
  | 'adStaleSeconds'
  | 'adPlaySpoolMax'
  | 'adPlayFlushSeconds'
  | 'adMediaCacheMb'
  | 'kioskOrigins'
  | 'backoffBaseMs'
  | 'backoffCapMs'
  | 'downloadTimeoutMs'
>;

export interface AdsOptions {
  config: AdsConfig & { cloudUrl: string };
  state: Pick<StateDir, 'path'>;
  client: Pick<CloudClient, 'getAd' | 'saveAdRecords'>;
  clock: Clock;
  random: RandomSource;
  log: { child(b: object): CloudLogger } & CloudLogger;
  /** The configuration block's kiosk UI address (its origin may call the kiosk routes). */
  kioskUiUrl: () => string;
  mediaFetch?: MediaFetch;
  onPlayRejected?(message: string): void;
}

/** The origin of a URL the cloud gave (relative ones against the cloud URL), or null. */
function originOf(url: string, cloudUrl: string): string | null {
  if (url === '') return null;
  const abs = resolveMediaUrl(url, cloudUrl);
  return abs === null ? null : new URL(abs).origin;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * Screen advertising on the cabinet (docs/agent.md "Screen advertising"): the attract loop kept for
 * the kiosk (loop.ts), its media cached (media.ts), and the kiosk's plays spooled to the cloud
 * (play-spool.ts). The daemon builds one and runs it beside its cloud loops.
 */
export class Ads implements KioskAds {
  readonly keeper: AdLoopKeeper;
  readonly spool: PlaySpool;
  readonly mediaCache: MediaCache | null;
  private readonly journal: JsonlJournal<PlaySpoolRecord>;
  private readonly cloudUrl: string;

  constructor(private readonly opts: AdsOptions) {
    const { config, state, client, clock, random, log } = opts;
    this.cloudUrl = config.cloudUrl;
    const backoff = { baseMs: config.backoffBaseMs, capMs: config.backoffCapMs };
    this.mediaCache =
      config.adMediaCacheMb > 0
        ? new MediaCache({
            dir: state.path('adMedia'),
            capBytes: config.adMediaCacheMb * 1024 * 1024,
            fetch: opts.mediaFetch ?? nodeMediaFetch(),
            clock,
            log: log.child({ part: 'ad-media' }),
            timeoutMs: config.downloadTimeoutMs,
          })
        : null;
    this.keeper = new AdLoopKeeper({
      client,
      store: new FileLoopStore(state.path('adLoop')),
      clock,
      random,
      log: log.child({ part: 'ad-loop' }),
      refreshMs: config.adRefreshSeconds * 1000,
      staleMs: config.adStaleSeconds * 1000,
      backoff,
      onLoop: (loop) => this.followMedia(loop.entries),
    });
    this.journal = new JsonlJournal(state.path('adPlays'), PlaySpoolRecord);
    this.spool = new PlaySpool({
      journal: this.journal,
      client,
      clock,
      random,
      log: log.child({ part: 'ad-plays' }),
      backoff,
      max: config.adPlaySpoolMax,
      flushMs: config.adPlayFlushSeconds * 1000,
      onRejected: (play, message) => opts.onPlayRejected?.(`ad play ${play.id} rejected: ${message}`),
    });
  }

  /** Reads the state directory (play spool, media index); returns what the spool dropped as torn. */
  load(): { droppedLines: number } {
    const { dropped } = this.spool.load();
    this.mediaCache?.init();
    const kept = this.keeper.view().stored;
    if (kept) this.followMedia(kept.loop.entries);
    return { droppedLines: dropped };
  }

  /** The loop refresh and the play delivery, until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    signal.addEventListener('abort', () => this.mediaCache?.close(), { once: true });
    await Promise.all([this.keeper.run(signal), this.spool.start(signal)]);
  }

  /** The cloud is reachable with the key now (registered): fetch and deliver at once. */
  wake(): void {
    this.keeper.wake();
    this.spool.wake();
  }

  /** Another call reached the cloud. */
  nudge(): void {
    this.spool.nudge();
  }

  close(): void {
    this.mediaCache?.close();
    this.journal.close();
  }

  private followMedia(entries: AdEntry[]): void {
    if (!this.mediaCache) return;
    const urls = resolveEntries(entries, this.cloudUrl).entries.map((e) => e.remoteUrl);
    this.mediaCache.follow(urls).catch((e: unknown) => {
      this.mediaCache!.lastError = (e as Error).message;
    });
  }

  // --- the kiosk routes ------------------------------------------------------------------------

  async loop(localBase: string): Promise<ControlAdLoop> {
    await this.keeper.demand();
    return loopAnswer(this.keeper.view(), this.cloudUrl, localBase, (url) => this.mediaCache?.lookup(url) ?? null);
  }

  addPlays(plays: ControlAdPlay[]): ControlAdPlaysAccepted {
    const spooled = normalizePlays(plays, this.opts.clock.now());
    try {
      return this.spool.add(spooled);
    } catch (e) {
      if (e instanceof PlaysRefused) throw e;
      throw new PlaysRefused(503, 'spool-unavailable', `the plays could not be written to disk: ${(e as Error).message}`);
    }
  }

  media(key: string): (MediaFile & { path: string }) | null {
    return this.mediaCache?.file(key) ?? null;
  }

  allowedOrigins(): string[] {
    const fromBlock = originOf(this.opts.kioskUiUrl(), this.cloudUrl);
    return [...new Set([...this.opts.config.kioskOrigins, ...(fromBlock ? [fromBlock] : [])])];
  }

  status(): ControlAdsStatus {
    return adsStatus(this.keeper.view(), this.keeper, this.spool, this.mediaCache?.status() ?? null);
  }
}

/**
 * The loop as the kiosk gets it: entries with absolute URLs, the local copy's address where there is
 * one. Without a cloud URL (a CLI reading the state directory) the URLs are shown as the cloud gave them.
 */
export function loopAnswer(view: LoopView, cloudUrl: string | null, localBase: string, lookup: (url: string) => MediaFile | null): ControlAdLoop {
  const loop = view.stored?.loop;
  const resolved = cloudUrl === null ? (loop?.entries ?? []).map((e) => ({ ...e, remoteUrl: e.url })) : resolveEntries(loop?.entries ?? [], cloudUrl).entries;
  const entries = resolved.map((e) => {
    const copy = lookup(e.remoteUrl);
    return { ...e, url: copy ? `${localBase}/v1/ads/media/${copy.key}` : e.remoteUrl, cached: copy !== null };
  });
  return {
    machineCode: loop?.machineCode ?? null,
    slotSeconds: loop?.slotSeconds ?? 15,
    entries,
    fetchedAt: iso(view.stored?.fetchedAt ?? null),
    ageSeconds: view.ageMs === null ? null : Math.floor(view.ageMs / 1000),
    stale: view.stale,
    source: view.source,
    ...(view.error !== null ? { error: view.error } : {}),
  };
}

function adsStatus(
  view: LoopView,
  keeper: Pick<AdLoopKeeper, 'lastAttemptAt' | 'lastError'>,
  spool: Pick<PlaySpool, 'backlog' | 'oldestAt' | 'totals' | 'lastError'>,
  media: ControlAdsStatus['media'] | null,
): ControlAdsStatus {
  return {
    loop: {
      entries: view.stored?.loop.entries.length ?? 0,
      machineCode: view.stored?.loop.machineCode ?? null,
      fetchedAt: iso(view.stored?.fetchedAt ?? null),
      stale: view.stale,
      source: view.source,
      lastAttemptAt: iso(keeper.lastAttemptAt),
      lastError: keeper.lastError ? { at: iso(keeper.lastError.at), message: keeper.lastError.message } : null,
    },
    plays: {
      backlog: spool.backlog,
      oldestAt: iso(spool.oldestAt),
      ...spool.totals,
      lastDeliveredAt: iso(spool.totals.lastDeliveredAt),
      lastError: spool.lastError ? { at: iso(spool.lastError.at), message: spool.lastError.message } : null,
    },
    media: media ?? { files: 0, bytes: 0, capBytes: 0, lastError: null },
  };
}

/** The ads state read from the state directory alone (the daemon is not running): what `status` and `ads show` print then. */
export function offlineAds(state: Pick<StateDir, 'path'>, config: Pick<AgentConfig, 'adStaleSeconds' | 'cloudUrl'>, clock: Clock) {
  const noop = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
  const keeper = new AdLoopKeeper({
    client: { getAd: () => Promise.reject(new Error('offline')) },
    store: new FileLoopStore(state.path('adLoop')),
    clock,
    random: () => 0,
    log: noop,
    refreshMs: 0,
    staleMs: config.adStaleSeconds * 1000,
    backoff: { baseMs: 1, capMs: 1 },
  });
  const journal = new MemoryJsonlJournal(PlaySpoolRecord);
  journal.text = readTextIfExists(state.path('adPlays')) ?? '';
  const spool = new PlaySpool({
    journal,
    client: { saveAdRecords: () => Promise.reject(new Error('offline')) },
    clock,
    random: () => 0,
    log: noop,
    backoff: { baseMs: 1, capMs: 1 },
    max: Number.MAX_SAFE_INTEGER,
    flushMs: 0,
  });
  spool.load();
  const view = keeper.view();
  const status = adsStatus(view, keeper, spool, null);
  const loop = loopAnswer(view, config.cloudUrl ?? null, '', () => null);
  return { status, loop };
}
