import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { DISPENSE_OUTCOMES, DispenseIdField } from '@vend/protocol';
import { fsyncDir, writeFileAtomic } from '../state/fs-atomic.ts';
import { dirname } from 'node:path';

/**
 * The dispense journal: one JSON record per line, appended and fsynced before the agent acts on
 * it. Everything about a dispense that must survive a crash or a power cut is here:
 *
 *   intent     — written before the DISPENSE frame first goes on the wire: dispenseId, the command
 *                or order, the aisle, the VMC sequence number and boot id the frame carries, and
 *                the board's last sequence number before it
 *   outcome    — the board's answer (or the link's verdict); from here on it is a report to deliver
 *   delivered  — the cloud answered 2xx to the report
 *   rejected   — the cloud refused the report for good (4xx other than auth); kept for the technician
 *
 * A line cut short by a crash is the last line and is dropped on load (the file is truncated back
 * to the last whole record), so the journal is always a sequence of whole records.
 */

const common = {
  id: DispenseIdField,
  at: z.number().int(),
};
const Subject = {
  kind: z.enum(['command', 'order']),
  commandId: z.string().optional(),
  orderNumber: z.string().optional(),
  aisle: z.number().int().min(1),
};

export const IntentRecord = z.object({
  t: z.literal('intent'),
  ...common,
  ...Subject,
  seq: z.number().int().min(1).max(127),
  bootId: z.number().int().min(0),
  boardLastSeq: z.number().int().min(0).max(127),
});
export type IntentRecord = z.infer<typeof IntentRecord>;

export const OutcomeRecord = z.object({
  t: z.literal('outcome'),
  ...common,
  ...Subject,
  success: z.boolean(),
  outcome: z.enum(DISPENSE_OUTCOMES),
  detail: z.string(),
  motorRan: z.enum(['yes', 'no', 'unknown']),
  /** How it was decided: by the dispense itself, or after a restart from the board's stored result. */
  via: z.enum(['dispense', 'recovery']),
});
export type OutcomeRecord = z.infer<typeof OutcomeRecord>;

export const DeliveredRecord = z.object({
  t: z.literal('delivered'),
  ...common,
  /** The cloud said it had this dispenseId already (the second line of defence took it). */
  duplicate: z.boolean(),
  status: z.string().nullable(),
});
export type DeliveredRecord = z.infer<typeof DeliveredRecord>;

export const RejectedRecord = z.object({
  t: z.literal('rejected'),
  ...common,
  status: z.number().int().nullable(),
  message: z.string(),
});
export type RejectedRecord = z.infer<typeof RejectedRecord>;

export const JournalRecord = z.discriminatedUnion('t', [IntentRecord, OutcomeRecord, DeliveredRecord, RejectedRecord]);
export type JournalRecord = z.infer<typeof JournalRecord>;

/** Where the journal lives: a file in production, memory in unit tests. */
export interface JournalStore {
  /** Every whole record, in order; repairs a torn tail. */
  load(): { records: JournalRecord[]; dropped: number };
  /** Appends one record durably (returns once it is on the medium). */
  append(record: JournalRecord): void;
  /** Replaces the whole journal atomically (compaction). */
  rewrite(records: JournalRecord[]): void;
  close(): void;
}

/** Parses journal text: whole valid lines; the byte length of the good prefix; lines dropped. */
export function parseJournal(text: string): { records: JournalRecord[]; goodBytes: number; dropped: number } {
  const records: JournalRecord[] = [];
  let dropped = 0;
  let offset = 0;
  let goodBytes = 0;
  while (offset < text.length) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) {
      // no newline: a write cut short by a crash
      dropped++;
      break;
    }
    const line = text.slice(offset, nl);
    offset = nl + 1;
    if (line.trim() === '') {
      goodBytes = Buffer.byteLength(text.slice(0, offset));
      continue;
    }
    let ok = false;
    try {
      const parsed = JournalRecord.safeParse(JSON.parse(line));
      if (parsed.success) {
        records.push(parsed.data);
        ok = true;
      }
    } catch {
      ok = false;
    }
    if (!ok) dropped++;
    goodBytes = Buffer.byteLength(text.slice(0, offset));
  }
  return { records, goodBytes, dropped };
}

/** The journal as a file: O_APPEND writes of whole lines, each fsynced. */
export class FileJournal implements JournalStore {
  private fd: number | null = null;

  constructor(readonly path: string) {}

  load(): { records: JournalRecord[]; dropped: number } {
    let text = '';
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    const { records, goodBytes, dropped } = parseJournal(text);
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

  append(record: JournalRecord): void {
    this.open();
    const line = Buffer.from(JSON.stringify(record) + '\n', 'utf8');
    let off = 0;
    while (off < line.length) off += writeSync(this.fd!, line, off, line.length - off);
    fsyncSync(this.fd!);
  }

  rewrite(records: JournalRecord[]): void {
    writeFileAtomic(this.path, records.map((r) => JSON.stringify(r) + '\n').join(''), { mode: 0o600 });
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.open();
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/** The journal in memory, as text, so tests can cut it anywhere like a crash would. */
export class MemoryJournal implements JournalStore {
  text = '';
  appends = 0;
  failNextAppend: Error | null = null;
  load(): { records: JournalRecord[]; dropped: number } {
    const { records, goodBytes, dropped } = parseJournal(this.text);
    this.text = Buffer.from(this.text).subarray(0, goodBytes).toString('utf8');
    return { records, dropped };
  }
  append(record: JournalRecord): void {
    if (this.failNextAppend) {
      const failure = this.failNextAppend;
      this.failNextAppend = null;
      throw failure;
    }
    this.appends++;
    this.text += JSON.stringify(record) + '\n';
  }
  rewrite(records: JournalRecord[]): void {
    this.text = records.map((r) => JSON.stringify(r) + '\n').join('');
  }
  close(): void {}
}
