import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncDir, parseJsonAs, writeFileAtomic } from './fs-atomic.ts';
import type { JsonSchema } from './fs-atomic.ts';

/**
 * An append-only JSON-lines file: one record per line, the agent's journals (the dispense journal,
 * the ad play spool) are each one of these with their own record schema.
 *
 * - An append is one O_APPEND write of whole lines and one fsync: it returns once the records are on
 *   the medium. A write that fails part-way (disk full) is taken back (the file truncated to where
 *   it was), so the next record does not land behind a torn line.
 * - The file is created 0600, and the directory fsynced when it is new (its name is on the medium).
 * - A line cut short by a crash (no newline) can only be the last: a load drops it, counted, and
 *   truncates the file back to the last whole line. A whole line that is not JSON or breaks the
 *   schema is skipped, counted, and left in the file (the lines after it are whole and kept).
 * - A rewrite (compaction) replaces the whole file atomically (temp file, fsync, rename, dir fsync).
 */

/** Where a journal lives: a file in production, memory in unit tests. */
export interface JsonlStore<R> {
  /** Every whole valid record, in order, and the lines dropped; repairs a torn tail. */
  load(): { records: R[]; dropped: number };
  /** Appends records durably, with one write and one fsync (returns once they are on the medium). */
  append(records: readonly R[]): void;
  /** Replaces the whole journal atomically (compaction). */
  rewrite(records: readonly R[]): void;
  close(): void;
}

/** Whole valid lines; the byte length of the good prefix (up to the last newline); lines dropped (invalid, or the torn tail). */
export function parseJsonl<R>(text: string, schema: JsonSchema<R>): { records: R[]; goodBytes: number; dropped: number } {
  const records: R[] = [];
  let dropped = 0;
  const end = text.lastIndexOf('\n') + 1;
  for (const line of text.slice(0, end).split('\n')) {
    if (line.trim() === '') continue;
    const record = parseJsonAs(line, schema);
    if (record !== null) records.push(record);
    else dropped++;
  }
  if (end < text.length) dropped++; // no newline: a write cut short
  return { records, goodBytes: Buffer.byteLength(text.slice(0, end)), dropped };
}

const lines = <R>(records: readonly R[]): string => records.map((r) => JSON.stringify(r) + '\n').join('');

/** The journal as a file: O_APPEND writes of whole lines, one fsync per append. */
export class JsonlJournal<R> implements JsonlStore<R> {
  private fd: number | null = null;

  constructor(
    readonly path: string,
    private readonly schema: JsonSchema<R>,
  ) {}

  load(): { records: R[]; dropped: number } {
    let bytes = Buffer.alloc(0);
    try {
      bytes = readFileSync(this.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    const { records, dropped } = parseJsonl(bytes.toString('utf8'), this.schema);
    // the good prefix counted in the file's own bytes (a byte that is not UTF-8 does not shift it)
    const goodBytes = bytes.lastIndexOf(0x0a) + 1;
    this.open();
    if (goodBytes < bytes.length) {
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

  append(records: readonly R[]): void {
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

  rewrite(records: readonly R[]): void {
    writeFileAtomic(this.path, lines(records), { mode: 0o600 });
    this.close(); // the old file's descriptor: appends go on into the new one
    this.open();
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** The journal in memory, as text, so tests can cut it anywhere like a crash would. */
export class MemoryJsonlJournal<R> implements JsonlStore<R> {
  text = '';
  appends = 0;
  rewrites = 0;
  /** The next append throws this, and writes nothing. */
  failNextAppend: Error | null = null;

  constructor(private readonly schema: JsonSchema<R>) {}

  load(): { records: R[]; dropped: number } {
    const { records, goodBytes, dropped } = parseJsonl(this.text, this.schema);
    this.text = Buffer.from(this.text).subarray(0, goodBytes).toString('utf8');
    return { records, dropped };
  }

  append(records: readonly R[]): void {
    if (this.failNextAppend) {
      const failure = this.failNextAppend;
      this.failNextAppend = null;
      throw failure;
    }
    this.appends++;
    this.text += lines(records);
  }

  rewrite(records: readonly R[]): void {
    this.rewrites++;
    this.text = lines(records);
  }

  close(): void {}
}
