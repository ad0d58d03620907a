import {
  MultiArchReleaseFields,
  SignedReleaseFields,
  canonicalReleaseText,
  signRelease,
  verifyReleaseSignature,
  type AnyReleaseFields,
  type ReleaseManifest,
} from '@vend/protocol';
import { CliError, EXIT_CODES } from './errors.ts';
import { loadSecretKey } from './keys.ts';

/** One architecture's artifact as `--artifact <arch>:<sha256>:<size>:<url>` gives it. */
export interface ArtifactOption {
  arch: string;
  sha256: string;
  size: string;
  url: string;
}

export interface SignOptions {
  keyFile: string;
  version: string;
  /** The single (x64) artifact, or none when `artifacts` names them per architecture. */
  url?: string | undefined;
  sha256?: string | undefined;
  size?: string | number | undefined;
  artifacts?: readonly ArtifactOption[] | undefined;
  minFrom?: string | undefined;
  migration?: boolean | undefined;
}

/** `<arch>:<sha256>:<size>:<url>` (the URL last: it holds colons itself). */
export function parseArtifactOption(text: string): ArtifactOption {
  const m = /^([^:]+):([^:]*):([^:]*):(.+)$/.exec(text);
  if (!m) throw new CliError(EXIT_CODES.usage, `--artifact ${text}: expected <arch>:<sha256>:<size>:<url>`);
  return { arch: m[1]!, sha256: m[2]!, size: m[3]!, url: m[4]! };
}

const toSize = (v: string | number | undefined) => (typeof v === 'number' ? v : v !== undefined && /^\d+$/.test(v) ? Number(v) : Number.NaN);

/**
 * Signs a release offline: validates the fields with the manifest's own schema (so nothing the cloud
 * would refuse on form gets signed), signs their canonical bytes and checks the signature verifies.
 */
export async function signManifest(o: SignOptions, warn: (line: string) => void = () => {}): Promise<{ manifest: ReleaseManifest; canonical: string }> {
  const single = o.url !== undefined || o.sha256 !== undefined || o.size !== undefined;
  const many = o.artifacts !== undefined && o.artifacts.length > 0;
  if (single === many)
    throw new CliError(EXIT_CODES.usage, 'cannot sign: give --url, --sha256 and --size (one x64 artifact) or --artifact per architecture, not both');
  const common = { version: o.version, migration: o.migration ?? false, minFrom: o.minFrom ?? null };
  const parsed: { success: true; data: AnyReleaseFields } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } = many
    ? MultiArchReleaseFields.safeParse({ ...common, artifacts: o.artifacts!.map((a) => ({ ...a, size: toSize(a.size) })) })
    : SignedReleaseFields.safeParse({ ...common, sha256: o.sha256, size: toSize(o.size), url: o.url });
  if (!parsed.success) {
    const flag = (p: PropertyKey[]) =>
      p[0] === 'artifacts'
        ? `--artifact ${typeof p[1] === 'number' ? (o.artifacts?.[p[1]]?.arch ?? '') : ''}${p.length > 2 ? ` ${String(p[2])}` : ''}`
        : `--${p.join('.').replace('minFrom', 'min-from')}`;
    const problems = parsed.error.issues.map((i) => `${flag(i.path)} ${i.message}`).join('; ');
    throw new CliError(EXIT_CODES.usage, `cannot sign: ${problems}`);
  }
  const pair = await loadSecretKey(o.keyFile, warn);
  const manifest = signRelease(parsed.data, pair.secretKey);
  if (!verifyReleaseSignature(manifest, pair.publicKey)) throw new CliError(EXIT_CODES.internal, 'the new signature does not verify (a bug)');
  return { manifest, canonical: canonicalReleaseText(parsed.data) };
}
