import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export type MediaExt = 'png' | 'jpg' | 'webp' | 'mp4';

/** A stored file's name: `<sha256 of its bytes, 64 lowercase hex>.<ext>` — the only names served. */
export const MEDIA_FILE = /^([0-9a-f]{64})\.(png|jpg|webp|mp4)$/;

/**
 * Content-addressed media files under one directory (`<DATA_DIR>/media`): a file is named by the
 * SHA-256 of its bytes, so the same bytes are stored once and a name never changes meaning (which is
 * what lets them be served as immutable). Writes go to a temporary name, are fsynced, renamed into
 * place and the directory fsynced: a reader sees a whole file or none, even across a crash.
 * Replicas must share this directory (one volume), as they share the database.
 */
export class MediaStore {
  constructor(readonly dir: string) {}

  /** The path of a stored file; throws on a name that is not a content hash (no path ever leaves the directory). */
  pathOf(sha256: string, ext: MediaExt): string {
    const name = `${sha256}.${ext}`;
    if (!MEDIA_FILE.test(name)) throw new Error(`not a media file name: ${name}`);
    return path.join(this.dir, name);
  }

  async has(sha256: string, ext: MediaExt): Promise<boolean> {
    try {
      return (await fs.stat(this.pathOf(sha256, ext))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  /**
   * Stores `bytes` as `<sha256>.<ext>`; the caller has hashed them (the probe does). Idempotent: when
   * the file is there already it is left alone. Two writers of the same bytes each rename a whole copy
   * into place; the last rename wins with identical content.
   */
  async put(sha256: string, ext: MediaExt, bytes: Buffer): Promise<string> {
    const target = this.pathOf(sha256, ext);
    if (await this.has(sha256, ext)) return target;
    await fs.mkdir(this.dir, { recursive: true });
    // a dot name never matches MEDIA_FILE, so a half-written file is never served
    const temp = path.join(this.dir, `.${sha256}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await fs.open(temp, 'wx', 0o644);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, target);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
    await syncDir(this.dir);
    return target;
  }
}

/** fsync a directory so a rename in it survives a crash (not supported everywhere: best effort). */
async function syncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // some platforms and file systems refuse fsync on a directory; the rename itself has happened
  } finally {
    await handle?.close();
  }
}
