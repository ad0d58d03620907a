import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import type { ReadEntry } from 'tar';

/**
 * Extracting a release artifact (a gzipped tar) into a fresh staging directory, refusing the whole
 * artifact on the first member that is not plainly a regular file or a directory inside it.
 *
 * node-tar only parses here; nothing of its extractor is used. Two passes over the verified file:
 * the first reads every header and refuses the artifact before anything is written (bad type, bad
 * path, duplicate, size or count over the limits); the second creates directories with mkdir and files
 * with O_CREAT|O_EXCL|O_NOFOLLOW, re-checking every member the same way. No link, device or FIFO is
 * ever created, so no later member can be redirected through one (CVE-2021-32803, CVE-2026-23745,
 * CVE-2026-26960), and a path is accepted only when it is relative, made of plain ASCII segments with
 * no `.`, `..` or empty segment and no backslash or colon (CVE-2021-32804 `////x`, CVE-2021-37701,
 * -37712, -37713), and at most `maxDepth` deep (CVE-2024-28863). Members node-tar would silently skip
 * (unknown types, oversized metadata) refuse the artifact too, and parse warnings are errors.
 *
 * The archive is decompressed here (zlib), not by node-tar, and the decompressed tar stream is counted:
 * past `maxStreamBytes` (the caller sets it from the signed size: releaseUnpackCap) the read stops and
 * the artifact is refused — the explicit ratio limit, over the whole stream. node-tar's own check
 * (a running 1000:1 ratio) would let a 256 KiB artifact expand to 250 MiB.
 */

export interface ExtractLimits {
  maxEntries: number;
  maxDepth: number;
  /** Longest member path, in bytes. */
  maxPathLength: number;
  /** Sum of the members' sizes (a tar bomb is refused before anything is written). */
  maxUnpackedBytes: number;
  /** Bytes of the decompressed tar stream (headers and padding included) read at most; past it the artifact is refused. */
  maxStreamBytes: number;
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  maxEntries: 20_000,
  maxDepth: 32,
  maxPathLength: 255,
  maxUnpackedBytes: 2 * 1024 ** 3,
  maxStreamBytes: 2 * 1024 ** 3,
};

/** Passes the decompressed stream through, failing once more than `max` bytes came (none of the excess is passed on). */
class StreamCap extends Transform {
  seen = 0;
  constructor(private readonly max: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.max) return done(new ArchiveError(`the archive unpacks to more than ${this.max} bytes (its cap, by the signed size)`));
    done(null, chunk);
  }
}

export class ArchiveError extends Error {
  readonly code = 'bad-archive';
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}

export interface ExtractResult {
  files: number;
  directories: number;
  bytes: number;
}

/** Member types accepted: regular files and directories, nothing else. */
const FILE_TYPES = new Set(['File', 'OldFile']);
const SEGMENT = /^[A-Za-z0-9._@+-]+$/;

/** Printable form of a member name for messages (control characters escaped, bounded). */
function shown(name: string): string {
  return JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);
}

/** The member's path without a trailing `/`, or an ArchiveError saying why it is refused. */
export function checkMemberPath(raw: string, isDirectory: boolean, limits: Pick<ExtractLimits, 'maxDepth' | 'maxPathLength'>): string {
  if (typeof raw !== 'string' || raw.length === 0) throw new ArchiveError('a member has no path');
  if (Buffer.byteLength(raw) > limits.maxPathLength) throw new ArchiveError(`member ${shown(raw)}: path longer than ${limits.maxPathLength} bytes`);
  if (raw.startsWith('/')) throw new ArchiveError(`member ${shown(raw)}: absolute path`);
  let memberPath = raw;
  if (memberPath.endsWith('/')) {
    if (!isDirectory) throw new ArchiveError(`member ${shown(raw)}: a file name ending in /`);
    memberPath = memberPath.slice(0, -1);
  }
  const segments = memberPath.split('/');
  if (segments.length > limits.maxDepth) throw new ArchiveError(`member ${shown(raw)}: deeper than ${limits.maxDepth} levels`);
  for (const segment of segments) {
    if (segment === '') throw new ArchiveError(`member ${shown(raw)}: empty path segment`);
    if (segment === '.' || segment === '..') throw new ArchiveError(`member ${shown(raw)}: "${segment}" segment`);
    if (!SEGMENT.test(segment)) throw new ArchiveError(`member ${shown(raw)}: only ASCII letters, digits and . _ @ + - are allowed in names`);
  }
  return memberPath;
}

interface Checked {
  rel: string;
  directory: boolean;
  size: number;
  executable: boolean;
}

/** Per-archive bookkeeping shared by both passes: duplicates (case-insensitive), file/dir clashes, budgets. */
class MemberChecker {
  private readonly seen = new Map<string, 'file' | 'dir'>();
  entries = 0;
  bytes = 0;
  constructor(private readonly limits: ExtractLimits) {}

  check(entry: ReadEntry): Checked {
    const type = entry.type;
    const directory = type === 'Directory';
    if (!directory && !FILE_TYPES.has(type)) {
      throw new ArchiveError(`member ${shown(String(entry.path))} is a ${type}: a release holds only regular files and directories`);
    }
    if (entry.linkpath) throw new ArchiveError(`member ${shown(entry.path)} carries a link target`);
    const rel = checkMemberPath(entry.path, directory, this.limits);
    const size = entry.size ?? 0;
    if (!Number.isSafeInteger(size) || size < 0) throw new ArchiveError(`member ${shown(rel)}: bad size`);
    if (directory && size !== 0) throw new ArchiveError(`member ${shown(rel)}: a directory with contents`);
    if (++this.entries > this.limits.maxEntries) throw new ArchiveError(`more than ${this.limits.maxEntries} members`);
    this.bytes += size;
    if (this.bytes > this.limits.maxUnpackedBytes) throw new ArchiveError(`more than ${this.limits.maxUnpackedBytes} bytes unpacked`);

    const key = rel.toLowerCase();
    if (this.seen.has(key)) throw new ArchiveError(`member ${shown(rel)} appears twice (or differs from another only in case)`);
    const parts = key.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      const kind = this.seen.get(parent);
      if (kind === 'file') throw new ArchiveError(`member ${shown(rel)} is inside ${shown(parent)}, which is a file`);
      if (kind === undefined) this.seen.set(parent, 'dir');
    }
    this.seen.set(key, directory ? 'dir' : 'file');
    return { rel, directory, size, executable: ((entry.mode ?? 0) & 0o111) !== 0 };
  }
}

/**
 * One pass of node-tar's parser over `archive`; `onEntry` runs for each member (synchronously, in
 * order) and refuses the artifact by throwing. Members node-tar would skip refuse it as well.
 */
async function parseArchive(archive: string, maxStreamBytes: number, onEntry: (entry: ReadEntry) => void): Promise<void> {
  // loaded here, when an artifact is unpacked, not with the daemon (docs/decisions/agent.md "Footprint")
  const [{ Parser }, zlib] = await Promise.all([import('tar'), import('node:zlib')]);
  return new Promise<void>((resolve, reject) => {
    let failed: Error | null = null;
    const input = fs.createReadStream(archive);
    // gzip (every release) is decompressed here so that the stream can be counted; a plain tar is read as it is
    const gunzip = isGzip(archive) ? zlib.createGunzip() : null;
    const cap = new StreamCap(maxStreamBytes);
    const parser = new Parser({ strict: true, maxMetaEntrySize: 64 * 1024 });
    const fail = (err: unknown): void => {
      if (failed) return;
      failed = err instanceof ArchiveError ? err : new ArchiveError(`unreadable archive: ${(err as Error)?.message ?? String(err)}`);
      input.unpipe();
      gunzip?.unpipe();
      cap.unpipe(parser);
      input.destroy();
      gunzip?.destroy();
      cap.destroy();
      parser.abort(failed);
      reject(failed);
    };
    gunzip?.on('error', fail);
    cap.on('error', fail);
    parser.on('error', fail);
    parser.on('warn', (code: string, message: string) => fail(new ArchiveError(`${code}: ${message}`)));
    parser.on('ignoredEntry', (entry: ReadEntry) =>
      fail(new ArchiveError(`member ${shown(String(entry.path))} is a ${entry.type}: a release holds only regular files and directories`)),
    );
    parser.on('entry', (entry: ReadEntry) => {
      if (failed) return void entry.resume();
      try {
        onEntry(entry);
      } catch (err) {
        entry.resume();
        fail(err);
      }
    });
    parser.on('end', () => {
      if (!failed) resolve();
    });
    input.on('error', fail);
    (gunzip ? input.pipe(gunzip) : input).pipe(cap).pipe(parser);
  });
}

function isGzip(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return fs.readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Extracts the release `archive` into `staging`, which must be an empty directory this process just
 * made (mkdtemp, 0700). Files get mode 0755 when any execute bit was set in the archive, else 0644;
 * directories 0755; owners and times are not restored. On refusal `staging` may hold part of the
 * tree: the caller removes it whole.
 */
export async function extractRelease(
  archive: string,
  staging: string,
  opts: {
    limits?: Partial<ExtractLimits>;
    /** After the header pass, before anything is written, with the bytes the tree will take; may throw to refuse. */
    onScanned?: (bytes: number) => void;
    onMember?: (rel: string) => void;
  } = {},
): Promise<ExtractResult> {
  const lim = { ...DEFAULT_EXTRACT_LIMITS, ...opts.limits };
  if ((await fs.promises.readdir(staging)).length !== 0) throw new Error(`${staging} is not empty`);

  // pass 1: every header, nothing written
  const scan = new MemberChecker(lim);
  await parseArchive(archive, lim.maxStreamBytes, (entry) => {
    scan.check(entry);
    entry.resume();
  });
  if (scan.entries === 0) throw new ArchiveError('the archive has no members');
  opts.onScanned?.(scan.bytes);

  // pass 2: write, checking each member again
  const checker = new MemberChecker(lim);
  const writes: Promise<void>[] = [];
  const streams: fs.WriteStream[] = [];
  let files = 0;
  let directories = 0;
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  try {
    await parseArchive(archive, lim.maxStreamBytes, (entry) => {
      const problem = checker.check(entry);
      const target = path.join(staging, ...problem.rel.split('/'));
      if (!target.startsWith(staging + path.sep)) throw new ArchiveError(`member ${shown(problem.rel)} resolves outside the staging directory`);
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
      if (problem.directory) {
        fs.mkdirSync(target, { mode: 0o755 });
        fs.chmodSync(target, 0o755);
        directories++;
        entry.resume();
        opts.onMember?.(problem.rel);
        return;
      }
      const mode = problem.executable ? 0o755 : 0o644;
      const fd = fs.openSync(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
      fs.fchmodSync(fd, mode);
      files++;
      const out = fs.createWriteStream('', { fd, autoClose: true });
      streams.push(out);
      const done = new Promise<void>((resolve, reject) => {
        out.on('error', reject);
        out.on('close', () => (out.bytesWritten === problem.size ? resolve() : reject(new ArchiveError(`member ${shown(problem.rel)} is truncated`))));
        // pipe before anything else listens: a small member's bytes arrive with its header, at once
        entry.pipe(out);
      });
      done.catch(() => {}); // awaited below; marked handled so an early failure is not reported twice
      writes.push(done);
      opts.onMember?.(problem.rel);
    });
  } catch (err) {
    for (const stream of streams) stream.destroy();
    await Promise.allSettled(writes);
    throw err;
  }
  await Promise.all(writes);
  return { files, directories, bytes: checker.bytes };
}
