import { closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { pino } from 'pino';
import type { Logger } from 'pino';

/** The log file is rotated once it passes this size, at start and while running (one old generation is kept: agent.log.1). */
export const LOG_ROTATE_BYTES = 5 * 1024 * 1024;

/**
 * An append-only log file that rotates itself: each line is written synchronously (a crash loses no
 * line already logged), and once the file passes `rotateBytes` it is renamed to `<file>.1` (replacing
 * the previous generation) and a new one is started. A failed write (a full disk) drops the line
 * rather than stopping the agent.
 */
export class RotatingLogFile {
  private fd: number | null = null;
  private size = 0;

  constructor(
    readonly file: string,
    private readonly rotateBytes = LOG_ROTATE_BYTES,
    private readonly mode = 0o640,
  ) {
    this.open();
    if (this.size > this.rotateBytes) this.rotate();
  }

  write(line: string): boolean {
    if (this.fd === null) this.open();
    if (this.fd === null) return true;
    const buf = Buffer.from(line, 'utf8');
    try {
      let off = 0;
      while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
      this.size += buf.length;
    } catch {
      return true; // dropped (ENOSPC, EIO): logging never stops the agent
    }
    if (this.size > this.rotateBytes) this.rotate();
    return true;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private open(): void {
    try {
      this.fd = openSync(this.file, 'a', this.mode);
      this.size = fstatSync(this.fd).size;
    } catch {
      this.fd = null;
    }
  }

  private rotate(): void {
    this.close();
    try {
      renameSync(this.file, `${this.file}.1`);
    } catch {
      // gone already (someone removed it): a new file is started anyway
    }
    this.open();
  }
}

/** The bytes of `file` from `from` to its current end (at most `max`), and the file's identity. */
export function readFrom(file: string, from: number, max = 4 * 1024 * 1024): { ino: number; size: number; bytes: Buffer } {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    const start = Math.min(from, st.size);
    const len = Math.min(st.size - start, max);
    const buf = Buffer.alloc(len);
    let got = 0;
    while (got < len) {
      const read = readSync(fd, buf, got, len - got, start + got);
      if (read === 0) break;
      got += read;
    }
    return { ino: st.ino, size: st.size, bytes: buf.subarray(0, got) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The last `n` lines of a file without reading all of it: chunks are read backwards from the end
 * until `n` line ends are found. `end` is the size read up to and `ino` the file's inode (where a
 * follower continues, and how it notices a rotation).
 */
export function tailLines(file: string, count: number, chunkBytes = 64 * 1024): { lines: string[]; end: number; ino: number } {
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    const end = st.size;
    const chunks: Buffer[] = [];
    let pos = end;
    let newlines = 0;
    // one line end more than asked for: the text after it is the first line wanted (the last byte is usually a line end)
    while (pos > 0 && newlines <= count) {
      const len = Math.min(chunkBytes, pos);
      pos -= len;
      const buf = Buffer.alloc(len);
      let got = 0;
      while (got < len) {
        const read = readSync(fd, buf, got, len - got, pos + got);
        if (read === 0) break;
        got += read;
      }
      chunks.unshift(buf.subarray(0, got));
      for (let i = 0; i < got; i++) if (buf[i] === 0x0a) newlines++;
    }
    const lines = Buffer.concat(chunks).toString('utf8').split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return { lines: lines.slice(Math.max(0, lines.length - count)), end, ino: st.ino };
  } finally {
    closeSync(fd);
  }
}

/** Field names never written to a log, whatever a caller passes (pino redaction). */
export const REDACTED_PATHS = [
  'secret',
  'deviceKey',
  'credential',
  'token',
  'fleetSecret',
  'adminPin',
  '*.secret',
  '*.deviceKey',
  '*.credential',
  '*.token',
  '*.fleetSecret',
  '*.adminPin',
  'headers["x-device-key"]',
  'headers.secret',
  'headers.authorization',
];

/**
 * The daemon's logger: JSON lines to `<stateDir>/agent.log` (what `vend-agent logs` tails) and to
 * stdout (the journal of the service manager). Secrets are never logged; the redaction is a net.
 */
export function createAgentLogger(options: { file: string | null; level: string; stdout?: NodeJS.WritableStream | null; rotateBytes?: number }): Logger {
  const streams: { stream: NodeJS.WritableStream | pino.DestinationStream; level: pino.Level }[] = [];
  const level = (options.level === 'silent' ? 'fatal' : options.level) as pino.Level;
  if (options.file) streams.push({ stream: new RotatingLogFile(options.file, options.rotateBytes ?? LOG_ROTATE_BYTES), level });
  if (options.stdout) streams.push({ stream: options.stdout, level });
  return pino(
    { level: options.level, base: { pid: process.pid }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.multistream(streams),
  );
}
