import { SignedReleaseFields, canonicalReleaseText, signRelease, verifyReleaseSignature, type ReleaseManifest } from '@vend/protocol';
import { CliError, EXIT_CODES } from './errors.ts';
import { loadSecretKey } from './keys.ts';

export interface SignOptions {
  keyFile: string;
  version: string;
  url: string;
  sha256: string;
  size: string | number;
  minFrom?: string | undefined;
  migration?: boolean | undefined;
}

/**
 * Signs a release offline: validates the fields with the manifest's own schema (so nothing the cloud
 * would refuse on form gets signed), signs their canonical bytes and checks the signature verifies.
 */
export async function signManifest(o: SignOptions, warn: (line: string) => void = () => {}): Promise<{ manifest: ReleaseManifest; canonical: string }> {
  const size = typeof o.size === 'number' ? o.size : /^\d+$/.test(o.size) ? Number(o.size) : Number.NaN;
  const parsed = SignedReleaseFields.safeParse({
    version: o.version,
    sha256: o.sha256,
    size,
    url: o.url,
    migration: o.migration ?? false,
    minFrom: o.minFrom ?? null,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `--${i.path.join('.').replace('minFrom', 'min-from')} ${i.message}`).join('; ');
    throw new CliError(EXIT_CODES.usage, `cannot sign: ${problems}`);
  }
  const pair = await loadSecretKey(o.keyFile, warn);
  const manifest = signRelease(parsed.data, pair.secretKey);
  if (!verifyReleaseSignature(manifest, pair.publicKey)) throw new CliError(EXIT_CODES.internal, 'the new signature does not verify (a bug)');
  return { manifest, canonical: canonicalReleaseText(parsed.data) };
}
