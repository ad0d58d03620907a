import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveError, extractRelease } from '@vend/agent';
import { tarBytes, tgzBytes } from './support/upgrade-tar.ts';
import type { TarMember } from './support/upgrade-tar.ts';

// Spec 2 §4.4 step 9 and the node-tar CVEs in shared/notes/upgrade-and-enrolment-anchors.md: only
// regular files and directories, the whole artifact refused on the first bad member, nothing written
// outside the fresh 0700 staging directory. Every hostile archive is built header by header here.

let tmp: string;
let staging: string;
let archive: string;

beforeEach(async () => {
  tmp = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'upgrade-extract-'));
  staging = await fs.promises.mkdtemp(path.join(tmp, 'staging-'));
  archive = path.join(tmp, 'artifact.tar.gz');
});
afterEach(async () => {
  await fs.promises.rm(tmp, { recursive: true, force: true });
});

/** Every path under `dir`, relative, sorted (directories end with `/`). */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(path.join(dir, r));
      out.push(st.isDirectory() ? `${r}/` : r);
      if (st.isDirectory()) walk(r);
    }
  };
  walk('');
  return out;
}

async function refuse(members: TarMember[], message: RegExp, opts: { gzip?: boolean; noEnd?: boolean } = {}): Promise<void> {
  fs.writeFileSync(archive, opts.gzip === false ? tarBytes(members, opts) : tgzBytes(members, opts));
  const before = listing(tmp);
  const err = await extractRelease(archive, staging).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ArchiveError);
  expect((err as Error).message).toMatch(message);
  // refused on the header pass: nothing at all was written, inside staging or out
  expect(listing(staging)).toEqual([]);
  expect(listing(tmp)).toEqual(before);
}

const ok: TarMember[] = [
  { path: 'VERSION', body: '1.0.1\n' },
  { path: 'bin/', type: '5' },
];

describe('extracting a release artifact', () => {
  it('extracts regular files and directories with normalised modes', async () => {
    fs.writeFileSync(
      archive,
      tgzBytes([
        { path: 'VERSION', body: '1.0.1\n', mode: 0o4777 },
        { path: 'bin/', type: '5', mode: 0o777 },
        { path: 'bin/vend-agent', body: '#!/bin/sh\necho hi\n', mode: 0o700 },
        { path: 'lib/deep/er/file.txt', body: 'x'.repeat(3000) },
        { path: 'prebuilds/linux-x64/@serialport+bindings-cpp.glibc.node', body: 'elf' },
        // a member big enough to back up the writer, then a small one queued behind it
        { path: 'runtime/node', body: Buffer.alloc(1_000_000, 0x7f) },
        { path: 'runtime/small', body: 'small' },
      ]),
    );
    const r = await extractRelease(archive, staging);
    expect(r).toEqual({ files: 6, directories: 1, bytes: 6 + 18 + 3000 + 3 + 1_000_000 + 5 });
    expect(listing(staging)).toEqual([
      'VERSION',
      'bin/',
      'bin/vend-agent',
      'lib/',
      'lib/deep/',
      'lib/deep/er/',
      'lib/deep/er/file.txt',
      'prebuilds/',
      'prebuilds/linux-x64/',
      'prebuilds/linux-x64/@serialport+bindings-cpp.glibc.node',
      'runtime/',
      'runtime/node',
      'runtime/small',
    ]);
    const mode = (p: string) => fs.statSync(path.join(staging, p)).mode & 0o7777;
    expect(mode('VERSION')).toBe(0o755); // an execute bit was set; setuid never survives
    expect(mode('bin')).toBe(0o755);
    expect(mode('bin/vend-agent')).toBe(0o755);
    expect(mode('lib/deep/er/file.txt')).toBe(0o644);
    expect(fs.readFileSync(path.join(staging, 'lib/deep/er/file.txt'), 'utf8')).toBe('x'.repeat(3000));
    // small members arrive in the same chunk as their header: every byte must still land
    expect(fs.readFileSync(path.join(staging, 'VERSION'), 'utf8')).toBe('1.0.1\n');
    expect(fs.readFileSync(path.join(staging, 'bin/vend-agent'), 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect(fs.readFileSync(path.join(staging, 'prebuilds/linux-x64/@serialport+bindings-cpp.glibc.node'), 'utf8')).toBe('elf');
    expect(fs.readFileSync(path.join(staging, 'runtime/node')).equals(Buffer.alloc(1_000_000, 0x7f))).toBe(true);
    expect(fs.readFileSync(path.join(staging, 'runtime/small'), 'utf8')).toBe('small');
  });

  it('refuses a staging directory that is not empty', async () => {
    fs.writeFileSync(archive, tgzBytes(ok));
    fs.writeFileSync(path.join(staging, 'planted'), '');
    await expect(extractRelease(archive, staging)).rejects.toThrow(/not empty/);
  });

  describe('absolute paths (CVE-2021-32804)', () => {
    it('refuses /abs', () => refuse([...ok, { path: path.join(tmp, 'abs-escape') }], /absolute path/));
    it('refuses ////x', () => refuse([...ok, { path: `////${tmp.slice(1)}/quad-escape` }], /absolute path/));
    it('refuses an absolute ustar prefix', () => refuse([...ok, { path: 'x', prefix: tmp }], /absolute path/));
    it('refuses a PAX path that is absolute behind an innocent name', () =>
      refuse([...ok, { path: 'innocent', pax: { path: path.join(tmp, 'pax-escape') } }], /absolute path/));
  });

  describe('.. and other segments', () => {
    it('refuses ../x', () => refuse([...ok, { path: '../dotdot-escape' }], /"\.\." segment/));
    it('refuses a/../../x', () => refuse([...ok, { path: 'bin/../../dotdot-escape' }], /"\.\." segment/));
    it('refuses a GNU long name with ..', () =>
      refuse([...ok, { path: 'short', gnuLongName: `${'abcdefghij/'.repeat(12)}../../../../../../../../../../../../../long-escape` }], /"\.\." segment/));
    it('refuses ./x', () => refuse([...ok, { path: './x' }], /"\." segment/));
    it('refuses a//b', () => refuse([...ok, { path: 'bin//x' }], /empty path segment/));
    it('makes a type-0 member ending in / a directory (the old tar convention), never a file', async () => {
      fs.writeFileSync(archive, tgzBytes([...ok, { path: 'olddir/', type: '0' }, { path: 'olddir/f', body: 'f' }]));
      await extractRelease(archive, staging);
      expect(listing(staging)).toEqual(['VERSION', 'bin/', 'olddir/', 'olddir/f']);
    });
  });

  describe('separators, drive paths and unicode (CVE-2021-37701, -37712, -37713)', () => {
    it('refuses backslashes', () => refuse([...ok, { path: 'a\\..\\..\\backslash-escape' }], /only ASCII letters/));
    it('refuses a drive path', () => refuse([...ok, { path: 'C:\\windows\\x' }], /only ASCII letters/));
    it('refuses a drive-relative path', () => refuse([...ok, { path: 'c:../drive-escape' }], /only ASCII letters/));
    it('refuses unicode look-alikes and decomposed forms', async () => {
      await refuse([...ok, { path: 'a\u2215..\u2215x' }], /only ASCII letters/); // division slash
      await refuse([...ok, { path: 'cafe\u0301' }], /only ASCII letters/);
    });
    it('refuses control characters', () => refuse([...ok, { path: 'bin/a\nb' }], /only ASCII letters/));
  });

  describe('links, devices and FIFOs', () => {
    it('refuses a symbolic link', () => refuse([...ok, { path: 'bin/link', type: '2', linkpath: '/etc/passwd' }], /is a SymbolicLink/));
    it('refuses directory-then-symlink poisoning (CVE-2021-32803)', () =>
      refuse(
        [
          { path: 'a/', type: '5' },
          { path: 'a', type: '2', linkpath: tmp },
          { path: 'a/poison', body: 'x' },
        ],
        /is a SymbolicLink/,
      ));
    it('refuses a hard link to a file outside (CVE-2026-26960)', () =>
      refuse([...ok, { path: 'bin/hard', type: '1', linkpath: '../../../etc/passwd' }], /is a Link/));
    it('refuses a hard link to a member inside', () => refuse([...ok, { path: 'bin/hard', type: '1', linkpath: 'VERSION' }], /is a Link/));
    it('refuses a linkpath smuggled onto a regular file (CVE-2026-23745)', () =>
      refuse([...ok, { path: 'bin/f', pax: { linkpath: '/etc/shadow' } }], /carries a link target/));
    it('refuses devices, FIFOs and contiguous files', async () => {
      await refuse([...ok, { path: 'dev-c', type: '3' }], /is a CharacterDevice/);
      await refuse([...ok, { path: 'dev-b', type: '4' }], /is a BlockDevice/);
      await refuse([...ok, { path: 'fifo', type: '6' }], /is a FIFO/);
      await refuse([...ok, { path: 'contig', type: '7' }], /is a ContiguousFile/);
    });
    it('refuses members node-tar would silently skip (sparse, unknown types)', async () => {
      await refuse([...ok, { path: 'sparse', type: 'S' }], /is a SparseFile/);
      await refuse([...ok, { path: 'odd', type: 'Z' }], /is a/);
    });
  });

  describe('limits and structure', () => {
    it('refuses unbounded depth (CVE-2024-28863)', () => refuse([...ok, { path: 'x', pax: { path: `${'d/'.repeat(33)}f` } }], /deeper than 32/));
    it('refuses a member declared twice, or twice in different case', async () => {
      await refuse([...ok, { path: 'VERSION', body: '9.9.9\n' }], /appears twice/);
      await refuse([...ok, { path: 'version', body: '9.9.9\n' }], /appears twice/);
    });
    it('refuses a member inside a file', () => refuse([...ok, { path: 'VERSION/x', body: '' }], /which is a file/));
    it('refuses a directory with contents (node-tar reads its body as a header, which fails)', () =>
      refuse([...ok, { path: 'd/', type: '5', body: 'x' }], /checksum|directory with contents/));
    it('refuses a tar bomb before writing anything', async () => {
      fs.writeFileSync(archive, tgzBytes([...ok, { path: 'big', body: 'x'.repeat(2048) }]));
      await expect(extractRelease(archive, staging, { limits: { maxUnpackedBytes: 1024 } })).rejects.toThrow(/more than 1024 bytes unpacked/);
      expect(listing(staging)).toEqual([]);
    });
    it('refuses too many members', async () => {
      fs.writeFileSync(archive, tgzBytes(Array.from({ length: 11 }, (_, i) => ({ path: `f${i}` }))));
      await expect(extractRelease(archive, staging, { limits: { maxEntries: 10 } })).rejects.toThrow(/more than 10 members/);
    });
    it('refuses a corrupt header checksum', () => refuse([...ok, { path: 'bad', badChecksum: true }], /checksum/));
    it('refuses a truncated archive', async () => {
      const full = tarBytes([...ok, { path: 'big', body: 'y'.repeat(5000) }], { noEnd: true });
      fs.writeFileSync(archive, full.subarray(0, full.length - 2048));
      const err = await extractRelease(archive, staging).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ArchiveError);
    });
    it('refuses an empty archive and one that is not a tar at all', async () => {
      await refuse([], /no members|Unrecognized/);
      fs.writeFileSync(archive, Buffer.from('this is not a tar file, only some text '.repeat(40)));
      await expect(extractRelease(archive, staging)).rejects.toBeInstanceOf(ArchiveError);
    });
  });
});
