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

/** True when `p` exists (without following a final symlink). */
export async function exists(p: string): Promise<boolean> {
  try {
    await fs.promises.lstat(p);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
