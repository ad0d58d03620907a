import { gzipSync } from 'node:zlib';

/**
 * Tar archives built header by header, so the upgrade tests can hand the agent exactly the hostile
 * members the node-tar CVEs describe (the way node-tar's own suite does) instead of shipping tarballs.
 */
export interface TarMember {
  /** The name field (ustar: up to 100 bytes; longer names go to `prefix` or a PAX/GNU record). */
  path: string;
  /** Typeflag: '0' file (default), '5' directory, '1' hard link, '2' symlink, '3' char dev, '4' block dev, '6' FIFO, … */
  type?: string;
  body?: string | Buffer;
  mode?: number;
  linkpath?: string;
  /** Declared size when it must differ from the body's length (tar bombs, truncation). */
  size?: number;
  /** ustar prefix field (joined to `path` with a `/`). */
  prefix?: string;
  /** A PAX extended header ('x') placed before this member. */
  pax?: Record<string, string>;
  /** A GNU long-name record ('L') placed before this member. */
  gnuLongName?: string;
  /** Corrupt the header checksum. */
  badChecksum?: boolean;
}

function field(buf: Buffer, offset: number, length: number, value: string | Buffer): void {
  const b = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  b.copy(buf, offset, 0, Math.min(b.length, length));
}

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function header(m: { path: string; type: string; size: number; mode: number; linkpath?: string; prefix?: string; badChecksum?: boolean }): Buffer {
  const h = Buffer.alloc(512);
  field(h, 0, 100, m.path);
  field(h, 100, 8, octal(m.mode, 8));
  field(h, 108, 8, octal(0, 8));
  field(h, 116, 8, octal(0, 8));
  field(h, 124, 12, octal(m.size, 12));
  field(h, 136, 12, octal(946684800, 12));
  field(h, 148, 8, '        ');
  field(h, 156, 1, m.type);
  if (m.linkpath) field(h, 157, 100, m.linkpath);
  field(h, 257, 6, 'ustar\0');
  field(h, 263, 2, '00');
  if (m.prefix) field(h, 345, 155, m.prefix);
  let sum = 0;
  for (const byte of h) sum += byte;
  if (m.badChecksum) sum += 1;
  field(h, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return h;
}

function padded(body: Buffer): Buffer {
  const rem = body.length % 512;
  return rem === 0 ? body : Buffer.concat([body, Buffer.alloc(512 - rem)]);
}

function paxBody(records: Record<string, string>): Buffer {
  let out = '';
  for (const [k, v] of Object.entries(records)) {
    const rest = ` ${k}=${v}\n`;
    let len = Buffer.byteLength(rest) + 1;
    while (String(len).length + Buffer.byteLength(rest) !== len) len = String(len).length + Buffer.byteLength(rest);
    out += `${len}${rest}`;
  }
  return Buffer.from(out, 'utf8');
}

/** An uncompressed tar of `members`, ending in the two zero blocks (unless `noEnd`). */
export function tarBytes(members: TarMember[], opts: { noEnd?: boolean } = {}): Buffer {
  const parts: Buffer[] = [];
  for (const m of members) {
    if (m.pax) {
      const b = paxBody(m.pax);
      parts.push(header({ path: 'PaxHeader/x', type: 'x', size: b.length, mode: 0o644 }), padded(b));
    }
    if (m.gnuLongName !== undefined) {
      const b = Buffer.from(m.gnuLongName + '\0', 'utf8');
      parts.push(header({ path: '././@LongLink', type: 'L', size: b.length, mode: 0o644 }), padded(b));
    }
    const type = m.type ?? '0';
    const body = m.body === undefined ? Buffer.alloc(0) : Buffer.from(m.body);
    const size = m.size ?? body.length;
    parts.push(
      header({
        path: m.path,
        type,
        size,
        mode: m.mode ?? (type === '5' ? 0o755 : 0o644),
        ...(m.linkpath !== undefined ? { linkpath: m.linkpath } : {}),
        ...(m.prefix !== undefined ? { prefix: m.prefix } : {}),
        ...(m.badChecksum ? { badChecksum: true } : {}),
      }),
    );
    if (body.length) parts.push(padded(body));
  }
  if (!opts.noEnd) parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** The same, gzipped (what a release artifact is). */
export function tgzBytes(members: TarMember[], opts: { noEnd?: boolean } = {}): Buffer {
  return gzipSync(tarBytes(members, opts));
}

/** The members of a minimal release tree whose launcher answers `--version` with `version`. */
export function fakeReleaseMembers(version: string, extra: TarMember[] = []): TarMember[] {
  return [
    { path: 'VERSION', body: `${version}\n` },
    { path: 'bin/', type: '5' },
    { path: 'bin/vend-agent', mode: 0o755, body: `#!/bin/sh\nif [ "$1" = "--version" ]; then echo ${version}; exit 0; fi\necho "vend-agent ${version}: $*"\n` },
    { path: 'lib/', type: '5' },
    { path: 'lib/agent.txt', body: `agent ${version}\n`.repeat(64) },
    ...extra,
  ];
}
