import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir, writeFileAtomic } from '../state/fs-atomic.ts';

/**
 * Durable renames for the swap. Atomic writes (temp, fsync, rename, fsync the directory) are the
 * daemon's `state/fs-atomic.ts`, shared rather than duplicated.
 */
export { fsyncDir, writeFileAtomic };

/** Renames `from` to `to` (same filesystem) and fsyncs the directories, so the rename survives a power cut. */
export async function renameDurable(from: string, to: string): Promise<void> {
  await fs.promises.rename(from, to);
  fsyncDir(path.dirname(to));
  if (path.dirname(from) !== path.dirname(to)) fsyncDir(path.dirname(from));
}

/** What `syncTree` reports for each path it made durable. */
export type SyncKind = 'file' | 'dir';

/** fsyncs one regular file or directory (opened read-only, never following a final symlink). */
export async function fsyncPath(target: string, kind: SyncKind): Promise<void> {
  const { O_RDONLY, O_NOFOLLOW, O_DIRECTORY } = fs.constants;
  const handle = await fs.promises.open(target, O_RDONLY | O_NOFOLLOW | (kind === 'dir' ? O_DIRECTORY : 0));
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes a whole tree durable: every regular file, then every directory bottom-up (its entries after
 * its children), `dir` itself last. Run on a staged release tree before the journal says `swapping`:
 * the renames are made durable by `renameDurable`, but without this the files they move could still be
 * empty or partial in the page cache when the power goes. Anything other than a regular file or a
 * directory is refused (an extracted release holds nothing else). `sync` is a seam for tests.
 */
export async function syncTree(dir: string, sync: (target: string, kind: SyncKind) => Promise<void> = fsyncPath): Promise<{ files: number; dirs: number }> {
  let files = 0;
  let dirs = 0;
  const walk = async (d: string): Promise<void> => {
    for (const entry of await fs.promises.readdir(d, { withFileTypes: true })) {
      const entryPath = path.join(d, entry.name);
      if (entry.isDirectory()) await walk(entryPath);
      else if (entry.isFile()) {
        await sync(entryPath, 'file');
        files++;
      } else throw new Error(`${entryPath} is neither a regular file nor a directory`);
    }
    await sync(d, 'dir');
    dirs++;
  };
  await walk(dir);
  return { files, dirs };
}

/** True when `p` exists (without following a final symlink). */
export async function exists(target: string): Promise<boolean> {
  try {
    await fs.promises.lstat(target);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
