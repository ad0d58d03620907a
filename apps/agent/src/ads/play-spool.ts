import { AD_RECORDS_MAX, CONTROL_AD_PLAYS_MAX } from '@vend/protocol';
import type { ControlAdPlay, ControlAdPlaysAccepted } from '@vend/protocol';
import { CloudError } from '../cloud/client.ts';
import type { CloudClient, CloudLogger } from '../cloud/client.ts';
import { DeliveryLoop } from '../cloud/delivery-loop.ts';
import type { DeliveryLoopOptions } from '../cloud/delivery-loop.ts';
import type { PlayJournalStore, PlayRecord, PlaySpoolRecord, SpooledPlay } from './play-journal.ts';

/** A play whose `playedAt` lies further ahead of the agent's clock than this is refused (the kiosk runs on the same box). */
export const PLAYED_AT_MAX_AHEAD_MS = 10 * 60_000;
/** The file is compacted once this many of its lines are no longer needed (and they outnumber the plays waiting). */
export const COMPACT_AFTER_LINES = 2_000;
/** Statuses that say "this batch is malformed": it is halved until the one play the cloud refuses is alone, then that play is set aside. */
const MALFORMED = new Set([400, 413, 422]);

/** The kiosk's plays cannot be taken (the HTTP status the control channel answers). */
export class PlaysRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PlaysRefused';
  }
}

/** `playedAt` as epoch ms: ISO 8601 or epoch ms as sent, the agent's clock when absent; null when it names no instant. */
export function playedAtMs(v: string | number | undefined, now: number): number | null {
  if (v === undefined) return now;
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : null;
  if (/^\d{1,15}$/.test(v)) return Number(v);
  const t = Date.parse(v);
  return Number.isFinite(t) && t >= 0 ? t : null;
}

/** The kiosk's plays as they are kept: `playedAt` fixed now (so a resend is the same play); unreadable or far-future ones refused (400). */
export function normalizePlays(plays: ControlAdPlay[], now: number): SpooledPlay[] {
  return plays.map((p, i) => {
    const playedAt = playedAtMs(p.playedAt, now);
    if (playedAt === null) throw new PlaysRefused(400, 'bad-request', `plays.${i}.playedAt: not an ISO 8601 time or epoch milliseconds`);
    if (playedAt > now + PLAYED_AT_MAX_AHEAD_MS) throw new PlaysRefused(400, 'bad-request', `plays.${i}.playedAt: in the future`);
    const out: SpooledPlay = { id: p.id, playedAt };
    if (p.campaignId !== undefined) out.campaignId = p.campaignId;
    if (p.source !== undefined) out.source = p.source;
    if (p.durationMs !== undefined) out.durationMs = p.durationMs;
    return out;
  });
}

export interface PlaySpoolOptions extends DeliveryLoopOptions {
  journal: PlayJournalStore;
  client: Pick<CloudClient, 'saveAdRecords'>;
  log: CloudLogger;
  /** Plays kept at most; past it the oldest are dropped (counted). At least CONTROL_AD_PLAYS_MAX. */
  max: number;
  /** How long plays gather before a batch is sent (0: at once). A full batch goes at once. */
  flushMs: number;
  /** A play the cloud refused for good (set aside, counted). */
  onRejected?(play: SpooledPlay, message: string): void;
}

export interface PlayTotals {
  delivered: number;
  duplicates: number;
  rejected: number;
  dropped: number;
  lastDeliveredAt: number | null;
}

const key = (p: SpooledPlay): string => `${p.id}\u0000${p.playedAt}`;

/**
 * The proof-of-play spool: the kiosk's plays are appended (fsynced) before it hears "accepted", then
 * sent to `/apk/saveAdRecord` in batches of at most 500, in order, one batch at a time, and marked
 * delivered only after the cloud's 2xx. The cloud counts a (machine, entry, playedAt) once, so the
 * resend after a crash between its 2xx and the `delivered` record costs nothing. A cloud that is away
 * (no answer, 5xx, 429, 401, not enrolled yet) keeps the plays and is retried with backoff; a batch
 * it calls malformed (400/413/422) is halved until the refused play is alone, and that one is set
 * aside (`rejected`, logged) so it cannot wedge the spool; 403 (revoked) and 410 (retired) stop
 * delivery, the plays kept. Over `max` plays the oldest are dropped, counted.
 */
export class PlaySpool extends DeliveryLoop {
  private pending: PlayRecord[] = [];
  private readonly keys = new Set<string>();
  private lastN = 0;
  private lines = 0;
  private batchLimit = AD_RECORDS_MAX;
  /** While a malformed batch is being halved: the last play of the smallest batch the cloud refused (the play it refuses is in there). */
  private suspectUpTo: number | null = null;
  private phase: 'idle' | 'gathering' | 'sending' | 'backoff' = 'idle';
  private stopped = false;
  readonly totals: PlayTotals = { delivered: 0, duplicates: 0, rejected: 0, dropped: 0, lastDeliveredAt: null };
  lastError: { at: number; message: string } | null = null;

  constructor(private readonly opts: PlaySpoolOptions) {
    super(opts);
  }

  /** Reads the file: the plays still to deliver and the totals. Returns the lines dropped (a torn tail). */
  load(): { dropped: number } {
    const { records, dropped } = this.opts.journal.load();
    let upTo = 0;
    const plays: PlayRecord[] = [];
    for (const r of records) {
      if (r.t === 'play') {
        plays.push(r);
        this.lastN = Math.max(this.lastN, r.n);
      } else if (r.t === 'meta') {
        Object.assign(this.totals, { delivered: r.delivered, duplicates: r.duplicates, rejected: r.rejected, dropped: r.dropped });
        this.totals.lastDeliveredAt = r.lastDeliveredAt;
        this.lastN = Math.max(this.lastN, r.lastN);
      } else {
        upTo = Math.max(upTo, r.upTo);
        this.count(r);
      }
    }
    this.pending = plays.filter((p) => p.n > upTo);
    for (const p of this.pending) this.keys.add(key(p.play));
    this.lines = records.length;
    return { dropped };
  }

  get backlog(): number {
    return this.pending.length;
  }

  /** When the oldest play waiting was taken (null: none waiting). */
  get oldestAt(): number | null {
    return this.pending[0]?.at ?? null;
  }

  /**
   * Takes the kiosk's plays: appended and fsynced before this returns (a failing disk throws, and
   * nothing is taken). A play already waiting (same entry id and playedAt) is counted as a duplicate.
   */
  add(plays: SpooledPlay[]): ControlAdPlaysAccepted {
    if (plays.length > CONTROL_AD_PLAYS_MAX) throw new PlaysRefused(400, 'bad-request', `at most ${CONTROL_AD_PLAYS_MAX} plays per request`);
    const now = this.opts.clock.now();
    const fresh: PlayRecord[] = [];
    const seen = new Set<string>();
    let duplicates = 0;
    let n = this.lastN;
    for (const play of plays) {
      const k = key(play);
      if (this.keys.has(k) || seen.has(k)) {
        duplicates++;
        continue;
      }
      seen.add(k);
      fresh.push({ t: 'play', n: ++n, at: now, play });
    }
    // the cap: the oldest waiting plays go (a request holds at most CONTROL_AD_PLAYS_MAX ≤ max, so never its own)
    const max = Math.max(this.opts.max, CONTROL_AD_PLAYS_MAX);
    const over = Math.max(0, this.pending.length + fresh.length - max);
    const records: PlaySpoolRecord[] = [...fresh];
    if (over > 0) records.push({ t: 'dropped', upTo: this.pending[over - 1]!.n, at: now, count: over });
    this.opts.journal.append(records);
    this.lines += records.length;
    this.lastN = n;
    this.pending.push(...fresh);
    for (const r of fresh) this.keys.add(key(r.play));
    if (over > 0) {
      this.remove(this.pending[over - 1]!.n);
      this.totals.dropped += over;
      this.opts.log.warn({ dropped: over, backlog: this.pending.length, max }, 'ad play spool full: the oldest plays were dropped');
    }
    if (fresh.length > 0 && (this.phase === 'idle' || this.phase === 'gathering')) this.waker.wake();
    this.compactIfDue();
    return { accepted: fresh.length, duplicates, backlog: this.pending.length, dropped: over };
  }

  protected override async loop(signal: AbortSignal): Promise<void> {
    const clock = this.opts.clock;
    while (!signal.aborted && !this.stopped) {
      const head = this.pending[0];
      if (!head) {
        this.phase = 'idle';
        await this.idle(signal, null);
        continue;
      }
      const age = clock.now() - head.at;
      if (this.opts.flushMs > 0 && this.pending.length < AD_RECORDS_MAX && age < this.opts.flushMs) {
        this.phase = 'gathering';
        await this.idle(signal, this.opts.flushMs - age);
        continue;
      }
      this.phase = 'sending';
      const suspect = this.suspectUpTo;
      const batch = this.pending.slice(0, this.batchLimit).filter((p) => suspect === null || p.n <= suspect);
      if (batch.length === 0) {
        this.endSuspicion(); // the suspect plays were dropped over the cap meanwhile
        continue;
      }
      const wait = await this.deliver(batch, signal);
      if (wait === 'stop') return;
      if (wait !== null) {
        this.phase = 'backoff';
        await this.idle(signal, wait);
      }
    }
  }

  /** Sends one batch; the delay before the next try (null: go on at once), or 'stop'. */
  private async deliver(batch: PlayRecord[], signal: AbortSignal): Promise<number | null | 'stop'> {
    const { clock, log } = this.opts;
    const last = batch[batch.length - 1]!;
    try {
      const answer = await this.opts.client.saveAdRecords(
        batch.map((r) => r.play),
        { attempts: 1, signal },
      );
      this.settle({ t: 'delivered', upTo: last.n, at: clock.now(), accepted: answer.accepted, duplicates: answer.duplicates });
      // halving: the rest of the refused batch goes next in pieces of the same size; past it, full batches again
      if (this.suspectUpTo === null || last.n >= this.suspectUpTo) this.endSuspicion();
      this.answered();
      log.info({ plays: batch.length, accepted: answer.accepted, duplicates: answer.duplicates, backlog: this.pending.length }, 'ad plays delivered');
      return null;
    } catch (e) {
      if (e instanceof CloudError && e.kind === 'aborted') return 'stop';
      this.lastError = { at: clock.now(), message: (e as Error).message };
      if (!(e instanceof CloudError)) {
        // the disk refused the `delivered` record: the plays stay and go again (the cloud counts them once)
        log.error({ error: (e as Error).message }, 'ad play spool could not be written');
        return this.backoffDelay();
      }
      if (e.kind === 'revoked' || (e.kind === 'http' && e.status === 410)) {
        this.stopped = true;
        log.error(
          { backlog: this.pending.length, error: e.message },
          'ad plays are no longer delivered (credential revoked or machine retired); they stay on disk',
        );
        return 'stop';
      }
      if (e.kind === 'http' && e.status !== null && MALFORMED.has(e.status)) {
        if (batch.length > 1) {
          this.suspectUpTo = last.n;
          this.batchLimit = Math.ceil(batch.length / 2);
          log.warn(
            { plays: batch.length, status: e.status, error: e.message },
            'the cloud refused a batch of ad plays; halving it to find the play it refuses',
          );
          return null;
        }
        this.settle({ t: 'rejected', upTo: last.n, at: clock.now(), status: e.status, message: e.message.slice(0, 500) });
        this.endSuspicion();
        log.error({ play: last.play, status: e.status, error: e.message }, 'the cloud refused an ad play for good; set aside');
        this.opts.onRejected?.(last.play, e.message);
        return null;
      }
      const wait = this.retryDelay(e);
      if (e.kind !== 'no-credential') log.warn({ error: e.message, retryInMs: wait, backlog: this.pending.length }, 'ad plays not delivered; kept');
      return wait;
    }
  }

  private endSuspicion(): void {
    this.suspectUpTo = null;
    this.batchLimit = AD_RECORDS_MAX;
  }

  /** Appends a record ending a prefix of the plays, then forgets them. */
  private settle(record: Exclude<PlaySpoolRecord, PlayRecord | { t: 'meta' }>): void {
    this.opts.journal.append([record]);
    this.lines++;
    this.remove(record.upTo);
    this.count(record);
    this.compactIfDue();
  }

  private count(r: Exclude<PlaySpoolRecord, PlayRecord | { t: 'meta' }>): void {
    if (r.t === 'delivered') {
      this.totals.delivered += r.accepted + r.duplicates;
      this.totals.duplicates += r.duplicates;
      this.totals.lastDeliveredAt = r.at;
    } else if (r.t === 'rejected') this.totals.rejected++;
    else this.totals.dropped += r.count;
  }

  private remove(upTo: number): void {
    let i = 0;
    while (i < this.pending.length && this.pending[i]!.n <= upTo) this.keys.delete(key(this.pending[i++]!.play));
    if (i > 0) this.pending = this.pending.slice(i);
  }

  /** Rewrites the file as the totals and the plays still waiting, once most of it is dead. */
  private compactIfDue(): void {
    const dead = this.lines - this.pending.length;
    if (dead < COMPACT_AFTER_LINES || dead < this.pending.length) return;
    const meta: PlaySpoolRecord = { t: 'meta', at: this.opts.clock.now(), lastN: this.lastN, ...this.totals };
    try {
      this.opts.journal.rewrite([meta, ...this.pending]);
      this.lines = 1 + this.pending.length;
    } catch (e) {
      this.opts.log.warn({ error: (e as Error).message }, 'ad play spool compaction failed; the file stays as it is');
    }
  }
}
