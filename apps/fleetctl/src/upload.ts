import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { ReleaseArtifact } from '@vend/protocol';
import { CliError, EXIT_CODES, fileError } from './errors.ts';
import { digestFile, syncDir } from './files.ts';
import { silentProgress, type Progress } from './progress.ts';

/** The file name an artifact gets in the upload directory: the last segment of its signed URL's path. */
export function artifactName(manifest: Pick<ReleaseArtifact, 'url'>): string {
  const last = new URL(manifest.url).pathname.split('/').pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = '';
  }
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name === '.' || name === '..') {
    throw new CliError(EXIT_CODES.dataError, `the manifest url ${manifest.url} does not end in a plain file name to upload as`);
  }
  return name;
}

/** Refuses an artifact whose bytes are not the ones the manifest signs (digest and size). */
export async function checkArtifact(file: string, manifest: Pick<ReleaseArtifact, 'sha256' | 'size'>, progress: Progress = silentProgress): Promise<void> {
  let size: number;
  try {
    size = (await fs.promises.stat(file)).size;
  } catch (err) {
    throw fileError(err, file, 'read');
  }
  if (size !== manifest.size) throw new CliError(EXIT_CODES.dataError, `${file} is ${size} bytes; the manifest signs ${manifest.size}`);
  const bar = progress.bytes('checking', size);
  const d = await digestFile(file, (n) => bar.tick(n));
  bar.done();
  if (d.sha256 !== manifest.sha256) throw new CliError(EXIT_CODES.dataError, `${file} has sha256 ${d.sha256}; the manifest signs ${manifest.sha256}`);
}

/**
 * Copies the artifact into `dir` (the directory the artifact host serves at the manifest URL's
 * directory) under its URL file name: written to a temporary name, fsynced, renamed, directory
 * fsynced, so the host never serves half a file. An identical file already there is kept.
 */
export async function uploadArtifact(
  file: string,
  dir: string,
  manifest: Pick<ReleaseArtifact, 'sha256' | 'size' | 'url'>,
  progress: Progress = silentProgress,
): Promise<string> {
  const name = artifactName(manifest);
  try {
    if (!(await fs.promises.stat(dir)).isDirectory()) throw new CliError(EXIT_CODES.noInput, `--upload-to ${dir} is not a directory`);
  } catch (err) {
    throw err instanceof CliError ? err : fileError(err, `--upload-to ${dir}`, 'read');
  }
  const target = path.join(dir, name);
  if (fs.existsSync(target)) {
    const there = await digestFile(target);
    if (there.sha256 === manifest.sha256 && there.size === manifest.size) return target;
    throw new CliError(EXIT_CODES.cantCreate, `${target} exists with other bytes; artifacts are immutable like their versions`);
  }
  const tmp = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.part`);
  const bar = progress.bytes('uploading', manifest.size);
  try {
    await pipeline(
      fs.createReadStream(file),
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          bar.tick(chunk.length);
          done(null, chunk);
        },
      }),
      fs.createWriteStream(tmp, { flags: 'wx', mode: 0o644 }),
    );
    const fd = await fs.promises.open(tmp, 'r+');
    try {
      await fd.sync();
    } finally {
      await fd.close();
    }
    await fs.promises.rename(tmp, target);
    await syncDir(dir);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err instanceof CliError ? err : fileError(err, target, 'write');
  } finally {
    bar.done();
  }
  return target;
}
