import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { AD_SOURCES } from '@vend/protocol';
import { fsyncDir, writeFileAtomic } from '../state/fs-atomic.ts';

/**
 * The play spool's file (`ad-plays.log`): one JSON record per line, appended and fsynced before the
 * kiosk hears "accepted". Plays get increasing numbers `n`; every other record ends a *prefix* of
 * them (`upTo`): delivered (the cloud's 2xx), rejected (the cloud refused that play for good), dropped
 * (the spool was over its cap). So the plays still to deliver are those numbered above the highest
 * `upTo`, in order. A compaction rewrites the file (atomically) as one `meta` record carrying the
 * totals and the plays still to deliver. A line cut short by a crash is the last one and is dropped
 * on load (the file truncated back to the last whole record).
 */

/** One showing as it is kept and sent: `playedAt` fixed (epoch ms) when the kiosk reported it, so a retry counts once. */
export const SpooledPlay = z.object({
  id: z.string(),
  campaignId: z.string().optional(),
  source: z.enum(AD_SOURCES).optional(),
  playedAt: z.number().int().min(0),
  durationMs: z.number().int().min(0).optional(),
});
export type SpooledPlay = z.infer<typeof SpooledPlay>;

const n = z.number().int().min(1);
const at = z.number().int();
export const PlayRecord = z.object({ t: z.literal('play'), n, at, play: SpooledPlay });
export type PlayRecord = z.infer<typeof PlayRecord>;
export const PlaySpoolRecord = z.discriminatedUnion('t', [
  PlayRecord,
  z.object({ t: z.literal('delivered'), upTo: n, at, accepted: z.number().int(), duplicates: z.number().int() }),
  z.object({ t: z.literal('rejected'), upTo: n, at, status: z.number().int().nullable(), message: z.string() }),
  z.object({ t: z.literal('dropped'), upTo: n, at, count: z.number().int() }),
  z.object({
    t: z.literal('meta'),
    at,
    /** The highest play number ever given (so numbers never repeat after a compaction). */
    lastN: z.number().int().min(0),
    delivered: z.number().int(),
    duplicates: z.number().int(),
    rejected: z.number().int(),
    dropped: z.number().int(),
    lastDeliveredAt: at.nullable(),
  }),
]);
export type PlaySpoolRecord = z.infer<typeof PlaySpoolRecord>;

/** Where the spool lives: a file in production, memory in unit tests. */
export interface PlayJournalStore {
  /** Every whole record, in order; repairs a torn tail. */
  load(): { records: PlaySpoolRecord[]; dropped: number };
  /** Appends records durably, with one fsync (returns once they are on the medium). */
  append(records: PlaySpoolRecord[]): void;
  /** Replaces the whole file atomically (compaction). */
  rewrite(records: PlaySpoolRecord[]): void;
  close(): void;
}

/** Whole valid lines; the byte length of the good prefix; lines dropped. */
export function parsePlayJournal(text: string): { records: PlaySpoolRecord[]; goodBytes: number; dropped: number } {
  const records: PlaySpoolRecord[] = [];
  let dropped = 0;
  let offset = 0;
  let goodBytes = 0;
  while (offset < text.length) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) {
      dropped++; // no newline: a write cut short
      break;
    }
    const line = text.slice(offset, nl);
    offset = nl + 1;
    goodBytes = Buffer.byteLength(text.slice(0, offset));
    if (line.trim() === '') continue;
    try {
      const parsed = PlaySpoolRecord.safeParse(JSON.parse(line));
      if (parsed.success) records.push(parsed.data);
      else dropped++;
    } catch {
      dropped++;
    }
  }
  return { records, goodBytes, dropped };
}

const lines = (records: PlaySpoolRecord[]): string => records.map((r) => JSON.stringify(r) + '\n').join('');

/** The spool as a file: O_APPEND writes of whole lines, one fsync per append. */
export class FilePlayJournal implements PlayJournalStore {
  private fd: number | null = null;

  constructor(readonly path: string) {}

  load(): { records: PlaySpoolRecord[]; dropped: number } {
    let text = '';
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    const { records, goodBytes, dropped } = parsePlayJournal(text);
    this.open();
    if (goodBytes < Buffer.byteLength(text)) {
      ftruncateSync(this.fd!, goodBytes);
      fsyncSync(this.fd!);
    }
    return { records, dropped };
  }

  private open(): void {
    if (this.fd !== null) return;
    this.fd = openSync(this.path, 'a', 0o600);
    if (fstatSync(this.fd).size === 0) fsyncDir(dirname(this.path));
  }

  append(records: PlaySpoolRecord[]): void {
    if (records.length === 0) return;
    this.open();
    const buf = Buffer.from(lines(records), 'utf8');
    const size = fstatSync(this.fd!).size;
    try {
      let off = 0;
      while (off < buf.length) off += writeSync(this.fd!, buf, off, buf.length - off);
      fsyncSync(this.fd!);
    } catch (e) {
      // a write cut short (disk full): take the part back, so the next record does not land behind it
      try {
        ftruncateSync(this.fd!, size);
      } catch {
        // the load repairs it
      }
      throw e;
    }
  }

  rewrite(records: PlaySpoolRecord[]): void {
    writeFileAtomic(this.path, lines(records), { mode: 0o600 });
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.open();
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** The spool in memory, as text, so tests can cut it anywhere like a crash would. */
export class MemoryPlayJournal implements PlayJournalStore {
  text = '';
  appends = 0;
  rewrites = 0;
  failNextAppend: Error | null = null;
  load(): { records: PlaySpoolRecord[]; dropped: number } {
    const { records, goodBytes, dropped } = parsePlayJournal(this.text);
    this.text = Buffer.from(this.text).subarray(0, goodBytes).toString('utf8');
    return { records, dropped };
  }
  append(records: PlaySpoolRecord[]): void {
    if (this.failNextAppend) {
      const failure = this.failNextAppend;
      this.failNextAppend = null;
      throw failure;
    }
    this.appends++;
    this.text += lines(records);
  }
  rewrite(records: PlaySpoolRecord[]): void {
    this.rewrites++;
    this.text = lines(records);
  }
  close(): void {}
}
