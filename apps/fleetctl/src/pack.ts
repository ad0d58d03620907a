import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import * as tar from 'tar';
import { RELEASE_MAX_UNPACK_RATIO, isDottedVersion, releaseUnpackCap } from '@vend/protocol';
import { CliError, EXIT_CODES, fileError } from './errors.ts';
import { digestFile } from './files.ts';

/** Every entry's modification time in a release archive: 2000-01-01T00:00:00Z, so the bytes never depend on when or where it was built. */
export const PACK_MTIME = new Date(Date.UTC(2000, 0, 1));

export interface PackResult {
  file: string;
  sha256: string;
  size: number;
  /** Archive members in order (directories end with `/`). */
  entries: string[];
}

/**
 * Lists a release tree: regular files and directories only, sorted by path (code-unit order), with
 * `/` separators. The first symbolic link, device, socket or FIFO refuses the whole tree — the agent
 * refuses such members on extraction, so an archive with one could never be installed.
 */
export async function listTree(root: string): Promise<string[]> {
  let rootStat: fs.Stats;
  try {
    rootStat = await fs.promises.lstat(root);
  } catch (err) {
    throw fileError(err, root, 'read');
  }
  if (!rootStat.isDirectory()) throw new CliError(EXIT_CODES.dataError, `${root} is not a directory`);
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const names = (await fs.promises.readdir(path.join(root, rel))).sort();
    for (const name of names) {
      const relPath = rel ? `${rel}/${name}` : name;
      const st = await fs.promises.lstat(path.join(root, relPath));
      if (st.isDirectory()) {
        out.push(`${relPath}/`);
        await walk(relPath);
      } else if (st.isFile()) {
        out.push(relPath);
      } else {
        const kind = st.isSymbolicLink() ? 'a symbolic link' : 'not a regular file or directory';
        throw new CliError(EXIT_CODES.dataError, `${relPath} is ${kind}: a release archive holds only regular files and directories`);
      }
    }
  };
  await walk('');
  if (out.length === 0) throw new CliError(EXIT_CODES.dataError, `${root} is empty`);
  return out.sort();
}

/**
 * Packs a release tree into a gzipped tar, deterministically: sorted members, fixed mtime, no owner
 * or group, modes normalised to 0755 (directories and executables) or 0644. The same tree gives the
 * same bytes on any machine. A `VERSION` file at the root, when present, must hold `version`.
 */
export async function packRelease(dir: string, version: string, out: string, opts: { force?: boolean } = {}): Promise<PackResult> {
  if (!isDottedVersion(version)) throw new CliError(EXIT_CODES.usage, `--version ${version} is not dotted-numeric (e.g. 1.4.2)`);
  const entries = await listTree(dir);
  if (entries.includes('VERSION')) {
    const inTree = (await fs.promises.readFile(path.join(dir, 'VERSION'), 'utf8')).trim();
    if (inTree !== version) throw new CliError(EXIT_CODES.dataError, `${dir}/VERSION says ${inTree}, not ${version}`);
  }
  const outAbs = path.resolve(out);
  if (outAbs.startsWith(path.resolve(dir) + path.sep)) throw new CliError(EXIT_CODES.usage, `--out ${out} must not be inside the tree being packed`);
  if (!opts.force && fs.existsSync(outAbs)) throw new CliError(EXIT_CODES.cantCreate, `${out} exists already (pass --force to replace it)`);
  const tmp = `${outAbs}.${process.pid}.tmp`;
  try {
    await tar.create(
      {
        file: tmp,
        cwd: path.resolve(dir),
        gzip: { level: 9 },
        portable: true,
        noDirRecurse: true,
        follow: false,
        strict: true,
        mtime: PACK_MTIME,
        onWriteEntry: (entry) => {
          const stat = entry.stat;
          if (!stat) return;
          const exec = entry.type === 'Directory' || (stat.mode & 0o111) !== 0;
          stat.mode = (stat.mode & ~0o7777) | (exec ? 0o755 : 0o644);
          // portable mode drops directory mtimes; every member gets the same fixed one instead
          entry.noMtime = false;
        },
      },
      entries.map((e) => (e.endsWith('/') ? e.slice(0, -1) : e)),
    );
    await fs.promises.rename(tmp, outAbs);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err instanceof CliError ? err : fileError(err, out, 'write');
  }
  const { sha256, size } = await digestFile(outAbs);
  // cabinets refuse a release that unpacks past its cap (releaseUnpackCap of the signed size): say so now, not in the field
  const unpacked = await unpackedBytes(outAbs);
  if (unpacked > releaseUnpackCap(size)) {
    await fs.promises.rm(outAbs, { force: true });
    throw new CliError(
      EXIT_CODES.dataError,
      `the tree unpacks to ${unpacked} bytes, more than agents accept from a ${size}-byte artifact (${RELEASE_MAX_UNPACK_RATIO}× its size + 1 MiB = ${releaseUnpackCap(size)}): cabinets would refuse it`,
    );
  }
  return { file: outAbs, sha256, size, entries };
}

/** Bytes of the decompressed tar stream (what the agent counts against the cap). */
async function unpackedBytes(file: string): Promise<number> {
  let n = 0;
  const gunzip = zlib.createGunzip();
  gunzip.on('data', (chunk: Buffer) => (n += chunk.length));
  await pipeline(fs.createReadStream(file), gunzip);
  return n;
}
