import type { ControlAdEntry, ControlAdLoop, ControlAdPlay } from '@vend/protocol';
import { h } from './dom.ts';

/** How long a picture or video may take to load before the entry is skipped. */
const LOAD_TIMEOUT_MS = 8_000;
/** Plays go to the agent in batches: at most this many at once, at least this often. */
const PLAYS_BATCH = 20;
const PLAYS_FLUSH_MS = 10_000;
/** Plays kept while the agent does not take them (the oldest dropped beyond). */
const PLAYS_KEPT = 500;

export interface LoopPlayerOptions {
  stage: HTMLElement;
  caption: HTMLElement;
  /** Fetches the loop the agent serves (its cached copy while the cloud is away). */
  fetchLoop: () => Promise<ControlAdLoop>;
  sendPlays: (plays: ControlAdPlay[]) => Promise<void>;
  /** The loop's time runs this many times faster (benchmarks of an hour of the loop); 1 on a kiosk. A shopper's time never does. */
  speed: number;
}

const isVideo = (e: ControlAdEntry): boolean => e.type === 'video' || (e.mediaType ?? '').startsWith('video/') || /\.mp4(\?|$)/i.test(e.url);

/**
 * The attract loop: the agent's entries in order, each for `slotSeconds` (a video to its end), each
 * showing reported to the agent with the time it began (`playedAt`: a retried report counts once). An
 * entry that fails to load is skipped and not reported. The loop is fetched again after each round, so
 * a new campaign joins at the next round and a cloud outage changes nothing (the agent serves its cache).
 */
export class LoopPlayer {
  private loop: ControlAdLoop | null = null;
  private index = 0;
  private running = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private current: HTMLElement | null = null;
  private readonly queue: ControlAdPlay[] = [];
  private flushing = false;
  private lastFlush = Date.now();
  /** Showings reported to the agent so far (the page's own count, for tests and the technician). */
  reported = 0;
  skipped = 0;

  constructor(private readonly o: LoopPlayerOptions) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.next();
  }

  /** Stops at once (the shopper touched the screen); the showing cut short is not reported. */
  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current?.remove();
    this.current = null;
    void this.flush();
  }

  private async next(): Promise<void> {
    if (!this.running) return;
    if (this.loop === null || this.index >= this.loop.entries.length) {
      this.index = 0;
      this.loop = await this.o.fetchLoop().catch(() => this.loop);
      if (!this.running) return;
    }
    const loop = this.loop;
    const entry = loop?.entries[this.index++];
    if (!loop || !entry) {
      // nothing to play (a screen not for sale with nothing of its own, or no loop yet): a plain welcome, and ask again soon
      this.showIdle();
      return this.wait(5_000, () => void this.next());
    }
    const shown = await this.show(entry);
    if (!this.running) return;
    if (!shown) {
      this.skipped++;
      // every entry failing must not spin: a short pause per skip
      return this.wait(250, () => void this.next());
    }
    const playedAt = new Date().toISOString();
    const began = performance.now();
    const done = (): void => {
      this.record({ id: entry.id, playedAt, durationMs: Math.round((performance.now() - began) * this.o.speed), ...this.attribution(entry) });
      void this.next();
    };
    if (shown instanceof HTMLVideoElement) {
      const cap = Math.max(loop.slotSeconds, 60) * 1000;
      this.wait(cap, done);
      shown.addEventListener(
        'ended',
        () => {
          if (!this.running || this.timer === null) return;
          clearTimeout(this.timer);
          this.timer = null;
          done();
        },
        { once: true },
      );
      return;
    }
    return this.wait(loop.slotSeconds * 1000, done);
  }

  private attribution(e: ControlAdEntry): Pick<ControlAdPlay, 'campaignId' | 'source'> {
    return { ...(e.campaignId ? { campaignId: e.campaignId } : {}), ...(e.source ? { source: e.source } : {}) };
  }

  private wait(ms: number, then: () => void): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      then();
    }, ms / this.o.speed);
  }

  /** Loads the entry's media and puts it on the stage; null when it did not load in time. */
  private async show(entry: ControlAdEntry): Promise<HTMLElement | null> {
    const alt = entry.head || 'Advertisement';
    const el = isVideo(entry)
      ? h('video', { src: entry.url, muted: true, playsinline: true, preload: 'auto', class: 'media', 'aria-label': alt })
      : h('img', { src: entry.url, alt, class: 'media', decoding: 'async' });
    const loaded = await new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), LOAD_TIMEOUT_MS);
      const ok = (): void => (clearTimeout(t), resolve(true));
      const bad = (): void => (clearTimeout(t), resolve(false));
      if (el instanceof HTMLVideoElement) {
        el.muted = true;
        el.addEventListener('canplay', ok, { once: true });
        el.addEventListener('error', bad, { once: true });
        el.load();
      } else el.decode().then(ok, bad);
    });
    if (!loaded || !this.running) return null;
    this.current?.remove();
    this.o.stage.append(el);
    this.current = el;
    this.o.caption.textContent = entry.head;
    if (el instanceof HTMLVideoElement) await el.play().catch(() => undefined);
    return el;
  }

  private showIdle(): void {
    if (this.current?.classList.contains('idle')) return;
    this.current?.remove();
    this.current = h('div', { class: 'media idle' }, h('p', {}, 'Welcome'));
    this.o.stage.append(this.current);
    this.o.caption.textContent = '';
  }

  private record(play: ControlAdPlay): void {
    this.queue.push(play);
    if (this.queue.length > PLAYS_KEPT) this.queue.splice(0, this.queue.length - PLAYS_KEPT);
    if (this.queue.length >= PLAYS_BATCH || Date.now() - this.lastFlush >= PLAYS_FLUSH_MS / this.o.speed) void this.flush();
  }

  /** Sends what is queued; kept for the next try when the agent does not take it. */
  async flush(): Promise<void> {
    if (this.flushing || this.queue.length === 0) return;
    this.flushing = true;
    this.lastFlush = Date.now();
    const batch = this.queue.slice(0, 100);
    try {
      await this.o.sendPlays(batch);
      this.queue.splice(0, batch.length);
      this.reported += batch.length;
    } catch {
      // the agent is restarting: the plays stay queued (their playedAt makes a resend count once)
    } finally {
      this.flushing = false;
    }
  }
}
