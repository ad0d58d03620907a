import fs from 'node:fs';
import path from 'node:path';
import nacl from 'tweetnacl';
import { encodeBase64, parseReleasePublicKey, parseReleaseSecretKey, type ReleaseKeyPair } from '@vend/protocol';
import { CliError, EXIT_CODES, fileError } from './errors.ts';
import { readText, writeFileAtomic } from './files.ts';

/** File names `vendctl keygen` writes into its `--out` directory. */
export const PRIVATE_KEY_FILE = 'release-signing.key';
export const PUBLIC_KEY_FILE = 'release-signing.pub';

export interface KeygenResult {
  privateKeyFile: string;
  publicKeyFile: string;
  /** The public key as base64: the value of the cloud's RELEASE_PUBLIC_KEY and of the agents' trusted key. */
  publicKey: string;
}

/**
 * Writes a fresh Ed25519 key pair: the 32-byte seed as base64 in `release-signing.key` (mode 0600)
 * and the public key as base64 in `release-signing.pub`. The directory is created 0700 when missing;
 * existing key files are never replaced unless `force`.
 */
export async function keygen(outDir: string, opts: { force?: boolean; seed?: Uint8Array } = {}): Promise<KeygenResult> {
  try {
    await fs.promises.mkdir(outDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    throw fileError(err, outDir, 'write');
  }
  const privateKeyFile = path.join(outDir, PRIVATE_KEY_FILE);
  const publicKeyFile = path.join(outDir, PUBLIC_KEY_FILE);
  if (!opts.force) {
    for (const f of [privateKeyFile, publicKeyFile]) {
      if (fs.existsSync(f)) throw new CliError(EXIT_CODES.cantCreate, `${f} exists already (pass --force to replace the key pair)`);
    }
  }
  const seed = opts.seed ?? nacl.randomBytes(nacl.sign.seedLength);
  const pair = nacl.sign.keyPair.fromSeed(seed);
  const publicKey = encodeBase64(pair.publicKey);
  await writeFileAtomic(privateKeyFile, `${encodeBase64(seed)}\n`, { mode: 0o600, force: true, what: privateKeyFile });
  await writeFileAtomic(publicKeyFile, `${publicKey}\n`, { mode: 0o644, force: true, what: publicKeyFile });
  return { privateKeyFile, publicKeyFile, publicKey };
}

/** Reads a signing key file (seed or 64-byte secret key, base64 or hex). `warn` hears about loose permissions. */
export async function loadSecretKey(file: string, warn: (line: string) => void = () => {}): Promise<ReleaseKeyPair> {
  const text = await readText(file, `key file ${file}`);
  const pair = parseReleaseSecretKey(text);
  if (!pair)
    throw new CliError(EXIT_CODES.dataError, `${file} is not an Ed25519 signing key (expected the 32-byte seed or a 64-byte secret key, as base64 or hex)`);
  try {
    const mode = fs.statSync(file).mode & 0o077;
    if (mode !== 0) warn(`warning: ${file} is readable by group or others (mode ${((fs.statSync(file).mode & 0o777) >>> 0).toString(8)}); chmod 600 it`);
  } catch {
    // the file was just read; a stat failure here changes nothing
  }
  return pair;
}

export async function loadPublicKey(file: string): Promise<Uint8Array> {
  const text = await readText(file, `public key file ${file}`);
  const key = parseReleasePublicKey(text);
  if (!key) throw new CliError(EXIT_CODES.dataError, `${file} is not an Ed25519 public key (32 bytes as base64 or hex)`);
  return key;
}
