import { closeSync, fchmodSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

/**
 * Durable writes. Every state file of the agent goes through `writeFileAtomic`: a reader (or the
 * agent after a power cut) sees either the old content or the new, never a mix or an empty file.
 *
 *   1. write the bytes to a temp file beside the target (same directory, so same file system)
 *   2. fsync the temp file (its bytes are on the medium)
 *   3. rename it over the target (atomic on POSIX)
 *   4. fsync the directory (the rename itself is on the medium)
 *
 * Synchronous on purpose: the files are small, the agent writes a handful per dispense, and a
 * synchronous sequence makes the order of what reaches the disk obvious.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, opts: { mode?: number } = {}): void {
  const mode = opts.mode ?? 0o644;
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(tmp, 'wx', mode);
    fchmodSync(fd, mode); // the umask must not loosen (or tighten) what the caller asked for
    const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // the temp file was never created, or was already renamed
    }
    throw e;
  }
  fsyncDir(dirname(path));
}

/** Makes a rename (or a file creation) in `dir` durable. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** What checks parsed JSON: a zod schema fits. */
export interface JsonSchema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** JSON text checked by its schema; null when it is not JSON or does not fit. */
export function parseJsonAs<T>(text: string, schema: JsonSchema<T>): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The file's JSON checked by its schema; null when the file does not exist, is not JSON or does not fit. */
export function readJsonIfValid<T>(path: string, schema: JsonSchema<T>): T | null {
  const raw = readTextIfExists(path);
  return raw === null ? null : parseJsonAs(raw, schema);
}

/** The file's text, or null when it does not exist. */
export function readTextIfExists(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}
