import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { CliError, EXIT_CODES, fileError } from './errors.ts';

/**
 * Writes `data` to `file` whole or not at all: a temporary name beside it, fsynced, renamed over the
 * target, the directory fsynced. Refuses to replace an existing file unless `force`.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, opts: { mode?: number; force?: boolean; what?: string } = {}): Promise<void> {
  const what = opts.what ?? file;
  if (!opts.force && fs.existsSync(file)) throw new CliError(EXIT_CODES.cantCreate, `${what} exists already (pass --force to replace it)`);
  const dir = path.dirname(path.resolve(file));
  const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = await fs.promises.open(tmp, 'wx', opts.mode ?? 0o644);
    try {
      await fd.writeFile(data);
      await fd.sync();
    } finally {
      await fd.close();
    }
    if (opts.mode !== undefined) await fs.promises.chmod(tmp, opts.mode);
    await fs.promises.rename(tmp, file);
    await syncDir(dir);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err instanceof CliError ? err : fileError(err, what, 'write');
  }
}

export async function syncDir(dir: string): Promise<void> {
  const fd = await fs.promises.open(dir, 'r');
  try {
    await fd.sync();
  } finally {
    await fd.close();
  }
}

export async function readText(file: string, what: string): Promise<string> {
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch (err) {
    throw fileError(err, what, 'read');
  }
}

/** SHA-256 (lowercase hex) and size of a file, streamed; `onBytes` sees progress. */
export async function digestFile(file: string, onBytes?: (n: number) => void): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      fs.createReadStream(file),
      new Writable({
        write(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          size += chunk.length;
          onBytes?.(chunk.length);
          done();
        },
      }),
    );
  } catch (err) {
    throw fileError(err, file, 'read');
  }
  return { sha256: hash.digest('hex'), size };
}
