import { z } from 'zod';
import type { JsonlStore } from '../state/jsonl-journal.ts';
import { CloudError } from './client.ts';
import type { CallOptions, CloudLogger } from './client.ts';
import { elapsedNow } from '../state/monotonic.ts';
import { DeliveryLoop } from './delivery-loop.ts';
import type { DeliveryLoopOptions } from './delivery-loop.ts';

/**
 * The kiosk spools' file (`ad-plays.log`, `prize-events.log`): one JSON record per line, appended and
 * fsynced before the kiosk hears "accepted". Items get increasing numbers `n`; every other record ends
 * a *prefix* of them (`upTo`): delivered (the cloud answered 2xx), rejected (the cloud refused that item
 * for good), dropped (the spool was over its cap). So the items still to deliver are those numbered
 * above the highest `upTo`, in order. A compaction rewrites the file (atomically) as one `meta` record
 * carrying the totals and the items still to deliver. A line cut short by a crash is the last one and
 * is dropped on load (the file truncated back to the last whole record). The item record keeps the
 * name the ad-play spool gave it first (`t: 'play'`, field `play`), so files written before stay readable.
 */
const n = z.number().int().min(1);
const at = z.number().int();

export interface SpoolItemRecord<I> {
  t: 'play';
  n: number;
  at: number;
  play: I;
}
export type SpoolSettleRecord =
  | { t: 'delivered'; upTo: number; at: number; accepted: number; duplicates: number }
  | { t: 'rejected'; upTo: number; at: number; status: number | null; message: string }
  | { t: 'dropped'; upTo: number; at: number; count: number };
export interface SpoolMetaRecord {
  t: 'meta';
  at: number;
  /** The highest item number ever given (so numbers never repeat after a compaction). */
  lastN: number;
  delivered: number;
  duplicates: number;
  rejected: number;
  dropped: number;
  lastDeliveredAt: number | null;
}
export type BatchSpoolRecord<I> = SpoolItemRecord<I> | SpoolSettleRecord | SpoolMetaRecord;

/** The record schema of a spool of `item`s. */
export function batchSpoolRecord<S extends z.ZodType>(item: S) {
  return z.discriminatedUnion('t', [
    z.object({ t: z.literal('play'), n, at, play: item }),
    z.object({ t: z.literal('delivered'), upTo: n, at, accepted: z.number().int(), duplicates: z.number().int() }),
    z.object({ t: z.literal('rejected'), upTo: n, at, status: z.number().int().nullable(), message: z.string() }),
    z.object({ t: z.literal('dropped'), upTo: n, at, count: z.number().int() }),
    z.object({
      t: z.literal('meta'),
      at,
      lastN: z.number().int().min(0),
      delivered: z.number().int(),
      duplicates: z.number().int(),
      rejected: z.number().int(),
      dropped: z.number().int(),
      lastDeliveredAt: at.nullable(),
    }),
  ]);
}

/** The file is compacted once this many of its lines are no longer needed (and they outnumber the items waiting). */
export const COMPACT_AFTER_LINES = 2_000;
/** Statuses that say "this batch is malformed": it is halved until the one item the cloud refuses is alone, then that item is set aside. */
const MALFORMED = new Set([400, 413, 422]);

/** The kiosk's items cannot be taken (the HTTP status the control channel answers). */
export class ItemsRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ItemsRefused';
  }
}

export interface BatchSpoolOptions<I> extends DeliveryLoopOptions {
  journal: JsonlStore<BatchSpoolRecord<I>>;
  log: CloudLogger;
  /** What one item is, for logs and messages ("ad play", "prize event"). */
  noun: string;
  /** Items one kiosk request may carry at most. */
  requestMax: number;
  /** Items one delivery batch carries at most (the cloud leg's bound). */
  batchMax: number;
  /** Items kept at most; past it the oldest are dropped (counted). At least `requestMax`. */
  max: number;
  /** How long items gather before a batch is sent (0: at once). A full batch goes at once. */
  flushMs: number;
  /** The identity of an item: one already waiting is a duplicate. */
  key(item: I): string;
  /** Sends one batch to the cloud (throws CloudError); the answer's counts. */
  send(items: I[], options: CallOptions): Promise<{ accepted: number; duplicates: number }>;
  /** An item the cloud refused for good (set aside, counted). */
  onRejected?(item: I, message: string): void;
}

export interface SpoolTotals {
  delivered: number;
  duplicates: number;
  rejected: number;
  dropped: number;
  lastDeliveredAt: number | null;
}

/**
 * A kiosk spool: the kiosk's items are appended (fsynced) before it hears "accepted", then sent in
 * batches of at most `batchMax`, in order, one batch at a time, and marked delivered only after the
 * cloud's 2xx. The cloud counts an item once (its own key), so the resend after a crash between its
 * 2xx and the `delivered` record costs nothing. A cloud that is away (no answer, 5xx, 429, 401, not
 * enrolled yet) keeps the items and is retried with backoff; a batch it calls malformed
 * (400/413/422) is halved until the refused item is alone, and that one is set aside (`rejected`,
 * logged) so it cannot wedge the spool; 403 (revoked) and 410 (retired) stop delivery, the items
 * kept. Over `max` items the oldest are dropped, counted. Used by the ad plays (ads/play-spool.ts)
 * and the prize events (prizes/prize-spool.ts).
 */
export class BatchSpool<I> extends DeliveryLoop {
  private pending: SpoolItemRecord<I>[] = [];
  private readonly keys = new Set<string>();
  private lastN = 0;
  private lines = 0;
  private batchLimit: number;
  /** While a malformed batch is being halved: the last item of the smallest batch the cloud refused (the item it refuses is in there). */
  private suspectUpTo: number | null = null;
  private phase: 'idle' | 'gathering' | 'sending' | 'backoff' = 'idle';
  /**
   * When the items now waiting began to gather, on the monotonic clock (the items' `at` is wall time: after
   * a step back their age would be negative and the batch would wait hours). Null: items loaded from the
   * file (their gathering began before this process), due at once.
   */
  private gatheringSince: number | null = null;
  private stopped = false;
  readonly totals: SpoolTotals = { delivered: 0, duplicates: 0, rejected: 0, dropped: 0, lastDeliveredAt: null };
  lastError: { at: number; message: string } | null = null;

  constructor(private readonly opts: BatchSpoolOptions<I>) {
    super(opts);
    this.batchLimit = opts.batchMax;
  }

  /** Reads the file: the items still to deliver and the totals. Returns the lines dropped (a torn tail). */
  load(): { dropped: number } {
    const { records, dropped } = this.opts.journal.load();
    let upTo = 0;
    const items: SpoolItemRecord<I>[] = [];
    for (const r of records) {
      if (r.t === 'play') {
        items.push(r);
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
    this.pending = items.filter((p) => p.n > upTo);
    for (const p of this.pending) this.keys.add(this.opts.key(p.play));
    this.lines = records.length;
    return { dropped };
  }

  get backlog(): number {
    return this.pending.length;
  }

  /** When the oldest item waiting was taken (null: none waiting). */
  get oldestAt(): number | null {
    return this.pending[0]?.at ?? null;
  }

  /**
   * Takes the kiosk's items: appended and fsynced before this returns (a failing disk throws, and
   * nothing is taken). An item already waiting (same key) is counted as a duplicate.
   */
  add(items: I[]): { accepted: number; duplicates: number; backlog: number; dropped: number } {
    const { requestMax, noun } = this.opts;
    if (items.length > requestMax) throw new ItemsRefused(400, 'bad-request', `at most ${requestMax} ${noun}s per request`);
    const now = this.opts.clock.now();
    const fresh: SpoolItemRecord<I>[] = [];
    const seen = new Set<string>();
    let duplicates = 0;
    let n = this.lastN;
    for (const item of items) {
      const k = this.opts.key(item);
      if (this.keys.has(k) || seen.has(k)) {
        duplicates++;
        continue;
      }
      seen.add(k);
      fresh.push({ t: 'play', n: ++n, at: now, play: item });
    }
    // the cap: the oldest waiting items go (a request holds at most requestMax ≤ max, so never its own)
    const max = Math.max(this.opts.max, requestMax);
    const over = Math.max(0, this.pending.length + fresh.length - max);
    const records: BatchSpoolRecord<I>[] = [...fresh];
    if (over > 0) records.push({ t: 'dropped', upTo: this.pending[over - 1]!.n, at: now, count: over });
    this.opts.journal.append(records);
    this.lines += records.length;
    this.lastN = n;
    this.pending.push(...fresh);
    for (const r of fresh) this.keys.add(this.opts.key(r.play));
    if (over > 0) {
      this.remove(this.pending[over - 1]!.n);
      this.totals.dropped += over;
      this.opts.log.warn({ dropped: over, backlog: this.pending.length, max }, `${noun} spool full: the oldest were dropped`);
    }
    if (fresh.length > 0 && this.pending.length === fresh.length) this.gatheringSince = elapsedNow(this.opts.clock);
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
      const age = this.gatheringSince === null ? Infinity : elapsedNow(clock) - this.gatheringSince;
      if (this.opts.flushMs > 0 && this.pending.length < this.opts.batchMax && age < this.opts.flushMs) {
        this.phase = 'gathering';
        await this.idle(signal, this.opts.flushMs - age);
        continue;
      }
      this.phase = 'sending';
      const suspect = this.suspectUpTo;
      const batch = this.pending.slice(0, this.batchLimit).filter((p) => suspect === null || p.n <= suspect);
      if (batch.length === 0) {
        this.endSuspicion(); // the suspect items were dropped over the cap meanwhile
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
  private async deliver(batch: SpoolItemRecord<I>[], signal: AbortSignal): Promise<number | null | 'stop'> {
    const { clock, log, noun } = this.opts;
    const last = batch[batch.length - 1]!;
    try {
      const answer = await this.opts.send(
        batch.map((r) => r.play),
        { attempts: 1, signal },
      );
      this.settle({ t: 'delivered', upTo: last.n, at: clock.now(), accepted: answer.accepted, duplicates: answer.duplicates });
      // halving: the rest of the refused batch goes next in pieces of the same size; past it, full batches again
      if (this.suspectUpTo === null || last.n >= this.suspectUpTo) this.endSuspicion();
      this.answered();
      log.info({ items: batch.length, accepted: answer.accepted, duplicates: answer.duplicates, backlog: this.pending.length }, `${noun}s delivered`);
      return null;
    } catch (e) {
      if (e instanceof CloudError && e.kind === 'aborted') return 'stop';
      this.lastError = { at: clock.now(), message: (e as Error).message };
      if (!(e instanceof CloudError)) {
        // the disk refused the `delivered` record: the items stay and go again (the cloud counts them once)
        log.error({ error: (e as Error).message }, `${noun} spool could not be written`);
        return this.backoffDelay();
      }
      if (e.kind === 'revoked' || (e.kind === 'http' && e.status === 410)) {
        this.stopped = true;
        log.error(
          { backlog: this.pending.length, error: e.message },
          `${noun}s are no longer delivered (credential revoked or machine retired); they stay on disk`,
        );
        return 'stop';
      }
      if (e.kind === 'http' && e.status !== null && MALFORMED.has(e.status)) {
        if (batch.length > 1) {
          this.suspectUpTo = last.n;
          this.batchLimit = Math.ceil(batch.length / 2);
          log.warn({ items: batch.length, status: e.status, error: e.message }, `the cloud refused a batch of ${noun}s; halving it to find the one it refuses`);
          return null;
        }
        this.settle({ t: 'rejected', upTo: last.n, at: clock.now(), status: e.status, message: e.message.slice(0, 500) });
        this.endSuspicion();
        log.error({ item: last.play, status: e.status, error: e.message }, `the cloud refused a ${noun} for good; set aside`);
        this.opts.onRejected?.(last.play, e.message);
        return null;
      }
      const wait = this.retryDelay(e);
      if (e.kind !== 'no-credential') log.warn({ error: e.message, retryInMs: wait, backlog: this.pending.length }, `${noun}s not delivered; kept`);
      return wait;
    }
  }

  private endSuspicion(): void {
    this.suspectUpTo = null;
    this.batchLimit = this.opts.batchMax;
  }

  /** Appends a record ending a prefix of the items, then forgets them. */
  private settle(record: SpoolSettleRecord): void {
    this.opts.journal.append([record]);
    this.lines++;
    this.remove(record.upTo);
    this.count(record);
    this.compactIfDue();
  }

  private count(r: SpoolSettleRecord): void {
    if (r.t === 'delivered') {
      this.totals.delivered += r.accepted + r.duplicates;
      this.totals.duplicates += r.duplicates;
      this.totals.lastDeliveredAt = r.at;
    } else if (r.t === 'rejected') this.totals.rejected++;
    else this.totals.dropped += r.count;
  }

  private remove(upTo: number): void {
    let i = 0;
    while (i < this.pending.length && this.pending[i]!.n <= upTo) this.keys.delete(this.opts.key(this.pending[i++]!.play));
    if (i > 0) this.pending = this.pending.slice(i);
  }

  /** Rewrites the file as the totals and the items still waiting, once most of it is dead. */
  private compactIfDue(): void {
    const dead = this.lines - this.pending.length;
    if (dead < COMPACT_AFTER_LINES || dead < this.pending.length) return;
    const meta: SpoolMetaRecord = { t: 'meta', at: this.opts.clock.now(), lastN: this.lastN, ...this.totals };
    try {
      this.opts.journal.rewrite([meta, ...this.pending]);
      this.lines = 1 + this.pending.length;
    } catch (e) {
      this.opts.log.warn({ error: (e as Error).message }, `${this.opts.noun} spool compaction failed; the file stays as it is`);
    }
  }
}
